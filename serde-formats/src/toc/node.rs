//! A node of a TOC file ([`Node`]): its shape, its children found by walking the TOC in
//! place, and the decoding of its data; plus what [`Reader::toc_stats`](super::Reader::toc_stats)
//! counts.

use std::rc::Rc;

use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorKind, Position, Result};
use crate::limits::{self, Nesting};

use super::codec::{Codec, Cur, Item};
use super::de;
use super::layout::{write_array_len, write_map_len};
use super::path::Segment;

use super::reader::{bad_toc, skip_entries, File, Reader};
use super::source::Source;

#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    /// A value known by its data span only: a `{"p": [s, e]}` entry, or a part of one.
    Data { start: u64, end: u64 },
    /// `{"p": [s, e]?, "t": {...}}`.
    Map {
        span: Option<(u64, u64)>,
        t_pos: usize,
    },
    /// `{"p": [s, e]?, "t": [...]}`.
    Array {
        span: Option<(u64, u64)>,
        t_pos: usize,
    },
    /// `{"p": [[count, start, end], ...]}`.
    Blocks { p_pos: usize },
}

impl Kind {
    /// The one data span holding the whole value, when the entry gives one.
    fn data_span(self) -> Option<(u64, u64)> {
        match self {
            Kind::Data { start, end } => Some((start, end)),
            Kind::Map { span, .. } | Kind::Array { span, .. } => span,
            Kind::Blocks { .. } => None,
        }
    }
}

/// How a node's TOC entry describes it (the node table of the [module docs](super)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NodeShape {
    /// Known by its data span only: a scalar, a container the TOC does not index, or a part
    /// of one.
    Value,
    /// A map whose entries the TOC lists (`"t": {...}`).
    Map,
    /// An array whose elements the TOC lists (`"t": [...]`).
    Array,
    /// An array of trivial values cut into blocks (`"p": [[count, start, end], ...]`).
    Blocks,
}

/// One block of a block list: `count` values in the data bytes `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// How many values the block holds.
    pub count: u64,
    /// Where its first value starts, relative to [`Node::data_start`].
    pub start: u64,
    /// Where its last value ends (exclusive).
    pub end: u64,
}

/// What a file's table of contents holds, from [`Reader::toc_stats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TocStats {
    /// TOC entries, the root included (an entry that starts a nested file counts once, as the
    /// root of that file).
    pub nodes: u64,
    /// Entries that list their children (`"t"`): indexed maps and arrays.
    pub indexed: u64,
    /// The deepest entry; the root is at depth 0.
    pub depth: usize,
    /// Entries that are block lists.
    pub block_lists: u64,
    /// Blocks in all block lists.
    pub blocks: u64,
    /// Files nested in a combined file.
    pub nested_files: u64,
    /// Bytes of TOC: the outer file's and those of nested files.
    pub toc_bytes: u64,
    /// Bytes of the outer file's data section (nested files inside it included).
    pub data_bytes: u64,
}

/// A node of a file: a map, array or scalar whose data has not been read yet.
///
/// Obtained from [`Reader::root`], [`Reader::node`] or [`Node::child`]. A node inside a value
/// the TOC does not index (a small container) is found by skipping through that value's bytes.
#[derive(Debug)]
pub struct Node<'r, S> {
    pub(super) reader: &'r Reader<S>,
    pub(super) file: Rc<File>,
    pub(super) kind: Kind,
    pub(super) depth: usize,
}

