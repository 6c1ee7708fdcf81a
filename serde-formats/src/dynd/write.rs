//! DyND's own sink: the SHA-256 state behind [`digest`](super::digest), an [`Output`] so that
//! `to_bytes`, `to_writer` and `digest` share one serializer. The sink trait and the `Vec` and
//! `io::Write` sinks are the crate's, in [`output`](crate::output).

use crate::output::Output;
use crate::Result;

/// Feeds the canonical bytes straight into SHA-256 without building them in memory.
pub(crate) struct HashOutput(pub(crate) sha2::Sha256);

impl Output for HashOutput {
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        sha2::Digest::update(&mut self.0, bytes);
        Ok(())
    }
}
