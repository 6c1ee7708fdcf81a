//! serde -> MessagePack, building the table of contents while the data streams out.
//!
//! Every value records one entry in the [`Index`] (the TOC under construction); a container,
//! when it ends, has the index replace its children's entries by its own node. The data goes
//! straight to the crate's byte sink ([`Output`]); only containers of unknown length are
//! buffered until their element count, and so their header, is known.

use serde::ser::{self, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::limits::{Depth, Nesting};
use crate::output::Output;

use super::encode::{self, Head};
use super::index::{Index, Key, Open};
use super::Config;

/// The data bytes: written to the sink, or into spill buffers while a container of unknown
/// length is open. Positions are logical: a buffered container's header counts only when it
/// is finally written, and its children are then shifted by the header's length.
pub(super) struct Data<O> {
    sink: O,
    pos: u64,
    spills: Vec<Vec<u8>>,
    active_spills: usize,
}

/// What a writer allocates as it goes, handed from one file to the next by
/// [`super::Writer`]: the index under construction (entry stack, node and key arenas, scratch)
/// and the spill buffers of containers of unknown length. Kept, their capacity makes the next
/// file of the same shape allocate nothing.
pub(super) struct Memory {
    pub(super) index: Index,
    spills: Vec<Vec<u8>>,
}

impl Memory {
    pub(super) fn new(config: &Config) -> Self {
        Memory {
            index: Index::new(config.block_size, config.trivial_size),
            spills: Vec::new(),
        }
    }

    /// Empties everything for a new file written with `config`, keeping the capacity.
    pub(super) fn reset(&mut self, config: &Config) {
        self.index.reset(config.block_size, config.trivial_size);
    }
}

impl<O: Output> Data<O> {
    fn new(sink: O, spills: Vec<Vec<u8>>) -> Self {
        Data {
            sink,
            pos: 0,
            spills,
            active_spills: 0,
        }
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
    #[inline]
    fn put_uncounted(&mut self, bytes: &[u8]) -> Result<()> {
        if self.active_spills == 0 {
            self.sink.put(bytes)
        } else {
            self.spills[self.active_spills - 1].extend_from_slice(bytes);
            Ok(())
        }
    }

    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.pos += bytes.len() as u64;
        self.put_uncounted(bytes)
    }

    /// Writes the first `len` bytes of `bytes`, a short item built in a fixed buffer (see
    /// [`Output::put_prefix`]).
    #[inline]
    fn put_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) -> Result<()> {
        let len = len.min(N);
        self.pos += len as u64;
        if self.active_spills == 0 {
            self.sink.put_prefix(bytes, len)
        } else {
            self.spills[self.active_spills - 1].put_prefix(bytes, len)
        }
    }

    /// Writes an encoded head or scalar.
    #[inline]
    fn put_head(&mut self, head: Head) -> Result<()> {
        let (bytes, len) = head.padded();
        self.put_prefix(bytes, len)
    }
}

/// Where an open container started.
struct Frame {
    open: Open,
    declared: Option<usize>,
}

/// The serializer: data to an [`Output`], TOC entries to an [`Index`].
pub(super) struct Writer<O> {
    data: Data<O>,
    index: Index,
    depth: Depth,
    /// Containers open now.
    open: usize,
    /// The next `f32` is a [`super::F32_STRUCT_NAME`] payload: written as float32.
    float32: bool,
}

fn too_long(what: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format!("{what} longer than MessagePack allows (2^32 - 1)"),
    )
}

fn length(len: usize, what: &str) -> Result<u32> {
    u32::try_from(len).map_err(|_| too_long(what))
}

impl<O: Output> Writer<O> {
    /// A writer to `sink` working in `memory`, which must be new or [reset](Memory::reset)
    /// for `config`.
    pub(super) fn with_memory(sink: O, config: &Config, memory: Memory) -> Self {
        Writer {
            data: Data::new(sink, memory.spills),
            index: memory.index,
            depth: Depth::new(config.depth_limit),
            open: 0,
            float32: false,
        }
    }

    /// The sink, the data length, and the memory, whose index holds the TOC of what was
    /// serialized (see [`Index::finish_into`]).
    pub(super) fn into_parts(self) -> (O, u64, Memory) {
        let memory = Memory {
            index: self.index,
            spills: self.data.spills,
        };
        (self.data.sink, self.data.pos, memory)
    }

    /// Writes one scalar of at most 9 bytes and records it as a leaf.
    #[inline]
    fn scalar(&mut self, head: Head) -> Result<()> {
        let start = self.data.pos;
        self.data.put_head(head)?;
        self.index.leaf(start, self.data.pos);
        Ok(())
    }

    /// Writes a head and its body (string, byte string, extension) as one leaf.
    #[inline]
    fn with_body(&mut self, head: Head, body: &[u8]) -> Result<()> {
        let start = self.data.pos;
        self.data.put_head(head)?;
        self.data.put(body)?;
        self.index.leaf(start, self.data.pos);
        Ok(())
    }

    fn begin(&mut self, len: Option<usize>, is_map: bool) -> Result<Frame> {
        self.depth.enter(Nesting::Value)?;
        let start = self.data.pos;
        match len {
            Some(n) => {
                let n = length(n, "container")?;
                let head = if is_map {
                    encode::map_len(n)
                } else {
                    encode::array_len(n)
                };
                self.data.put_head(head)?;
            }
            None => self.data.push_spill(),
        }
        self.open += 1;
        Ok(Frame {
            open: self.index.open(start, is_map),
            declared: len,
        })
    }

