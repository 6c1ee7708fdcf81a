//! The values of a flat `VARCHAR`, `VARBINARY` or `JSON` vector, held as Velox holds them: one
//! 16-byte view per row and one buffer of the strings longer than 12 bytes. Views read from
//! input are checked and brought to the canonical form here, in one pass.

use crate::error::{Error, ErrorKind, Position, Result};

/// Longest string kept inside its 16-byte view.
pub(crate) const INLINE_LIMIT: usize = 12;

/// Bytes of one view.
const VIEW: usize = 16;

/// The 16-byte view of `bytes`: inline (length + bytes, zero padded) up to 12 bytes, else
/// length, 4 zero bytes and `offset`.
pub(crate) fn string_view(bytes: &[u8], offset: u64) -> [u8; 16] {
    let mut view = [0u8; 16];
    view[..4].copy_from_slice(&(bytes.len() as u32).to_le_bytes());
    if bytes.len() <= INLINE_LIMIT {
        view[4..4 + bytes.len()].copy_from_slice(bytes);
    } else {
        view[8..].copy_from_slice(&offset.to_le_bytes());
    }
    view
}

/// The rows of a string vector.
///
/// Every view is in the canonical form of the wire format: an inline view is zero past its
/// bytes, a long view has 4 zero bytes where Velox keeps a prefix, a null row's view is all
/// zero. A long view's offset points into `long`; when `packed`, the long strings sit in `long`
/// in row order with nothing else, so the views and `long` are exactly the bytes `save` writes.
/// A restored vector may instead share bytes between rows as Velox wrote them (`packed` is then
/// false and `save` computes the offsets): copying shared strings out could cost far more
/// memory than the input.
///
/// Only [`Strings::push`] and [`Strings::from_saved`] make one, so every view is checked.
#[derive(Debug, Clone)]
pub(crate) struct Strings {
    views: Vec<u8>,
    long: Vec<u8>,
    packed: bool,
}

impl Default for Strings {
    fn default() -> Strings {
        Strings {
            views: Vec::new(),
            long: Vec::new(),
            packed: true,
        }
    }
}

/// The length a view holds, in its first 4 bytes.
fn view_len(view: &[u8; 16]) -> usize {
    u32::from_le_bytes([view[0], view[1], view[2], view[3]]) as usize
}

/// The offset a long view holds, in its last 8 bytes.
fn view_offset(view: &[u8; 16]) -> u64 {
    (u128::from_le_bytes(*view) >> 64) as u64
}

impl Strings {
    /// The number of rows.
    pub(crate) fn len(&self) -> usize {
        self.views.len() / VIEW
    }

    /// The view of row `row` (all zero past the end).
    pub(crate) fn view(&self, row: usize) -> [u8; 16] {
        row.checked_mul(VIEW)
            .and_then(|start| self.views.get(start..start + VIEW))
            .and_then(|view| <[u8; 16]>::try_from(view).ok())
            .unwrap_or([0; 16])
    }

    /// The bytes of row `row` (empty for a null row or past the end).
    pub(crate) fn get(&self, row: usize) -> &[u8] {
        let Some(view) = row
            .checked_mul(VIEW)
            .and_then(|start| self.views.get(start..start + VIEW))
        else {
            return &[];
        };
        let len = u32::from_le_bytes([view[0], view[1], view[2], view[3]]) as usize;
        if len <= INLINE_LIMIT {
            return &view[4..4 + len];
        }
        let offset = u64::from_le_bytes([
            view[8], view[9], view[10], view[11], view[12], view[13], view[14], view[15],
        ]);
        usize::try_from(offset)
            .ok()
            .and_then(|start| self.long.get(start..start.checked_add(len)?))
            .unwrap_or(&[])
    }

