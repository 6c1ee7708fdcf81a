//! serde -> MessagePack, building the table of contents while the data streams out.
//!
//! The data goes straight to the crate's byte sink ([`Data`]); only containers of unknown
//! length are buffered until their element count, and so their header, is known.
//!
//! The TOC needs the children of a container only if it ends at least `block_size` bytes long
//! (an indexed node or a block list); any smaller one is a leaf, and so are the millions of
//! small records of a long list. So when the written bytes can be read back (a `Vec`, see
//! [`Sink`]), containers start *unrecorded*: their values and keys cost the [`Index`] nothing.
//! A container is *promoted* to recorded once its bytes reach the block size (checked at each
//! string and each container end, not at each number, to keep that path short): the entries of
//! its children written so far are rebuilt from their bytes ([`Index::replay`]), and its later
//! children are recorded as they come. Each byte is replayed at most once. Recorded containers work
//! as before: every value records one entry in the [`Index`]; a container, when it ends, has
//! the index replace its children's entries by its own node. Recording is monotone in depth:
//! the ancestors of a recorded container are recorded, so the unrecorded containers open are
//! the innermost ones, from `frontier` on. Over a sink that cannot be read back (a file),
//! every container is recorded from its start.
//!
//! An array of known length that starts recorded over such a sink is first *streamed*: its
//! children, while they are all trivial values, are only counted into blocks
//! ([`Index::stream_open`]), which is the whole TOC work of a long list of numbers. The first
//! child that is a container or not trivial ends the streaming: the children so far are
//! replayed into entries, once, and the array goes on as a recorded one. A `Vec` or slice of
//! `f64` or `f32` (serde's `collect_seq` with an exact length) skips even the counting: every
//! float is a 9-byte float64, so its blocks follow from the number of floats, worked out once
//! a block after they are written (`Writer::floats`).

use serde::ser::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::limits::{Depth, Nesting};

use super::data::{Data, Sink};
use super::encode::{self, Head};
use super::index::{Index, Key, Open};
use super::Config;

mod floats;
mod serializer;

/// What a writer allocates as it goes, handed from one file to the next by
/// [`super::Writer`]: the index under construction (entry stack, node and key arenas, scratch),
/// the stack of open containers and the spill buffers of containers of unknown length. Kept,
/// their capacity makes the next file of the same shape allocate nothing.
pub(super) struct Memory {
    pub(super) index: Index,
    levels: Vec<Level>,
    spills: Vec<Vec<u8>>,
}

impl Memory {
    pub(super) fn new(config: &Config) -> Self {
        Memory {
            index: Index::new(config.block_size, config.trivial_size),
            levels: Vec::new(),
            spills: Vec::new(),
        }
    }

    /// Empties everything for a new file written with `config`, keeping the capacity.
    pub(super) fn reset(&mut self, config: &Config) {
        self.index.reset(config.block_size, config.trivial_size);
        self.levels.clear();
    }
}

/// An open array or map.
#[derive(Clone, Copy)]
struct Level {
    /// Where its header starts.
    start: u64,
    /// Where its first child starts (for a container of unknown length, `start`: its header
    /// is written at its end).
    content: u64,
    /// The state of the index when it started being recorded.
    open: Open,
    is_map: bool,
    /// Whether its children have entries in the index.
    recorded: bool,
    /// Whether it is recorded by streaming (only the innermost container can be).
    streaming: bool,
    /// Its spill buffer, for a container of unknown length.
    spill: Option<usize>,
    /// The key of the entry being written, in a recorded map.
    key: Key,
}

/// An unrecorded container of known length with no container open inside it: all that a
/// small record needs while it is written. It goes on `levels` only when a container opens
/// inside it or it is promoted ([`Writer::materialize`]), so that a record costs no [`Level`]
/// pushed and popped (1M records: 537 -> 517 instructions each).
#[derive(Clone, Copy)]
struct Pending {
    start: u64,
    content: u64,
    is_map: bool,
}

/// No unrecorded container is open.
const NO_FRONTIER: usize = usize::MAX;

