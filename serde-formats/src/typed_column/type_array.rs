//! The type array as the decoder reads it: native words (from `from_columns`) or little-endian
//! bytes (from a frame), split from a frame, scanned for the dense chain, and its tree part read
//! one description at a time.

use super::wire::COMPRESSED;
use crate::error::{Error, ErrorKind, Position, Result};

/// The type array: native words (from `from_columns`) or little-endian bytes (from a frame).
#[derive(Debug, Clone, Copy)]
pub(crate) enum TypeWords<'a> {
    Native(&'a [u64]),
    Le(&'a [u8]),
}

impl<'a> TypeWords<'a> {
    /// Number of words.
    pub(crate) fn len(&self) -> usize {
        match self {
            TypeWords::Native(words) => words.len(),
            TypeWords::Le(bytes) => bytes.len() / 8,
        }
    }

    /// Where the run of compressed descriptions that ends the type array starts: the
    /// number of descriptions when the last one is not compressed.
    ///
    /// Only the chain is looked at, from the end: a compressed description before it is
    /// found when the tree is read ([`ErrorKind::MisplacedCompressed`] there), so the tree's
    /// words are read once, not a second time by a scan here.
    pub(crate) fn chain_start(&self) -> usize {
        let compressed = |index: usize| match self {
            TypeWords::Native(words) => words[3 * index] & COMPRESSED != 0,
            // The compressed bit is the top bit of a kind word's last byte.
            TypeWords::Le(bytes) => bytes[24 * index + 7] & 0x80 != 0,
        };
        let mut start = self.len() / 3;
        while start > 0 && compressed(start - 1) {
            start -= 1;
        }
        start
    }
}

/// Descriptions of the type array (all of them, or the tree part), one entry per description,
/// so that reading description `index` costs one bounds check.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tree<'a> {
    Native(&'a [[u64; 3]]),
    Le(&'a [[[u8; 8]; 3]]),
}

impl<'a> Tree<'a> {
    /// The first `len` descriptions of `types` (which holds at least that many).
    pub(crate) fn new(types: TypeWords<'a>, len: usize) -> Self {
        match types {
            TypeWords::Native(words) => {
                let descs = words.as_chunks::<3>().0;
                Tree::Native(descs.get(..len).unwrap_or(descs))
            }
            TypeWords::Le(bytes) => {
                let descs = bytes.as_chunks::<8>().0.as_chunks::<3>().0;
                Tree::Le(descs.get(..len).unwrap_or(descs))
            }
        }
    }

    /// Description `index` as `[kind, offset, length]`, or `None` past the tree.
    #[inline]
    pub(crate) fn get(self, index: usize) -> Option<[u64; 3]> {
        match self {
            Tree::Native(descs) => descs.get(index).copied(),
            Tree::Le(descs) => descs.get(index).map(|&[kind, offset, length]| {
                [
                    u64::from_le_bytes(kind),
                    u64::from_le_bytes(offset),
                    u64::from_le_bytes(length),
                ]
            }),
        }
    }
}

/// Splits a framed buffer into its type words (little-endian bytes) and its data.
pub(crate) fn split_frame(bytes: &[u8]) -> Result<(TypeWords<'_>, &[u8])> {
    let Some((count, rest)) = bytes.split_first_chunk::<8>() else {
        return Err(Error::with_message(
            ErrorKind::UnexpectedEnd,
            "a frame starts with an 8-byte type word count",
        )
        .with_position(Position::Byte(0)));
    };
    let count = u64::from_le_bytes(*count);
    let type_bytes = count
        .checked_mul(8)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n <= rest.len())
        .ok_or_else(|| {
            Error::with_message(
                ErrorKind::LengthPastEnd,
                format_args!(
                    "{count} type words claimed, {} bytes follow the count",
                    rest.len()
                ),
            )
            .with_position(Position::Byte(0))
        })?;
    let (types, data) = rest.split_at(type_bytes);
    Ok((TypeWords::Le(types), data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_is_the_run_of_compressed_descriptions_at_the_end() {
        for descs in 0..11usize {
            for first in 0..=descs {
                // Descriptions from `first` on are compressed; before it, some have other
                // high bits set, and one, two before the run, is compressed too.
                let words: Vec<u64> = (0..descs)
                    .flat_map(|i| {
                        let kind = if i >= first || i + 2 == first {
                            COMPRESSED | 2
                        } else {
                            1 << 62
                        };
                        [kind, i as u64, u64::MAX]
                    })
                    .collect();
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                assert_eq!(TypeWords::Native(&words).chain_start(), first);
                assert_eq!(TypeWords::Le(&bytes).chain_start(), first);
            }
        }
    }

    #[test]
    fn frame_rejects_counts_past_the_buffer() {
        let mut bytes = 3u64.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0; 23]);
        let err = split_frame(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LengthPastEnd);
        let err = split_frame(&u64::MAX.to_le_bytes()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LengthPastEnd);
        assert_eq!(
            split_frame(&[1, 2]).unwrap_err().kind(),
            ErrorKind::UnexpectedEnd
        );
    }
}