    /// Appends a row (an empty string for a null row, whose view is then all zero).
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        let view = string_view(bytes, self.long.len() as u64);
        self.views.extend_from_slice(&view);
        if bytes.len() > INLINE_LIMIT {
            self.long.extend_from_slice(bytes);
        }
    }

    /// The views, 16 bytes per row, canonical but for the offsets when not `packed`.
    pub(crate) fn views(&self) -> &[u8] {
        &self.views
    }

    /// When true, [`Strings::views`] and [`Strings::long`] are the canonical bytes.
    pub(crate) fn is_packed(&self) -> bool {
        self.packed
    }

    /// The buffer long views point into.
    pub(crate) fn long(&self) -> &[u8] {
        &self.long
    }

    /// Checks the views of `size` rows read from input (`views` may be longer) against `long`,
    /// the concatenation of the string buffers, and brings them to the canonical form in place:
    /// null rows zeroed, inline padding and long prefixes zeroed. `text` asks for UTF-8.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] at `views_at + 16 × row` when there are fewer than `size` views
    /// (at `views_at`) or a long view reaches past `long`; then [`ErrorKind::InvalidUtf8`]
    /// without a position for a text row that is not UTF-8.
    pub(crate) fn from_saved(
        mut views: Vec<u8>,
        mut long: Vec<u8>,
        size: usize,
        nulls: Option<&[u8]>,
        text: bool,
        views_at: u64,
    ) -> Result<Strings> {
        if views.len() / VIEW < size {
            return Err(Error::with_message(
                ErrorKind::BadIndex,
                format_args!(
                    "values buffer of {} bytes for {size} string rows",
                    views.len()
                ),
            )
            .with_position(Position::Byte(views_at)));
        }
        views.truncate(size * VIEW);
        // Every slice of ASCII bytes is UTF-8: one vectorised pass instead of one per row.
        let long_checked = !text || long.is_ascii();
        let long_len = long.len() as u64;
        // The offset the next long string has when the strings are packed.
        let mut next = 0u64;
        let mut packed = true;
        let mut bad_utf8 = None;
        for (row, slot) in views.chunks_exact_mut(VIEW).enumerate() {
            let Ok(slot) = <&mut [u8; 16]>::try_from(slot) else {
                continue;
            };
            let valid =
                nulls.is_none_or(|bits| bits.get(row / 8).is_some_and(|b| b >> (row % 8) & 1 == 1));
            if !valid {
                *slot = [0; 16];
                continue;
            }
            let view = u128::from_le_bytes(*slot);
            let len = view_len(slot);
            if len <= INLINE_LIMIT {
                // Keep the length and `len` bytes.
                let canonical = view & (u128::MAX >> (8 * (INLINE_LIMIT - len)));
                if canonical != view {
                    *slot = canonical.to_le_bytes();
                }
                let high_bits = canonical & 0x8080_8080_8080_8080_8080_8080_0000_0000_u128;
                if text
                    && high_bits != 0
                    && bad_utf8.is_none()
                    && std::str::from_utf8(&slot[4..4 + len]).is_err()
                {
                    bad_utf8 = Some(row);
                }
                continue;
            }
            let offset = view_offset(slot);
            if offset
                .checked_add(len as u64)
                .is_none_or(|end| end > long_len)
            {
                return Err(Error::with_message(
                    ErrorKind::BadIndex,
                    format_args!(
                        "row {row}: string of {len} bytes at offset {offset} past {long_len} bytes of string buffers"
                    ),
                )
                .with_position(Position::Byte(views_at + (VIEW * row) as u64)));
            }
            // Velox keeps the string's first bytes here; the canonical form has zeros.
            slot[4..8].fill(0);
            packed &= offset == next;
            next += len as u64;
            if !long_checked && bad_utf8.is_none() {
                // In bounds: checked above.
                let start = offset as usize;
                if long
                    .get(start..start + len)
                    .is_none_or(|s| std::str::from_utf8(s).is_err())
                {
                    bad_utf8 = Some(row);
                }
            }
        }
        if let Some(row) = bad_utf8 {
            return Err(Error::with_message(
                ErrorKind::InvalidUtf8,
                format_args!("row {row} of a string vector"),
            ));
        }
        if packed {
            // Bytes after the last long string are never read.
            long.truncate(next as usize);
        }
        Ok(Strings {
            views,
            long,
            packed,
        })
    }
}

