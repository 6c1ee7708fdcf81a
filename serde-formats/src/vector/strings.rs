//! The values of a flat `VARCHAR`, `VARBINARY` or `JSON` vector, held as Velox holds them: one
//! 16-byte view per row and one buffer of the strings longer than 12 bytes. Views read from
//! input are checked and brought to the canonical form here, in one pass.

use std::hint::select_unpredictable;

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
/// Only [`Strings::push`] and [`ViewScan::finish`] make one, so every view is checked.
#[derive(Debug, Clone)]
pub(crate) struct Strings {
    views: Vec<[u8; VIEW]>,
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
        self.views.len()
    }

    /// The view of row `row` (all zero past the end).
    pub(crate) fn view(&self, row: usize) -> [u8; 16] {
        self.views.get(row).copied().unwrap_or([0; 16])
    }

    /// The bytes of row `row` (empty for a null row or past the end).
    pub(crate) fn get(&self, row: usize) -> &[u8] {
        let Some(view) = self.views.get(row) else {
            return &[];
        };
        let len = view_len(view);
        if len <= INLINE_LIMIT {
            return &view[4..4 + len];
        }
        usize::try_from(view_offset(view))
            .ok()
            .and_then(|start| self.long.get(start..start.checked_add(len)?))
            .unwrap_or(&[])
    }

    /// Appends a row (an empty string for a null row, whose view is then all zero).
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.views.push(string_view(bytes, self.long.len() as u64));
        if bytes.len() > INLINE_LIMIT {
            self.long.extend_from_slice(bytes);
        }
    }

    /// The views, 16 bytes per row, canonical but for the offsets when not `packed`.
    pub(crate) fn views(&self) -> &[u8] {
        self.views.as_flattened()
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
    /// the concatenation of the string buffers, and brings them to the canonical form. `text`
    /// asks for UTF-8. Restoring does the same while the bytes arrive ([`ViewScan`]).
    ///
    /// # Errors
    /// As [`ViewScan::finish`].
    #[cfg(test)]
    pub(crate) fn from_saved(
        views: Vec<u8>,
        long: Vec<u8>,
        size: usize,
        nulls: Option<&[u8]>,
        text: bool,
        views_at: u64,
    ) -> Result<Strings> {
        let mut scan = ViewScan::new(size, nulls, text);
        scan.push(&views);
        let long_ascii = long.is_ascii();
        scan.finish(long, long_ascii, views_at)
    }
}

/// What a view's length selects, indexed by `min(length, 13)`, and 14 for a null row: the
/// bytes kept in the canonical form, and the bits whose being set means non-ASCII inline text.
struct Masks {
    keep: [u128; 15],
    high: [u128; 15],
}

/// Index of [`Masks`] for a long view.
const LONG: usize = INLINE_LIMIT + 1;

/// Index of [`Masks`] for a null row.
const NULL: usize = INLINE_LIMIT + 2;

const MASKS: Masks = {
    let mut keep = [0u128; 15];
    let mut high = [0u128; 15];
    let mut len = 0;
    while len <= INLINE_LIMIT {
        // The length and `len` bytes.
        keep[len] = u128::MAX >> (8 * (INLINE_LIMIT - len));
        high[len] = keep[len] & 0x8080_8080_8080_8080_8080_8080_0000_0000;
        len += 1;
    }
    // Velox keeps the string's first 4 bytes after the length; the canonical form has zeros.
    keep[LONG] = !0xffff_ffff_0000_0000;
    Masks { keep, high }
};

/// Views checked between looks for non-ASCII inline text: 4 KiB, which stay in the L1 cache.
const BLOCK: usize = 256;

