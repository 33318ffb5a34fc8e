//! Empty on purpose: this crate exists for the features it turns on in its
//! dependencies (see its Cargo.toml and .config/hakari.toml).
