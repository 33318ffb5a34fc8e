//! Seat names: shown to every player and spectator, so text that could
//! disguise itself or others is refused.
//!
//! A name is NFC-normalized, its spaces (any Unicode space) become single
//! ASCII spaces and it is trimmed. Refused: control, format (zero-width
//! characters, bidirectional embeddings, overrides and isolates), private
//! use and unassigned characters, line and paragraph separators, more than
//! three combining marks in a row, more than [`MAX_NAME`] characters, and a
//! name that another seat of the game already has (compared case-blind
//! after compatibility normalization, so look-alike forms count as one).

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

use crate::error::GameError;

/// Longest seat name, in characters.
pub const MAX_NAME: usize = 32;

/// Longest run of combining marks on one letter.
const MAX_MARKS: usize = 3;

/// Why a players' text (a name, a chat message) is refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Offence {
    /// A character of a kind refused (the kind in words).
    Char(&'static str, char),
    /// More combining marks on one letter than allowed.
    Marks(usize),
}

impl Offence {
    /// The refusal in words, of `what` ("a seat name", "a message").
    pub(crate) fn words(&self, what: &str) -> String {
        match self {
            Offence::Char(kind, c) => format!("{what} may not hold {kind} (found U+{:04X})", *c as u32),
            Offence::Marks(most) => format!("{what} has at most {most} combining marks on a letter"),
        }
    }
}

/// A players' text normalized as everyone will see it: NFC, each run of
/// characters `space` says are spaces one ASCII space, trimmed, at most
/// `max_marks` combining marks on a letter, and no character `refused`
/// names a kind for.
pub(crate) fn normalize(
    text: &str,
    max_marks: usize,
    space: impl Fn(char, GeneralCategory) -> bool,
    refused: impl Fn(char, GeneralCategory) -> Option<&'static str>,
) -> Result<String, Offence> {
    let mut out = String::with_capacity(text.len());
    let mut marks = 0;
    for c in text.nfc() {
        let category = c.general_category();
        if space(c, category) {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            marks = 0;
            continue;
        }
        if let Some(kind) = refused(c, category) {
            return Err(Offence::Char(kind, c));
        }
        if c.general_category_group() == GeneralCategoryGroup::Mark {
            marks += 1;
            if marks > max_marks {
                return Err(Offence::Marks(max_marks));
            }
        } else {
            marks = 0;
        }
        out.push(c);
    }
    Ok(out.trim_end().to_string())
}

/// The name to show for a seat: `name` cleaned, or `default` if there is
/// none (or only spaces).
pub fn clean(name: Option<&str>, default: String) -> Result<String, GameError> {
    let Some(name) = name else { return Ok(default) };
    let out = normalize(
        name,
        MAX_MARKS,
        |_, category| category == GeneralCategory::SpaceSeparator,
        |_, category| match category {
            GeneralCategory::Control => Some("control characters"),
            GeneralCategory::Format => Some("invisible formatting characters (zero-width or bidirectional)"),
            GeneralCategory::PrivateUse | GeneralCategory::Surrogate | GeneralCategory::Unassigned => {
                Some("private or unassigned characters")
            }
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => Some("line breaks"),
            _ => None,
        },
    )
    .map_err(|o| GameError::InvalidSetup(o.words("a seat name")))?;
    if out.is_empty() {
        return Ok(default);
    }
    if out.chars().count() > MAX_NAME {
        return Err(GameError::InvalidSetup(format!("a seat name has at most {MAX_NAME} characters")));
    }
    Ok(out)
}

/// What two names that count as one have alike: their compatibility
/// forms, lowercased.
pub fn fold(name: &str) -> String {
    name.nfkc().flat_map(char::to_lowercase).collect()
}

/// Refuses a game whose seats do not all have different names.
pub fn check_distinct(names: &[String]) -> Result<(), GameError> {
    let keys: Vec<String> = names.iter().map(|n| fold(n)).collect();
    for (i, k) in keys.iter().enumerate() {
        if let Some(j) = keys[..i].iter().position(|other| other == k) {
            return Err(GameError::InvalidSetup(format!(
                "seats {} and {} have the same name '{}': each seat needs its own",
                j + 1,
                i + 1,
                names[i]
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(name: &str) -> String {
        clean(Some(name), "default".into()).unwrap()
    }

    fn refused(name: &str) -> String {
        match clean(Some(name), "default".into()) {
            Err(GameError::InvalidSetup(m)) => m,
            other => panic!("{name:?} was not refused: {other:?}"),
        }
    }

    #[test]
    fn names_are_tidied() {
        assert_eq!(ok("  Ann  "), "Ann");
        assert_eq!(ok("Ann\u{3000}\u{a0} Lee"), "Ann Lee");
        assert_eq!(ok("   "), "default");
        assert_eq!(clean(None, "Player 1".into()).unwrap(), "Player 1");
        // Composed and decomposed forms are stored alike.
        assert_eq!(ok("Jose\u{301}"), "Jos\u{e9}");
        assert_eq!(ok("Zoë 🐉"), "Zoë 🐉");
        assert_eq!(ok("عائشة"), "عائشة");
        assert_eq!(ok("Tiê\u{300}\u{301}n"), "Tiê\u{300}\u{301}n".nfc().collect::<String>());
        assert_eq!(ok(&"x".repeat(MAX_NAME)).len(), MAX_NAME);
    }

    #[test]
    fn disguising_characters_are_refused() {
        for (name, what) in [
            ("Ann\u{202e}nmoB", "bidirectional"),
            ("\u{2066}Ann\u{2069}", "bidirectional"),
            ("An\u{200b}n", "zero-width"),
            ("A\u{200d}nn", "zero-width"),
            ("\u{feff}Ann", "zero-width"),
            ("Ann\nBob", "control"),
            ("Ann\u{7}", "control"),
            ("Ann\u{2028}Bob", "line breaks"),
            ("Ann\u{2029}", "line breaks"),
            ("Ann\u{e000}", "private"),
            ("Ann\u{0378}", "unassigned"),
            ("Z\u{300}\u{301}\u{302}\u{303}", "combining marks"),
        ] {
            let message = refused(name);
            assert!(message.contains(what), "{name:?}: {message}");
        }
        assert!(refused(&"x".repeat(MAX_NAME + 1)).contains("at most 32 characters"));
    }

    #[test]
    fn seats_need_different_names() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check_distinct(&names(&["Ann", "Bob", "Bot 3 (easy)"])).is_ok());
        for twins in [["Ann", "ann"], ["Ann", "Ａｎｎ"], ["Player 2", "player 2"]] {
            match check_distinct(&names(&["Zed", twins[0], twins[1]])) {
                Err(GameError::InvalidSetup(m)) => assert!(m.contains("seats 2 and 3"), "{m}"),
                other => panic!("{twins:?}: {other:?}"),
            }
        }
    }
}
