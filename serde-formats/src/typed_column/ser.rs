//! The serializer: any `Serialize` value into a type array and a data array, in one pass.
//!
//! # Layout algorithm
//! A column's children must be contiguous and come after it, but serde hands us values depth
//! first. So when a column gets its place, its children's descriptions are reserved at the end
//! of the type array (`len` slots, known from serde's length hint), and each child later fills
//! its slot; a child column reserves its own children at the end at that time. Every description
//! is written once, and data bytes are appended in serde order.
//!
//! A column does not reserve anything while its elements are *uniform*: all fixed-size atoms of
//! one kind, or all columns of the same uniform shape (a hyperrectangle of atoms). Such elements
//! only write their data, so a column of numbers costs one data write per element. The open
//! columns form a stack ([`Frame`]s); a nested column that is still uniform has no slot yet.
//! When an element breaks uniformity, the enclosing uniform columns reserve their slots, outermost
//! first, and write plain descriptions for the elements they already hold: the same descriptions,
//! in the same order, as if they had been written one by one.
//!
//! A uniform column that ends while its description is the last of the type array is written
//! dense (`[4][d][n]` and its chain). If anything is reserved after it later, that dense tail is
//! first expanded back into plain descriptions, so the output is always valid.
//!
//! Sequences and maps without a length hint serialize each element into a scratch type array
//! (sharing the data array) and splice them in at the end, relocating child offsets.

use serde::ser::{self, Serialize};

use super::fraction::{self, Fraction, FRACTION_TOKEN};
use super::wire::{Kind, COMPRESSED};
use super::{TypedColumns, DEFAULT_DEPTH_LIMIT};
use crate::error::{Error, ErrorKind, Result};

const COLUMN: u64 = Kind::Column.number();

/// Caps how much data capacity a length hint may make us reserve up front.
const MAX_HINT_RESERVE: usize = 1 << 28;

/// The shape of a uniform element: atoms of `kind`, nested in columns of lengths `dims`
/// (outermost first; empty for an atom).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape {
    kind: Kind,
    dims: Vec<usize>,
}

impl Shape {
    fn atom(kind: Kind) -> Self {
        Shape {
            kind,
            dims: Vec::new(),
        }
    }

    fn atom_size(&self) -> usize {
        self.kind.fixed_size().unwrap_or(0)
    }

    /// Data bytes of one element of this shape.
    fn bytes(&self) -> usize {
        self.dims.iter().product::<usize>() * self.atom_size()
    }
}

/// An open column.
#[derive(Debug)]
struct Frame {
    /// Its description; `None` while it is a uniform element of the uniform frame below it.
    slot: Option<usize>,
    /// The length hint: how many children to expect.
    len: usize,
    mode: Mode,
}

#[derive(Debug)]
enum Mode {
    /// All elements so far have `shape`; nothing reserved, only data written from `data_start`.
    Uniform {
        shape: Option<Shape>,
        data_start: usize,
        count: usize,
    },
    /// Children reserved at `next..end`.
    Slots { next: usize, end: usize },
    /// No length hint: each element's scratch type array.
    Unknown { trees: Vec<Vec<u64>> },
}

/// The arrays being written.
#[derive(Debug)]
pub(crate) struct Output {
    types: Vec<u64>,
    data: Vec<u8>,
    compress: bool,
    /// The dense column currently ending the type array, if any.
    dense_tail: Option<usize>,
    /// The open columns, innermost last.
    frames: Vec<Frame>,
    /// How deeply Columns may nest (see "Limits and errors" in the module docs).
    depth_limit: usize,
}

#[cold]
fn length_mismatch(hint: usize, what: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format_args!("length hint {hint} does not match the {what} serialized"),
    )
}

#[cold]
fn integer_too_wide(value: impl std::fmt::Display) -> Error {
    Error::with_message(
        ErrorKind::IntegerOverflow,
        format_args!("integer {value} does not fit a Fraction numerator (i64)"),
    )
}

#[cold]
fn too_deep(limit: usize) -> Error {
    Error::with_message(
        ErrorKind::DepthLimitExceeded,
        format_args!("Columns nested deeper than the depth limit {limit}"),
    )
}

