//! The lazy reader: opens a file by its header and TOC bytes, then walks the TOC in place,
//! skipping the entries it does not need, and reads and decodes only the data of the node
//! asked for.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{Read, Seek, SeekFrom};
use std::rc::Rc;

use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorKind, Position, Result};

use super::codec::{Codec, Cur, Item};
use super::layout::{write_array_len, write_map_len, Header, DATA_START};
use super::path::{IntoPath, Segment};
use super::{de, Config};

mod private {
    pub trait Sealed {}
}

/// Where a [`Reader`] gets its bytes: a byte slice ([`SliceSource`]) or any `Read + Seek`
/// ([`IoSource`]). Sealed.
pub trait Source: private::Sealed {
    #[doc(hidden)]
    fn size(&self) -> Result<u64>;
    /// Reads `len` bytes at `offset`; the caller has checked the range against `size`.
    #[doc(hidden)]
    fn read_at(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>>;
    /// The whole input, when it is in memory.
    #[doc(hidden)]
    fn whole(&self) -> Option<&[u8]>;
}

/// A [`Source`] over bytes in memory.
#[derive(Debug, Clone, Copy)]
pub struct SliceSource<'a>(&'a [u8]);

impl private::Sealed for SliceSource<'_> {}

impl Source for SliceSource<'_> {
    fn size(&self) -> Result<u64> {
        Ok(self.0.len() as u64)
    }
    fn read_at(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let start =
            usize::try_from(offset).map_err(|_| Error::at(ErrorKind::UnexpectedEnd, offset))?;
        self.0
            .get(start..start.saturating_add(len))
            .map(Cow::Borrowed)
            .ok_or_else(|| Error::at(ErrorKind::UnexpectedEnd, offset))
    }
    fn whole(&self) -> Option<&[u8]> {
        Some(self.0)
    }
}

/// A [`Source`] over a seekable reader; every read seeks first.
#[derive(Debug)]
pub struct IoSource<R>(RefCell<R>);

impl<R: Read + Seek> private::Sealed for IoSource<R> {}

impl<R: Read + Seek> Source for IoSource<R> {
    fn size(&self) -> Result<u64> {
        Ok(self.0.borrow_mut().seek(SeekFrom::End(0))?)
    }
    fn read_at(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let mut reader = self.0.borrow_mut();
        reader.seek(SeekFrom::Start(offset))?;
        // `len` was checked against the size; reading through `take` skips zeroing the buffer.
        let mut buf = Vec::with_capacity(len);
        (&mut *reader)
            .take(len as u64)
            .read_to_end(&mut buf)
            .map_err(|e| Error::from(e).or_position(Position::Byte(offset)))?;
        if buf.len() != len {
            return Err(Error::at(
                ErrorKind::UnexpectedEnd,
                offset + buf.len() as u64,
            ));
        }
        Ok(Cow::Owned(buf))
    }
    fn whole(&self) -> Option<&[u8]> {
        None
    }
}

/// One file (the outer one, or one nested in a combined file).
#[derive(Debug)]
struct File {
    /// Absolute offset of its data; TOC positions are relative to this.
    data_start: u64,
    /// Length of the data, which is also where the TOC starts.
    data_len: u64,
    /// Absolute offset of the TOC.
    toc_abs: u64,
    /// The TOC bytes when the source is not in memory.
    toc: Option<Vec<u8>>,
    toc_len: usize,
    /// The codec of its header, data and TOC.
    codec: Codec,
    depth_limit: usize,
}

impl File {
    /// A cursor at `pos` of `buf` (whose first byte is at absolute offset `base`) in this
    /// file's codec.
    fn cur<'s>(&self, buf: &'s [u8], pos: usize, base: u64) -> Cur<'s> {
        self.codec.cursor(buf, pos, base, self.depth_limit)
    }
}

