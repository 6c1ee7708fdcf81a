//! The `#[columnar]` attribute macro of the [`columnar`](https://docs.rs/columnar) crate.
//!
//! Use it through `columnar::columnar`; this crate is an implementation detail.
