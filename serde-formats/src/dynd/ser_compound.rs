//! The compound serializers of DyND: tuples, structs and variants ([`Compound`]), sequences
//! ([`SeqCompound`]) and maps ([`MapCompound`]).

use serde::ser::{self, Serialize};

use super::option::fixed_width;
use super::ser::Serializer;
use crate::hint::exact_len;
use crate::output::{Output, MAX_HINT_RESERVE};
use crate::{Error, ErrorKind, Result};

/// Tuples, structs and enum variants: fields packed in order, nothing around them.
pub struct Compound<'a, O> {
    pub(super) ser: &'a mut Serializer<O>,
    /// How many levels this compound counts against the depth limit (0 for plain tuples).
    pub(super) levels: usize,
    /// Whether its elements count against the zero-sized budget: only for the dimensions of
    /// an [`Array`](super::Array) value, whose lengths the reader takes from the input.
    pub(super) counted: bool,
}

impl<O: Output> Compound<'_, O> {
    #[inline]
    pub(super) fn field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.field(value)
    }

    /// A tuple struct's field, or an element of an `Array` dimension (counted). Kept apart
    /// from [`field`](Self::field) so that tuples and structs carry no test of `counted`: the
    /// extra branch in every field changed what the compiler inlines (mesh write 220 -> 265 us).
    #[inline]
    pub(super) fn tuple_struct_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.counted {
            self.ser.element(value)
        } else {
            self.ser.field(value)
        }
    }

    #[inline]
    pub(super) fn finish(self) -> Result<()> {
        for _ in 0..self.levels {
            self.ser.leave();
        }
        Ok(())
    }
}

/// A sequence whose elements were not as many as its length said.
fn announced_other_count(announced: usize, count: usize) -> Error {
    Error::with_message(
        ErrorKind::Message,
        format!("a sequence announced {announced} elements but gave {count}"),
    )
}

forward_compound!([O: Output] Compound<'_, O>;
    SerializeTuple::serialize_element,
    SerializeTupleVariant::serialize_field => field, finish;
);
forward_compound!([O: Output] Compound<'_, O>;
    SerializeTupleStruct::serialize_field => tuple_struct_field, finish;
);
forward_compound!([O: Output] Compound<'_, O>;
    named => field(value), finish;
);

/// `var * T`: the count, then the elements. Encoded aside when serde does not tell the count.
pub struct SeqCompound<'a, O> {
    pub(super) ser: &'a mut Serializer<O>,
    pub(super) scratch: Option<Serializer<Vec<u8>>>,
    pub(super) announced: Option<usize>,
    pub(super) count: usize,
    /// The count is written and the output sized from the first element: every further
    /// element goes straight to the output, the one path inlined into the caller's loop.
    pub(super) steady: bool,
}

/// At most this many bytes per element are reserved from the first element's size: enough
/// for records of a few dozen fields (a 36-byte triangle or an 80-byte log line grows the
/// output once), while a large first element reserves at most 128 bytes for each of the rest.
const RESERVE_PER_ELEMENT: usize = 128;

