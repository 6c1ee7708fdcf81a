//! serde -> MessagePack, building the table of contents while the data streams out.
//!
//! Every value pushes one pending TOC entry on a stack; a container, when it ends, replaces its
//! children's entries by its own node following msglc's rules (see the module docs). Entries are
//! plain `Copy` spans; the few nodes that are more than a span (indexed containers, block lists)
//! wait on a side stack, so dropping millions of leaf entries costs nothing. The data
//! goes straight to the writer; only containers of unknown length are buffered until their
//! element count, and so their header, is known.

use std::io::{self, Write};

use serde::ser::{self, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::limits::{Depth, Nesting};

use super::layout::{group_into_blocks, ArrayNode, MapNode, TocNode};
use super::Config;

/// Counts the data bytes written and redirects them into spill buffers while a container of
/// unknown length is open. Positions are logical: a buffered container's header counts only
/// when it is finally written, and its children are then shifted by the header's length.
pub(crate) struct Output<W> {
    writer: W,
    pos: u64,
    spills: Vec<Vec<u8>>,
    active_spills: usize,
}

impl<W: Write> Output<W> {
    pub(crate) fn new(writer: W) -> Self {
        Output {
            writer,
            pos: 0,
            spills: Vec::new(),
            active_spills: 0,
        }
    }

    pub(crate) fn into_inner(self) -> W {
        self.writer
    }

    fn push_spill(&mut self) {
        if self.active_spills == self.spills.len() {
            self.spills.push(Vec::new());
        } else {
            self.spills[self.active_spills].clear();
        }
        self.active_spills += 1;
    }

    fn pop_spill(&mut self) -> Vec<u8> {
        self.active_spills -= 1;
        std::mem::take(&mut self.spills[self.active_spills])
    }

    fn recycle_spill(&mut self, buffer: Vec<u8>) {
        self.spills[self.active_spills] = buffer;
    }

    /// Writes bytes that were already counted in `pos`.
    fn write_uncounted(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.active_spills > 0 {
            self.spills[self.active_spills - 1].extend_from_slice(bytes);
            Ok(())
        } else {
            self.writer.write_all(bytes)
        }
    }
}

impl<W: Write> Write for Output<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.write_uncounted(buf)?;
        self.pos += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

/// A TOC entry waiting for its parent container to end.
#[derive(Clone, Copy)]
struct Pending {
    /// The value's data, `[start, end)`.
    start: u64,
    end: u64,
    /// Its node is the next one on [`Writer::nodes`], not the leaf `{"p": [start, end]}`.
    indexed: bool,
    /// At most `trivial_size` bytes and a plain `{"p": [s, e]}` node.
    trivial: bool,
    /// The encoded key in the key arena, for entries of maps.
    key: (usize, usize),
}

/// Where an open container started.
struct Frame {
    start: u64,
    stack_base: usize,
    nodes_base: usize,
    keys_base: usize,
    declared: Option<usize>,
    is_map: bool,
}

/// The serializer: data to an [`Output`], TOC entries to a stack.
pub(crate) struct Writer<W> {
    pub(crate) out: Output<W>,
    stack: Vec<Pending>,
    /// The nodes of the `indexed` entries on `stack`, in the same order.
    nodes: Vec<TocNode>,
    keys: Vec<u8>,
    block_size: u64,
    trivial_size: u64,
    depth: Depth,
    /// The next `f32` is a [`super::F32_STRUCT_NAME`] payload: written as float32.
    float32: bool,
}

fn io_error(err: rmp::encode::ValueWriteError<io::Error>) -> Error {
    match err {
        rmp::encode::ValueWriteError::InvalidMarkerWrite(e)
        | rmp::encode::ValueWriteError::InvalidDataWrite(e) => Error::from(e),
    }
}

/// Unwraps rmp's write error into the I/O error it carries.
fn value_io(err: rmp::encode::ValueWriteError<io::Error>) -> io::Error {
    match err {
        rmp::encode::ValueWriteError::InvalidMarkerWrite(e)
        | rmp::encode::ValueWriteError::InvalidDataWrite(e) => e,
    }
}

fn too_long(what: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format!("{what} longer than MessagePack allows (2^32 - 1)"),
    )
}

