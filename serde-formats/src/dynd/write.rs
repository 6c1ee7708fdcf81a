//! The output side: where the serializer puts bytes. A small trait so that `to_bytes` (a `Vec`),
//! `to_writer` (any `io::Write`) and `digest` (a SHA-256 state) share one serializer.

use crate::Result;

/// A sink for encoded bytes.
///
/// Implemented for `Vec<u8>` (never fails), for [`IoWriter`] and for the hasher behind
/// [`digest`](super::digest). It is public only so that [`Serializer`](super::Serializer) can be
/// generic over it.
pub trait Output {
    /// Appends `bytes`.
    ///
    /// # Errors
    /// Whatever the sink reports, e.g. an I/O error.
    fn put(&mut self, bytes: &[u8]) -> Result<()>;

    /// Hints that about `additional` more bytes will follow.
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }
}

impl Output for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }
}

/// An [`Output`] writing to an [`std::io::Write`]; each piece is one `write_all`, so wrap slow
/// writers in a `BufWriter`.
#[derive(Debug)]
pub struct IoWriter<W>(pub W);

impl<W: std::io::Write> Output for IoWriter<W> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.0.write_all(bytes).map_err(crate::Error::from)
    }
}

/// Feeds the canonical bytes straight into SHA-256 without building them in memory.
pub(crate) struct HashOutput(pub(crate) sha2::Sha256);

impl Output for HashOutput {
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        sha2::Digest::update(&mut self.0, bytes);
        Ok(())
    }
}