/// One pass over the views of a string vector as they are read: each view is copied out in
/// the canonical form (null rows, inline padding and long prefixes zeroed) while what needs
/// checking is noted, without a branch on the view: whether some inline text is not ASCII
/// (then that block of views is looked at again for UTF-8), and the offsets and ends of the
/// long views, to be checked against the string buffers, which come after the views, in
/// [`ViewScan::finish`].
pub(crate) struct ViewScan<'a> {
    size: usize,
    nulls: Option<&'a [u8]>,
    text: bool,
    /// The canonical views so far, at most `size`.
    views: Vec<[u8; VIEW]>,
    /// Bytes of the views buffer seen so far.
    seen: usize,
    /// The offset the next long string has when the strings are packed.
    next: u64,
    packed: bool,
    /// The furthest end of a long string (`u64::MAX` once one overflows).
    end: u64,
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
            views: Vec::new(),
            seen: 0,
            next: 0,
            packed: true,
            end: 0,
            bad_utf8: None,
        }
    }

    /// Bytes of the views buffer seen so far.
    pub(crate) fn seen(&self) -> usize {
        self.seen
    }

    /// Views still to come before `size` rows are held (0 once a piece left a view split).
    pub(crate) fn wanted(&self) -> usize {
        let held = self.views.len();
        if self.seen == held * VIEW {
            self.size - held
        } else {
            0
        }
    }

    /// Makes room for `rows` more views at once (a stream of known length).
    pub(crate) fn reserve(&mut self, rows: usize) {
        self.views.reserve_exact(rows);
    }

    /// Takes the next `piece` of the views buffer. Every piece but the last must be a multiple
    /// of 16 bytes long (a view split between pieces, or one past `size` rows, is not kept).
    pub(crate) fn push(&mut self, piece: &[u8]) {
        let rows = (piece.len() / VIEW).min(self.wanted());
        self.seen = self.seen.saturating_add(piece.len());
        self.views.reserve(rows);
        for block in piece[..rows * VIEW].chunks(BLOCK * VIEW) {
            let start = self.views.len();
            self.views.extend_from_slice(block.as_chunks::<VIEW>().0);
            self.canonicalize(start);
        }
    }

    /// Reads the next `rows` views (at most [`ViewScan::wanted`]) straight into place with
    /// `read`, which fills the slice it is given or fails, then brings them to the canonical
    /// form. Keep `rows` small enough for the views to stay in the cache between the two.
    pub(crate) fn fill(
        &mut self,
        rows: usize,
        read: impl FnOnce(&mut [u8]) -> Result<()>,
    ) -> Result<()> {
        let rows = rows.min(self.wanted());
        let start = self.views.len();
        self.views.resize(start + rows, [0; VIEW]);
        read(self.views[start..].as_flattened_mut())?;
        self.seen += rows * VIEW;
        self.canonicalize(start);
        Ok(())
    }

    /// Brings the views from row `start` on to the canonical form, a block at a time.
    fn canonicalize(&mut self, start: usize) {
        let end = self.views.len();
        for first in (start..end).step_by(BLOCK) {
            let last = (first + BLOCK).min(end);
            let high = match self.nulls {
                None => self.block(first, last, |_| true),
                Some(bits) => self.block(first, last, |row| {
                    bits.get(row / 8)
                        .is_some_and(|byte| byte >> (row % 8) & 1 == 1)
                }),
            };
            if high != 0 && self.text && self.bad_utf8.is_none() {
                self.check_inline_utf8(first, last);
            }
        }
    }

    /// Rewrites views `first..last` in the canonical form and notes their long strings;
    /// `valid(row)` tells whether `row` is not null. Returns the high bits of the inline text,
    /// OR-ed.
    ///
    /// The loop's only branch is the loop's own: whether a view is inline is random in real
    /// data.
    #[inline(always)]
    fn block(&mut self, first: usize, last: usize, valid: impl Fn(usize) -> bool) -> u128 {
        let (mut next, mut end, mut high) = (self.next, self.end, 0u128);
        // Bits set where some long view's offset differs from its packed offset.
        let mut moved = 0u64;
        for (i, slot) in self.views[first..last].iter_mut().enumerate() {
            let view = u128::from_le_bytes(*slot);
            let len = u64::from(view as u32);
            let index = select_unpredictable(valid(first + i), len.min(LONG as u64) as usize, NULL);
            let canonical = view & MASKS.keep[index];
            *slot = canonical.to_le_bytes();
            high |= canonical & MASKS.high[index];
            // All ones for a long view, else zero.
            let long = u64::from(index == LONG).wrapping_neg();
            let offset = (canonical >> 64) as u64;
            moved |= (offset ^ next) & long;
            next += len & long;
            let this_end = offset.saturating_add(len) & long;
            end = select_unpredictable(this_end > end, this_end, end);
        }
        self.packed &= moved == 0;
        (self.next, self.end) = (next, end);
        high
    }

    /// Looks for the first inline view of rows `start..end` (canonical) whose text is not UTF-8.
    #[cold]
    fn check_inline_utf8(&mut self, start: usize, end: usize) {
        let views = self.views.get(start..end).unwrap_or(&[]);
        self.bad_utf8 = views
            .iter()
            .position(|view| {
                let len = view_len(view);
                len <= INLINE_LIMIT
                    && !view[4..4 + len].is_ascii()
                    && std::str::from_utf8(&view[4..4 + len]).is_err()
            })
            .map(|i| start + i);
    }

    /// The strings, once all views have been pushed and `long`, the concatenation of the
    /// string buffers, has been read; `long_ascii` tells whether `long` is all ASCII.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] at `views_at` when there are fewer than `size` views, or at
    /// `views_at + 16 × row` for the first long view that reaches past `long`; then
    /// [`ErrorKind::InvalidUtf8`], without a position, for the first text row that is not
    /// UTF-8.
    pub(crate) fn finish(
        self,
        mut long: Vec<u8>,
        long_ascii: bool,
        views_at: u64,
    ) -> Result<Strings> {
        let size = self.size;
        if self.views.len() < size {
            return Err(Error::with_message(
                ErrorKind::BadIndex,
                format_args!(
                    "values buffer of {} bytes for {size} string rows",
                    self.seen
                ),
            )
            .with_position(Position::Byte(views_at)));
        }
        let long_len = long.len() as u64;
        let past = self.end > long_len;
        // Every slice of ASCII bytes is UTF-8, and so is every piece of UTF-8 text cut at
        // character boundaries: packed strings tile the start of `long`.
        let long_checked = !self.text
            || long_ascii
            || (!past && self.packed && tiles_utf8(&self.views, &long, self.next));
        let mut bad_utf8 = self.bad_utf8;
        if past || !long_checked {
            // The long views again, in row order: the first bad one is reported.
            for (row, view) in self.views.iter().enumerate() {
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
            views: self.views,
            long,
            packed: self.packed,
        })
    }
}

