//! Parsing and checking: the typed model of a `#[columnar]` struct, built before any code is
//! generated.

pub mod ast;
pub mod attr;
pub mod check;
pub mod ctxt;
