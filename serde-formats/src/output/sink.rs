//! The crate's one output sink design: the [`Output`] trait, which a serializer writes its bytes
//! into, with the sinks every format can use ([`Vec<u8>`], and [`IoWriter`] over any
//! `io::Write`). A format that needs another destination (DyND's SHA-256 digest) implements
//! `Output` next to its code, as postcard's "flavors" do, and the serializer stays generic.

use crate::Result;

/// A sink for encoded bytes.
///
/// Implemented for `Vec<u8>` (never fails), for [`IoWriter`] and for the hasher behind
/// `dynd::digest`. A serializer generic over it, such as `dynd::Serializer`, writes to any of
/// them.
pub trait Output {
    /// Appends `bytes`.
    ///
    /// # Errors
    /// Whatever the sink reports, e.g. an I/O error.
    fn put(&mut self, bytes: &[u8]) -> Result<()>;

    /// How many bytes the sink holds, when it knows that without counting (a `Vec`'s length);
    /// `None` (the default) when it does not, and a serializer that needs the figure keeps its
    /// own count. A `Vec` answers from the length it updates anyway, which spares serializers
    /// a counter store per value on the hot path. A sink that answers `Some` must grow it by
    /// exactly the length of each `put`: DyND counts the elements that took no bytes with it.
    #[inline]
    fn position(&self) -> Option<usize> {
        None
    }

    /// Hints that about `additional` more bytes will follow.
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }

    /// Appends the first `len` bytes of `bytes` (all of them when `len` is larger): a short
    /// item built in a fixed buffer, such as a MessagePack head. A `Vec` copies the whole
    /// buffer, a copy of known size, and then drops the bytes past `len`.
    ///
    /// # Errors
    /// As [`Output::put`].
    #[inline]
    fn put_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> Result<()>
    where
        Self: Sized,
    {
        self.put(&bytes[..len.min(N)])
    }
}

impl Output for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn position(&self) -> Option<usize> {
        Some(self.len())
    }

    #[inline]
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }

    #[inline]
    fn put_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> Result<()> {
        let end = self.len() + len.min(N);
        self.extend_from_slice(bytes);
        self.truncate(end);
        Ok(())
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
