//! The data bytes while the TOC writer writes them ([`Data`]): the sink, which a writer to
//! memory can read back ([`Sink`]), and the spill buffers of containers of unknown length.

use crate::error::Result;
use crate::output::{IoWriter, Output};

use super::encode::Head;

/// An [`Output`] the writer may read back, to rebuild the TOC entries of what it wrote
/// (see [`ser`](super::ser)).
pub(super) trait Sink: Output {
    /// Everything written so far, when the sink keeps it.
    fn written(&self) -> Option<&[u8]>;
}

impl Sink for Vec<u8> {
    #[inline]
    fn written(&self) -> Option<&[u8]> {
        Some(self)
    }
}

impl<W: std::io::Write> Sink for IoWriter<W> {
    #[inline]
    fn written(&self) -> Option<&[u8]> {
        None
    }
}

/// The data bytes: written to the sink, or into spill buffers while a container of unknown
/// length is open. Positions are logical: a buffered container's header counts only when it
/// is finally written, and its children are then shifted by the header's length.
pub(super) struct Data<O> {
    pub(super) sink: O,
    /// Where data position 0 is in [`Sink::written`].
    origin: usize,
    /// The data length so far.
    pub(super) pos: u64,
    pub(super) spills: Vec<Vec<u8>>,
    active_spills: usize,
}

impl<O: Sink> Data<O> {
    pub(super) fn new(sink: O, spills: Vec<Vec<u8>>) -> Self {
        let origin = sink.written().map_or(0, <[u8]>::len);
        Data {
            sink,
            origin,
            pos: 0,
            spills,
            active_spills: 0,
        }
    }

    /// Whether a container of unknown length is buffering the bytes.
    #[inline]
    pub(super) fn spilling(&self) -> bool {
        self.active_spills != 0
    }

    /// Starts buffering; returns the buffer's number.
    pub(super) fn push_spill(&mut self) -> usize {
        if self.active_spills == self.spills.len() {
            self.spills.push(Vec::new());
        } else {
            self.spills[self.active_spills].clear();
        }
        self.active_spills += 1;
        self.active_spills - 1
    }

    pub(super) fn pop_spill(&mut self) -> Vec<u8> {
        self.active_spills -= 1;
        std::mem::take(&mut self.spills[self.active_spills])
    }

    pub(super) fn recycle_spill(&mut self, buffer: Vec<u8>) {
        self.spills[self.active_spills] = buffer;
    }

    /// The bytes at data positions `from..to`, held by spill buffer `spill` (which starts at
    /// position `origin`) or, for `None`, by the sink.
    pub(super) fn written(&self, spill: Option<(usize, u64)>, from: u64, to: u64) -> Option<&[u8]> {
        let (bytes, origin, offset) = match spill {
            Some((n, origin)) => (&self.spills[n][..], origin, 0),
            None => (self.sink.written()?, 0, self.origin),
        };
        let at = |p: u64| {
            usize::try_from(p.checked_sub(origin)?)
                .ok()?
                .checked_add(offset)
        };
        bytes.get(at(from)?..at(to)?)
    }

    /// Hints that about `additional` more bytes will follow.
    #[inline]
    pub(super) fn reserve(&mut self, additional: usize) {
        if self.active_spills == 0 {
            self.sink.reserve(additional);
        } else {
            self.spills[self.active_spills - 1].reserve(additional);
        }
    }

    /// Writes bytes that were already counted in `pos`.
    #[inline]
    pub(super) fn put_uncounted(&mut self, bytes: &[u8]) -> Result<()> {
        if self.active_spills == 0 {
            self.sink.put(bytes)
        } else {
            self.spills[self.active_spills - 1].extend_from_slice(bytes);
            Ok(())
        }
    }

    #[inline]
    pub(super) fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.pos += bytes.len() as u64;
        self.put_uncounted(bytes)
    }

    /// Writes a string's or byte string's contents (see [`Output::put_short`]).
    #[inline]
    pub(super) fn put_short(&mut self, bytes: &[u8]) -> Result<()> {
        self.pos += bytes.len() as u64;
        if self.active_spills == 0 {
            self.sink.put_short(bytes)
        } else {
            self.spills[self.active_spills - 1].put_short(bytes)
        }
    }

    /// Writes the first `len` bytes of `bytes`, a short item built in a fixed buffer (see
    /// [`Output::put_prefix`]).
    #[inline]
    pub(super) fn put_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> Result<()> {
        let len = len.min(N);
        self.pos += len as u64;
        if self.active_spills == 0 {
            self.sink.put_prefix(bytes, len)
        } else {
            self.spills[self.active_spills - 1].put_prefix(bytes, len)
        }
    }

    /// Writes `marker` and then `bytes`, shorter than 32 bytes (see
    /// [`Output::put_marked_short`]).
    #[inline]
    pub(super) fn put_marked_short(&mut self, marker: u8, bytes: &[u8]) -> Result<()> {
        self.pos += 1 + bytes.len() as u64;
        if self.active_spills == 0 {
            self.sink.put_marked_short(marker, bytes)
        } else {
            self.spills[self.active_spills - 1].put_marked_short(marker, bytes)
        }
    }

    /// Writes an encoded head or scalar.
    #[inline]
    pub(super) fn put_head(&mut self, head: Head) -> Result<()> {
        let (bytes, len) = head.padded();
        self.put_prefix(bytes, len)
    }
}
