//! The lazy reader: opens a file by its header and TOC bytes, then walks the TOC in place,
//! skipping the entries it does not need, and reads and decodes only the data of the node
//! asked for.
//! The nodes it hands out are in `node.rs`; the byte sources in `source.rs`.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{Read, Seek};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorKind, Position, Result};

use super::codec::{Codec, Cur, Item};
use super::layout::{Header, DATA_START};
use super::path::IntoPath;
use super::Config;

use super::node::{toc_too_deep, Kind, Node, TocStats};
use super::source::{IoSource, SliceSource, Source};
use super::stats::{Counters, ReadStats};

/// One file (the outer one, or one nested in a combined file).
#[derive(Debug, Clone)]
pub(super) struct File {
    /// Absolute offset of its data; TOC positions are relative to this.
    pub(super) data_start: u64,
    /// Length of the data, which is also where the TOC starts.
    pub(super) data_len: u64,
    /// Absolute offset of the TOC.
    pub(super) toc_abs: u64,
    /// The TOC bytes when the source is not in memory (shared, so that a remote reader can
    /// keep an opened file between operations).
    pub(super) toc: Option<Arc<Vec<u8>>>,
    pub(super) toc_len: usize,
    /// The codec of its header, data and TOC.
    pub(super) codec: Codec,
    pub(super) depth_limit: usize,
}

impl File {
    /// A cursor at `pos` of `buf` (whose first byte is at absolute offset `base`) in this
    /// file's codec.
    pub(super) fn cur<'s>(&self, buf: &'s [u8], pos: usize, base: u64) -> Cur<'s> {
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
    pub(super) source: S,
    /// Bytes in the source: a bound on any value reassembled from parts.
    pub(super) size: u64,
    pub(super) config: Config,
    pub(super) root_file: Rc<File>,
    /// What was read from the source, for [`Reader::stats`].
    pub(super) counters: Counters,
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
    pub(super) fn with_source(source: S, base: u64, config: Config) -> Result<Self> {
        let size = source.size()?;
        let counters = Counters::default();
        let root_file = Rc::new(open_file(&source, &counters, base, size, &config)?);
        Ok(Reader {
            source,
            size,
            config,
            root_file,
            counters,
        })
    }

    /// A reader over `source` whose outer file is already open (the remote readers keep it
    /// between operations).
    #[cfg(feature = "object-store")]
    pub(super) fn from_parts(source: S, size: u64, config: Config, root_file: File) -> Self {
        Reader {
            source,
            size,
            config,
            root_file: Rc::new(root_file),
            counters: Counters::default(),
        }
    }

    /// What this reader has read from its source so far: the reads of byte ranges (the
    /// 50-byte prefix and the TOC when opening, then each value and each nested file's prefix
    /// and TOC) and their bytes; their time for a source that is not in memory.
    pub fn stats(&self) -> ReadStats {
        self.counters.stats()
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

    /// Counts `node` and the nodes under it into `stats`. Returns, for an indexed node, where
    /// its "t" table starts and ends in its file's TOC, so that the caller steps over the node
    /// without walking that table a second time ([`skip_node`]): a MessagePack TOC `d` levels
    /// deep is read once, not `d` times.
    pub(super) fn walk_toc(
        &self,
        node: &Node<'_, S>,
        depth: usize,
        stats: &mut TocStats,
    ) -> Result<Option<(usize, usize)>> {
        stats.nodes += 1;
        stats.depth = stats.depth.max(depth);
        let toc = self.toc(&node.file);
        let base = node.file.toc_abs;
        let (t_pos, is_map) = match node.kind {
            Kind::Data { .. } => return Ok(None),
            Kind::Blocks { p_pos } => {
                stats.block_lists += 1;
                node.blocks(toc, p_pos, |_, _, _| {
                    stats.blocks += 1;
                    Ok(false)
                })?;
                return Ok(None);
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
            let same_file = Rc::ptr_eq(&child.file, &node.file);
            if !same_file {
                stats.nested_files += 1;
                stats.toc_bytes += child.file.toc_len as u64;
            }
            let table = self.walk_toc(&child, depth + 1, stats)?;
            // A nested file's entry here is only its start, skipped as a value. In CBOR a node
            // or table may end with a break byte after its last element: skipped whole too.
            let jump = same_file && cur.containers_end_at_last_element();
            skip_node(&mut cur, table.filter(|_| jump))?;
        }
        Ok(Some((t_pos, cur.pos())))
    }

    pub(super) fn toc<'s>(&'s self, file: &'s File) -> &'s [u8] {
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

    pub(super) fn read_data(&self, file: &File, start: u64, end: u64) -> Result<Cow<'_, [u8]>> {
        // start <= end <= data_len was checked when the span was read from the TOC.
        let len =
            usize::try_from(end - start).map_err(|_| Error::at(ErrorKind::LengthPastEnd, start))?;
        read_counted(&self.source, &self.counters, file.data_start + start, len)
    }

    /// Parses the TOC entry at `pos` of `file`'s TOC.
    pub(super) fn entry(&self, file: &Rc<File>, pos: usize, depth: usize) -> Result<Node<'_, S>> {
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
    pub(super) fn nested(
        &self,
        parent: &File,
        start: u64,
        at: u64,
        depth: usize,
    ) -> Result<Node<'_, S>> {
        if start >= parent.data_len {
            return Err(bad_toc(at, "nested file starts outside the data"));
        }
        let base = parent.data_start + start;
        let limit = parent.data_start + parent.data_len;
        let file = Rc::new(open_file(
            &self.source,
            &self.counters,
            base,
            limit,
            &self.config,
        )?);
        self.entry(&file, 0, depth + 1)
    }
}

