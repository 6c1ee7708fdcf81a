//! The type array and data array being built, and how serialized values find their places in
//! them: the open columns ([`Frame`]s), uniform runs, reserved slots and dense tails. The serde
//! glue that drives it is in `ser.rs` and `ser_compound.rs`.
//!
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

use super::wire::{Kind, COLUMN, COMPRESSED};
use super::words::Words;
use super::DEFAULT_DEPTH_LIMIT;
use crate::error::{Error, ErrorKind, Result};
use crate::limits::{too_deep, Nesting};
use crate::output::MAX_HINT_RESERVE;

/// Spare data capacity reserved beside a length hint's, so that `to_bytes` can put the frame
/// head (8 bytes and the type words) before the data in place: room for 31 type words.
pub(super) const HEAD_SLACK: usize = 256;

/// The shape of a uniform element: atoms of `kind`, nested in columns of lengths `dims`
/// (outermost first; empty for an atom).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Shape {
    pub(super) kind: Kind,
    pub(super) dims: Vec<usize>,
}

impl Shape {
    pub(super) fn atom(kind: Kind) -> Self {
        Shape {
            kind,
            dims: Vec::new(),
        }
    }

    pub(super) fn atom_size(&self) -> usize {
        self.kind.fixed_size().unwrap_or(0)
    }

    /// Data bytes of one element of this shape.
    pub(super) fn bytes(&self) -> usize {
        self.dims.iter().product::<usize>() * self.atom_size()
    }
}

/// An open column.
#[derive(Debug)]
pub(super) struct Frame {
    /// Its description; `None` while it is a uniform element of the uniform frame below it.
    pub(super) slot: Option<usize>,
    /// The length hint: how many children to expect.
    pub(super) len: usize,
    pub(super) mode: Mode,
    /// A child column of this one stopped being uniform: the next ones reserve their slots
    /// when they open (see [`Output::open`]).
    pub(super) eager: bool,
}

/// How an open column places its elements. `repr(u8)`: every atom reads the tag, which is then
/// a byte to compare rather than a niche decoded from a `Vec`'s capacity.
#[derive(Debug)]
#[repr(u8)]
pub(super) enum Mode {
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
pub(super) struct Output {
    pub(super) types: Words,
    pub(super) data: Vec<u8>,
    pub(super) compress: bool,
    /// The dense column currently ending the type array, if any.
    pub(super) dense_tail: Option<usize>,
    /// The open columns, innermost last.
    pub(super) frames: Vec<Frame>,
    /// How deeply Columns may nest (see "Limits and errors" in the module docs).
    pub(super) depth_limit: usize,
    /// Columns after a non-uniform sibling reserve their children when they open (on by
    /// default; switchable so that tests can check both ways write the same bytes).
    pub(super) eager_opening: bool,
}

#[cold]
pub(super) fn length_mismatch(hint: usize, what: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format_args!("length hint {hint} does not match the {what} serialized"),
    )
}

#[cold]
pub(super) fn integer_too_wide(value: impl std::fmt::Display) -> Error {
    Error::with_message(
        ErrorKind::IntegerOverflow,
        format_args!("integer {value} does not fit a Fraction numerator (i64)"),
    )
}

#[cold]
pub(super) fn lost_frame() -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        "a column was ended out of order by the Serialize impl",
    )
}

impl Output {
    pub(super) fn new(compress: bool) -> Self {
        Output {
            types: Words::new(),
            data: Vec::new(),
            compress,
            dense_tail: None,
            frames: Vec::new(),
            depth_limit: DEFAULT_DEPTH_LIMIT,
            eager_opening: true,
        }
    }

    /// A scratch output for one element of an unknown-length collection: root slots, the shared
    /// data array, no compression (its descriptions will not end the final array).
    pub(super) fn scratch(&mut self, types: Vec<u64>) -> Self {
        Output {
            types: Words::Native(types),
            data: std::mem::take(&mut self.data),
            compress: false,
            dense_tail: None,
            frames: Vec::new(),
            depth_limit: self.depth_limit,
            eager_opening: self.eager_opening,
        }
    }

    /// Checks that a Column at `depth` (counting itself) is within the limit.
    #[inline]
    pub(super) fn column_at(&self, depth: usize) -> Result<()> {
        if depth > self.depth_limit {
            return Err(too_deep(Nesting::Columns, self.depth_limit));
        }
        Ok(())
    }