/// The serializer: data to a [`Sink`], TOC entries to an [`Index`].
pub(super) struct Writer<O> {
    data: Data<O>,
    index: Index,
    depth: Depth,
    /// The containers open now, outermost first, but for a [`Pending`] one.
    levels: Vec<Level>,
    /// The innermost open container, when it is unrecorded, of known length and has no open
    /// container inside: kept here instead of on `levels` (see [`Pending`]).
    pending: Option<Pending>,
    /// Whether values written now get entries: the innermost container is recorded (or there
    /// is none), and no map key is being written.
    record: bool,
    /// The innermost container is streamed: its values are counted into blocks.
    streaming: bool,
    /// The outermost unrecorded container, or [`NO_FRONTIER`].
    frontier: usize,
    /// The data position at which the frontier container is promoted (`u64::MAX` if none).
    limit: u64,
    block_size: u64,
    /// Containers start unrecorded (the sink can be read back).
    lazy: bool,
    /// Map keys being written (nested: a key may hold a map with keys).
    in_key: usize,
    /// The next `f32` is a [`super::F32_STRUCT_NAME`] payload: written as float32.
    float32: bool,
}

#[cold]
#[inline(never)]
fn too_long(what: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format!("{what} longer than MessagePack allows (2^32 - 1)"),
    )
}

#[inline]
fn length(len: usize, what: &str) -> Result<u32> {
    u32::try_from(len).map_err(|_| too_long(what))
}

/// The head of a container of `n` elements or entries.
#[inline]
fn container_head(n: u32, is_map: bool) -> Head {
    if is_map {
        encode::map_len(n)
    } else {
        encode::array_len(n)
    }
}

/// A `Serialize` implementation declared one length and serialized another.
#[cold]
#[inline(never)]
fn wrong_count(declared: usize, count: usize) -> Error {
    Error::with_message(
        ErrorKind::Message,
        format!("declared length {declared} but {count} elements were serialized"),
    )
}

/// The written bytes of a container are not where the writer put them: a bug.
#[cold]
fn lost_bytes() -> Error {
    Error::with_message(
        ErrorKind::Message,
        "internal error: written bytes not found",
    )
}

impl<O: Sink> Writer<O> {
    /// A writer to `sink` working in `memory`, which must be new or [reset](Memory::reset)
    /// for `config`.
    pub(super) fn with_memory(sink: O, config: &Config, memory: Memory) -> Self {
        let lazy = sink.written().is_some();
        Writer {
            data: Data::new(sink, memory.spills),
            index: memory.index,
            depth: Depth::new(config.depth_limit),
            levels: memory.levels,
            pending: None,
            record: true,
            streaming: false,
            frontier: NO_FRONTIER,
            limit: u64::MAX,
            block_size: config.block_size,
            lazy,
            in_key: 0,
            float32: false,
        }
    }

    /// The sink, the data length, and the memory, whose index holds the TOC of what was
    /// serialized (see [`Index::finish_into`]).
    pub(super) fn into_parts(self) -> (O, u64, Memory) {
        let memory = Memory {
            index: self.index,
            levels: self.levels,
            spills: self.data.spills,
        };
        (self.data.sink, self.data.pos, memory)
    }

    /// Records the value that ended at the current position, or promotes unrecorded
    /// containers that have grown to the block size.
    #[inline(always)]
    fn recorded(&mut self, start: u64) -> Result<()> {
        if self.record {
            self.record_leaf(start)?;
        } else if self.data.pos >= self.limit {
            self.promote_grown()?;
        }
        Ok(())
    }

    /// Writes one scalar of at most 9 bytes and records it as a leaf. An unrecorded container
    /// is not checked for promotion here but at its next string or container end: the
    /// scalar path stays one branch, small enough to inline into serde's sequence loops (a
    /// `Vec<f64>` element costs 19 instructions so, 49 with the check).
    #[inline(always)]
    fn scalar(&mut self, head: Head) -> Result<()> {
        let start = self.data.pos;
        self.data.put_head(head)?;
        if self.record {
            self.record_leaf(start)?;
        }
        Ok(())
    }