/// A lazy reader of one file.
///
/// Opening reads the 50-byte prefix and the TOC's bytes, nothing else; nothing of the TOC is
/// decoded until a path asks for it, and then only the entries on the way are looked at (the
/// others are skipped without being built). Reading a node reads exactly the bytes of its value.
///
/// ```
/// use serde_formats::toc::{self, Reader};
/// let bytes = toc::to_bytes(&vec![vec![1u8, 2], vec![3]]).unwrap();
/// let reader = Reader::from_slice(&bytes).unwrap();
/// assert_eq!(reader.get::<u8>("0/1").unwrap(), 2);
/// assert_eq!(reader.root().unwrap().len().unwrap(), 2);
/// ```
#[derive(Debug)]
pub struct Reader<S> {
    source: S,
    /// Bytes in the source: a bound on any value reassembled from parts.
    size: u64,
    config: Config,
    root_file: Rc<File>,
}

impl<'a> Reader<SliceSource<'a>> {
    /// A reader over a whole file in memory.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BadMagic`], or [`ErrorKind::BadToc`] for a header whose TOC lies outside
    /// the bytes, or [`ErrorKind::UnexpectedEnd`].
    pub fn from_slice(bytes: &'a [u8]) -> Result<Self> {
        Reader::with_source(SliceSource(bytes), 0, Config::default())
    }

    /// Like [`Reader::from_slice`] with another magic or depth limit.
    ///
    /// # Errors
    ///
    /// As [`Reader::from_slice`].
    pub fn from_slice_with(bytes: &'a [u8], config: &Config) -> Result<Self> {
        Reader::with_source(SliceSource(bytes), 0, config.clone())
    }
}

impl<R: Read + Seek> Reader<IoSource<R>> {
    /// A reader over a file that starts at `reader`'s current position.
    ///
    /// # Errors
    ///
    /// As [`Reader::from_slice`], and [`ErrorKind::Io`].
    pub fn new(reader: R) -> Result<Self> {
        Reader::new_with(reader, &Config::default())
    }

    /// Like [`Reader::new`] with another magic or depth limit.
    ///
    /// # Errors
    ///
    /// As [`Reader::new`].
    pub fn new_with(mut reader: R, config: &Config) -> Result<Self> {
        let base = reader.stream_position()?;
        Reader::with_source(IoSource(RefCell::new(reader)), base, config.clone())
    }
}

impl Reader<IoSource<std::fs::File>> {
    /// Opens the file at `path`.
    ///
    /// # Errors
    ///
    /// As [`Reader::new`].
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Self> {
        Reader::new(std::fs::File::open(path)?)
    }
}

impl<S: Source> Reader<S> {
    fn with_source(source: S, base: u64, config: Config) -> Result<Self> {
        let size = source.size()?;
        let root_file = Rc::new(open_file(&source, base, size, &config)?);
        Ok(Reader {
            source,
            size,
            config,
            root_file,
        })
    }

