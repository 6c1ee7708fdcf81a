//! The tree-shape check of typed-column's type array: [`Claims`] records which descriptions
//! some column has claimed as its children, so that each is the child of exactly one column.

use super::wire::desc_error;
use crate::error::{Error, ErrorKind, Position, Result};

/// Which tree descriptions have been claimed as some column's child.
///
/// The encoder lays each column's children right after those of the column read before it, so
/// claims usually continue one run: while they do, the run is all that is kept, and the bit
/// set is written only when a claim starts elsewhere.
#[derive(Debug)]
pub(crate) struct Claims {
    bits: Vec<u64>,
    count: usize,
    /// While `Some((start, end))`, the claimed descriptions are `start..end` and `bits` is
    /// still clear.
    run: Option<(usize, usize)>,
}

impl Claims {
    pub(crate) fn new(tree_len: usize) -> Self {
        Claims {
            bits: vec![0; tree_len.div_ceil(64)],
            count: 0,
            run: Some((0, 0)),
        }
    }

    /// Marks `first..first + len` (already checked to lie in the tree); false if any was taken.
    #[inline]
    pub(crate) fn claim(&mut self, first: usize, len: usize) -> bool {
        if let Some((start, end)) = self.run {
            if first == end || start == end {
                let start = if start == end { first } else { start };
                self.run = Some((start, first + len));
                self.count += len;
                return true;
            }
            self.run = None;
            self.mark(start, end);
        }
        if !self.mark(first, first + len) {
            return false;
        }
        self.count += len;
        true
    }

    /// Marks `first..end` in the bit set (the count is the caller's); false if any was taken.
    fn mark(&mut self, first: usize, end: usize) -> bool {
        let mut at = first;
        while at < end {
            let word = at / 64;
            let bit = at % 64;
            let n = (64 - bit).min(end - at);
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << bit
            };
            let Some(slot) = self.bits.get_mut(word) else {
                return false;
            };
            if *slot & mask != 0 {
                return false;
            }
            *slot |= mask;
            at += n;
        }
        true
    }

    /// Errors unless every description but the root was claimed.
    pub(crate) fn finish(&self, tree_len: usize) -> Result<()> {
        if self.count + 1 >= tree_len {
            return Ok(());
        }
        let orphan = (1..tree_len)
            .find(|&i| match self.run {
                Some((start, end)) => !(start..end).contains(&i),
                None => self
                    .bits
                    .get(i / 64)
                    .is_none_or(|w| w & (1 << (i % 64)) == 0),
            })
            .unwrap_or(0);
        Err(desc_error(
            ErrorKind::NotATree,
            orphan,
            format_args!("description {orphan} is the child of no column"),
        ))
    }

    /// The error for a range that overlaps an earlier claim.
    #[cold]
    pub(crate) fn shared(parent: Position, first: usize) -> Error {
        Error::with_message(
            ErrorKind::NotATree,
            format_args!("children from description {first} already belong to another column"),
        )
        .with_position(parent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_detect_overlap_across_words() {
        let mut claims = Claims::new(200);
        assert!(claims.claim(1, 70));
        assert!(claims.claim(71, 64));
        assert!(!claims.claim(134, 2));
        assert!(!claims.claim(0, 2));
        assert!(claims.claim(135, 2));
        assert!(claims.finish(200).is_err());
        let mut claims = Claims::new(3);
        assert!(claims.claim(1, 2));
        assert!(claims.finish(3).is_ok());
    }

    #[test]
    fn claims_leaving_the_run_keep_it() {
        let mut claims = Claims::new(200);
        assert!(claims.claim(1, 5));
        assert!(claims.claim(6, 5));
        // Out of order: the run 1..11 must be kept in the bit set.
        assert!(claims.claim(20, 3));
        assert!(!claims.claim(10, 2));
        let mut claims = Claims::new(200);
        assert!(claims.claim(1, 9));
        assert!(claims.claim(100, 100));
        assert!(claims.claim(10, 90));
        assert!(!claims.claim(9, 1));
        assert!(claims.finish(200).is_ok());
    }

    #[test]
    fn an_orphan_is_found_in_the_run_and_in_the_bits() {
        let err = |claims: &Claims| claims.finish(20).unwrap_err().position();
        let mut claims = Claims::new(20);
        assert!(claims.claim(1, 10));
        assert_eq!(err(&claims), Position::TypeWord(11));
        let mut claims = Claims::new(20);
        assert!(claims.claim(2, 18));
        assert_eq!(err(&claims), Position::TypeWord(1));
        assert!(claims.claim(1, 1));
        assert!(claims.finish(20).is_ok());
        let mut claims = Claims::new(20);
        assert!(claims.claim(12, 8));
        assert!(claims.claim(1, 10));
        assert_eq!(err(&claims), Position::TypeWord(11));
    }
}