#[cold]
fn lost_frame() -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        "a column was ended out of order by the Serialize impl",
    )
}

impl Output {
    fn new(compress: bool) -> Self {
        Output {
            types: Vec::new(),
            data: Vec::new(),
            compress,
            dense_tail: None,
            frames: Vec::new(),
            depth_limit: DEFAULT_DEPTH_LIMIT,
        }
    }

    /// A scratch output for one element of an unknown-length collection: root slots, the shared
    /// data array, no compression (its descriptions will not end the final array).
    fn scratch(&mut self, types: Vec<u64>) -> Self {
        Output {
            types,
            data: std::mem::take(&mut self.data),
            compress: false,
            dense_tail: None,
            frames: Vec::new(),
            depth_limit: self.depth_limit,
        }
    }

    /// Checks that a Column at `depth` (counting itself) is within the limit.
    #[inline]
    fn column_at(&self, depth: usize) -> Result<()> {
        if depth > self.depth_limit {
            return Err(too_deep(self.depth_limit));
        }
        Ok(())
    }

    fn descs(&self) -> usize {
        self.types.len() / 3
    }

    #[inline]
    fn set(&mut self, slot: usize, kind: u64, offset: u64, len: u64) {
        let at = slot * 3;
        self.types[at..at + 3].copy_from_slice(&[kind, offset, len]);
    }

    /// Appends `n` empty slots and returns the first.
    fn reserve(&mut self, n: usize) -> Result<usize> {
        self.expand_dense_tail();
        let first = self.descs();
        let words = n
            .checked_mul(3)
            .and_then(|words| words.checked_add(self.types.len()))
            .filter(|&words| words <= isize::MAX as usize / 8)
            .ok_or_else(|| {
                Error::with_message(
                    ErrorKind::Unsupported,
                    format_args!("length hint {n} too large"),
                )
            })?;
        self.types.resize(words, 0);
        Ok(first)
    }

    /// Writes plain descriptions for a uniform value at `slot` whose data starts at `at`.
    fn write_uniform(&mut self, slot: usize, kind: Kind, dims: &[usize], at: usize) -> Result<()> {
        let Some((&len, inner)) = dims.split_first() else {
            let size = kind.fixed_size().unwrap_or(0);
            self.set(slot, kind.number(), at as u64, size as u64);
            return Ok(());
        };
        let first = self.reserve(len)?;
        self.set(slot, COLUMN, first as u64, len as u64);
        let stride = inner.iter().product::<usize>() * kind.fixed_size().unwrap_or(0);
        for i in 0..len {
            self.write_uniform(first + i, kind, inner, at + i * stride)?;
        }
        Ok(())
    }

    /// Writes a uniform column of `len` elements of `shape` at `slot` as a dense tail.
    fn write_dense(&mut self, slot: usize, shape: &Shape, len: usize, at: usize) {
        self.set(slot, COLUMN, at as u64, len as u64);
        let mut count = len as u64;
        for &dim in &shape.dims {
            self.types
                .extend_from_slice(&[COLUMN | COMPRESSED, count, dim as u64]);
            count *= dim as u64;
        }
        self.types.extend_from_slice(&[
            shape.kind.number() | COMPRESSED,
            count,
            shape.atom_size() as u64,
        ]);
        self.dense_tail = Some(slot);
    }

    /// Rewrites a dense tail as plain descriptions, because something now follows it.
    fn expand_dense_tail(&mut self) {
        let Some(column) = self.dense_tail.take() else {
            return;
        };
        let base = self.types[column * 3 + 1] as usize;
        let mut dims = vec![self.types[column * 3 + 2] as usize];
        let mut kind = Kind::Boolean;
        for desc in self.types[(column + 1) * 3..].chunks_exact(3) {
            match Kind::from_number(desc[0] & !COMPRESSED) {
                Some(Kind::Column) => dims.push(desc[2] as usize),
                Some(atom) => kind = atom,
                None => {}
            }
        }
        self.types.truncate((column + 1) * 3);
        // Cannot fail: these descriptions were reserved once already.
        let _ = self.write_uniform(column, kind, &dims, base);
    }