    /// Makes room for `more` elements like one that added `types` type bytes and `data` data
    /// bytes, each capped at [`MAX_HINT_RESERVE`]: a long column then fills its arrays without
    /// growing them step by step (each step a copy and fresh pages to fault in).
    ///
    /// The sample element may be smaller than the average (a shorter string), so a quarter
    /// more is reserved: falling short costs a copy of the whole array at the end (growing it,
    /// or framing it), while reserved room that is never touched costs no memory traffic.
    pub(super) fn expect(&mut self, more: usize, types: usize, data: usize) {
        let with_slack = |per: usize| {
            let room = more.saturating_mul(per);
            room.saturating_add(room / 4).min(MAX_HINT_RESERVE)
        };
        let mut data_room = with_slack(data);
        let mut type_room = with_slack(types);
        if matches!(self.types, Words::Framed(_)) {
            // `Words::into_frame` copies the smaller array next to the larger one.
            if types >= data {
                type_room += data_room + self.data.len();
            } else {
                data_room += type_room + self.types.byte_len();
            }
        }
        self.types.reserve_bytes(type_room);
        self.data.reserve(data_room + HEAD_SLACK);
    }

    pub(super) fn descs(&self) -> usize {
        self.types.len() / 3
    }

    #[inline]
    pub(super) fn set(&mut self, slot: usize, kind: u64, offset: u64, len: u64) {
        self.types.set3(slot * 3, [kind, offset, len]);
    }

    /// Appends `n` empty slots and returns the first.
    #[inline]
    pub(super) fn reserve(&mut self, n: usize) -> Result<usize> {
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
        self.types.resize(words);
        Ok(first)
    }