impl<'r, S: Source> Node<'r, S> {
    /// The number of elements (arrays) or entries (maps).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Unsupported`] for a scalar, and errors of a malformed file.
    pub fn len(&self) -> Result<usize> {
        let toc = self.reader.toc(&self.file);
        match self.kind {
            Kind::Map { t_pos, .. } | Kind::Array { t_pos, .. } => {
                match self.file.cur(toc, t_pos, self.file.toc_abs).head()? {
                    Item::Map(n) | Item::Array(n) => Ok(n as usize),
                    _ => Err(bad_toc(self.file.toc_abs + t_pos as u64, "\"t\" changed")),
                }
            }
            Kind::Blocks { p_pos } => {
                let mut total = 0u64;
                self.blocks(toc, p_pos, |count, _, _| {
                    total = total.checked_add(count).ok_or_else(|| {
                        bad_toc(self.file.toc_abs + p_pos as u64, "block counts overflow")
                    })?;
                    Ok(false)
                })?;
                usize::try_from(total).map_err(|_| Error::new(ErrorKind::BadToc))
            }
            Kind::Data { start, end } => {
                let mut head_len = (end - start).min(9);
                let container = match self.file.codec {
                    Codec::MessagePack => true,
                    // A CBOR scalar's head would read it whole; an indefinite-length container
                    // is counted to its break.
                    Codec::Cbor => {
                        let first = *self
                            .reader
                            .read_data(&self.file, start, start + head_len.min(1))?
                            .first()
                            .unwrap_or(&0);
                        if first == 0x9f || first == 0xbf {
                            head_len = end - start;
                        }
                        (0x80..=0xbf).contains(&first)
                    }
                };
                let bytes = self.reader.read_data(&self.file, start, start + head_len)?;
                let mut cur = self.file.cur(&bytes, 0, self.file.data_start + start);
                match if container { cur.head()? } else { Item::Other } {
                    Item::Map(n) | Item::Array(n) => Ok(n as usize),
                    _ => Err(
                        Error::with_message(ErrorKind::Unsupported, "a scalar has no length")
                            .with_position(Position::Byte(self.file.data_start + start)),
                    ),
                }
            }
        }
    }

    /// The codec of the file holding this node (a combined file's members may differ from
    /// the outer file).
    pub fn codec(&self) -> Codec {
        self.file.codec
    }

    /// How the TOC describes this node.
    pub fn shape(&self) -> NodeShape {
        match self.kind {
            Kind::Data { .. } => NodeShape::Value,
            Kind::Map { .. } => NodeShape::Map,
            Kind::Array { .. } => NodeShape::Array,
            Kind::Blocks { .. } => NodeShape::Blocks,
        }
    }

    /// The absolute offset of the data section of the file holding this node (50, or later
    /// for a file nested in a combined file): the origin of [`span`](Self::span) and
    /// [`Block`] positions.
    pub fn data_start(&self) -> u64 {
        self.file.data_start
    }

    /// The data bytes `[start, end)` of this node's value, relative to
    /// [`data_start`](Self::data_start). For a block list, the bytes its blocks cover: from the
    /// first block's start to the last block's end (the TOC does not record the array header
    /// before the first block). `None` for a combined file, whose TOC gives no span.
    ///
    /// # Errors
    ///
    /// Errors of a malformed block list.
    pub fn span(&self) -> Result<Option<(u64, u64)>> {
        match self.kind {
            Kind::Data { .. } | Kind::Map { .. } | Kind::Array { .. } => Ok(self.kind.data_span()),
            Kind::Blocks { .. } => {
                let blocks = self.block_list()?;
                Ok(blocks
                    .first()
                    .zip(blocks.last())
                    .map(|(first, last)| (first.start, last.end)))
            }
        }
    }

    /// The blocks of a block list ([`NodeShape::Blocks`]); empty for other nodes.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BadToc`] for a malformed block list.
    pub fn block_list(&self) -> Result<Vec<Block>> {
        let mut list = Vec::new();
        if let Kind::Blocks { p_pos } = self.kind {
            let toc = self.reader.toc(&self.file);
            self.blocks(toc, p_pos, |count, start, end| {
                list.push(Block { count, start, end });
                Ok(false)
            })?;
        }
        Ok(list)
    }

