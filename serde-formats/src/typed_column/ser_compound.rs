//! The compound serializers: the elements of sequences, tuples, structs and variant payloads
//! ([`SeqSerializer`]), and the entries of maps ([`MapSerializer`]).

use serde::ser::{self, Serialize};

use super::layout::{length_mismatch, Mode, Output, Target};
use super::ser::ValueSerializer;
use super::wire::COLUMN;
use crate::error::{Error, ErrorKind, Result};

/// Writes the elements of a column: sequences, tuples, structs and variant payloads.
pub struct SeqSerializer<'a> {
    pub(super) out: &'a mut Output,
    /// This column's index in the output's frame stack; its first child's slot when
    /// [`Phase::Unframed`].
    pub(super) frame: usize,
    /// Where the column is in its life: the first two elements size it, the rest only write.
    pub(super) phase: Phase,
    /// How many Columns enclose the elements, this one included.
    pub(super) depth: usize,
    /// [`Phase::Unframed`]: the next child's slot, and one past the last child's.
    pub(super) next: usize,
    pub(super) end: usize,
}

/// What [`SeqSerializer`] does before writing the next element. One compare per element in the
/// steady state, and no store: a `Vec<f64>` pays this for every float.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// No length hint: elements go through scratch outputs.
    Unknown,
    /// The next element is the first of a column of at least [`EXPECT_FROM`] elements.
    First,
    /// The next element is the second, which sizes the rest of a column of at least
    /// [`EXPECT_FROM`] elements.
    Second,
    /// Every later element.
    Steady,
    /// A short column that reserved its children when it opened and has no frame (see
    /// [`Output::open`]): the next child goes to [`SeqSerializer::next`].
    Unframed,
}

impl Phase {
    /// The phase a column of `len` elements opens in: a short one (a struct's fields) writes
    /// from the start.
    pub(super) fn start(len: Option<usize>) -> Self {
        match len {
            None => Phase::Unknown,
            Some(len) if len >= EXPECT_FROM => Phase::First,
            Some(_) => Phase::Steady,
        }
    }
}

/// Columns at least this long make room for all their elements after their second one.
const EXPECT_FROM: usize = 64;

impl SeqSerializer<'_> {
    #[inline(always)]
    pub(super) fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.phase != Phase::Steady {
            return self.first_elements(value);
        }
        self.serialize_element(value)
    }

    /// A field of a struct, tuple, tuple struct or variant: these open unframed when they can.
    /// Kept apart from [`element`](Self::element) so that a sequence's element loop does not
    /// carry the unframed path too.
    #[inline(always)]
    pub(super) fn field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.phase != Phase::Unframed {
            return self.element(value);
        }
        let slot = self.next;
        if slot == self.end {
            return Err(self.unframed_mismatch());
        }
        self.next = slot + 1;
        value.serialize(ValueSerializer {
            out: &mut *self.out,
            target: Target::Slot(slot),
            depth: self.depth,
        })
    }

    /// An unframed column given more or fewer children than its length hint.
    #[cold]
    fn unframed_mismatch(&self) -> Error {
        // The hint is the number of slots, only some of which were handed out.
        let hint = self.end - self.frame;
        length_mismatch(hint, "elements")
    }

    /// The elements before the steady state: those of a column without a length hint, and the
    /// first two of one with a hint.
    #[inline(never)]
    fn first_elements<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match self.phase {
            Phase::Unknown => self.unknown_element(value),
            Phase::First => {
                self.phase = Phase::Second;
                self.serialize_element(value)
            }
            Phase::Steady | Phase::Unframed => self.field(value),
            Phase::Second => {
                self.phase = Phase::Steady;
                // The second element (the first may have reserved this column's slots) sizes
                // the rest.
                let len = self.out.frames[self.frame].len;
                let before = (self.out.types.byte_len(), self.out.data.len());
                self.serialize_element(value)?;
                let types = self.out.types.byte_len().saturating_sub(before.0);
                let data = self.out.data.len().saturating_sub(before.1);
                self.out.expect(len.saturating_sub(2), types, data);
                Ok(())
            }
        }
    }

    fn unknown_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let mut scratch = self.out.scratch(vec![0; 3]);
        let result = value.serialize(ValueSerializer {
            out: &mut scratch,
            target: Target::Slot(0),
            depth: self.depth,
        });
        self.out.data = std::mem::take(&mut scratch.data);
        result?;
        if let Mode::Unknown { trees } = &mut self.out.frames[self.frame].mode {
            trees.push(scratch.types.into_vec());
        }
        Ok(())
    }

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(ValueSerializer {
            out: &mut *self.out,
            target: Target::Element(self.frame),
            depth: self.depth,
        })
    }

    #[inline]
    pub(super) fn finish(self) -> Result<()> {
        match self.phase {
            Phase::Unframed if self.next != self.end => Err(self.unframed_mismatch()),
            Phase::Unframed => Ok(()),
            _ => self.out.close(self.frame),
        }
    }

    /// Struct fields are positional: none can be skipped.
    #[cold]
    fn refuse_skip(&mut self, key: &str) -> Result<()> {
        Err(Error::with_message(
            ErrorKind::Unsupported,
            format_args!(
                "field `{key}` skipped: struct fields are positional, none can be skipped"
            ),
        ))
    }
}

