//! The tree-shape check of typed-column's type array: [`Claims`] records which descriptions
//! some column has claimed as its children, so that each is the child of exactly one column.

use super::wire::desc_error;
use crate::error::{Error, ErrorKind, Position, Result};

/// Which tree descriptions have been claimed as some column's child.
#[derive(Debug)]
pub(crate) struct Claims {
    bits: Vec<u64>,
    count: usize,
}

impl Claims {
    pub(crate) fn new(tree_len: usize) -> Self {
        Claims {
            bits: vec![0; tree_len.div_ceil(64)],
            count: 0,
        }
    }

    /// Marks `first..first + len` (already checked to lie in the tree); false if any was taken.
    #[inline]
    pub(crate) fn claim(&mut self, first: usize, len: usize) -> bool {
        let end = first + len;
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
        self.count += len;
        true
    }

    /// Errors unless every description but the root was claimed.
    pub(crate) fn finish(&self, tree_len: usize) -> Result<()> {
        if self.count + 1 >= tree_len {
            return Ok(());
        }
        let orphan = (1..tree_len)
            .find(|&i| {
                self.bits
                    .get(i / 64)
                    .is_none_or(|w| w & (1 << (i % 64)) == 0)
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
}