    fn push_str(&mut self, slot: usize, s: &str) {
        let at = self.data.len() as u64;
        self.data.extend_from_slice(s.as_bytes());
        self.set(slot, Kind::String.number(), at, s.len() as u64);
    }

    /// Moves scratch trees (one per element) into the children of the column at `slot`.
    fn splice(&mut self, slot: usize, trees: Vec<Vec<u64>>) -> Result<()> {
        let first = self.reserve(trees.len())?;
        self.set(slot, COLUMN, first as u64, trees.len() as u64);
        for (i, tree) in trees.iter().enumerate() {
            // Scratch description j >= 1 lands at base + j - 1.
            let base = self.descs() as u64;
            let relocate = |desc: &[u64]| match *desc {
                [COLUMN, offset, len] if len != 0 => [COLUMN, offset - 1 + base, len],
                [kind, offset, len] => [kind, offset, len],
                _ => [COLUMN, 0, 0],
            };
            let [kind, offset, len] = relocate(&tree[..3]);
            self.set(first + i, kind, offset, len);
            for desc in tree[3..].chunks_exact(3) {
                self.types.extend_from_slice(&relocate(desc));
            }
        }
        Ok(())
    }

    /// Opens a column. As an element of uniform frame `parent` that still takes columns it opens
    /// uniform without a slot; otherwise it takes its place first.
    fn open(&mut self, target: Target, len: Option<usize>) -> Result<usize> {
        let candidate = match (target, len) {
            (Target::Element(parent), Some(len)) if len > 0 => match &self.frames[parent].mode {
                Mode::Uniform { shape, count, .. } => {
                    *count < self.frames[parent].len
                        && shape.as_ref().is_none_or(|shape| !shape.dims.is_empty())
                }
                _ => false,
            },
            _ => false,
        };
        let slot = if candidate {
            None
        } else {
            Some(self.place(target)?)
        };
        let mode = match len {
            Some(_) => Mode::Uniform {
                shape: None,
                data_start: self.data.len(),
                count: 0,
            },
            None => Mode::Unknown { trees: Vec::new() },
        };
        self.frames.push(Frame {
            slot,
            len: len.unwrap_or(0),
            mode,
        });
        Ok(self.frames.len() - 1)
    }

    /// The slot a value takes at `target`, making its column reserve slots if needed.
    #[inline]
    fn place(&mut self, target: Target) -> Result<usize> {
        match target {
            Target::Slot(slot) => Ok(slot),
            Target::Element(frame) => self.next_slot(frame),
        }
    }

    /// The slot of frame `index`'s next child.
    #[inline]
    fn next_slot(&mut self, index: usize) -> Result<usize> {
        if matches!(self.frames[index].mode, Mode::Uniform { .. }) {
            self.break_uniform(index)?;
        }
        let frame = &mut self.frames[index];
        match &mut frame.mode {
            Mode::Slots { next, end } if *next < *end => {
                *next += 1;
                Ok(*next - 1)
            }
            _ => Err(length_mismatch(frame.len, "elements")),
        }
    }

    /// Frame `index` stops being uniform: it and every uniform frame it is nested in without a
    /// slot reserve their children, outermost first, writing the elements they already hold.
    #[cold]
    fn break_uniform(&mut self, index: usize) -> Result<()> {
        let mut outermost = index;
        while self.frames[outermost].slot.is_none() && outermost > 0 {
            outermost -= 1;
        }
        for at in outermost..=index {
            let frame = &self.frames[at];
            let (
                Some(slot),
                Mode::Uniform {
                    data_start, count, ..
                },
            ) = (frame.slot, &frame.mode)
            else {
                return Err(lost_frame());
            };
            let (len, data_start, count) = (frame.len, *data_start, *count);
            let shape = match &mut self.frames[at].mode {
                Mode::Uniform { shape, .. } => shape.take(),
                _ => None,
            };
            let first = self.reserve(len)?;
            self.set(slot, COLUMN, first as u64, len as u64);
            if let Some(shape) = &shape {
                let stride = shape.bytes();
                for i in 0..count {
                    self.write_uniform(
                        first + i,
                        shape.kind,
                        &shape.dims,
                        data_start + i * stride,
                    )?;
                }
            }
            let mut next = first + count;
            if at < index {
                // The open element nested in this frame takes the next slot.
                self.frames[at + 1].slot = Some(next);
                next += 1;
            }
            self.frames[at].mode = Mode::Slots {
                next,
                end: first + len,
            };
        }
        Ok(())
    }