impl<W: Write> Writer<W> {
    pub(crate) fn new(writer: W, config: &Config) -> Self {
        Writer {
            out: Output::new(writer),
            stack: Vec::new(),
            nodes: Vec::new(),
            keys: Vec::new(),
            block_size: config.block_size,
            trivial_size: config.trivial_size,
            depth: Depth::new(config.depth_limit),
            float32: false,
        }
    }

    /// The TOC of the one value serialized so far, and the data length.
    pub(crate) fn finish(mut self) -> Result<(TocNode, u64, W)> {
        let root = match (self.stack.pop(), self.stack.is_empty()) {
            (Some(root), true) => self.node_of(root),
            _ => {
                return Err(Error::with_message(
                    ErrorKind::Message,
                    "the serializer must be given exactly one value",
                ))
            }
        };
        let len = self.out.pos;
        Ok((root, len, self.out.into_inner()))
    }

    /// Encodes one item of at most 9 bytes on the stack and writes it with one call, then
    /// records it as a leaf.
    #[inline]
    fn small_leaf(&mut self, encode: impl FnOnce(&mut &mut [u8]) -> io::Result<()>) -> Result<()> {
        let start = self.out.pos;
        let mut buf = [0u8; 9];
        let mut rest: &mut [u8] = &mut buf;
        encode(&mut rest)?;
        let used = 9 - rest.len();
        self.out.write_all(&buf[..used])?;
        self.push_leaf(start);
        Ok(())
    }

    #[inline]
    fn push_leaf(&mut self, start: u64) {
        let end = self.out.pos;
        self.stack.push(Pending {
            start,
            end,
            indexed: false,
            trivial: end - start <= self.trivial_size,
            key: (0, 0),
        });
    }

    /// The node of an entry just taken off the stack (its indexed node is the last one).
    fn node_of(&mut self, entry: Pending) -> TocNode {
        match entry.indexed.then(|| self.nodes.pop()).flatten() {
            Some(node) => node,
            None => TocNode::Leaf {
                start: entry.start,
                end: entry.end,
            },
        }
    }

    fn begin(&mut self, len: Option<usize>, is_map: bool) -> Result<Frame> {
        self.depth.enter(Nesting::Value)?;
        let start = self.out.pos;
        match len {
            Some(n) => {
                let n = u32::try_from(n).map_err(|_| too_long("container"))?;
                if is_map {
                    rmp::encode::write_map_len(&mut self.out, n).map_err(io_error)?;
                } else {
                    rmp::encode::write_array_len(&mut self.out, n).map_err(io_error)?;
                }
            }
            None => self.out.push_spill(),
        }
        Ok(Frame {
            start,
            stack_base: self.stack.len(),
            nodes_base: self.nodes.len(),
            keys_base: self.keys.len(),
            declared: len,
            is_map,
        })
    }

    fn end(&mut self, frame: Frame) -> Result<()> {
        self.depth.leave();
        let children = self.stack.len() - frame.stack_base;
        let count = children;
        match frame.declared {
            Some(declared) if declared != count => {
                return Err(Error::with_message(
                    ErrorKind::Message,
                    format!("declared length {declared} but {count} elements were serialized"),
                ))
            }
            Some(_) => {}
            None => {
                // Now the header is known: write it before the buffered content.
                let content = self.out.pop_spill();
                let mut header = Vec::with_capacity(5);
                let n = u32::try_from(count).map_err(|_| too_long("container"))?;
                if frame.is_map {
                    rmp::encode::write_map_len(&mut header, n).map_err(io_error)?;
                } else {
                    rmp::encode::write_array_len(&mut header, n).map_err(io_error)?;
                }
                self.out.write_uncounted(&header)?;
                self.out.write_uncounted(&content)?;
                self.out.recycle_spill(content);
                self.out.pos += header.len() as u64;
                let delta = header.len() as u64;
                for pending in &mut self.stack[frame.stack_base..] {
                    pending.start += delta;
                    pending.end += delta;
                }
                for node in &mut self.nodes[frame.nodes_base..] {
                    node.shift(delta);
                }
            }
        }
        let start = frame.start;
        let end = self.out.pos;
        let children = &self.stack[frame.stack_base..];
        let size = end - start;
        let node = if size < self.block_size {
            None
        } else if children.iter().any(|c| !c.trivial) {
            // Each child's node: its indexed node, in order, or its leaf.
            let mut indexed = self.nodes.drain(frame.nodes_base..);
            let mut node_of = |c: &Pending| match c.indexed.then(|| indexed.next()).flatten() {
                Some(node) => node,
                None => TocNode::Leaf {
                    start: c.start,
                    end: c.end,
                },
            };
            Some(if frame.is_map {
                let keys = &self.keys;
                let entries = children
                    .iter()
                    .map(|c| (keys[c.key.0..c.key.1].into(), node_of(c)))
                    .collect();
                TocNode::Map(Box::new(MapNode {
                    start,
                    end,
                    entries,
                }))
            } else {
                TocNode::Array(Box::new(ArrayNode {
                    start,
                    end,
                    children: children.iter().map(node_of).collect(),
                }))
            })
        } else if frame.is_map || children.is_empty() {
            // A map of trivial children costs more to index than to read whole.
            None
        } else {
            // Only leaves are trivial, so every child is its span.
            let spans = children.iter().map(|c| (c.start, c.end));
            let blocks = group_into_blocks(spans, self.block_size);
            (blocks.len() > 1).then_some(TocNode::Blocks(blocks))
        };
        self.stack.truncate(frame.stack_base);
        self.nodes.truncate(frame.nodes_base);
        self.keys.truncate(frame.keys_base);
        match node {
            Some(node) => {
                self.nodes.push(node);
                self.stack.push(Pending {
                    start,
                    end,
                    indexed: true,
                    trivial: false,
                    key: (0, 0),
                });
            }
            None => self.push_leaf(start),
        }
        Ok(())
    }