impl<'a, O: Output> SeqCompound<'a, O> {
    /// The first element of a sequence of known length: its size times the count is what the
    /// whole sequence likely needs, so the output grows once instead of doubling its way up
    /// (a `Vec<f64>` of 1M would otherwise be copied about 3 times while growing).
    fn first_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let before = self.ser.written();
        self.ser.element(value)?;
        let size = (self.ser.written() - before).min(RESERVE_PER_ELEMENT);
        let rest = self.announced.unwrap_or(0).saturating_sub(1);
        self.ser
            .out
            .reserve(size.saturating_mul(rest).min(MAX_HINT_RESERVE));
        self.steady = true;
        Ok(())
    }

    /// serde's own `collect_seq` with one fast path: a sequence of fixed-width primitives of
    /// exact length (every `Vec` and slice of numbers) is one tight loop with the output
    /// reserved up front ([`Self::primitives`]). Same bytes either way.
    #[inline]
    pub(super) fn collect<I>(ser: &'a mut Serializer<O>, iter: I) -> Result<()>
    where
        I: Iterator,
        I::Item: Serialize,
    {
        let len = exact_len(iter.size_hint());
        if let (Some(width), Some(len)) = (fixed_width::<I::Item>(), len) {
            return Self::primitives(ser, width, len, iter);
        }
        let mut seq = ser::Serializer::serialize_seq(ser, len)?;
        for item in iter {
            ser::SerializeSeq::serialize_element(&mut seq, &item)?;
        }
        ser::SerializeSeq::end(seq)
    }

    /// A whole sequence of `len` primitives of `width` bytes each, from `collect_seq`: the
    /// count, then the elements, with the output reserved once. A primitive always takes
    /// bytes and never writes a missing value, so nothing is counted or remembered per element
    /// and the loop is the sink's append alone.
    #[inline]
    pub(super) fn primitives<I>(
        ser: &mut Serializer<O>,
        width: usize,
        len: usize,
        iter: I,
    ) -> Result<()>
    where
        I: Iterator,
        I::Item: Serialize,
    {
        ser.enter()?;
        ser.put_len(len)?;
        ser.out
            .reserve(width.saturating_mul(len).min(MAX_HINT_RESERVE));
        let mut count = 0usize;
        for item in iter {
            item.serialize(&mut *ser)?;
            count += 1;
        }
        if count != len {
            return Err(announced_other_count(len, count));
        }
        ser.leave();
        Ok(())
    }

    /// An element of a sequence of unknown length (encoded aside), or the first of one of
    /// known length.
    #[inline(never)]
    fn unsteady_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match &mut self.scratch {
            Some(scratch) => scratch.element(value),
            None => self.first_element(value),
        }
    }
}

impl<O: Output> ser::SerializeSeq for SeqCompound<'_, O> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.count += 1;
        if self.steady {
            return self.ser.element(value);
        }
        self.unsteady_element(value)
    }

    fn end(self) -> Result<()> {
        match (self.scratch, self.announced) {
            (Some(scratch), _) => {
                self.ser.put_len(self.count)?;
                self.ser.absorb(&scratch)?;
            }
            (None, Some(announced)) if announced != self.count => {
                return Err(announced_other_count(announced, self.count));
            }
            (None, _) => {}
        }
        self.ser.leave();
        Ok(())
    }
}

/// `var * (K, V)` with entries sorted by their encoded keys: every entry is encoded aside, then
/// sorted and written.
pub struct MapCompound<'a, O> {
    pub(super) ser: &'a mut Serializer<O>,
    pub(super) scratch: Serializer<Vec<u8>>,
    /// (key start, key end) in `scratch`; an entry runs to the next entry's key start.
    pub(super) entries: Vec<(usize, usize)>,
    pub(super) key_end: usize,
}

impl<O: Output> ser::SerializeMap for MapCompound<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let start = self.scratch.out.len();
        self.scratch.serialize_value(key)?;
        self.key_end = self.scratch.out.len();
        self.entries.push((start, self.key_end));
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.scratch.serialize_value(value)
    }

    fn end(self) -> Result<()> {
        let MapCompound {
            ser,
            scratch,
            mut entries,
            ..
        } = self;
        ser.zero_sized = scratch.zero_sized;
        let buf = scratch.out;
        // Entry i spans from its key start to the next entry's key start.
        let ends: Vec<usize> = entries
            .iter()
            .skip(1)
            .map(|&(start, _)| start)
            .chain(std::iter::once(buf.len()))
            .collect();
        let mut spans: Vec<(usize, usize, usize)> = entries
            .drain(..)
            .zip(ends)
            .map(|((start, key_end), end)| (start, key_end, end))
            .collect();
        let key = |&(start, key_end, _): &(usize, usize, usize)| &buf[start..key_end];
        spans.sort_unstable_by(|a, b| key(a).cmp(key(b)));
        if let Some(pair) = spans.windows(2).find(|pair| key(&pair[0]) == key(&pair[1])) {
            return Err(Error::with_message(
                ErrorKind::UnsortedKeys,
                format!(
                    "duplicate map key (encoded as {} bytes)",
                    pair[0].1 - pair[0].0
                ),
            ));
        }
        ser.put_len(spans.len())?;
        for (start, _, end) in spans {
            ser.put(&buf[start..end])?;
        }
        ser.leave();
        Ok(())
    }
}