    /// Closes frame `index` (the innermost).
    fn close(&mut self, index: usize) -> Result<()> {
        if index + 1 != self.frames.len() {
            return Err(lost_frame());
        }
        let Some(frame) = self.frames.pop() else {
            return Err(lost_frame());
        };
        let Frame { slot, len, mode } = frame;
        match mode {
            Mode::Uniform {
                shape,
                data_start,
                count,
            } => {
                if count != len {
                    return Err(length_mismatch(len, "elements"));
                }
                match (slot, shape) {
                    (Some(slot), None) => {
                        self.set(slot, COLUMN, 0, 0);
                        Ok(())
                    }
                    (Some(slot), Some(shape)) => {
                        if self.compress && slot + 1 == self.descs() {
                            self.write_dense(slot, &shape, len, data_start);
                            Ok(())
                        } else {
                            let mut dims = Vec::with_capacity(shape.dims.len() + 1);
                            dims.push(len);
                            dims.extend_from_slice(&shape.dims);
                            self.write_uniform(slot, shape.kind, &dims, data_start)
                        }
                    }
                    (None, Some(shape)) => {
                        self.close_uniform_element(index, shape, len, data_start)
                    }
                    (None, None) => Err(lost_frame()),
                }
            }
            Mode::Slots { next, end } => {
                if next == end {
                    Ok(())
                } else {
                    Err(length_mismatch(len, "elements"))
                }
            }
            Mode::Unknown { trees } => match slot {
                Some(slot) => self.splice(slot, trees),
                None => Err(lost_frame()),
            },
        }
    }

    /// A uniform column without a slot ended: it becomes one more element of its parent, which
    /// stays uniform if the shapes agree.
    fn close_uniform_element(
        &mut self,
        index: usize,
        shape: Shape,
        len: usize,
        data_start: usize,
    ) -> Result<()> {
        let parent = index.checked_sub(1).ok_or_else(lost_frame)?;
        let Mode::Uniform {
            shape: parent_shape,
            count,
            ..
        } = &mut self.frames[parent].mode
        else {
            return Err(lost_frame());
        };
        let matches = match parent_shape {
            Some(expected) => {
                expected.kind == shape.kind
                    && expected.dims.first() == Some(&len)
                    && expected.dims[1..] == shape.dims[..]
            }
            None => {
                let mut dims = Vec::with_capacity(shape.dims.len() + 1);
                dims.push(len);
                dims.extend_from_slice(&shape.dims);
                *parent_shape = Some(Shape {
                    kind: shape.kind,
                    dims,
                });
                true
            }
        };
        if matches {
            *count += 1;
            return Ok(());
        }
        let slot = self.next_slot(parent)?;
        let mut dims = Vec::with_capacity(shape.dims.len() + 1);
        dims.push(len);
        dims.extend_from_slice(&shape.dims);
        self.write_uniform(slot, shape.kind, &dims, data_start)
    }
}

/// Where the value being serialized goes.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// A reserved description.
    Slot(usize),
    /// The next element of open frame `usize`, which may still be uniform.
    Element(usize),
}

/// Serializes one value into its place; the serde glue behind [`Serializer`].
pub struct ValueSerializer<'a> {
    out: &'a mut Output,
    target: Target,
    /// How many Columns enclose this value's place.
    depth: usize,
}

impl<'a> ValueSerializer<'a> {
    /// Writes a fixed-size atom: only its data while its column is a uniform run of this kind.
    #[inline(always)]
    fn atom<const N: usize>(self, kind: Kind, bytes: [u8; N]) -> Result<()> {
        if let Target::Element(index) = self.target {
            if let Some(frame) = self.out.frames.get_mut(index) {
                if let Mode::Uniform {
                    shape: Some(shape),
                    count,
                    ..
                } = &mut frame.mode
                {
                    if shape.kind == kind && shape.dims.is_empty() && *count < frame.len {
                        *count += 1;
                        self.out.data.extend_from_slice(&bytes);
                        return Ok(());
                    }
                }
            }
        }
        self.atom_slow(kind, &bytes)
    }