    /// Writes a `&str` key of a map.
    fn str_key(&mut self, key: &str) -> Result<(usize, usize)> {
        let from = self.keys.len();
        rmp::encode::write_str(&mut self.keys, key).map_err(|_| too_long("string"))?;
        let to = self.keys.len();
        self.out.write_all(&self.keys[from..to])?;
        Ok((from, to))
    }

    /// Writes a key of any type; its TOC entries are dropped, its bytes kept for the TOC.
    fn any_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(usize, usize)> {
        let stack_len = self.stack.len();
        let nodes_len = self.nodes.len();
        let start = self.out.pos;
        self.out.push_spill();
        let result = key.serialize(&mut *self);
        let bytes = self.out.pop_spill();
        result?;
        self.stack.truncate(stack_len);
        self.nodes.truncate(nodes_len);
        debug_assert_eq!(self.out.pos - start, bytes.len() as u64);
        self.out.write_uncounted(&bytes)?;
        let from = self.keys.len();
        self.keys.extend_from_slice(&bytes);
        self.out.recycle_spill(bytes);
        Ok((from, self.keys.len()))
    }

    fn set_last_key(&mut self, key: (usize, usize)) {
        if let Some(last) = self.stack.last_mut() {
            last.key = key;
        }
    }
}

/// State of an open array or map, and for enum variants the `{variant: ...}` map around it.
pub(crate) struct Compound<'a, W> {
    ser: &'a mut Writer<W>,
    frame: Frame,
    outer: Option<(Frame, (usize, usize))>,
    pending_key: (usize, usize),
}

impl<'a, W: Write> Compound<'a, W> {
    fn end(self) -> Result<()> {
        self.ser.end(self.frame)?;
        if let Some((outer, key)) = self.outer {
            self.ser.set_last_key(key);
            self.ser.end(outer)?;
        }
        Ok(())
    }

    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }

    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        let key = self.ser.str_key(key)?;
        value.serialize(&mut *self.ser)?;
        self.ser.set_last_key(key);
        Ok(())
    }
}

impl<'a, W: Write> Writer<W> {
    fn compound(&'a mut self, len: Option<usize>, is_map: bool) -> Result<Compound<'a, W>> {
        let frame = self.begin(len, is_map)?;
        Ok(Compound {
            ser: self,
            frame,
            outer: None,
            pending_key: (0, 0),
        })
    }

    /// Opens `{variant: <container>}`.
    fn variant_compound(
        &'a mut self,
        variant: &'static str,
        len: usize,
        is_map: bool,
    ) -> Result<Compound<'a, W>> {
        let outer = self.begin(Some(1), true)?;
        let key = self.str_key(variant)?;
        let frame = self.begin(Some(len), is_map)?;
        Ok(Compound {
            ser: self,
            frame,
            outer: Some((outer, key)),
            pending_key: (0, 0),
        })
    }
}

