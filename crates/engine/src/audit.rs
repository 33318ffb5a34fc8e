//! Invariant checks.
