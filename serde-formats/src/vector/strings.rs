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
    /// the concatenation of the string buffers, and brings them to the canonical form in place.
    /// `text` asks for UTF-8. Restoring does the same while the bytes arrive ([`ViewScan`]).
    ///
    /// # Errors
    /// As [`ViewScan::finish`].
    #[cfg(test)]
    pub(crate) fn from_saved(
        mut views: Vec<u8>,
        long: Vec<u8>,
        size: usize,
        nulls: Option<&[u8]>,
        text: bool,
        views_at: u64,
    ) -> Result<Strings> {
        let mut scan = ViewScan::new(size, nulls, text);
        scan.scan(&mut views, 0);
        let long_ascii = long.is_ascii();
        scan.finish(views, long, long_ascii, views_at)
    }
}

/// One pass over the views of a string vector as they are read, piece by piece while each is
/// in cache: null rows, inline padding and long prefixes zeroed (the canonical form), inline
/// text checked for UTF-8, and what the long views need noted, to be checked against the string
/// buffers, which come after the views, in [`ViewScan::finish`].
pub(crate) struct ViewScan<'a> {
    size: usize,
    nulls: Option<&'a [u8]>,
    text: bool,
    /// The offset the next long string has when the strings are packed.
    next: u64,
    packed: bool,
    /// The furthest end of a long string; `None` once one overflows.
    end: Option<u64>,
    /// The first row whose inline text is not UTF-8.
    bad_utf8: Option<usize>,
}

impl<'a> ViewScan<'a> {
    /// A scan of `size` rows with bitmap `nulls`; `text` asks for UTF-8.
    pub(crate) fn new(size: usize, nulls: Option<&'a [u8]>, text: bool) -> ViewScan<'a> {
        ViewScan {
            size,
            nulls,
            text,
            next: 0,
            packed: true,
            end: Some(0),
            bad_utf8: None,
        }
    }

    /// Scans the whole views in `piece`, which starts at byte `at` of the views buffer, a
    /// multiple of 16 (a view split between pieces, or one past `size` rows, is not looked at).
    pub(crate) fn scan(&mut self, piece: &mut [u8], at: usize) {
        let first = at / VIEW;
        if first >= self.size || !at.is_multiple_of(VIEW) {
            return;
        }
        let rows = (piece.len() / VIEW).min(self.size - first);
        for (i, slot) in piece.chunks_exact_mut(VIEW).take(rows).enumerate() {
            let Ok(slot) = <&mut [u8; 16]>::try_from(slot) else {
                continue;
            };
            let row = first + i;
            if let Some(bits) = self.nulls {
                if bits
                    .get(row / 8)
                    .is_none_or(|byte| byte >> (row % 8) & 1 == 0)
                {
                    *slot = [0; 16];
                    continue;
                }
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
                if self.text
                    && high_bits != 0
                    && self.bad_utf8.is_none()
                    && std::str::from_utf8(&slot[4..4 + len]).is_err()
                {
                    self.bad_utf8 = Some(row);
                }
                continue;
            }
            // Velox keeps the string's first bytes here; the canonical form has zeros.
            if view & 0xffff_ffff_0000_0000 != 0 {
                slot[4..8].fill(0);
            }
            let offset = view_offset(slot);
            self.packed &= offset == self.next;
            self.next = self.next.saturating_add(len as u64);
            self.end = self
                .end
                .zip(offset.checked_add(len as u64))
                .map(|(end, this)| end.max(this));
        }
    }

    /// The strings, once `views` (all of them scanned) and `long`, the concatenation of the
    /// string buffers, have been read; `long_ascii` tells whether `long` is all ASCII.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] at `views_at` when there are fewer than `size` views, or at
    /// `views_at + 16 × row` for the first long view that reaches past `long`; then
    /// [`ErrorKind::InvalidUtf8`], without a position, for the first text row that is not
    /// UTF-8.
    pub(crate) fn finish(
        self,
        mut views: Vec<u8>,
        mut long: Vec<u8>,
        long_ascii: bool,
        views_at: u64,
    ) -> Result<Strings> {
        let size = self.size;
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
        let long_len = long.len() as u64;
        let past = self.end.is_none_or(|end| end > long_len);
        // Every slice of ASCII bytes is UTF-8.
        let long_checked = !self.text || long_ascii;
        let mut bad_utf8 = self.bad_utf8;
        if past || !long_checked {
            // The long views again, in row order: the first bad one is reported.
            for (row, view) in views.chunks_exact(VIEW).enumerate() {
                let Ok(view) = <&[u8; 16]>::try_from(view) else {
                    continue;
                };
                let len = view_len(view);
                if len <= INLINE_LIMIT {
                    continue;
                }
                let offset = view_offset(view);
                let bytes = usize::try_from(offset)
                    .ok()
                    .and_then(|start| long.get(start..start.checked_add(len)?));
                let Some(bytes) = bytes else {
                    return Err(Error::with_message(
                        ErrorKind::BadIndex,
                        format_args!(
                            "row {row}: string of {len} bytes at offset {offset} past {long_len} bytes of string buffers"
                        ),
                    )
                    .with_position(Position::Byte(views_at + (VIEW * row) as u64)));
                };
                if !long_checked
                    && bad_utf8.is_none_or(|bad| row < bad)
                    && std::str::from_utf8(bytes).is_err()
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
        if self.packed {
            // Bytes after the last long string are never read.
            long.truncate(self.next as usize);
        }
        Ok(Strings {
            views,
            long,
            packed: self.packed,
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
    fn inline_views_of_every_length_lose_their_padding() {
        for n in 0..=INLINE_LIMIT {
            let text = &b"abcdefghijkl"[..n];
            let mut view = [0xffu8; 16];
            view[..4].copy_from_slice(&(n as u32).to_le_bytes());
            view[4..4 + n].copy_from_slice(text);
            let strings = Strings::from_saved(view.to_vec(), Vec::new(), 1, None, true, 0).unwrap();
            assert_eq!(strings.views(), string_view(text, 0), "length {n}");
        }
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