    /// Records the value from `start` to the current position in the recorded innermost
    /// container: counted into its block when the container is streamed and the value trivial,
    /// an entry otherwise.
    #[inline(always)]
    fn record_leaf(&mut self, start: u64) -> Result<()> {
        let end = self.data.pos;
        if self.streaming {
            if end - start <= self.index.trivial_size() {
                self.index.stream_leaf(end);
                return Ok(());
            }
            self.unstream(start)?;
        }
        self.index.leaf(start, end);
        Ok(())
    }

    /// Ends the streaming of the innermost container: its children written before position
    /// `to` get their entries from their bytes.
    #[cold]
    #[inline(never)]
    fn unstream(&mut self, to: u64) -> Result<()> {
        self.streaming = false;
        let Some(level) = self.levels.last_mut() else {
            return Err(lost_bytes());
        };
        level.streaming = false;
        let content = level.content;
        let bytes = self
            .data
            .written(None, content, to)
            .ok_or_else(lost_bytes)?;
        self.index.replay(bytes, content, false)?;
        Ok(())
    }

    /// Writes a head and its body (string, byte string, extension) as one leaf.
    #[inline]
    fn with_body(&mut self, head: Head, body: &[u8]) -> Result<()> {
        let start = self.data.pos;
        self.data.put_head(head)?;
        self.data.put_short(body)?;
        self.recorded(start)
    }

    /// Opens a container of `len` children (`None`: unknown, buffered until its end).
    #[inline]
    fn begin(&mut self, len: Option<usize>, is_map: bool) -> Result<()> {
        self.depth.enter(Nesting::Value)?;
        if self.pending.is_some() {
            self.materialize();
        }
        let start = self.data.pos;
        if self.streaming {
            // A container child may not be trivial: the parent records entries from here on.
            self.unstream(start)?;
        }
        let spill = match len {
            Some(n) => {
                self.data
                    .put_head(container_head(length(n, "container")?, is_map))?;
                None
            }
            None => Some(self.data.push_spill()),
        };
        // Arrays start recorded inside recorded containers: a long list of scalars (shape A)
        // is then recorded as it goes, not replayed; maps (records) start unrecorded.
        let recorded = self.record && !(self.lazy && is_map);
        // Streamed: a recorded array whose bytes can be replayed from the sink, not from a
        // spill buffer (its own or an outer container's).
        let streaming = recorded && self.lazy && !is_map && !self.data.spilling();
        if streaming {
            self.index.stream_open(self.data.pos);
        }
        if !recorded && self.in_key == 0 && self.frontier == NO_FRONTIER {
            self.frontier = self.levels.len();
            self.limit = start.saturating_add(self.block_size);
        }
        if !recorded && spill.is_none() {
            self.pending = Some(Pending {
                start,
                content: self.data.pos,
                is_map,
            });
            self.record = false;
            self.streaming = false;
            return Ok(());
        }
        self.levels.push(Level {
            start,
            content: self.data.pos,
            open: self.index.open(start, self.data.pos, is_map),
            is_map,
            recorded,
            streaming,
            spill,
            key: Key::default(),
        });
        self.record = recorded;
        self.streaming = streaming;
        Ok(())
    }

    /// Closes the innermost container, given how many children it was declared to have and
    /// how many it got. A pending record of the declared length that stays under the block
    /// size, the most common container, closes here, inlined into its `Serialize` (1M records:
    /// 453 -> 437 instructions each); anything else in [`Writer::end_other`].
    #[inline]
    fn end(&mut self, declared: Option<usize>, count: usize) -> Result<()> {
        if let Some(pending) = self.pending {
            if declared.is_none_or(|d| d == count)
                && (self.in_key != 0 || self.data.pos - pending.start < self.block_size)
            {
                self.depth.leave();
                self.pending = None;
                return self.closed(self.levels.len(), false, pending.start);
            }
        }
        self.end_other(declared, count)
    }