    /// The first atom of a column, or an atom that does not continue a uniform run.
    #[inline(never)]
    fn atom_slow(self, kind: Kind, bytes: &[u8]) -> Result<()> {
        let ValueSerializer { out, target, .. } = self;
        if let Target::Element(index) = target {
            let frame = &mut out.frames[index];
            if let Mode::Uniform {
                shape: shape @ None,
                count,
                ..
            } = &mut frame.mode
            {
                if *count < frame.len {
                    *shape = Some(Shape::atom(kind));
                    *count += 1;
                    let rest = (frame.len - 1).saturating_mul(bytes.len());
                    out.data.reserve(rest.min(MAX_HINT_RESERVE));
                    out.data.extend_from_slice(bytes);
                    return Ok(());
                }
            }
        }
        let slot = out.place(target)?;
        let at = out.data.len() as u64;
        out.data.extend_from_slice(bytes);
        out.set(slot, kind.number(), at, bytes.len() as u64);
        Ok(())
    }

    /// The slot this value takes, reserving its column's children if needed.
    #[inline]
    fn into_slot(self) -> Result<(&'a mut Output, usize)> {
        let slot = self.out.place(self.target)?;
        Ok((self.out, slot))
    }

    #[inline]
    fn integer(self, value: i64) -> Result<()> {
        self.atom(Kind::Fraction, Fraction::from(value).to_le_bytes())
    }

    #[inline]
    fn seq(self, len: Option<usize>) -> Result<SeqSerializer<'a>> {
        let depth = self.depth + 1;
        self.out.column_at(depth)?;
        let frame = self.out.open(self.target, len)?;
        Ok(SeqSerializer {
            out: self.out,
            frame,
            unknown: len.is_none(),
            depth,
        })
    }

    /// `Column[name, payload]`: writes the name and returns the payload's slot.
    fn variant(self, name: &str) -> Result<(&'a mut Output, usize)> {
        self.out.column_at(self.depth + 1)?;
        let (out, slot) = self.into_slot()?;
        let first = out.reserve(2)?;
        out.set(slot, COLUMN, first as u64, 2);
        out.push_str(first, name);
        Ok((out, first + 1))
    }
}

/// Writes the elements of a column: sequences, tuples, structs and variant payloads.
pub struct SeqSerializer<'a> {
    out: &'a mut Output,
    /// This column's index in the output's frame stack.
    frame: usize,
    /// No length hint: elements go through scratch outputs.
    unknown: bool,
    /// How many Columns enclose the elements, this one included.
    depth: usize,
}

impl SeqSerializer<'_> {
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.unknown {
            let mut scratch = self.out.scratch(vec![0; 3]);
            let result = value.serialize(ValueSerializer {
                out: &mut scratch,
                target: Target::Slot(0),
                depth: self.depth,
            });
            self.out.data = std::mem::take(&mut scratch.data);
            result?;
            if let Mode::Unknown { trees } = &mut self.out.frames[self.frame].mode {
                trees.push(scratch.types);
            }
            return Ok(());
        }
        value.serialize(ValueSerializer {
            out: &mut *self.out,
            target: Target::Element(self.frame),
            depth: self.depth,
        })
    }

    #[inline]
    fn finish(self) -> Result<()> {
        self.out.close(self.frame)
    }
}

impl ser::SerializeSeq for SeqSerializer<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTuple for SeqSerializer<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for SeqSerializer<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for SeqSerializer<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

#[cold]
fn skipped_field(key: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format_args!("field `{key}` skipped: struct fields are positional, none can be skipped"),
    )
}

impl ser::SerializeStruct for SeqSerializer<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, _: &'static str, value: &T) -> Result<()> {
        self.element(value)
    }
    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        Err(skipped_field(key))
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for SeqSerializer<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, _: &'static str, value: &T) -> Result<()> {
        self.element(value)
    }
    fn skip_field(&mut self, key: &'static str) -> Result<()> {
        Err(skipped_field(key))
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// Writes a map as a column of `[key, value]` columns.
pub struct MapSerializer<'a> {
    out: &'a mut Output,
    /// How many Columns enclose the keys and values: the map's and the entry's included.
    depth: usize,
    slot: usize,
    len: usize,
    mode: MapMode,
}

