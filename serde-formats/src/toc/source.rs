//! Where a [`Reader`](super::Reader) gets its bytes: the sealed [`Source`] trait, over a byte
//! slice ([`SliceSource`]) or any `Read + Seek` ([`IoSource`]).

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{Read, Seek, SeekFrom};

use crate::error::{Error, ErrorKind, Position, Result};

/// Seals [`Source`]: its implementations are this module's and `remote`'s.
pub(super) mod private {
    pub trait Sealed {}
}

/// Where a [`Reader`](super::Reader) gets its bytes: a byte slice ([`SliceSource`]) or any `Read + Seek`
/// ([`IoSource`]). Sealed.
pub trait Source: private::Sealed {
    #[doc(hidden)]
    fn size(&self) -> Result<u64>;
    /// Reads `len` bytes at `offset`; the caller has checked the range against `size`.
    #[doc(hidden)]
    fn read_at(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>>;
    /// The whole input, when it is in memory.
    #[doc(hidden)]
    fn whole(&self) -> Option<&[u8]>;
}

/// A [`Source`] over bytes in memory.
#[derive(Debug, Clone, Copy)]
pub struct SliceSource<'a>(pub(super) &'a [u8]);

impl private::Sealed for SliceSource<'_> {}

impl Source for SliceSource<'_> {
    fn size(&self) -> Result<u64> {
        Ok(self.0.len() as u64)
    }
    fn read_at(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let start =
            usize::try_from(offset).map_err(|_| Error::at(ErrorKind::UnexpectedEnd, offset))?;
        self.0
            .get(start..start.saturating_add(len))
            .map(Cow::Borrowed)
            .ok_or_else(|| Error::at(ErrorKind::UnexpectedEnd, offset))
    }
    fn whole(&self) -> Option<&[u8]> {
        Some(self.0)
    }
}

/// A [`Source`] over a seekable reader; every read seeks first.
#[derive(Debug)]
pub struct IoSource<R>(pub(super) RefCell<R>);

impl<R: Read + Seek> private::Sealed for IoSource<R> {}

impl<R: Read + Seek> Source for IoSource<R> {
    fn size(&self) -> Result<u64> {
        Ok(self.0.borrow_mut().seek(SeekFrom::End(0))?)
    }
    fn read_at(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let mut reader = self.0.borrow_mut();
        reader.seek(SeekFrom::Start(offset))?;
        // `len` was checked against the size; reading through `take` skips zeroing the buffer.
        let mut buf = Vec::with_capacity(len);
        (&mut *reader)
            .take(len as u64)
            .read_to_end(&mut buf)
            .map_err(|e| Error::from(e).or_position(Position::Byte(offset)))?;
        if buf.len() != len {
            return Err(Error::at(
                ErrorKind::UnexpectedEnd,
                offset + buf.len() as u64,
            ));
        }
        Ok(Cow::Owned(buf))
    }
    fn whole(&self) -> Option<&[u8]> {
        None
    }
}
