//! MessagePack on the write side: the smallest encoding of an integer, float64 and float32,
//! and the heads of strings, binaries, extensions, arrays and maps, each built in a small
//! stack buffer ([`Head`]) that the writer hands to its sink in one piece. The encodings are
//! the ones msglc's codec (msgspec) and `rmp::encode` pick; the tests check them against rmp.

/// One encoded item head (or a whole scalar): at most 9 bytes.
#[derive(Clone, Copy)]
pub(crate) struct Head {
    buf: [u8; 9],
    len: u8,
}

impl Head {
    #[inline]
    fn marker(marker: u8) -> Head {
        let mut buf = [0u8; 9];
        buf[0] = marker;
        Head { buf, len: 1 }
    }

    #[inline]
    fn with(marker: u8, payload: &[u8]) -> Head {
        let mut head = Head::marker(marker);
        head.buf[1..1 + payload.len()].copy_from_slice(payload);
        head.len = 1 + payload.len() as u8;
        head
    }

    /// The encoded bytes.
    #[inline]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }

    /// The whole buffer and how many of its bytes are the head, for
    /// [`Output::put_prefix`](crate::output::Output::put_prefix).
    #[inline]
    pub(crate) fn padded(&self) -> (&[u8; 9], usize) {
        (&self.buf, usize::from(self.len))
    }
}

/// The smallest unsigned integer: positive fixint, `cc`, `cd`, `ce` or `cf`.
#[inline]
pub(crate) fn uint(v: u64) -> Head {
    if v < 0x80 {
        Head::marker(v as u8)
    } else if v <= u64::from(u8::MAX) {
        Head::with(0xcc, &[v as u8])
    } else if v <= u64::from(u16::MAX) {
        Head::with(0xcd, &(v as u16).to_be_bytes())
    } else if v <= u64::from(u32::MAX) {
        Head::with(0xce, &(v as u32).to_be_bytes())
    } else {
        Head::with(0xcf, &v.to_be_bytes())
    }
}

/// The smallest signed integer; non-negative values take the unsigned markers.
#[inline]
pub(crate) fn sint(v: i64) -> Head {
    if v >= 0 {
        uint(v as u64)
    } else if v >= -32 {
        Head::marker(v as u8)
    } else if v >= i64::from(i8::MIN) {
        Head::with(0xd0, &(v as i8).to_be_bytes())
    } else if v >= i64::from(i16::MIN) {
        Head::with(0xd1, &(v as i16).to_be_bytes())
    } else if v >= i64::from(i32::MIN) {
        Head::with(0xd2, &(v as i32).to_be_bytes())
    } else {
        Head::with(0xd3, &v.to_be_bytes())
    }
}

/// float64, `cb`.
#[inline]
pub(crate) fn f64(v: f64) -> Head {
    Head::with(0xcb, &v.to_bits().to_be_bytes())
}

/// float32, `ca`.
#[inline]
pub(crate) fn f32(v: f32) -> Head {
    Head::with(0xca, &v.to_bits().to_be_bytes())
}

/// `nil`.
#[inline]
pub(crate) fn nil() -> Head {
    Head::marker(0xc0)
}

/// `false` / `true`.
#[inline]
pub(crate) fn bool(v: bool) -> Head {
    Head::marker(if v { 0xc3 } else { 0xc2 })
}

/// A length in the smallest of a fix form (`fix_marker | len`, below `fix_limit`) and the
/// 8-, 16- and 32-bit forms (`markers`; an 8-bit form of `0` means there is none).
#[inline]
fn sized(len: u32, fix_marker: u8, fix_limit: u32, markers: [u8; 3]) -> Head {
    if len < fix_limit {
        Head::marker(fix_marker | len as u8)
    } else if len <= u32::from(u8::MAX) && markers[0] != 0 {
        Head::with(markers[0], &[len as u8])
    } else if len <= u32::from(u16::MAX) {
        Head::with(markers[1], &(len as u16).to_be_bytes())
    } else {
        Head::with(markers[2], &len.to_be_bytes())
    }
}

