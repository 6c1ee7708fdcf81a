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

    /// Appends `marker`, then `bytes`: a MessagePack fixstr (a map key or field name), for one.
    /// A `Vec` writes bytes shorter than 32 into its spare room in copies of fixed size, as
    /// [`Output::put_prefix`] does without the staging buffer; longer ones take the ordinary
    /// copy.
    ///
    /// # Errors
    /// As [`Output::put`].
    #[inline]
    fn put_marked_short(&mut self, marker: u8, bytes: &[u8]) -> Result<()>
    where
        Self: Sized,
    {
        self.put(&[marker])?;
        self.put(bytes)
    }

    /// Appends `bytes`, a piece of a length known only at run time and usually short: a
    /// string's or byte string's contents. A `Vec` copies fewer than 64 bytes into
    /// its spare room in at most two copies of fixed size; `put` copies with a call to
    /// `memcpy`, which for a few bytes costs more than the copy.
    ///
    /// # Errors
    /// As [`Output::put`].
    #[inline]
    fn put_short(&mut self, bytes: &[u8]) -> Result<()>
    where
        Self: Sized,
    {
        self.put(bytes)
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

    #[inline]
    fn put_short(&mut self, bytes: &[u8]) -> Result<()> {
        let n = bytes.len();
        if n >= SHORT_COPY {
            self.extend_from_slice(bytes);
            return Ok(());
        }
        self.reserve(SHORT_COPY);
        let len = self.len();
        // SAFETY: `reserve` left at least `SHORT_COPY` bytes of room past `len`, and the
        // copies of `copy_short` cover `len..len + n` exactly (n < SHORT_COPY; checked for
        // every length by the tests below), so those bytes are initialised before `set_len`
        // counts them in. `bytes` is a shared borrow, so it cannot overlap this buffer.
        unsafe {
            copy_short(self.as_mut_ptr().add(len), bytes.as_ptr(), n);
            self.set_len(len + n);
        }
        Ok(())
    }

    #[inline]
    fn put_marked_short(&mut self, marker: u8, bytes: &[u8]) -> Result<()> {
        let n = bytes.len();
        if n >= SHORT {
            self.push(marker);
            self.extend_from_slice(bytes);
            return Ok(());
        }
        self.reserve(SHORT + 1);
        let len = self.len();
        // SAFETY: `reserve` left at least 33 bytes of room past `len`, and every write below
        // lands in `len..len + 1 + n` (n < 32): the marker at `len`, then the copies of
        // `copy_short`, which together cover `len + 1..len + 1 + n` exactly (checked for every
        // length by the test below, also under Miri). Those bytes are then initialised, and
        // only they are counted in by `set_len`. `bytes` is a shared borrow, so it cannot
        // overlap this `Vec`'s buffer.
        unsafe {
            let dst = self.as_mut_ptr().add(len);
            dst.write(marker);
            copy_short(dst.add(1), bytes.as_ptr(), n);
            self.set_len(len + 1 + n);
        }
        Ok(())
    }
}

/// The longest byte string [`Output::put_marked_short`] copies in fixed-size pieces, plus one.
const SHORT: usize = 32;

/// The longest byte string [`Output::put_short`] copies in fixed-size pieces, plus one.
const SHORT_COPY: usize = 64;

/// Copies `n < 64` bytes from `src` to `dst` in at most two copies of fixed size that may
/// overlap in `dst` (a copy of variable size is a call to `memcpy`, dearer than the copy for a
/// field name or a short string).
///
/// # Safety
/// `src` is valid for reading `n` bytes, `dst` for writing `n` bytes, and they do not overlap.
#[inline(always)]
unsafe fn copy_short(dst: *mut u8, src: *const u8, n: usize) {
    use std::ptr::copy_nonoverlapping as copy;
    if n >= 32 {
        copy(src, dst, 32);
        copy(src.add(n - 32), dst.add(n - 32), 32);
    } else if n >= 16 {
        copy(src, dst, 16);
        copy(src.add(n - 16), dst.add(n - 16), 16);
    } else if n >= 8 {
        copy(src, dst, 8);
        copy(src.add(n - 8), dst.add(n - 8), 8);
    } else if n >= 4 {
        copy(src, dst, 4);
        copy(src.add(n - 4), dst.add(n - 4), 4);
    } else if n > 0 {
        dst.write(src.read());
        dst.add(n / 2).write(src.add(n / 2).read());
        dst.add(n - 1).write(src.add(n - 1).read());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The default `put_marked_short`: the marker, then the bytes, each through `put`.
    struct Pieces(Vec<u8>);

    impl Output for Pieces {
        fn put(&mut self, bytes: &[u8]) -> Result<()> {
            self.0.extend_from_slice(bytes);
            Ok(())
        }
    }

    /// Writes every length up to `max` with `fast` (into a `Vec`) and `pieces` (through
    /// `put` alone), into a sink that is empty or holds a few bytes (up to `max_before`),
    /// exactly full or with room to spare, and checks that both land `head` then the bytes.
    fn lands_like_pieces(
        max: usize,
        max_before: usize,
        head: &[u8],
        fast: impl Fn(&mut Vec<u8>, &[u8]),
        pieces: impl Fn(&mut Pieces, &[u8]),
    ) {
        let source: Vec<u8> = (1..=max as u8).collect();
        for n in 0..=max {
            for (before, room) in [0usize, 5, max_before]
                .into_iter()
                .flat_map(|b| [(b, 0), (b, 100)])
            {
                let mut out: Vec<u8> = (0..before as u8).map(|b| b ^ 0xee).collect();
                out.shrink_to_fit();
                out.reserve_exact(room);
                let mut expected = Pieces(out.clone());
                fast(&mut out, &source[..n]);
                pieces(&mut expected, &source[..n]);
                assert_eq!(out, expected.0, "{n} bytes after {before}");
                assert_eq!(out.len(), before + head.len() + n);
                assert_eq!(&out[before..before + head.len()], head);
                assert_eq!(&out[before + head.len()..], &source[..n]);
            }
        }
    }

    #[test]
    fn short_pieces_land_whole_after_what_was_there() {
        lands_like_pieces(
            80,
            63,
            &[],
            |out, bytes| out.put_short(bytes).unwrap(),
            |out, bytes| out.put_short(bytes).unwrap(),
        );
    }

    #[test]
    fn marked_short_strings_land_whole_after_what_was_there() {
        lands_like_pieces(
            40,
            31,
            &[0xa0],
            |out, bytes| out.put_marked_short(0xa0, bytes).unwrap(),
            |out, bytes| out.put_marked_short(0xa0, bytes).unwrap(),
        );
    }
}