    /// [`Writer::end`] of anything but a small pending record.
    #[inline(never)]
    fn end_other(&mut self, declared: Option<usize>, count: usize) -> Result<()> {
        self.depth.leave();
        if let Some(declared) = declared.filter(|&d| d != count) {
            return Err(wrong_count(declared, count));
        }
        // A pending record, the most common container: closed without touching `levels`,
        // unless it has grown to the block size.
        if let Some(pending) = self.pending {
            let top = self.levels.len();
            if self.in_key != 0 || self.data.pos - pending.start < self.block_size {
                self.pending = None;
                return self.closed(top, false, pending.start);
            }
            self.materialize();
            return self.end_general(top, count);
        }
        let top = self.levels.len().wrapping_sub(1);
        // The common case first (a small record of known length, its children without
        // entries): it leaves by index, without moving the level out of the stack.
        if let Some(level) = self.levels.get(top) {
            if level.spill.is_none()
                && !level.recorded
                && (self.in_key != 0 || self.data.pos - level.start < self.block_size)
            {
                let start = level.start;
                self.levels.truncate(top);
                return self.closed(top, false, start);
            }
        }
        self.end_general(top, count)
    }

    /// Closes level `top` when it is recorded, buffered or has just reached the block size.
    /// Out of line, so that the common case saves no registers for it.
    #[inline(never)]
    fn end_general(&mut self, top: usize, count: usize) -> Result<()> {
        let Some(&Level {
            start,
            is_map,
            recorded,
            spill,
            ..
        }) = self.levels.get(top)
        else {
            return Err(lost_bytes());
        };
        // The header of a buffered container, now that its length is known.
        let head = match spill {
            Some(_) => Some(container_head(length(count, "container")?, is_map)),
            None => None,
        };
        let head_len = head.map_or(0, |h| h.as_bytes().len()) as u64;
        if !recorded && self.in_key == 0 && self.data.pos + head_len - start >= self.block_size {
            self.promote(top)?;
        }
        if let Some(head) = head {
            // Write the header before the buffered content.
            let content = self.data.pop_spill();
            self.data.put_uncounted(head.as_bytes())?;
            self.data.put_uncounted(&content)?;
            self.data.recycle_spill(content);
            self.data.pos += head_len;
            if self.levels[top].recorded {
                self.index.shift(&mut self.levels[top].open, head_len)?;
            }
        }
        let Some(level) = self.levels.pop() else {
            return Err(lost_bytes());
        };
        if level.streaming {
            self.index.stream_close(&level.open, self.data.pos);
        } else if level.recorded {
            self.index.close(&level.open, self.data.pos, top == 0);
        }
        self.closed(top, level.recorded, level.start)
    }

    /// After level `top` (starting at `start`) left the stack: its entry, if its parent
    /// records one and it did not close as a recorded container, and the frontier.
    #[inline]
    fn closed(&mut self, top: usize, recorded: bool, start: u64) -> Result<()> {
        if self.frontier == top {
            self.frontier = NO_FRONTIER;
            self.limit = u64::MAX;
        }
        let parent_recorded = self.levels.last().is_none_or(|l| l.recorded) && self.in_key == 0;
        if !recorded && parent_recorded {
            self.index.leaf(start, self.data.pos);
        }
        self.record = parent_recorded;
        // The parent had a container child, so it no longer streams.
        self.streaming = false;
        if self.data.pos >= self.limit && self.in_key == 0 {
            self.promote_grown()?;
        }
        Ok(())
    }

    /// Puts the [`Pending`] container, if any, on `levels`, as [`Writer::begin`] would have.
    #[cold]
    #[inline(never)]
    fn materialize(&mut self) {
        if let Some(Pending {
            start,
            content,
            is_map,
        }) = self.pending.take()
        {
            self.levels.push(Level {
                start,
                content,
                open: self.index.open(start, content, is_map),
                is_map,
                recorded: false,
                streaming: false,
                spill: None,
                key: Key::default(),
            });
        }
    }

