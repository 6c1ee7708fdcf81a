//! Shared support of the workspace's integration tests (in `tests/tests/`, and the `sfmt` tests
//! of `serde-formats`).
//!
//! - [`python_peers`]: the pinned Python reference implementations, in a virtual environment
//!   the tests create under `target/` on first use.
//! - [`dynd_record`]: a record of every kind of field DyND writes (the proptests and the fuzz
//!   target share it).
//! - [`float_reader`]: an `f64` read element by element, against a format's shortcut for
//!   columns of floats (the tests and a fuzz target share it).
//! - [`hex`]: annotated hex (golden files, fuzz regression inputs) and hex in assertion messages.
//! - [`limit_trees`]: the trees of the round trips near the format limits (the proptests and
//!   the fuzz targets share them).
//! - [`s3_server`]: a moto S3 server on a loopback port, and [`fault_proxy`], a proxy in front
//!   of it that counts requests and bytes and injects faults (the object-store tests).
//! - [`xorshift`]: deterministic pseudo-random test data.

pub mod dynd_record;
pub mod fault_proxy;
pub mod float_reader;
pub mod hex;
pub mod limit_trees;
pub mod python_peers;
pub mod s3_server;
pub mod xorshift;