    /// Writes plain descriptions for a uniform value at `slot` whose data starts at `at`.
    pub(super) fn write_uniform(
        &mut self,
        slot: usize,
        kind: Kind,
        dims: &[usize],
        at: usize,
    ) -> Result<()> {
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
    pub(super) fn write_dense(&mut self, slot: usize, shape: &Shape, len: usize, at: usize) {
        self.set(slot, COLUMN, at as u64, len as u64);
        let mut count = len as u64;
        for &dim in &shape.dims {
            self.types.extend(&[COLUMN | COMPRESSED, count, dim as u64]);
            count *= dim as u64;
        }
        self.types.extend(&[
            shape.kind.number() | COMPRESSED,
            count,
            shape.atom_size() as u64,
        ]);
        self.dense_tail = Some(slot);
    }

    /// Rewrites a dense tail as plain descriptions, because something now follows it.
    #[inline]
    pub(super) fn expand_dense_tail(&mut self) {
        if self.dense_tail.is_some() {
            self.expand_dense_tail_now();
        }
    }

    #[cold]
    fn expand_dense_tail_now(&mut self) {
        let Some(column) = self.dense_tail.take() else {
            return;
        };
        let base = self.types.get(column * 3 + 1) as usize;
        let mut dims = vec![self.types.get(column * 3 + 2) as usize];
        let mut kind = Kind::Boolean;
        for desc in ((column + 1) * 3..self.types.len()).step_by(3) {
            match Kind::from_number(self.types.get(desc) & !COMPRESSED) {
                Some(Kind::Column) => dims.push(self.types.get(desc + 2) as usize),
                Some(atom) => kind = atom,
                None => {}
            }
        }
        self.types.truncate((column + 1) * 3);
        // Cannot fail: these descriptions were reserved once already.
        let _ = self.write_uniform(column, kind, &dims, base);
    }

    /// Writes a fixed-size atom's data and its description at `slot`.
    #[inline(always)]
    pub(super) fn put_atom<const N: usize>(
        &mut self,
        slot: usize,
        kind: Kind,
        bytes: [u8; N],
    ) -> Result<()> {
        let at = self.data.len() as u64;
        self.data.extend_from_slice(&bytes);
        self.set(slot, kind.number(), at, N as u64);
        Ok(())
    }

    pub(super) fn push_str(&mut self, slot: usize, s: &str) {
        let at = self.data.len() as u64;
        self.data.extend_from_slice(s.as_bytes());
        self.set(slot, Kind::String.number(), at, s.len() as u64);
    }

    /// Moves scratch trees (one per element) into the children of the column at `slot`.
    pub(super) fn splice(&mut self, slot: usize, trees: Vec<Vec<u64>>) -> Result<()> {
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
                self.types.extend(&relocate(desc));
            }
        }
        Ok(())
    }

    /// Opens a column. As an element of uniform frame `parent` that still takes columns it opens
    /// uniform without a slot; otherwise it takes its place first.
    ///
    /// With `unframed`, a column that reserves its children now is not pushed as a frame: its
    /// children's slots come back as [`Opened::Slots`] for the caller to hand out itself. A
    /// struct's fields then go straight to their slots, with no frame to look up per field and
    /// none to push and pop per struct.
    #[inline]
    pub(super) fn open(
        &mut self,
        target: Target,
        len: Option<usize>,
        unframed: bool,
    ) -> Result<Opened> {
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
        let mode = match (len, slot) {
            (Some(len), Some(slot)) if len > 1 && self.opens_eagerly(target, slot) => {
                let first = self.reserve(len)?;
                self.set(slot, COLUMN, first as u64, len as u64);
                if unframed {
                    return Ok(Opened::Slots {
                        next: first,
                        end: first + len,
                    });
                }
                Mode::Slots {
                    next: first,
                    end: first + len,
                }
            }
            (Some(_), _) => Mode::Uniform {
                shape: None,
                data_start: self.data.len(),
                count: 0,
            },
            (None, _) => Mode::Unknown { trees: Vec::new() },
        };
        self.frames.push(Frame {
            slot,
            len: len.unwrap_or(0),
            mode,
            eager: false,
        });
        Ok(Opened::Frame(self.frames.len() - 1))
    }

    /// Whether a column of two or more elements opening at `slot` as an element of `target`
    /// reserves its children now instead of first trying to stay uniform: when a sibling
    /// before it was not uniform. The bytes are the same either way: a uniform column reserves
    /// its children at the end of the type array when it closes or breaks, and nothing was
    /// reserved since it opened. The exceptions are dense columns: a uniform column ending the
    /// array is written dense, so a column whose slot is the last description keeps trying;
    /// and the only child of a uniform column never is (it has no slot of its own while it is
    /// open), so a column of one element keeps trying too, or its child could end the array.
    #[inline]
    fn opens_eagerly(&self, target: Target, slot: usize) -> bool {
        let Target::Element(parent) = target else {
            return false;
        };
        self.eager_opening
            && self.frames[parent].eager
            && (!self.compress || slot + 1 != self.descs())
    }

    /// The slot a value takes at `target`, making its column reserve slots if needed.
    #[inline]
    pub(super) fn place(&mut self, target: Target) -> Result<usize> {
        match target {
            Target::Slot(slot) => Ok(slot),
            Target::Element(frame) => self.next_slot(frame),
        }
    }

    /// The slot of frame `index`'s next child.
    #[inline]
    pub(super) fn next_slot(&mut self, index: usize) -> Result<usize> {
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
    pub(super) fn break_uniform(&mut self, index: usize) -> Result<()> {
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
        if let Some(parent) = index.checked_sub(1) {
            self.frames[parent].eager = true;
        }
        Ok(())
    }

    /// Closes frame `index` (the innermost).
    pub(super) fn close(&mut self, index: usize) -> Result<()> {
        if index + 1 != self.frames.len() {
            return Err(lost_frame());
        }
        let Some(frame) = self.frames.pop() else {
            return Err(lost_frame());
        };
        let Frame {
            slot, len, mode, ..
        } = frame;
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
    pub(super) fn close_uniform_element(
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

/// A column just opened by [`Output::open`].
#[derive(Debug, Clone, Copy)]
pub(super) enum Opened {
    /// Pushed as open frame `usize`.
    Frame(usize),
    /// Not pushed: its children's reserved slots are `next..end`.
    Slots { next: usize, end: usize },
}

/// Where the value being serialized goes.
#[derive(Debug, Clone, Copy)]
pub(super) enum Target {
    /// A reserved description.
    Slot(usize),
    /// The next element of open frame `usize`, which may still be uniform.
    Element(usize),
}