    /// Promotes the unrecorded containers that have reached the block size, outermost first.
    #[cold]
    fn promote_grown(&mut self) -> Result<()> {
        while self.frontier != NO_FRONTIER && self.data.pos >= self.limit {
            self.promote(self.frontier)?;
        }
        Ok(())
    }

    /// Promotes the unrecorded containers from the frontier to `upto`, outermost first: each
    /// gets the entries of the children it holds so far, rebuilt from their bytes.
    #[cold]
    fn promote(&mut self, upto: usize) -> Result<()> {
        // The containers from the frontier on must all be on `levels`.
        self.materialize();
        while self.frontier <= upto {
            let at = self.frontier;
            let level = self.levels[at];
            // Its children so far end where the next open container starts.
            let to = self
                .levels
                .get(at + 1)
                .map_or(self.data.pos, |next| next.start);
            // Its bytes are in the innermost buffered container around it, or in the sink.
            let spill = self.levels[..=at]
                .iter()
                .rev()
                .find_map(|l| l.spill.map(|n| (n, l.start)));
            let open = self.index.open(level.start, level.content, level.is_map);
            let bytes = self
                .data
                .written(spill, level.content, to)
                .ok_or_else(lost_bytes)?;
            let key = self.index.replay(bytes, level.content, level.is_map)?;
            let level = &mut self.levels[at];
            level.open = open;
            level.recorded = true;
            level.key = key;
            self.frontier = if at + 1 < self.levels.len() {
                at + 1
            } else {
                NO_FRONTIER
            };
            self.limit = self
                .levels
                .get(self.frontier)
                .map_or(u64::MAX, |l| l.start.saturating_add(self.block_size));
        }
        self.record = self.levels.last().is_none_or(|l| l.recorded) && self.in_key == 0;
        Ok(())
    }

    /// Writes a `&str` key of a map.
    #[inline(always)]
    fn str_key(&mut self, key: &str) -> Result<()> {
        if key.len() < 32 {
            // A fixstr, as field names usually are: written straight into the sink's room
            // (1M records: 504 -> 453 instructions each), and into the key arena when the key
            // gets an entry. The common case, no entry, returns first.
            let marker = 0xa0 | key.len() as u8;
            if !self.record {
                return self.data.put_marked_short(marker, key.as_bytes());
            }
            self.data.put_marked_short(marker, key.as_bytes())?;
            let key = self.index.push_marked_short_key(marker, key.as_bytes())?;
            self.set_key(key);
            return Ok(());
        }
        let head = encode::str_len(length(key.len(), "string")?);
        self.data.put(head.as_bytes())?;
        self.data.put(key.as_bytes())?;
        if self.record {
            let key = self.index.push_key(head.as_bytes(), key.as_bytes())?;
            self.set_key(key);
        }
        Ok(())
    }

    /// Keeps `key` for the entry of the innermost map, which is recorded.
    #[inline]
    fn set_key(&mut self, key: Key) {
        if let Some(level) = self.levels.last_mut() {
            level.key = key;
        }
    }

    /// A map's value was written: its entry gets its key.
    #[inline]
    fn value_written(&mut self) {
        if self.record {
            if let Some(level) = self.levels.last() {
                self.index.set_last_key(level.key);
            }
        }
    }

    /// Writes a key of any type; its TOC entries are dropped, its bytes kept for the TOC of a
    /// recorded map.
    fn any_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let (record, limit) = (self.record, self.limit);
        self.in_key += 1;
        self.record = false;
        self.limit = u64::MAX;
        let result = if record {
            let start = self.data.pos;
            self.data.push_spill();
            let result = key.serialize(&mut *self);
            let bytes = self.data.pop_spill();
            debug_assert!(result.is_err() || self.data.pos - start == bytes.len() as u64);
            let result = result.and_then(|()| {
                self.data.put_uncounted(&bytes)?;
                let key = self.index.push_key(&[], &bytes)?;
                self.set_key(key);
                Ok(())
            });
            self.data.recycle_spill(bytes);
            result
        } else {
            key.serialize(&mut *self)
        };
        self.in_key -= 1;
        self.record = record;
        self.limit = limit;
        result
    }
}