    fn end(&mut self, frame: Frame) -> Result<()> {
        self.depth.leave();
        self.open -= 1;
        let count = self.index.children(&frame.open);
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
                let content = self.data.pop_spill();
                let n = length(count, "container")?;
                let head = if frame.open_is_map() {
                    encode::map_len(n)
                } else {
                    encode::array_len(n)
                };
                let head = head.as_bytes();
                self.data.put_uncounted(head)?;
                self.data.put_uncounted(&content)?;
                self.data.recycle_spill(content);
                self.data.pos += head.len() as u64;
                self.index.shift(&frame.open, head.len() as u64)?;
            }
        }
        self.index.close(&frame.open, self.data.pos, self.open == 0);
        Ok(())
    }

    /// Writes a `&str` key of a map.
    #[inline]
    fn str_key(&mut self, key: &str) -> Result<Key> {
        let head = encode::str_len(length(key.len(), "string")?);
        if key.len() < 32 {
            // A fixstr, as field names usually are: one piece for the sink and the key arena.
            let mut buf = [0u8; 32];
            buf[0] = head.as_bytes()[0];
            buf[1..=key.len()].copy_from_slice(key.as_bytes());
            let key_ref = self.index.push_short_key(&buf, key.len() + 1)?;
            self.data.put_prefix(&buf, key.len() + 1)?;
            return Ok(key_ref);
        }
        let key_ref = self.index.push_key(head.as_bytes(), key.as_bytes())?;
        self.data.put(head.as_bytes())?;
        self.data.put(key.as_bytes())?;
        Ok(key_ref)
    }

    /// Writes a key of any type; its TOC entries are dropped, its bytes kept for the TOC.
    fn any_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<Key> {
        let mark = self.index.mark();
        let start = self.data.pos;
        self.data.push_spill();
        let result = key.serialize(&mut *self);
        let bytes = self.data.pop_spill();
        result?;
        self.index.rollback(mark);
        debug_assert_eq!(self.data.pos - start, bytes.len() as u64);
        self.data.put_uncounted(&bytes)?;
        let key_ref = self.index.push_key(&[], &bytes)?;
        self.data.recycle_spill(bytes);
        Ok(key_ref)
    }
}

impl Frame {
    fn open_is_map(&self) -> bool {
        self.open.is_map()
    }
}

/// State of an open array or map, and for enum variants the `{variant: ...}` map around it.
pub(super) struct Compound<'a, O> {
    ser: &'a mut Writer<O>,
    frame: Frame,
    outer: Option<(Frame, Key)>,
    pending_key: Key,
}

impl<'a, O: Output> Compound<'a, O> {
    fn end(self) -> Result<()> {
        self.ser.end(self.frame)?;
        if let Some((outer, key)) = self.outer {
            self.ser.index.set_last_key(key);
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
        self.ser.index.set_last_key(key);
        Ok(())
    }
}

impl<'a, O: Output> Writer<O> {
    fn compound(&'a mut self, len: Option<usize>, is_map: bool) -> Result<Compound<'a, O>> {
        let frame = self.begin(len, is_map)?;
        Ok(Compound {
            ser: self,
            frame,
            outer: None,
            pending_key: Key::default(),
        })
    }

    /// Opens `{variant: <container>}`.
    fn variant_compound(
        &'a mut self,
        variant: &'static str,
        len: usize,
        is_map: bool,
    ) -> Result<Compound<'a, O>> {
        let outer = self.begin(Some(1), true)?;
        let key = self.str_key(variant)?;
        let frame = self.begin(Some(len), is_map)?;
        Ok(Compound {
            ser: self,
            frame,
            outer: Some((outer, key)),
            pending_key: Key::default(),
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

/// Serializer methods for `{variant: [...]}` (`false`) and `{variant: {...}}` (`true`).
macro_rules! variants {
    ($lt:lifetime; $($method:ident => $is_map:expr),* $(,)?) => {$(
        fn $method(
            self,
            _name: &'static str,
            _index: u32,
            variant: &'static str,
            len: usize,
        ) -> Result<Compound<$lt, O>> {
            self.variant_compound(variant, len, $is_map)
        }
    )*};
}

impl<'a, O: Output> ser::Serializer for &'a mut Writer<O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, O>;
    type SerializeTuple = Compound<'a, O>;
    type SerializeTupleStruct = Compound<'a, O>;
    type SerializeTupleVariant = Compound<'a, O>;
    type SerializeMap = Compound<'a, O>;
    type SerializeStruct = Compound<'a, O>;
    type SerializeStructVariant = Compound<'a, O>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.scalar(encode::bool(v))
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
        self.scalar(encode::sint(v))
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
        self.scalar(encode::uint(v))
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
            return self.scalar(encode::f32(v));
        }
        // msglc writes every float as float64.
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.scalar(encode::f64(v))
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0u8; 4];
        self.serialize_str(v.encode_utf8(&mut buf))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        let head = encode::str_len(length(v.len(), "string")?);
        self.with_body(head, v.as_bytes())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let head = encode::bin_len(length(v.len(), "byte string")?);
        self.with_body(head, v)
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.scalar(encode::nil())
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
            let head = encode::ext_head(length(data.len(), "extension")?, tag);
            return self.with_body(head, &data);
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
        self.index.set_last_key(key);
        self.end(frame)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, O>> {
        self.compound(len, false)
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Some(len), false)
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Some(len), false)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, O>> {
        self.compound(len, true)
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Some(len), true)
    }
    variants!('a; serialize_tuple_variant => false, serialize_struct_variant => true);
}

forward_compound!([O: Output] Compound<'_, O>;
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field => element, end;
);
forward_compound!([O: Output] Compound<'_, O>;
    named => field(key, value), end;
);

impl<O: Output> ser::SerializeMap for Compound<'_, O> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.pending_key = self.ser.any_key(key)?;
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)?;
        self.ser.index.set_last_key(self.pending_key);
        Ok(())
    }
    fn end(self) -> Result<()> {
        Compound::end(self)
    }
}