    /// The root node.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BadToc`] when the root TOC entry is malformed.
    pub fn root(&self) -> Result<Node<'_, S>> {
        self.entry(&self.root_file, 0, 0)
    }

    /// The node at `path`, without reading its data.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PathNotFound`] for a key or index that is not there, and any error of a
    /// malformed file met on the way.
    pub fn node(&self, path: impl IntoPath) -> Result<Node<'_, S>> {
        let path = path.into_path()?;
        let mut node = self.root()?;
        for segment in path.segments() {
            node = node.child(segment.clone())?;
        }
        Ok(node)
    }

    /// Decodes the value at `path` (a [`Path`](super::Path), or its string form `a/0/b`).
    ///
    /// # Errors
    ///
    /// As [`Reader::node`], and any decoding error of the value.
    pub fn get<T: DeserializeOwned>(&self, path: impl IntoPath) -> Result<T> {
        self.node(path)?.decode()
    }

    /// Decodes the whole file.
    ///
    /// # Errors
    ///
    /// As [`Reader::get`].
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T> {
        self.root()?.decode()
    }

    /// The codec of the file (of its outer file, for a combined file: its members have their
    /// own, see [`Node::codec`]).
    pub fn codec(&self) -> Codec {
        self.root_file.codec
    }

    /// The length of the data section (the header's `toc_start`).
    pub fn data_len(&self) -> u64 {
        self.root_file.data_len
    }

    /// The length of the TOC (the header's `toc_len`).
    pub fn toc_len(&self) -> u64 {
        self.root_file.toc_len as u64
    }

    /// Walks the whole TOC (not the data) and counts what it holds.
    ///
    /// ```
    /// use serde_formats::toc::{self, Reader};
    /// let rows: Vec<Vec<u32>> = (0..4).map(|i| vec![i; 300]).collect();
    /// let bytes = toc::to_bytes_with(&rows, &toc::Config::new().block_size(100)).unwrap();
    /// let stats = Reader::from_slice(&bytes).unwrap().toc_stats().unwrap();
    /// // The root lists its 4 rows; each row is a list of blocks of trivial values.
    /// assert_eq!((stats.nodes, stats.depth, stats.block_lists), (5, 1, 4));
    /// assert_eq!(stats.toc_bytes + stats.data_bytes + 50, bytes.len() as u64);
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BadToc`] and the other errors of a malformed TOC,
    /// [`ErrorKind::DepthLimitExceeded`].
    pub fn toc_stats(&self) -> Result<TocStats> {
        let mut stats = TocStats {
            toc_bytes: self.root_file.toc_len as u64,
            data_bytes: self.root_file.data_len,
            ..TocStats::default()
        };
        self.walk_toc(&self.root()?, 0, &mut stats)?;
        Ok(stats)
    }

    fn walk_toc(&self, node: &Node<'_, S>, depth: usize, stats: &mut TocStats) -> Result<()> {
        stats.nodes += 1;
        stats.depth = stats.depth.max(depth);
        let toc = self.toc(&node.file);
        let base = node.file.toc_abs;
        let (t_pos, is_map) = match node.kind {
            Kind::Data { .. } => return Ok(()),
            Kind::Blocks { p_pos } => {
                stats.block_lists += 1;
                return node.blocks(toc, p_pos, |_, _, _| {
                    stats.blocks += 1;
                    Ok(false)
                });
            }
            Kind::Map { t_pos, .. } => (t_pos, true),
            Kind::Array { t_pos, .. } => (t_pos, false),
        };
        stats.indexed += 1;
        let mut cur = node.file.cur(toc, t_pos, base);
        let n = match cur.head()? {
            Item::Map(n) | Item::Array(n) => n,
            _ => return Err(bad_toc(base + t_pos as u64, "\"t\" changed")),
        };
        for _ in 0..n {
            if is_map {
                cur.skip_value()?;
            }
            let child = self.entry(&node.file, cur.pos(), node.depth + 1)?;
            if !Rc::ptr_eq(&child.file, &node.file) {
                stats.nested_files += 1;
                stats.toc_bytes += child.file.toc_len as u64;
            }
            self.walk_toc(&child, depth + 1, stats)?;
            cur.skip_value()?;
        }
        Ok(())
    }

    fn toc<'s>(&'s self, file: &'s File) -> &'s [u8] {
        match &file.toc {
            Some(toc) => toc,
            None => self
                .source
                .whole()
                .and_then(|all| {
                    let start = usize::try_from(file.toc_abs).ok()?;
                    all.get(start..start.checked_add(file.toc_len)?)
                })
                .unwrap_or(&[]),
        }
    }

    fn read_data(&self, file: &File, start: u64, end: u64) -> Result<Cow<'_, [u8]>> {
        // start <= end <= data_len was checked when the span was read from the TOC.
        let len =
            usize::try_from(end - start).map_err(|_| Error::at(ErrorKind::LengthPastEnd, start))?;
        self.source.read_at(file.data_start + start, len)
    }

    /// Parses the TOC entry at `pos` of `file`'s TOC.
    fn entry(&self, file: &Rc<File>, pos: usize, depth: usize) -> Result<Node<'_, S>> {
        if depth > self.config.depth_limit {
            return Err(toc_too_deep(self.config.depth_limit)
                .with_position(crate::Position::Byte(file.toc_abs + pos as u64)));
        }
        let toc = self.toc(file);
        let mut cur = file.cur(toc, pos, file.toc_abs);
        let at = cur.offset();
        let len = match cur.head()? {
            Item::Map(len) => len,
            Item::UInt(start) => return self.nested(file, start, at, depth),
            _ => {
                return Err(bad_toc(
                    at,
                    "a TOC entry must be a map or a nested file start",
                ))
            }
        };
        let mut p = None;
        let mut t = None;
        for i in 0..len {
            let key_at = cur.offset();
            let key = match cur.head()? {
                Item::Str(n) => cur.take(n as usize)?,
                _ => return Err(bad_toc(key_at, "TOC entry keys are strings")),
            };
            match key {
                b"p" => p = Some(cur.pos()),
                b"t" => t = Some(cur.pos()),
                // Unknown keys are skipped: later writers may add fields.
                _ => {}
            }
            // The last value ("t", as msglc orders them) may be a huge table: never walk it here.
            if i + 1 < len {
                cur.skip_value()?;
            }
        }
        let span = |p: usize| -> Result<(u64, u64)> {
            let mut cur = file.cur(toc, p, file.toc_abs);
            read_span(&mut cur, file.data_len)
        };
        let kind = match (t, p) {
            (Some(t_pos), p) => {
                let span = p.map(span).transpose()?;
                let mut cur = file.cur(toc, t_pos, file.toc_abs);
                let at = cur.offset();
                match cur.head()? {
                    Item::Map(_) => Kind::Map { span, t_pos },
                    Item::Array(_) => Kind::Array { span, t_pos },
                    _ => return Err(bad_toc(at, "\"t\" must be a map or an array")),
                }
            }
            (None, Some(p_pos)) => {
                let mut cur = file.cur(toc, p_pos, file.toc_abs);
                let at = cur.offset();
                let n = cur.array_len(ErrorKind::BadToc)?;
                // [start, end] has integers; a block list has arrays.
                if n > 0 && cur.next_is_array()? {
                    Kind::Blocks { p_pos }
                } else if n == 0 {
                    return Err(bad_toc(at, "empty \"p\""));
                } else {
                    let (start, end) = span(p_pos)?;
                    Kind::Data { start, end }
                }
            }
            (None, None) => return Err(bad_toc(at, "a TOC entry needs \"p\" or \"t\"")),
        };
        Ok(Node {
            reader: self,
            file: Rc::clone(file),
            kind,
            depth,
        })
    }

    /// Opens the file nested at data position `start` of `parent` and returns its root.
    fn nested(&self, parent: &File, start: u64, at: u64, depth: usize) -> Result<Node<'_, S>> {
        if start >= parent.data_len {
            return Err(bad_toc(at, "nested file starts outside the data"));
        }
        let base = parent.data_start + start;
        let limit = parent.data_start + parent.data_len;
        let file = Rc::new(open_file(&self.source, base, limit, &self.config)?);
        self.entry(&file, 0, depth + 1)
    }
}

fn open_file<S: Source>(source: &S, base: u64, limit: u64, config: &Config) -> Result<File> {
    let prefix_len = (limit.saturating_sub(base)).min(DATA_START as u64) as usize;
    let prefix = source.read_at(base, prefix_len)?;
    let header = Header::parse(&prefix, &config.magic, base)?;
    let data_start = base + DATA_START as u64;
    let toc_abs = data_start
        .checked_add(header.toc_start)
        .filter(|&abs| abs <= limit)
        .ok_or_else(|| bad_toc(base + 30, "TOC start past the end of the file"))?;
    let toc_end = toc_abs
        .checked_add(header.toc_len)
        .filter(|&end| end <= limit)
        .ok_or_else(|| bad_toc(base + 40, "TOC length past the end of the file"))?;
    let toc_len = (toc_end - toc_abs) as usize;
    let toc = match source.whole() {
        Some(_) => None,
        None => Some(source.read_at(toc_abs, toc_len)?.into_owned()),
    };
    Ok(File {
        data_start,
        data_len: header.toc_start,
        toc_abs,
        toc,
        toc_len,
        codec: Codec::of_prefix(&prefix),
        depth_limit: config.depth_limit,
    })
}

#[cold]
fn bad_toc(at: u64, message: &str) -> Error {
    Error::with_message(ErrorKind::BadToc, message).with_position(Position::Byte(at))
}

/// Reads `[start, end]` and checks `start <= end <= data_len`.
fn read_span(cur: &mut Cur<'_>, data_len: u64) -> Result<(u64, u64)> {
    let at = cur.offset();
    if cur.array_len(ErrorKind::BadToc)? != 2 {
        return Err(bad_toc(at, "a position is [start, end]"));
    }
    let start = cur.uint(ErrorKind::BadToc)?;
    let end = cur.uint(ErrorKind::BadToc)?;
    if start > end || end > data_len {
        return Err(bad_toc(at, "position outside the data or inverted"));
    }
    Ok((start, end))
}

/// The encoded length of an unsigned integer from its first byte, in one codec.
type UintLen = fn(u8) -> Option<usize>;

/// Skips `count` TOC entries, with a fast path for the `{"p": [uint, uint]}` leaves that
/// make up long arrays.
fn skip_entries(cur: &mut Cur<'_>, count: u64) -> Result<()> {
    let toc = cur.slice();
    // The leaf's bytes up to its first integer, and the length of an integer by its first byte.
    let (prefix, uint_len): (&[u8], UintLen) = match cur {
        Cur::Mp(_) => (&[0x81, 0xa1, b'p', 0x92], msgpack_uint_len),
        Cur::Cb(_) => (&[0xa1, 0x61, b'p', 0x82], cbor_uint_len),
    };
    let mut pos = cur.pos();
    let mut left = count;
    while left > 0 {
        if let Some(next) = leaf_entry_end(toc, pos, prefix, uint_len) {
            pos = next;
            left -= 1;
            continue;
        }
        cur.set_pos(pos);
        cur.skip_value()?;
        pos = cur.pos();
        left -= 1;
    }
    cur.set_pos(pos);
    Ok(())
}

/// The end of a `{"p": [uint, uint]}` entry at `pos`, if that is what is there.
#[inline]
fn leaf_entry_end(toc: &[u8], pos: usize, prefix: &[u8], uint_len: UintLen) -> Option<usize> {
    let ints = pos + prefix.len();
    if toc.get(pos..ints)? != prefix {
        return None;
    }
    let start_len = uint_len(*toc.get(ints)?)?;
    let end_len = uint_len(*toc.get(ints + start_len)?)?;
    let next = ints + start_len + end_len;
    (next <= toc.len()).then_some(next)
}

/// The encoded length of a MessagePack unsigned integer from its marker.
#[inline]
fn msgpack_uint_len(marker: u8) -> Option<usize> {
    match marker {
        0x00..=0x7f => Some(1),
        0xcc => Some(2),
        0xcd => Some(3),
        0xce => Some(5),
        0xcf => Some(9),
        _ => None,
    }
}

/// The encoded length of a CBOR unsigned integer from its initial byte.
#[inline]
fn cbor_uint_len(initial: u8) -> Option<usize> {
    match initial {
        0x00..=0x17 => Some(1),
        0x18 => Some(2),
        0x19 => Some(3),
        0x1a => Some(5),
        0x1b => Some(9),
        _ => None,
    }
}

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
    reader: &'r Reader<S>,
    file: Rc<File>,
    pub(super) kind: Kind,
    depth: usize,
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
            Kind::Data { start, end } => Ok(Some((start, end))),
            Kind::Map { span, .. } | Kind::Array { span, .. } => Ok(span),
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
        if self.depth >= self.reader.config.depth_limit {
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
    fn blocks(
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

    fn child_node(&self, kind: Kind) -> Node<'r, S> {
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
        let limit = self.reader.config.depth_limit;
        match self.kind {
            Kind::Map { t_pos, .. } => {
                let toc = self.reader.toc(&self.file);
                let mut cur = self.file.cur(toc, t_pos, self.file.toc_abs);
                let Item::Map(n) = cur.head()? else {
                    return Err(bad_toc(self.file.toc_abs + t_pos as u64, "\"t\" changed"));
                };
                let mut keys = Vec::with_capacity((n as usize).min(cur.remaining()));
                for _ in 0..n {
                    let from = cur.pos();
                    cur.skip_value()?;
                    keys.push(self.file.codec.decode(
                        &toc[from..cur.pos()],
                        self.file.toc_abs + from as u64,
                        limit,
                    )?);
                    cur.skip_value()?;
                }
                Ok(keys)
            }
            Kind::Data { start, end } => {
                let bytes = self.reader.read_data(&self.file, start, end)?;
                let base = self.file.data_start + start;
                let mut cur = self.file.cur(&bytes, 0, base);
                let Item::Map(n) = cur.head()? else {
                    return Err(Error::with_message(ErrorKind::Unsupported, "not a map")
                        .with_position(Position::Byte(base)));
                };
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
            Kind::Array { .. } | Kind::Blocks { .. } => Err(Error::with_message(
                ErrorKind::Unsupported,
                "an array has no keys",
            )),
        }
    }

    /// The child at one path segment: a map key or an array index.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PathNotFound`] when there is no such child, and errors of a malformed file.
    pub fn child(&self, segment: impl Into<Segment>) -> Result<Node<'r, S>> {
        let segment = segment.into();
        if self.depth >= self.reader.config.depth_limit {
            return Err(toc_too_deep(self.reader.config.depth_limit));
        }
        let toc = self.reader.toc(&self.file);
        match self.kind {
            Kind::Map { t_pos, .. } => {
                let mut cur = self.file.cur(toc, t_pos, self.file.toc_abs);
                let Item::Map(n) = cur.head()? else {
                    return Err(bad_toc(cur.offset(), "\"t\" changed"));
                };
                let found = find_key(&mut cur, n, &segment)?;
                match found {
                    Some(pos) => self.reader.entry(&self.file, pos, self.depth + 1),
                    None => Err(not_found(&segment)),
                }
            }
            Kind::Array { t_pos, .. } => {
                let mut cur = self.file.cur(toc, t_pos, self.file.toc_abs);
                let Item::Array(n) = cur.head()? else {
                    return Err(bad_toc(cur.offset(), "\"t\" changed"));
                };
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
        match self.kind {
            Kind::Data { start, end }
            | Kind::Map {
                span: Some((start, end)),
                ..
            }
            | Kind::Array {
                span: Some((start, end)),
                ..
            } => {
                let bytes = self.reader.read_data(&self.file, start, end)?;
                self.file
                    .codec
                    .decode(&bytes, self.file.data_start + start, limit)
            }
            _ => {
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

    fn append_msgpack(&self, out: &mut Vec<u8>) -> Result<()> {
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
        let toc = self.reader.toc(&self.file);
        match self.kind {
            Kind::Data { start, end }
            | Kind::Map {
                span: Some((start, end)),
                ..
            }
            | Kind::Array {
                span: Some((start, end)),
                ..
            } => {
                let bytes = self.reader.read_data(&self.file, start, end)?;
                let base = self.file.data_start + start;
                self.file.codec.append_msgpack(&bytes, base, limit, out)?;
            }
            Kind::Map { span: None, t_pos } => {
                let mut cur = self.file.cur(toc, t_pos, self.file.toc_abs);
                let Item::Map(n) = cur.head()? else {
                    return Err(bad_toc(cur.offset(), "\"t\" changed"));
                };
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
                let mut cur = self.file.cur(toc, t_pos, self.file.toc_abs);
                let Item::Array(n) = cur.head()? else {
                    return Err(bad_toc(cur.offset(), "\"t\" changed"));
                };
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
fn find_key(cur: &mut Cur<'_>, n: u32, segment: &Segment) -> Result<Option<usize>> {
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

fn resolve_index(segment: &Segment, len: u64) -> Result<u64> {
    let index = segment.as_int().ok_or_else(|| not_found(segment))?;
    let resolved = if index < 0 {
        len.checked_sub(index.unsigned_abs())
    } else {
        Some(index as u64).filter(|&i| i < len)
    };
    resolved.ok_or_else(|| not_found(segment))
}

#[cold]
fn not_found(segment: &Segment) -> Error {
    Error::with_message(ErrorKind::PathNotFound, format!("no child `/{segment}`"))
}

/// A TOC (or a walk through it) nested deeper than the reader's depth limit.
#[cold]
fn toc_too_deep(limit: usize) -> Error {
    Error::with_message(
        ErrorKind::DepthLimitExceeded,
        format!("TOC nested deeper than the depth limit {limit}"),
    )
}