/// The functions giving the head of a string, byte string, array or map of `len` elements.
macro_rules! sized_heads {
    ($($(#[$doc:meta])* $name:ident => $fix:literal, $fix_limit:literal, $markers:expr;)*) => {$(
        $(#[$doc])*
        #[inline]
        pub(crate) fn $name(len: u32) -> Head {
            sized(len, $fix, $fix_limit, $markers)
        }
    )*};
}

sized_heads! {
    /// The head of a string of `len` bytes: fixstr, `d9`, `da` or `db`.
    str_len => 0xa0, 32, [0xd9, 0xda, 0xdb];
    /// The head of a byte string: `c4`, `c5` or `c6`.
    bin_len => 0xc4, 0, [0xc4, 0xc5, 0xc6];
    /// The head of an array: fixarray, `dc` or `dd`.
    array_len => 0x90, 16, [0, 0xdc, 0xdd];
    /// The head of a map: fixmap, `de` or `df`.
    map_len => 0x80, 16, [0, 0xde, 0xdf];
}

/// The head of an extension of type `tag` with `len` bytes of data: fixext 1/2/4/8/16 when the
/// length is one of those, else `c7`, `c8` or `c9`.
pub(crate) fn ext_head(len: u32, tag: i8) -> Head {
    let tag = tag as u8;
    match len {
        1 => Head::with(0xd4, &[tag]),
        2 => Head::with(0xd5, &[tag]),
        4 => Head::with(0xd6, &[tag]),
        8 => Head::with(0xd7, &[tag]),
        16 => Head::with(0xd8, &[tag]),
        _ if len <= u32::from(u8::MAX) => Head::with(0xc7, &[len as u8, tag]),
        _ if len <= u32::from(u16::MAX) => {
            let [a, b] = (len as u16).to_be_bytes();
            Head::with(0xc8, &[a, b, tag])
        }
        _ => {
            let [a, b, c, d] = len.to_be_bytes();
            Head::with(0xc9, &[a, b, c, d, tag])
        }
    }
}

/// How many bytes [`uint`] takes for `v`.
#[inline]
pub(crate) fn uint_len(v: u64) -> usize {
    match v {
        0..=0x7f => 1,
        0x80..=0xff => 2,
        0x100..=0xffff => 3,
        0x1_0000..=0xffff_ffff => 5,
        _ => 9,
    }
}

/// Appends `{"p": [start, end]}`, the node of a value known by its span.
#[inline(always)]
pub(crate) fn put_leaf(out: &mut Vec<u8>, start: u64, end: u64) {
    put_leaf_words(out, uint_word(start), uint_word(end));
}

/// [`put_leaf`] for each span, in order. Where a span starts at the previous one's end (the
/// elements of an array, back to back), the end's encoding is used again as the start's.
#[inline]
pub(crate) fn put_leaves(out: &mut Vec<u8>, spans: impl Iterator<Item = (u64, u64)>) {
    let mut previous = None;
    for (start, end) in spans {
        let start_word = match previous {
            Some((previous_end, word)) if previous_end == start => word,
            _ => uint_word(start),
        };
        let end_word = uint_word(end);
        put_leaf_words(out, start_word, end_word);
        previous = Some((end, end_word));
    }
}

/// Appends `{"p": [start, end]}` given the two integers as [`uint_word`]s.
#[inline(always)]
fn put_leaf_words(out: &mut Vec<u8>, (s, s_len): (u128, usize), (e, e_len): (u128, usize)) {
    // Two stores of known size straight into `out`, then the unused tail dropped: a copy of
    // variable size is a call to `memcpy`, and a leaf assembled in a buffer on the stack is
    // read back before its stores have landed (a store-forwarding stall per leaf).
    // The map head, "p" and the array head, then `start` (at most 4 + 9 bytes).
    let first = u128::from(u32::from_le_bytes([0x81, 0xa1, b'p', 0x92])) | s << 32;
    let at = out.len();
    out.extend_from_slice(&[0u8; 32]);
    let window = &mut out[at..at + 32];
    window[..16].copy_from_slice(&first.to_le_bytes());
    let mid = 4 + s_len.min(9);
    window[mid..mid + 16].copy_from_slice(&e.to_le_bytes());
    out.truncate(at + mid + e_len.min(9));
}

/// The smallest unsigned integer (as [`uint`]) in the low bytes of a little-endian word, and
/// its length: built in a register, where [`uint`]'s buffer is built in memory. Kept apart
/// from `uint`: `uint` written through this word cost the 1M-record write 537 -> 575
/// instructions a record; `integers_match_rmp` checks that the two agree.
#[inline]
fn uint_word(v: u64) -> (u128, usize) {
    let v128 = u128::from(v);
    if v < 0x80 {
        (v128, 1)
    } else if v <= u64::from(u8::MAX) {
        (0xcc | v128 << 8, 2)
    } else if v <= u64::from(u16::MAX) {
        (0xcd | u128::from((v as u16).swap_bytes()) << 8, 3)
    } else if v <= u64::from(u32::MAX) {
        (0xce | u128::from((v as u32).swap_bytes()) << 8, 5)
    } else {
        (0xcf | u128::from(v.swap_bytes()) << 8, 9)
    }
}

/// Appends the `[start, end]` pair of a node's `"p"`.
#[inline]
pub(crate) fn put_pair(out: &mut Vec<u8>, start: u64, end: u64) {
    out.push(0x92);
    out.extend_from_slice(uint(start).as_bytes());
    out.extend_from_slice(uint(end).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every boundary of every width, against `rmp::encode`.
    #[test]
    fn integers_match_rmp() {
        let mut unsigned = vec![0u64, 1, u64::MAX];
        for bits in [7u32, 8, 16, 32] {
            let edge = 1u64 << bits;
            unsigned.extend([edge - 1, edge, edge + 1]);
        }
        for v in unsigned {
            let mut expected = Vec::new();
            rmp::encode::write_uint(&mut expected, v).unwrap();
            assert_eq!(uint(v).as_bytes(), &expected[..], "{v}");
            assert_eq!(uint_len(v), expected.len(), "{v}");
            let (word, len) = uint_word(v);
            assert_eq!(&word.to_le_bytes()[..len], &expected[..], "{v}");
        }
        let mut signed = vec![0i64, -1, i64::MIN, i64::MAX, -32, -33, 127, 128];
        for bits in [7u32, 15, 31] {
            let edge = 1i64 << bits;
            signed.extend([-edge - 1, -edge, -edge + 1, edge - 1, edge, edge + 1]);
        }
        for v in signed {
            let mut expected = Vec::new();
            rmp::encode::write_sint(&mut expected, v).unwrap();
            assert_eq!(sint(v).as_bytes(), &expected[..], "{v}");
        }
    }

    /// A leaf node at every pair of integer widths, after bytes already in the buffer,
    /// against rmp's encoding of `{"p": [start, end]}`.
    #[test]
    fn leaves_match_rmp() {
        let mut values = vec![0u64, u64::MAX];
        for bits in [7u32, 8, 16, 32] {
            let edge = 1u64 << bits;
            values.extend([edge - 1, edge]);
        }
        for &start in &values {
            for &end in &values {
                let mut expected = vec![7u8, 8];
                rmp::encode::write_map_len(&mut expected, 1).unwrap();
                rmp::encode::write_str(&mut expected, "p").unwrap();
                rmp::encode::write_array_len(&mut expected, 2).unwrap();
                rmp::encode::write_uint(&mut expected, start).unwrap();
                rmp::encode::write_uint(&mut expected, end).unwrap();
                let mut out = vec![7u8, 8];
                put_leaf(&mut out, start, end);
                assert_eq!(out, expected, "{start} {end}");
            }
        }
    }

    /// Spans back to back (the start's encoding taken from the previous end) and with gaps,
    /// across every width change, against `rmp::encode`.
    #[test]
    fn leaves_in_a_row_match_rmp() {
        let mut cuts = vec![0u64, 1, u64::MAX - 1, u64::MAX];
        for bits in [7u32, 8, 16, 32] {
            let edge = 1u64 << bits;
            cuts.extend([edge - 1, edge, edge + 1]);
        }
        cuts.sort_unstable();
        // Back to back, then every other pair (a gap before each span).
        let back_to_back: Vec<(u64, u64)> = cuts.windows(2).map(|w| (w[0], w[1])).collect();
        let with_gaps: Vec<(u64, u64)> = cuts.chunks_exact(2).map(|c| (c[0], c[1])).collect();
        for spans in [back_to_back, with_gaps] {
            let mut expected = Vec::new();
            for &(start, end) in &spans {
                rmp::encode::write_map_len(&mut expected, 1).unwrap();
                rmp::encode::write_str(&mut expected, "p").unwrap();
                rmp::encode::write_array_len(&mut expected, 2).unwrap();
                rmp::encode::write_uint(&mut expected, start).unwrap();
                rmp::encode::write_uint(&mut expected, end).unwrap();
            }
            let mut out = Vec::new();
            put_leaves(&mut out, spans.iter().copied());
            assert_eq!(out, expected, "{spans:?}");
        }
    }

    #[test]
    fn heads_match_rmp() {
        for len in [0u32, 1, 15, 16, 31, 32, 255, 256, 65535, 65536, u32::MAX] {
            let mut expected = Vec::new();
            rmp::encode::write_str_len(&mut expected, len).unwrap();
            assert_eq!(str_len(len).as_bytes(), &expected[..], "str {len}");
            expected.clear();
            rmp::encode::write_bin_len(&mut expected, len).unwrap();
            assert_eq!(bin_len(len).as_bytes(), &expected[..], "bin {len}");
            expected.clear();
            rmp::encode::write_array_len(&mut expected, len).unwrap();
            assert_eq!(array_len(len).as_bytes(), &expected[..], "array {len}");
            expected.clear();
            rmp::encode::write_map_len(&mut expected, len).unwrap();
            assert_eq!(map_len(len).as_bytes(), &expected[..], "map {len}");
            for tag in [-1i8, 0, 5] {
                expected.clear();
                rmp::encode::write_ext_meta(&mut expected, len, tag).unwrap();
                assert_eq!(ext_head(len, tag).as_bytes(), &expected[..], "ext {len}");
            }
        }
        for len in [2u32, 4, 8, 16, 17] {
            let mut expected = Vec::new();
            rmp::encode::write_ext_meta(&mut expected, len, 3).unwrap();
            assert_eq!(ext_head(len, 3).as_bytes(), &expected[..], "ext {len}");
        }
    }

    #[test]
    fn scalars_match_rmp() {
        let mut expected = Vec::new();
        rmp::encode::write_f64(&mut expected, -0.5).unwrap();
        assert_eq!(f64(-0.5).as_bytes(), &expected[..]);
        expected.clear();
        rmp::encode::write_f32(&mut expected, 1.5).unwrap();
        assert_eq!(f32(1.5).as_bytes(), &expected[..]);
        assert_eq!(nil().as_bytes(), [0xc0]);
        assert_eq!(bool(false).as_bytes(), [0xc2]);
        assert_eq!(bool(true).as_bytes(), [0xc3]);
    }

    #[test]
    fn leaf_is_p_of_the_span() {
        let mut out = Vec::new();
        put_leaf(&mut out, 3, 300);
        assert_eq!(out, [0x81, 0xa1, b'p', 0x92, 0x03, 0xcd, 0x01, 0x2c]);
        out.clear();
        put_leaf(&mut out, u64::MAX - 1, u64::MAX);
        assert_eq!(out.len(), 22);
        let mut pair = Vec::new();
        put_pair(&mut pair, u64::MAX - 1, u64::MAX);
        assert_eq!(out[3..], pair[..]);
    }
}