forward_compound!([] SeqSerializer<'_>;
    SerializeSeq::serialize_element => element, finish;
);
forward_compound!([] SeqSerializer<'_>;
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field => field, finish;
);
forward_compound!([] SeqSerializer<'_>;
    named => field(value), finish, skip => refuse_skip;
);

/// Writes a map as a column of `[key, value]` columns.
pub struct MapSerializer<'a> {
    pub(super) out: &'a mut Output,
    /// How many Columns enclose the keys and values: the map's and the entry's included.
    pub(super) depth: usize,
    pub(super) slot: usize,
    pub(super) len: usize,
    pub(super) mode: MapMode,
}

pub(super) enum MapMode {
    /// Entries reserved at `next..end`; `value` is the pending value's slot.
    Slots {
        next: usize,
        end: usize,
        value: Option<usize>,
    },
    /// No length hint: finished entries, and the entry whose key was written.
    Unknown {
        trees: Vec<Vec<u64>>,
        pending: Option<Vec<u64>>,
    },
}

#[cold]
pub(super) fn value_without_key() -> Error {
    Error::with_message(ErrorKind::Unsupported, "map value without a key")
}

impl MapSerializer<'_> {
    pub(super) fn scratch_into(
        &mut self,
        types: Vec<u64>,
        slot: usize,
        value: &(impl Serialize + ?Sized),
    ) -> Result<Vec<u64>> {
        let mut scratch = self.out.scratch(types);
        let result = value.serialize(ValueSerializer {
            out: &mut scratch,
            target: Target::Slot(slot),
            depth: self.depth,
        });
        self.out.data = std::mem::take(&mut scratch.data);
        result.map(|()| scratch.types.into_vec())
    }
}

impl ser::SerializeMap for MapSerializer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        // The entry's Column.
        self.out.column_at(self.depth)?;
        match &mut self.mode {
            MapMode::Slots { next, end, value } => {
                if *next == *end {
                    return Err(length_mismatch(self.len, "entries"));
                }
                let entry = *next;
                *next += 1;
                let pair = self.out.reserve(2)?;
                self.out.set(entry, COLUMN, pair as u64, 2);
                *value = Some(pair + 1);
                key.serialize(ValueSerializer {
                    out: &mut *self.out,
                    target: Target::Slot(pair),
                    depth: self.depth,
                })
            }
            MapMode::Unknown { .. } => {
                // Scratch entry: the pair column at 0, key at 1, value at 2.
                let types = vec![COLUMN, 1, 2, 0, 0, 0, 0, 0, 0];
                let types = self.scratch_into(types, 1, key)?;
                if let MapMode::Unknown { pending, .. } = &mut self.mode {
                    *pending = Some(types);
                }
                Ok(())
            }
        }
    }

    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match &mut self.mode {
            MapMode::Slots { value: slot, .. } => {
                let slot = slot.take().ok_or_else(value_without_key)?;
                value.serialize(ValueSerializer {
                    out: &mut *self.out,
                    target: Target::Slot(slot),
                    depth: self.depth,
                })
            }
            MapMode::Unknown { pending, .. } => {
                let types = pending.take().ok_or_else(value_without_key)?;
                let types = self.scratch_into(types, 2, value)?;
                if let MapMode::Unknown { trees, .. } = &mut self.mode {
                    trees.push(types);
                }
                Ok(())
            }
        }
    }

    #[inline]
    fn end(self) -> Result<()> {
        match self.mode {
            MapMode::Slots { next, end, value } => {
                if value.is_some() {
                    Err(Error::with_message(
                        ErrorKind::Unsupported,
                        "map key without a value",
                    ))
                } else if next != end {
                    Err(length_mismatch(self.len, "entries"))
                } else {
                    Ok(())
                }
            }
            MapMode::Unknown { trees, pending } => {
                if pending.is_some() {
                    return Err(Error::with_message(
                        ErrorKind::Unsupported,
                        "map key without a value",
                    ));
                }
                self.out.splice(self.slot, trees)
            }
        }
    }
}