    /// The first `max` children the TOC lists for an indexed map or array
    /// ([`NodeShape::Map`], [`NodeShape::Array`]), with their keys (maps) or indices (arrays,
    /// as [`Value::UInt`](super::Value::UInt)); empty for other nodes. Reads no data.
    ///
    /// ```
    /// use serde_formats::toc::{self, NodeShape, Reader, Value};
    /// let rows: Vec<Vec<u32>> = (0..3).map(|i| vec![1000 + i; 3000]).collect();
    /// let bytes = toc::to_bytes(&rows).unwrap();
    /// let reader = Reader::from_slice(&bytes).unwrap();
    /// let root = reader.root().unwrap();
    /// assert_eq!(root.shape(), NodeShape::Array);
    /// let children = root.indexed_children(2).unwrap();
    /// assert_eq!(children.len(), 2);
    /// assert_eq!(children[1].0, Value::UInt(1));
    /// assert_eq!(children[1].1.shape(), NodeShape::Blocks);
    /// ```
    ///
    /// # Errors
    ///
    /// Errors of a malformed TOC, and decoding errors of map keys.
    pub fn indexed_children(&self, max: usize) -> Result<Vec<(super::Value, Node<'r, S>)>> {
        let (t_pos, is_map) = match self.kind {
            Kind::Map { t_pos, .. } => (t_pos, true),
            Kind::Array { t_pos, .. } => (t_pos, false),
            Kind::Data { .. } | Kind::Blocks { .. } => return Ok(Vec::new()),
        };
        // The node about to be made is one level deeper than this one.
        if self.depth + 1 > self.reader.config.depth_limit {
            return Err(toc_too_deep(self.reader.config.depth_limit));
        }
        let toc = self.reader.toc(&self.file);
        let base = self.file.toc_abs;
        let mut cur = self.file.cur(toc, t_pos, base);
        let n = match cur.head()? {
            Item::Map(n) | Item::Array(n) => n,
            _ => return Err(bad_toc(base + t_pos as u64, "\"t\" changed")),
        };
        let shown = (n as usize).min(max);
        let mut children = Vec::with_capacity(shown.min(cur.remaining()));
        for index in 0..shown {
            let key = if is_map {
                let from = cur.pos();
                cur.skip_value()?;
                self.file.codec.decode(
                    &toc[from..cur.pos()],
                    base + from as u64,
                    self.reader.config.depth_limit,
                )?
            } else {
                super::Value::UInt(index as u64)
            };
            let child = self.reader.entry(&self.file, cur.pos(), self.depth + 1)?;
            children.push((key, child));
            cur.skip_value()?;
        }
        Ok(children)
    }

