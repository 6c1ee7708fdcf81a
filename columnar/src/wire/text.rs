//! Checking that string bytes read from the wire are UTF-8.

/// `bytes` as text, as [`std::str::from_utf8`] checks it, with one quick pass first for
/// bytes that are all ASCII: most strings in columns (names, keys, peers' text) are short and
/// ASCII, and the general check costs several instructions a byte on them.
#[inline]
pub(crate) fn utf8(bytes: &[u8]) -> std::result::Result<&str, std::str::Utf8Error> {
    if bytes.is_ascii() {
        // SAFETY: every ASCII byte is a whole UTF-8 character, so all-ASCII bytes are valid
        // UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes)
}

#[cfg(test)]
mod tests {
    use super::utf8;

    #[test]
    fn text_is_checked_alike_on_the_ascii_pass_and_off_it() {
        for bytes in [
            &b""[..],
            b"peer-7",
            "caf\u{e9}".as_bytes(),
            b"ab\xffcd",
            b"\xed\xa0\x80",
        ] {
            let ours = utf8(bytes).map_err(|err| err.valid_up_to());
            let std = std::str::from_utf8(bytes).map_err(|err| err.valid_up_to());
            assert_eq!(ours, std, "{bytes:?}");
        }
    }
}
