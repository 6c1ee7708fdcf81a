//! `serde_columnar` 0.3.14's name and version for the [`columnar`] crate.
//!
//! A crate that depends on `serde_columnar` and cannot be edited (Loro from the registry,
//! for instance) switches to `columnar` with a `[patch.crates-io]` entry pointing here; its
//! code and its bytes stay the same. Everything is `columnar`'s, re-exported: the
//! `#[columnar]` attribute finds this package under the name `serde_columnar` in the user's
//! Cargo.toml and emits paths through it. See `columnar`'s crate docs ("Switching from
//! `serde_columnar`") for what differs from the real 0.3.14.

pub use columnar::*;
