//! Integration tests of the workspace live in `tests/tests/`; this library is empty on purpose.