enum MapMode {
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
fn value_without_key() -> Error {
    Error::with_message(ErrorKind::Unsupported, "map value without a key")
}

impl MapSerializer<'_> {
    fn scratch_into(
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
        result.map(|()| scratch.types)
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

impl<'a> ser::Serializer for ValueSerializer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqSerializer<'a>;
    type SerializeTuple = SeqSerializer<'a>;
    type SerializeTupleStruct = SeqSerializer<'a>;
    type SerializeTupleVariant = SeqSerializer<'a>;
    type SerializeMap = MapSerializer<'a>;
    type SerializeStruct = SeqSerializer<'a>;
    type SerializeStructVariant = SeqSerializer<'a>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.atom(Kind::Boolean, [u8::from(v)])
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.integer(v.into())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.integer(v.into())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.integer(v.into())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.integer(v)
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.integer(i64::try_from(v).map_err(|_| integer_too_wide(v))?)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.integer(v.into())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.integer(v.into())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.integer(v.into())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.integer(i64::try_from(v).map_err(|_| integer_too_wide(v))?)
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.integer(i64::try_from(v).map_err(|_| integer_too_wide(v))?)
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.atom(Kind::Float, f64::from(v).to_le_bytes())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.atom(Kind::Float, v.to_le_bytes())
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        let (out, slot) = self.into_slot()?;
        out.push_str(slot, v);
        Ok(())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let mut seq = self.seq(Some(v.len()))?;
        for byte in v {
            seq.element(byte)?;
        }
        seq.finish()
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        let mut seq = self.seq(Some(1))?;
        seq.element(value)?;
        seq.finish()
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        // An empty Column is a Column: it counts like any other.
        self.out.column_at(self.depth + 1)?;
        let (out, slot) = self.into_slot()?;
        out.set(slot, COLUMN, 0, 0);
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name == FRACTION_TOKEN {
            let fraction = fraction::extract(value)?;
            return self.atom(Kind::Fraction, fraction.to_le_bytes());
        }
        value.serialize(self)
    }
    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let depth = self.depth + 1;
        let (out, payload) = self.variant(variant)?;
        value.serialize(ValueSerializer {
            out,
            target: Target::Slot(payload),
            depth,
        })
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer<'a>> {
        self.seq(len)
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer<'a>> {
        self.seq(Some(len))
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqSerializer<'a>> {
        self.seq(Some(len))
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqSerializer<'a>> {
        let depth = self.depth + 1;
        let (out, payload) = self.variant(variant)?;
        ValueSerializer {
            out,
            target: Target::Slot(payload),
            depth,
        }
        .seq(Some(len))
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<MapSerializer<'a>> {
        let depth = self.depth + 1;
        self.out.column_at(depth)?;
        let (out, slot) = self.into_slot()?;
        let mode = match len {
            Some(len) => {
                let first = out.reserve(len)?;
                out.set(slot, COLUMN, first as u64, len as u64);
                MapMode::Slots {
                    next: first,
                    end: first + len,
                    value: None,
                }
            }
            None => MapMode::Unknown {
                trees: Vec::new(),
                pending: None,
            },
        };
        Ok(MapSerializer {
            out,
            depth: depth + 1,
            slot,
            len: len.unwrap_or(0),
            mode,
        })
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<SeqSerializer<'a>> {
        self.seq(Some(len))
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqSerializer<'a>> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
}

/// The typed-column serializer: holds the two arrays of one value.
///
/// `&mut Serializer` implements [`serde::Serializer`]; serialize one value into it, then take
/// the result with [`Serializer::into_columns`] or [`Serializer::into_bytes`].
///
/// ```
/// use serde::Serialize;
/// use serde_formats::typed_column::Serializer;
///
/// let mut serializer = Serializer::new().with_compression(false);
/// [true, false, true].serialize(&mut serializer)?;
/// let columns = serializer.into_columns()?;
/// assert_eq!(columns.types, [4, 1, 3, 0, 0, 1, 0, 1, 1, 0, 2, 1]);
/// assert_eq!(columns.data, [1, 0, 1]);
/// # Ok::<(), serde_formats::Error>(())
/// ```
#[derive(Debug)]
pub struct Serializer {
    out: Output,
}