/// Serializer methods for narrow integers: MessagePack picks the smallest encoding of the
/// value, so each is written as its 64-bit widening.
macro_rules! widen {
    ($($method:ident($ty:ty) => $wide:ident),* $(,)?) => {$(
        fn $method(self, v: $ty) -> Result<()> {
            self.$wide(v.into())
        }
    )*};
}

impl<'a, W: Write> ser::Serializer for &'a mut Writer<W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W>;
    type SerializeTuple = Compound<'a, W>;
    type SerializeTupleStruct = Compound<'a, W>;
    type SerializeTupleVariant = Compound<'a, W>;
    type SerializeMap = Compound<'a, W>;
    type SerializeStruct = Compound<'a, W>;
    type SerializeStructVariant = Compound<'a, W>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.small_leaf(|w| rmp::encode::write_bool(w, v))
    }

    widen!(
        serialize_i8(i8) => serialize_i64,
        serialize_i16(i16) => serialize_i64,
        serialize_i32(i32) => serialize_i64,
        serialize_u8(u8) => serialize_u64,
        serialize_u16(u16) => serialize_u64,
        serialize_u32(u32) => serialize_u64,
    );
    fn serialize_i64(self, v: i64) -> Result<()> {
        // Smallest encoding; non-negative values use the unsigned markers, as msglc's codec does.
        self.small_leaf(|w| rmp::encode::write_sint(w, v).map(drop).map_err(value_io))
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        if let Ok(v) = i64::try_from(v) {
            self.serialize_i64(v)
        } else if let Ok(v) = u64::try_from(v) {
            self.serialize_u64(v)
        } else {
            Err(Error::with_message(
                ErrorKind::IntegerOverflow,
                "i128 outside the MessagePack integer range",
            ))
        }
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.small_leaf(|w| rmp::encode::write_uint(w, v).map(drop).map_err(value_io))
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        match u64::try_from(v) {
            Ok(v) => self.serialize_u64(v),
            Err(_) => Err(Error::with_message(
                ErrorKind::IntegerOverflow,
                "u128 outside the MessagePack integer range",
            )),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        if std::mem::take(&mut self.float32) {
            return self.small_leaf(|w| rmp::encode::write_f32(w, v).map_err(value_io));
        }
        // msglc writes every float as float64.
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.small_leaf(|w| rmp::encode::write_f64(w, v).map_err(value_io))
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0u8; 4];
        self.serialize_str(v.encode_utf8(&mut buf))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        let start = self.out.pos;
        let len = u32::try_from(v.len()).map_err(|_| too_long("string"))?;
        rmp::encode::write_str_len(&mut self.out, len).map_err(io_error)?;
        self.out.write_all(v.as_bytes())?;
        self.push_leaf(start);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let start = self.out.pos;
        let len = u32::try_from(v.len()).map_err(|_| too_long("byte string"))?;
        rmp::encode::write_bin_len(&mut self.out, len).map_err(io_error)?;
        self.out.write_all(v)?;
        self.push_leaf(start);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.small_leaf(|w| rmp::encode::write_nil(w))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name == super::EXT_STRUCT_NAME {
            let (tag, data) = super::ext::capture(value)?;
            let start = self.out.pos;
            let len = u32::try_from(data.len()).map_err(|_| too_long("extension"))?;
            rmp::encode::write_ext_meta(&mut self.out, len, tag).map_err(io_error)?;
            self.out.write_all(&data)?;
            self.push_leaf(start);
            return Ok(());
        }
        if name == super::F32_STRUCT_NAME {
            self.float32 = true;
            let result = value.serialize(&mut *self);
            self.float32 = false;
            return result;
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let frame = self.begin(Some(1), true)?;
        let key = self.str_key(variant)?;
        value.serialize(&mut *self)?;
        self.set_last_key(key);
        self.end(frame)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        self.compound(len, false)
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W>> {
        self.compound(Some(len), false)
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.compound(Some(len), false)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        self.variant_compound(variant, len, false)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        self.compound(len, true)
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.compound(Some(len), true)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        self.variant_compound(variant, len, true)
    }
}

forward_compound!([W: Write] Compound<'_, W>;
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field => element, end;
);
forward_compound!([W: Write] Compound<'_, W>;
    named => field(key, value), end;
);

impl<W: Write> ser::SerializeMap for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.pending_key = self.ser.any_key(key)?;
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)?;
        self.ser.set_last_key(self.pending_key);
        Ok(())
    }
    fn end(self) -> Result<()> {
        Compound::end(self)
    }
}
