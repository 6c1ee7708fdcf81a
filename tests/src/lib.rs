//! Shared support of the workspace's integration tests (in `tests/tests/`, and the `sfmt` tests
//! of `serde-formats`).
//!
//! - [`python_peers`]: the pinned Python reference implementations, in a virtual environment
//!   the tests create under `target/` on first use.

pub mod python_peers;