impl Default for Serializer {
    fn default() -> Self {
        Serializer::new()
    }
}

impl Serializer {
    /// A serializer that writes compressed (dense) descriptions where the format allows them.
    pub fn new() -> Self {
        Serializer {
            out: Output::new(true),
        }
    }

    /// Turns compressed descriptions on (the default) or off. With them off every value gets
    /// its own description, as the original format's serializer wrote it.
    #[must_use]
    pub fn with_compression(mut self, compress: bool) -> Self {
        self.out.compress = compress;
        self
    }

    /// Sets how deeply Columns may nest, as [`Deserializer::with_depth_limit`](super::Deserializer::with_depth_limit)
    /// does for reading (default [`DEFAULT_DEPTH_LIMIT`]): a value nested deeper is refused
    /// with [`ErrorKind::DepthLimitExceeded`] naming the limit.
    #[must_use]
    pub fn with_depth_limit(mut self, limit: usize) -> Self {
        self.out.depth_limit = limit;
        self
    }

    /// The two arrays of the value serialized.
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`] if no value was serialized, or a column of it was not ended.
    pub fn into_columns(self) -> Result<TypedColumns> {
        if self.out.types.is_empty() || !self.out.frames.is_empty() {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                "no complete value was serialized",
            ));
        }
        Ok(TypedColumns {
            types: self.out.types,
            data: self.out.data,
        })
    }

    /// The framed bytes of the value serialized: see [`TypedColumns::to_bytes`].
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`] if no value was serialized.
    pub fn into_bytes(self) -> Result<Vec<u8>> {
        Ok(self.into_columns()?.to_bytes())
    }

    fn root(&mut self) -> Result<ValueSerializer<'_>> {
        if !self.out.types.is_empty() {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                "a Serializer holds one value",
            ));
        }
        self.out.types.extend_from_slice(&[0; 3]);
        Ok(ValueSerializer {
            out: &mut self.out,
            target: Target::Slot(0),
            depth: 0,
        })
    }
}

macro_rules! forward_to_root {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<$ret> {
            self.root()?.$method($($arg),*)
        })*
    };
}

impl<'a> ser::Serializer for &'a mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqSerializer<'a>;
    type SerializeTuple = SeqSerializer<'a>;
    type SerializeTupleStruct = SeqSerializer<'a>;
    type SerializeTupleVariant = SeqSerializer<'a>;
    type SerializeMap = MapSerializer<'a>;
    type SerializeStruct = SeqSerializer<'a>;
    type SerializeStructVariant = SeqSerializer<'a>;

    fn is_human_readable(&self) -> bool {
        false
    }

    forward_to_root! {
        serialize_bool(v: bool) -> ();
        serialize_i8(v: i8) -> ();
        serialize_i16(v: i16) -> ();
        serialize_i32(v: i32) -> ();
        serialize_i64(v: i64) -> ();
        serialize_i128(v: i128) -> ();
        serialize_u8(v: u8) -> ();
        serialize_u16(v: u16) -> ();
        serialize_u32(v: u32) -> ();
        serialize_u64(v: u64) -> ();
        serialize_u128(v: u128) -> ();
        serialize_f32(v: f32) -> ();
        serialize_f64(v: f64) -> ();
        serialize_char(v: char) -> ();
        serialize_str(v: &str) -> ();
        serialize_bytes(v: &[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(name: &'static str) -> ();
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> ();
        serialize_seq(len: Option<usize>) -> SeqSerializer<'a>;
        serialize_tuple(len: usize) -> SeqSerializer<'a>;
        serialize_tuple_struct(name: &'static str, len: usize) -> SeqSerializer<'a>;
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SeqSerializer<'a>;
        serialize_map(len: Option<usize>) -> MapSerializer<'a>;
        serialize_struct(name: &'static str, len: usize) -> SeqSerializer<'a>;
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SeqSerializer<'a>;
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        self.root()?.serialize_some(value)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        self.root()?.serialize_newtype_struct(name, value)
    }
    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.root()?
            .serialize_newtype_variant(name, index, variant, value)
    }
}