    /// Whether [`len`](Self::len) is 0.
    ///
    /// # Errors
    ///
    /// As [`len`](Self::len).
    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.len()? == 0)
    }

    /// Walks a block list, calling `visit(count, start, end)` until it returns true.
    pub(super) fn blocks(
        &self,
        toc: &[u8],
        p_pos: usize,
        mut visit: impl FnMut(u64, u64, u64) -> Result<bool>,
    ) -> Result<()> {
        let mut cur = self.file.cur(toc, p_pos, self.file.toc_abs);
        let n = cur.array_len(ErrorKind::BadToc)?;
        for _ in 0..n {
            let at = cur.offset();
            if cur.array_len(ErrorKind::BadToc)? != 3 {
                return Err(bad_toc(at, "a block is [count, start, end]"));
            }
            let count = cur.uint(ErrorKind::BadToc)?;
            let start = cur.uint(ErrorKind::BadToc)?;
            let end = cur.uint(ErrorKind::BadToc)?;
            if start > end || end > self.file.data_len {
                return Err(bad_toc(at, "block outside the data or inverted"));
            }
            if visit(count, start, end)? {
                break;
            }
        }
        Ok(())
    }

    pub(super) fn child_node(&self, kind: Kind) -> Node<'r, S> {
        Node {
            reader: self.reader,
            file: Rc::clone(&self.file),
            kind,
            depth: self.depth + 1,
        }
    }

    /// The keys of a map, decoded as `K` (e.g. `String`, `i64`, or [`Value`](super::Value)).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Unsupported`] if the node is not a map; decoding errors of the keys.
    pub fn keys<K: DeserializeOwned>(&self) -> Result<Vec<K>> {
        match self.kind {
            Kind::Map { t_pos, .. } => {
                let toc = self.reader.toc(&self.file);
                let mut cur = self.file.cur(toc, t_pos, self.file.toc_abs);
                let Item::Map(n) = cur.head()? else {
                    return Err(bad_toc(self.file.toc_abs + t_pos as u64, "\"t\" changed"));
                };
                self.map_keys(cur, n, toc, self.file.toc_abs)
            }
            Kind::Data { start, end } => {
                let bytes = self.reader.read_data(&self.file, start, end)?;
                let base = self.file.data_start + start;
                let mut cur = self.file.cur(&bytes, 0, base);
                let Item::Map(n) = cur.head()? else {
                    return Err(Error::with_message(ErrorKind::Unsupported, "not a map")
                        .with_position(Position::Byte(base)));
                };
                self.map_keys(cur, n, &bytes, base)
            }
            Kind::Array { .. } | Kind::Blocks { .. } => Err(Error::with_message(
                ErrorKind::Unsupported,
                "an array has no keys",
            )),
        }
    }

    /// The keys of the `n` map entries at `cur`, a cursor on `bytes` (which start at file offset
    /// `base`); the values are skipped.
    fn map_keys<K: DeserializeOwned>(
        &self,
        mut cur: Cur<'_>,
        n: u32,
        bytes: &[u8],
        base: u64,
    ) -> Result<Vec<K>> {
        let limit = self.reader.config.depth_limit;
        let mut keys = Vec::with_capacity((n as usize).min(cur.remaining()));
        for _ in 0..n {
            let from = cur.pos();
            cur.skip_value()?;
            keys.push(self.file.codec.decode(
                &bytes[from..cur.pos()],
                base + from as u64,
                limit,
            )?);
            cur.skip_value()?;
        }
        Ok(keys)
    }

    /// A cursor past the head of the TOC `"t"` at `t_pos` of a map (`is_map`) or an array, and
    /// its count of entries or elements.
    #[inline]
    fn toc_container<'t>(
        &self,
        toc: &'t [u8],
        t_pos: usize,
        is_map: bool,
    ) -> Result<(Cur<'t>, u32)> {
        let mut cur = self.file.cur(toc, t_pos, self.file.toc_abs);
        match cur.head()? {
            Item::Map(n) if is_map => Ok((cur, n)),
            Item::Array(n) if !is_map => Ok((cur, n)),
            _ => Err(bad_toc(cur.offset(), "\"t\" changed")),
        }
    }

    /// The child at one path segment: a map key or an array index.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PathNotFound`] when there is no such child, and errors of a malformed file.
    pub fn child(&self, segment: impl Into<Segment>) -> Result<Node<'r, S>> {
        let segment = segment.into();
        // The node about to be made is one level deeper than this one.
        if self.depth + 1 > self.reader.config.depth_limit {
            return Err(toc_too_deep(self.reader.config.depth_limit));
        }
        let toc = self.reader.toc(&self.file);
        match self.kind {
            Kind::Map { t_pos, .. } => {
                let (mut cur, n) = self.toc_container(toc, t_pos, true)?;
                let found = find_key(&mut cur, n, &segment)?;
                match found {
                    Some(pos) => self.reader.entry(&self.file, pos, self.depth + 1),
                    None => Err(not_found(&segment)),
                }
            }
            Kind::Array { t_pos, .. } => {
                let (mut cur, n) = self.toc_container(toc, t_pos, false)?;
                let index = resolve_index(&segment, u64::from(n))?;
                skip_entries(&mut cur, index)?;
                self.reader.entry(&self.file, cur.pos(), self.depth + 1)
            }
            Kind::Blocks { p_pos } => {
                let total = self.len()? as u64;
                let index = resolve_index(&segment, total)?;
                let mut first = 0u64;
                let mut found = None;
                self.blocks(toc, p_pos, |count, start, end| {
                    if index < first + count {
                        found = Some((index - first, start, end));
                        return Ok(true);
                    }
                    first += count;
                    Ok(false)
                })?;
                let (skip, start, end) = found.ok_or_else(|| not_found(&segment))?;
                let bytes = self.reader.read_data(&self.file, start, end)?;
                let mut cur = self.file.cur(&bytes, 0, self.file.data_start + start);
                let short = |_| {
                    bad_toc(
                        self.file.data_start + start,
                        "block holds fewer values than its count",
                    )
                };
                cur.skip_values(skip).map_err(short)?;
                let from = cur.pos();
                cur.skip_value().map_err(short)?;
                Ok(self.child_node(Kind::Data {
                    start: start + from as u64,
                    end: start + cur.pos() as u64,
                }))
            }
            Kind::Data { start, end } => {
                let bytes = self.reader.read_data(&self.file, start, end)?;
                let base = self.file.data_start + start;
                let mut cur = self.file.cur(&bytes, 0, base);
                let (from, to) = match cur.head()? {
                    Item::Map(n) => {
                        let pos =
                            find_key(&mut cur, n, &segment)?.ok_or_else(|| not_found(&segment))?;
                        cur.set_pos(pos);
                        cur.skip_value()?;
                        (pos, cur.pos())
                    }
                    Item::Array(n) => {
                        let index = resolve_index(&segment, u64::from(n))?;
                        cur.skip_values(index)?;
                        let from = cur.pos();
                        cur.skip_value()?;
                        (from, cur.pos())
                    }
                    _ => return Err(not_found(&segment)),
                };
                Ok(self.child_node(Kind::Data {
                    start: start + from as u64,
                    end: start + to as u64,
                }))
            }
        }
    }

    /// Decodes this node's value.
    ///
    /// # Errors
    ///
    /// Decoding errors, and errors of a malformed file.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T> {
        let limit = self.reader.config.depth_limit;
        match self.kind.data_span() {
            Some((start, end)) => {
                let bytes = self.reader.read_data(&self.file, start, end)?;
                self.file
                    .codec
                    .decode(&bytes, self.file.data_start + start, limit)
            }
            None => {
                let bytes = self.to_msgpack()?;
                de::from_slice(&bytes, 0, limit)
            }
        }
    }

    /// The plain MessagePack bytes of this node's value, as a file without a TOC would hold
    /// them. Combined files and block lists are reassembled from their parts.
    ///
    /// # Errors
    ///
    /// Errors of a malformed file, e.g. [`ErrorKind::BadToc`] for a block whose values do not
    /// match its count.
    pub fn to_msgpack(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.append_msgpack(&mut out)?;
        Ok(out)
    }

    pub(super) fn append_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
        let limit = self.reader.config.depth_limit;
        if self.depth > self.reader.config.depth_limit {
            return Err(toc_too_deep(self.reader.config.depth_limit));
        }
        // Parts of a well-formed file are disjoint, so the reassembled value is never larger
        // than the file (times the growth of transcoding CBOR); a TOC that points many entries
        // at the same bytes could otherwise grow it exponentially.
        let max_len = self.reader.size.saturating_mul(super::cbor::MAX_GROWTH);
        if out.len() as u64 > max_len {
            return Err(Error::with_message(
                ErrorKind::BadToc,
                "TOC entries overlap: the reassembled value is larger than the file",
            ));
        }
        if let Some((start, end)) = self.kind.data_span() {
            let bytes = self.reader.read_data(&self.file, start, end)?;
            let base = self.file.data_start + start;
            return self.file.codec.append_msgpack(&bytes, base, limit, out);
        }
        let toc = self.reader.toc(&self.file);
        match self.kind {
            Kind::Data { .. }
            | Kind::Map { span: Some(_), .. }
            | Kind::Array { span: Some(_), .. } => {} // read whole above
            Kind::Map { span: None, t_pos } => {
                let (mut cur, n) = self.toc_container(toc, t_pos, true)?;
                write_map_len(out, n as usize);
                for _ in 0..n {
                    let from = cur.pos();
                    cur.skip_value()?;
                    let key = &toc[from..cur.pos()];
                    let key_at = self.file.toc_abs + from as u64;
                    self.file.codec.append_msgpack(key, key_at, limit, out)?;
                    let child = self.reader.entry(&self.file, cur.pos(), self.depth + 1)?;
                    child.append_msgpack(out)?;
                    cur.skip_value()?;
                }
            }
            Kind::Array { span: None, t_pos } => {
                let (mut cur, n) = self.toc_container(toc, t_pos, false)?;
                write_array_len(out, n as usize);
                for _ in 0..n {
                    let child = self.reader.entry(&self.file, cur.pos(), self.depth + 1)?;
                    child.append_msgpack(out)?;
                    cur.skip_value()?;
                }
            }
            Kind::Blocks { p_pos } => {
                let total = self.len()?;
                let total = u32::try_from(total).map_err(|_| {
                    bad_toc(self.file.toc_abs + p_pos as u64, "more than 2^32 elements")
                })?;
                write_array_len(out, total as usize);
                self.blocks(toc, p_pos, |count, start, end| {
                    let bytes = self.reader.read_data(&self.file, start, end)?;
                    let mut cur = self.file.cur(&bytes, 0, self.file.data_start + start);
                    cur.skip_values(count).map_err(|_| {
                        bad_toc(
                            self.file.data_start + start,
                            "block holds fewer values than its count",
                        )
                    })?;
                    if !cur.is_empty() {
                        return Err(bad_toc(
                            cur.offset(),
                            "block holds more values than its count",
                        ));
                    }
                    if self.file.codec == Codec::MessagePack {
                        out.extend_from_slice(&bytes);
                    } else {
                        let base = self.file.data_start + start;
                        let mut cur = self.file.cur(&bytes, 0, base);
                        while !cur.is_empty() {
                            let from = cur.pos();
                            cur.skip_value()?;
                            let item = &bytes[from..cur.pos()];
                            self.file
                                .codec
                                .append_msgpack(item, base + from as u64, limit, out)?;
                        }
                    }
                    if out.len() as u64 > max_len {
                        return Err(bad_toc(
                            self.file.toc_abs + p_pos as u64,
                            "blocks overlap: the reassembled value is larger than the file",
                        ));
                    }
                    Ok(false)
                })?;
            }
        }
        Ok(())
    }
}