/// Reads `len` bytes at `offset` of `source` and counts the read (timing it when the source
/// is not in memory).
#[inline]
fn read_counted<'s, S: Source>(
    source: &'s S,
    counters: &Counters,
    offset: u64,
    len: usize,
) -> Result<Cow<'s, [u8]>> {
    counters.read(len);
    if source.whole().is_some() {
        return source.read_at(offset, len);
    }
    let start = Instant::now();
    let bytes = source.read_at(offset, len);
    counters.time_since(start);
    bytes
}

pub(super) fn open_file<S: Source>(
    source: &S,
    counters: &Counters,
    base: u64,
    limit: u64,
    config: &Config,
) -> Result<File> {
    let prefix_len = (limit.saturating_sub(base)).min(DATA_START as u64) as usize;
    let prefix = read_counted(source, counters, base, prefix_len)?;
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
        // Read in place; counted all the same.
        Some(_) => {
            counters.read(toc_len);
            None
        }
        None => Some(Arc::new(
            read_counted(source, counters, toc_abs, toc_len)?.into_owned(),
        )),
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
pub(super) fn bad_toc(at: u64, message: &str) -> Error {
    Error::with_message(ErrorKind::BadToc, message).with_position(Position::Byte(at))
}

/// Reads `[start, end]` and checks `start <= end <= data_len`.
pub(super) fn read_span(cur: &mut Cur<'_>, data_len: u64) -> Result<(u64, u64)> {
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
pub(super) type UintLen = fn(u8) -> Option<usize>;

/// Skips `count` TOC entries, with a fast path for the `{"p": [uint, uint]}` leaves that
/// make up long arrays.
pub(super) fn skip_entries(cur: &mut Cur<'_>, count: u64) -> Result<()> {
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
pub(super) fn leaf_entry_end(
    toc: &[u8],
    pos: usize,
    prefix: &[u8],
    uint_len: UintLen,
) -> Option<usize> {
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
pub(super) fn msgpack_uint_len(marker: u8) -> Option<usize> {
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
pub(super) fn cbor_uint_len(initial: u8) -> Option<usize> {
    match initial {
        0x00..=0x17 => Some(1),
        0x18 => Some(2),
        0x19 => Some(3),
        0x1a => Some(5),
        0x1b => Some(9),
        _ => None,
    }
}

/// Moves `cur` past the TOC node it is at, whose "t" table, at `table` = (start, end), was
/// just walked: that table is jumped over, the node's other fields skipped as values.
fn skip_node(cur: &mut Cur<'_>, table: Option<(usize, usize)>) -> Result<()> {
    let Some((t_pos, t_end)) = table else {
        return cur.skip_value();
    };
    let at = cur.offset();
    let Item::Map(fields) = cur.head()? else {
        return Err(bad_toc(at, "a TOC entry changed while it was walked"));
    };
    for _ in 0..fields {
        cur.skip_value()?;
        if cur.pos() == t_pos {
            cur.set_pos(t_end);
        } else {
            cur.skip_value()?;
        }
    }
    Ok(())
}