impl PartialEq for Strings {
    /// Row by row: where the bytes sit in the buffer is not part of the structure.
    fn eq(&self, other: &Strings) -> bool {
        self.len() == other.len() && (0..self.len()).all(|row| self.get(row) == other.get(row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long_view(len: u32, prefix: &[u8; 4], offset: u64) -> [u8; 16] {
        let mut view = [0u8; 16];
        view[..4].copy_from_slice(&len.to_le_bytes());
        view[4..8].copy_from_slice(prefix);
        view[8..].copy_from_slice(&offset.to_le_bytes());
        view
    }

    #[test]
    fn velox_views_become_canonical_and_packed() {
        // Row 0: inline "ab" with garbage padding; row 1: long with Velox's prefix; row 2: null
        // with garbage; then junk after the last long string.
        let mut views = Vec::new();
        let mut inline = [0xeeu8; 16];
        inline[..4].copy_from_slice(&2u32.to_le_bytes());
        inline[4..6].copy_from_slice(b"ab");
        views.extend_from_slice(&inline);
        views.extend_from_slice(&long_view(13, b"thir", 0));
        views.extend_from_slice(&[0x55; 16]);
        let long = b"thirteen byte and junk".to_vec();
        let strings = Strings::from_saved(views, long, 3, Some(&[0b011]), true, 0).unwrap();
        assert!(strings.is_packed());
        let mut expected = Strings::default();
        expected.push(b"ab");
        expected.push(b"thirteen byte");
        expected.push(b"");
        assert_eq!(strings.views(), expected.views());
        assert_eq!(strings.long(), b"thirteen byte");
        assert_eq!(strings.get(1), b"thirteen byte");
    }

    #[test]
    fn shared_or_reordered_strings_stay_unpacked() {
        let mut views = Vec::new();
        views.extend_from_slice(&long_view(13, b"\0\0\0\0", 13));
        views.extend_from_slice(&long_view(13, b"\0\0\0\0", 0));
        let long = b"first stringssecond string".to_vec();
        let strings = Strings::from_saved(views, long, 2, None, true, 0).unwrap();
        assert!(!strings.is_packed());
        assert_eq!(strings.get(0), b"second string");
        assert_eq!(strings.get(1), b"first strings");
    }

    #[test]
    fn rejects_short_views_bad_offsets_and_bad_utf8() {
        let err = Strings::from_saved(vec![0; 16], Vec::new(), 2, None, false, 7).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadIndex);
        assert_eq!(err.position(), Position::Byte(7));
        let mut views = vec![0u8; 16];
        views.extend_from_slice(&long_view(13, b"\0\0\0\0", 1));
        let err = Strings::from_saved(views, vec![b'a'; 13], 2, None, false, 7).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadIndex);
        assert_eq!(err.position(), Position::Byte(7 + 16));
        // Bad UTF-8 in a long string, and inline: only for text.
        let views = long_view(13, b"\0\0\0\0", 0).to_vec();
        let mut long = vec![b'a'; 13];
        long[12] = 0xc3;
        assert!(Strings::from_saved(views.clone(), long.clone(), 1, None, false, 0).is_ok());
        let err = Strings::from_saved(views, long, 1, None, true, 0).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
        let mut inline = [0u8; 16];
        inline[..4].copy_from_slice(&2u32.to_le_bytes());
        inline[4..6].copy_from_slice(&[0xc3, 0x28]);
        let err = Strings::from_saved(inline.to_vec(), Vec::new(), 1, None, true, 0).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
        // Non-ASCII but valid inline UTF-8 passes.
        inline[4..6].copy_from_slice("é".as_bytes());
        assert!(Strings::from_saved(inline.to_vec(), Vec::new(), 1, None, true, 0).is_ok());
    }
}