/// Scans `n` map entries for the key `segment`; returns the position of the matching value.
/// A [`Segment::Key`] matches string keys only; a [`Segment::Index`] matches the integer key,
/// else the first string key spelled as that integer (see the path docs).
pub(super) fn find_key(cur: &mut Cur<'_>, n: u32, segment: &Segment) -> Result<Option<usize>> {
    let (text, int) = match segment {
        Segment::Key(text) => (text.clone(), None),
        Segment::Index(i) => (i.to_string(), Some(*i)),
    };
    let mut text_match = None;
    for _ in 0..n {
        let key_start = cur.pos();
        let (matches_text, key_int) = match cur.head()? {
            Item::Str(len) => (cur.take(len as usize)? == text.as_bytes(), None),
            Item::UInt(v) => (false, i64::try_from(v).ok()),
            Item::Int(v) => (false, Some(v)),
            _ => {
                cur.set_pos(key_start);
                cur.skip_value()?;
                (false, None)
            }
        };
        let value_pos = cur.pos();
        if int.is_some() && key_int == int {
            return Ok(Some(value_pos));
        }
        if matches_text {
            if int.is_none() {
                return Ok(Some(value_pos));
            }
            text_match = text_match.or(Some(value_pos));
        }
        cur.skip_value()?;
    }
    Ok(text_match)
}

pub(super) fn resolve_index(segment: &Segment, len: u64) -> Result<u64> {
    let index = segment.as_int().ok_or_else(|| not_found(segment))?;
    let resolved = if index < 0 {
        len.checked_sub(index.unsigned_abs())
    } else {
        Some(index as u64).filter(|&i| i < len)
    };
    resolved.ok_or_else(|| not_found(segment))
}

#[cold]
pub(super) fn not_found(segment: &Segment) -> Error {
    Error::with_message(ErrorKind::PathNotFound, format!("no child `/{segment}`"))
}

/// A TOC (or a walk through it) nested deeper than the reader's depth limit.
#[cold]
pub(super) fn toc_too_deep(limit: usize) -> Error {
    limits::too_deep(Nesting::Toc, limit)
}