/// True when the long strings of packed `views`, which lie one after the other in
/// `long[..next]`, are all UTF-8: that slice is, and each string starts at a character boundary.
fn tiles_utf8(views: &[[u8; VIEW]], long: &[u8], next: u64) -> bool {
    let Some(tiled) = usize::try_from(next).ok().and_then(|next| long.get(..next)) else {
        return false;
    };
    std::str::from_utf8(tiled).is_ok()
        && views.iter().all(|view| {
            view_len(view) <= INLINE_LIMIT
                || usize::try_from(view_offset(view))
                    .ok()
                    .and_then(|start| tiled.get(start))
                    .is_some_and(|&byte| (byte as i8) >= -0x40)
        })
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

    /// Views with garbage where the canonical form has zeros: inline padding, long prefixes and
    /// whole null rows.
    fn dirty_views(strings: &Strings, nulls: &[u8]) -> Vec<u8> {
        let mut views = Vec::new();
        for row in 0..strings.len() {
            let mut view = strings.view(row);
            let len = view_len(&view);
            if nulls[row / 8] >> (row % 8) & 1 == 0 {
                view = [0xa5; 16];
            } else if len <= INLINE_LIMIT {
                view[4 + len..].fill(0x5a);
            } else {
                view[4..8].fill(0xc3);
            }
            views.extend_from_slice(&view);
        }
        views
    }

    #[test]
    fn many_blocks_with_nulls_become_canonical() {
        let rows = 3 * BLOCK + 17;
        let mut expected = Strings::default();
        let mut nulls = vec![0u8; rows.div_ceil(8)];
        for row in 0..rows {
            if row % 7 == 3 {
                expected.push(b"");
                continue;
            }
            nulls[row / 8] |= 1 << (row % 8);
            let text = format!("{row:0>width$}", width = row % 25);
            expected.push(text.as_bytes());
        }
        let views = dirty_views(&expected, &nulls);
        let long = expected.long().to_vec();
        let strings = Strings::from_saved(views, long, rows, Some(&nulls), true, 0).unwrap();
        assert!(strings.is_packed());
        assert_eq!(strings.views(), expected.views());
        assert_eq!(strings.long(), expected.long());
    }

    #[test]
    fn first_bad_inline_row_is_found_past_the_first_block() {
        let rows = 2 * BLOCK + 5;
        let mut views = Vec::new();
        for row in 0..rows {
            let mut view = string_view("é".as_bytes(), 0);
            if row == BLOCK + 9 || row == BLOCK + 30 {
                view[5] = b'x'; // 0xc3 followed by an ASCII byte
            }
            views.extend_from_slice(&view);
        }
        let err = Strings::from_saved(views.clone(), Vec::new(), rows, None, true, 0).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
        assert!(
            err.to_string().contains(&format!("row {}", BLOCK + 9)),
            "{err}"
        );
        // Bytes, not text: no check.
        assert!(Strings::from_saved(views, Vec::new(), rows, None, false, 0).is_ok());
    }

    #[test]
    fn non_ascii_long_strings_must_start_and_end_at_character_boundaries() {
        // Valid: packed strings of two-byte characters.
        let mut good = Strings::default();
        good.push("ééééééé".as_bytes());
        good.push("xéééééé".as_bytes());
        let long = good.long().to_vec();
        let strings =
            Strings::from_saved(good.views().to_vec(), long.clone(), 2, None, true, 0).unwrap();
        assert_eq!(strings.get(1), "xéééééé".as_bytes());
        // The same bytes cut inside a character: the buffer is UTF-8, row 0 and row 1 are not.
        let mut views = long_view(13, b"\0\0\0\0", 0).to_vec();
        views.extend_from_slice(&long_view(14, b"\0\0\0\0", 13));
        let err = Strings::from_saved(views, long.clone(), 2, None, true, 0).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
        assert!(err.to_string().contains("row 0"), "{err}");
        // An unpacked string starting inside a character.
        let views = long_view(13, b"\0\0\0\0", 1).to_vec();
        let err = Strings::from_saved(views, long, 1, None, true, 0).unwrap_err();
        assert!(err.to_string().contains("row 0"), "{err}");
    }

    #[test]
    fn an_overflowing_long_view_is_past_the_buffers() {
        let views = long_view(13, b"\0\0\0\0", u64::MAX - 3).to_vec();
        let err = Strings::from_saved(views, vec![b'a'; 64], 1, None, false, 5).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadIndex);
        assert_eq!(err.position(), Position::Byte(5));
    }
}
