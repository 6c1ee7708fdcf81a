//! The capacity reserved for the rows of a vec container before they are decoded: a count
//! taken from the first column whose codec can count cheaply, capped by the input size.

use crate::strategy::CodecDe;

/// Most bytes of rows reserved ahead per byte of the container's columns. A count read from
/// the columns may be hostile (a run of 10⁹ values in five bytes); reserving ahead stays
/// within this factor of the input, and rows past it are added by doubling as they decode.
pub(crate) const ROW_BYTES_RESERVED_PER_INPUT_BYTE: usize = 64;

/// Collects the first countable column and the column sizes while the columns of a
/// container are read; counting waits until rows are decoded (iterating needs no count).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct RowsHint<'de> {
    countable: Option<Countable<'de>>,
    column_bytes: usize,
}

/// A column and the function counting its values.
#[derive(Debug, Clone, Copy)]
struct Countable<'de> {
    count: fn(&'de [u8]) -> Option<usize>,
    bytes: &'de [u8],
}

impl<'de> RowsHint<'de> {
    /// Sees the next required column, stored with strategy `S`.
    #[inline]
    pub(crate) fn see<S: CodecDe<'de, T>, T>(&mut self, bytes: &'de [u8]) {
        self.column_bytes = self.column_bytes.saturating_add(bytes.len());
        if self.countable.is_none() && S::COUNTS {
            self.countable = Some(Countable {
                count: S::count,
                bytes,
            });
        }
    }

    /// How many rows of `R` to reserve: the count, capped at
    /// [`ROW_BYTES_RESERVED_PER_INPUT_BYTE`] per column byte; 0 without a count.
    pub(crate) fn rows<R>(&self) -> usize {
        let row_size = std::mem::size_of::<R>().max(1);
        let cap = self
            .column_bytes
            .saturating_mul(ROW_BYTES_RESERVED_PER_INPUT_BYTE)
            / row_size;
        if cap == 0 {
            return 0;
        }
        self.countable
            .and_then(|column| (column.count)(column.bytes))
            .unwrap_or(0)
            .min(cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{BoolRle, DeltaRle, Rle};

    #[test]
    fn counts_the_first_column_that_can_be_counted() {
        let mut hint = RowsHint::default();
        // Rle cannot count without decoding: no count from it.
        hint.see::<Rle, u32>(&[0x06, 0x05]);
        assert_eq!(hint.rows::<u8>(), 0);
        // BoolRle: runs of 2 and 3.
        hint.see::<BoolRle, bool>(&[0x02, 0x03]);
        // DeltaRle would say 4 (run of 3, literal of 1), but the first count stays.
        hint.see::<DeltaRle, u32>(&[0x06, 0x02, 0x01, 0x07]);
        assert_eq!(hint.rows::<u8>(), 5);
    }

    #[test]
    fn a_hostile_count_is_capped_by_the_input_size() {
        let mut hint = RowsHint::default();
        // A BoolRle run of 10⁹ values in five bytes.
        let mut bytes = Vec::new();
        crate::wire::write_varint_u64(&mut bytes, 1_000_000_000);
        hint.see::<BoolRle, bool>(&bytes);
        let cap = bytes.len() * ROW_BYTES_RESERVED_PER_INPUT_BYTE / 32;
        assert_eq!(hint.rows::<[u8; 32]>(), cap);
        // A malformed column gives no count.
        let mut hint = RowsHint::default();
        hint.see::<DeltaRle, u32>(&[0x00]);
        assert_eq!(hint.rows::<u8>(), 0);
    }
}
