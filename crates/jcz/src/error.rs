//! Why a saved game cannot be imported, or a record exported.

use std::fmt;

/// What kind of refusal an error is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum JczErrorKind {
    /// Not a JCloisterZone saved game, or one that contradicts itself.
    Malformed,
    /// A saved game of something this program does not play: another
    /// expansion, a rule variant, an older file format.
    Unsupported,
    /// A move the rules do not allow (the engine refused it).
    Illegal,
}

/// A refusal, naming where in the file (or record) and why, such as
/// `replay[12]: message PLACE_TOKEN with token BRIDGE is not supported`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct JczError {
    pub kind: JczErrorKind,
    /// Where: a path into the document such as `setup.sets` or `replay[12]`,
    /// or `turn 7` for a record; empty for the document as a whole.
    pub at: String,
    pub message: String,
}

impl JczError {
    pub fn new(kind: JczErrorKind, at: impl Into<String>, message: impl Into<String>) -> JczError {
        JczError { kind, at: at.into(), message: message.into() }
    }
}

impl fmt::Display for JczError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.at, self.message)
        }
    }
}

impl std::error::Error for JczError {}

pub(crate) fn malformed(at: impl Into<String>, message: impl Into<String>) -> JczError {
    JczError::new(JczErrorKind::Malformed, at, message)
}

pub(crate) fn unsupported(at: impl Into<String>, message: impl Into<String>) -> JczError {
    JczError::new(JczErrorKind::Unsupported, at, message)
}

pub(crate) fn illegal(at: impl Into<String>, message: impl Into<String>) -> JczError {
    JczError::new(JczErrorKind::Illegal, at, message)
}
