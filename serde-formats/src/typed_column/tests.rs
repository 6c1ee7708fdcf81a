//! Unit tests: golden vectors from the seed, the serde mapping, hostile inputs.
