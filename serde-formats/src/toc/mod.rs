//! MessagePack with a table of contents, file-compatible with the Python package
//! [msglc](https://pypi.org/project/msglc/) 261017.
//!
//! A file is one MessagePack value followed by a table of contents (TOC) that records where each
//! large enough part of the value lies, so a [`Reader`] decodes only the part it is asked for.
//!
//! ```
//! use serde_formats::toc::{self, Reader};
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Record { id: u32, name: String }
//! let records: Vec<Record> = (0..3).map(|id| Record { id, name: format!("r{id}") }).collect();
//! let bytes = toc::to_bytes(&records).unwrap();
//! let reader = Reader::from_slice(&bytes).unwrap();
//! assert_eq!(reader.get::<String>("2/name").unwrap(), "r2");
//! assert_eq!(toc::from_bytes::<Vec<Record>>(&bytes).unwrap(), records);
//! ```
//!
//! # Reading files in object storage
//!
//! With the `object-store` feature, `remote::AsyncReader` and `remote::BlockingReader` read
//! files from S3 (and S3-compatible servers), GCS, Azure, HTTP(S) and `file://` URLs with
//! ranged requests, walking the TOC with this module's reader: opening a 90 MB file and reading
//! one value takes 3 requests and under 256 KiB (the `remote` module docs give the figures).
//! Every reader reports what it read as [`ReadStats`] ([`Reader::stats`]).
//!
//! # Wire format
//!
//! Specified in `docs/spec/toc-msgpack.md` (worked examples in §5, decoder errors in §7,
//! differences from msglc in §8); the sections below restate it.
//!
//! Stability: files written by this module are byte-identical to msglc's Python writer for the
//! same value and settings, and that is a promise: any change would be a breaking change made
//! only together with msglc. Every file msglc writes reads here, with its MessagePack codec or
//! its CBOR one ([the CBOR variant](#the-cbor-variant)).
//!
//! ## File layout
//!
//! `magic (30 bytes) | header (20 bytes) | data | toc`, nothing after the TOC.
//!
//! - Magic: 20 zero bytes and ASCII `msglc-2024` ([`DEFAULT_MAGIC`]); configurable
//!   ([`Config::magic`], right-aligned with zero bytes like msglc's `set_magic`), compared
//!   exactly when reading.
//! - Header: `toc_start` then `toc_len`, each a 10-byte field holding the smallest MessagePack
//!   unsigned integer, right-aligned with zero bytes on the left (27 is `00 x9, 1b`; 326 is
//!   `00 x7, cd 01 46`).
//! - Every position is relative to byte 50, the start of the data; `toc_start` is the data
//!   length.
//! - Data: one plain MessagePack value, decodable without the TOC.
//! - TOC: one MessagePack value at `toc_start`, `toc_len` bytes long.
//!
//! ## TOC nodes
//!
//! Every node is a map; `"p"` is written before `"t"`. A position `[start, end]` covers the
//! encoded value (not its map key), end exclusive. With T the [block size](Config::block_size)
//! (8192) and S the [trivial size](Config::trivial_size) (20), a node is *trivial* when it is a
//! `{"p": [s, e]}` node of at most S bytes.
//!
//! | value | node |
//! | --- | --- |
//! | scalar, or container of fewer than T bytes | `{"p": [s, e]}` |
//! | container of at least T bytes, some child not trivial | `{"p": [s, e], "t": {key: child, ...}}` for a map, `{"p": [s, e], "t": [child, ...]}` for an array |
//! | map (or empty container) of at least T bytes, all children trivial | `{"p": [s, e]}` |
//! | array of at least T bytes, all children trivial | blocks: a block closes once `end - block_start >= T`; with two or more blocks `{"p": [[count, start, end], ...]}`, with one `{"p": [s, e]}` |
//! | combined file | `{"t": [start, ...]}` or `{"t": {name: start, ...}}` (no `"p"`), see [`combine_list`]; grows in place, crash-safely, with [`Appender`] |
//! | an integer where a node is expected | a whole file nested at that data position |
//!
//! ## Size: the trivial size
//!
//! Every value of more than S bytes inside an indexed container gets its own `{"p": [s, e]}`
//! node, 8 to 22 bytes of TOC. A list of many small records just over S bytes each therefore
//! costs up to a third more than its data: for a million records `{id, name, score, flags}` of
//! about 47 bytes (benches/toc.rs, shape B) the file is 1.30x the plain MessagePack
//! (rmp-serde with field names). msglc writes exactly the same file, so the default stays.
//!
//! Raising the trivial size to the size of such records ([`Config::trivial_size`], msglc's
//! `configure(trivial_size=...)`) makes them trivial: the list is cut into blocks of about T
//! bytes (`{"p": [[count, start, end], ...]}`) and the same file is 1.002x the plain
//! MessagePack with S = 48 or 64. The cost is on the reading side: a path into one record
//! decodes its whole block (at most about T bytes) instead of the record alone. msglc writes
//! the same bytes as this module for any S (tested with S = 64 in both directions), as long as
//! it is at most the block size (see below).
//!
//! ## serde data model
//!
//! | serde type | MessagePack written | also accepted when reading |
//! | --- | --- | --- |
//! | `bool` | `c2` / `c3` | |
//! | `i8`..`i64`, `u8`..`u64`, `i128`/`u128` in range | smallest integer; non-negative values use the unsigned markers (`05`, `cc c8`, `cd`, `ce`, `cf`), negative ones `e0..ff`, `d0`..`d3` | any integer width |
//! | `f32`, `f64` | always float64 `cb` (msglc writes every float as float64) | float32 `ca`, and integers for floats |
//! | newtype struct [`F32_STRUCT_NAME`] around an `f32` ([`Value::F32`]) | float32 `ca` | |
//! | newtype struct [`EXT_STRUCT_NAME`] around `(i8, bytes)` ([`Value::Ext`]), as rmp-serde | ext `d4`..`d8`, `c7`..`c9`, smallest | |
//! | `char`, `str` | fixstr / str8 / str16 / str32, smallest | |
//! | bytes (`serde_bytes`) | bin8 / bin16 / bin32, smallest | str (into `Vec<u8>` visitors that take it) |
//! | `None`, `()`, unit struct | nil `c0` | |
//! | `Some(v)` | `v` | |
//! | sequence, tuple, tuple struct | array, smallest header | |
//! | map | map, keys of any type | |
//! | struct | map keyed by field name, in field order | array of the fields in order |
//! | unit variant | the variant name as a string | `{name: nil}` |
//! | newtype / tuple / struct variant | `{name: value}`, `{name: [..]}`, `{name: {..}}` (externally tagged) | |
//!
//! An extension (the timestamp, type -1, included) is read as a newtype struct around
//! `(type, data)`, as rmp-serde does: [`Value`] takes it as [`Value::Ext`]; types that take no
//! newtype struct report an error at the extension's offset.
//! Containers of unknown length are buffered until their count is known (the header comes
//! first); everything else streams.
//!
//! ## Decisions where msglc is silent
//!
//! - The reader walks only the TOC entries on a path's way and reads only the asked node's data
//!   bytes; it checks every position it uses (`start <= end <= data length`, nested files inside
//!   the parent's data, block values matching block counts) and reports a malformed file as an
//!   error with a byte offset, never a panic. Unknown keys in a TOC node are skipped.
//! - [`Reader`] accepts any block boundaries (msglc's own Rust writer closes blocks at `> T`).
//! - A header field may also be written as a fixed-width `cf` + u64, right-aligned.
//! - Paths keep empty keys and never unpickle anything (msglc does both); see [`path`](Path).
//! - msglc's `configure()` clamps the trivial size to the block size; [`Config`] does not, so
//!   set both to msglc's effective values to get identical files.
//! - **Depth.** The depth of a value is the number of arrays and maps (an enum variant's
//!   `{name: ..}` map included) enclosing its deepest part: a scalar alone is 0, `[1]` is 1,
//!   `{"a": [1]}` is 2. [`DEFAULT_DEPTH_LIMIT`] (128, [`Config::depth_limit`]) binds the writer
//!   and the reader alike: a value of depth 128 is written and read back, one of depth 129 is
//!   refused by the writer, and by the reader when another writer made it, both with
//!   `DepthLimitExceeded` naming the limit (the reader adds the offset). A TOC node's depth
//!   is its distance from the root node (0; an entry pointing into a combined file's part counts
//!   one more); leaves have entries too, so the TOC of a value the writer accepts is at most as
//!   deep as the value and the reader walks all of it. Combining adds a level that
//!   [`Combiner`] does not check (it copies parts without decoding them): parts of depth 128
//!   combine into a file whose parts read back but whose whole value is refused.
//! - msglc's CBOR variant is read, never written; see below.
//!
//! ## The CBOR variant
//!
//! msglc writes the same layout with CBOR (RFC 8949) instead of MessagePack when given
//! `packer=CBORCodec()`: the data, the TOC (same nodes, same keys) and the header integers
//! are CBOR, and each header field holds its integer *left*-aligned, zero bytes after it (18045
//! is `19 46 7d 00 x7`). As msglc does, the reader tells the codec by the first header byte:
//! zero for MessagePack, anything else for CBOR ([`Reader::codec`]). A combined file may hold
//! members of either codec, each told by its own header ([`Node::codec`]).
//!
//! CBOR values are read as the [`Value`] (and serde data) that msglc's MessagePack file of the
//! same Python object gives:
//!
//! | CBOR | read as |
//! | --- | --- |
//! | unsigned / negative integer | [`Value::UInt`] / [`Value::Int`]; below -2^63: `Unsupported` |
//! | float32 | [`Value::F32`], kept exact (as a MessagePack float32) |
//! | float16, float64 | [`Value::F64`], widened exactly (Python has one float type; cbor2 writes NaN and infinities as float16) |
//! | byte / text string, definite or indefinite length | [`Value::Bin`] / [`Value::Str`] (chunks joined) |
//! | array / map, definite or indefinite length | [`Value::Array`] / [`Value::Map`], entries in order |
//! | `false`, `true`, `null` | [`Value::Bool`], [`Value::Nil`] |
//! | tag 2 / 3 (bignum) | the integer when it fits 64 bits (as RFC 8949 says it is equal to it), else `Unsupported` |
//! | tag 55799 (self-described CBOR) | the tagged item |
//! | any other tag, `undefined`, other simple values | `Unsupported`, at the item's offset |
//!
//! Malformed CBOR (a stray break, a reserved byte, a two-byte simple value below 32, an
//! indefinite map missing a value) is [`ErrorKind::BadCbor`] at its offset. Nesting, of
//! definite or indefinite containers and tags, is bounded by the depth limit; a count larger
//! than the remaining bytes is refused before anything is allocated. [`Node::to_msgpack`] gives
//! the value as MessagePack (at most 3 times the CBOR's size); decoding goes through it, and an
//! error found there names the offset of the CBOR item behind it.

/// Builder-style setters that store their argument in the field of the same name: one body
/// for the option structs' many (`Config` here, `RemoteOptions` in `remote`).
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident($arg:ident: $ty:ty);)*) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(mut self, $arg: $ty) -> Self {
                self.$name = $arg;
                self
            }
        )*
    };
}

mod append;
mod cbor;
mod codec;
mod combine;
mod data;
mod de;
mod encode;
mod ext;
mod index;
mod layout;
#[cfg(test)]
mod limit_tests;
mod msgpack;
mod node;
mod path;
mod reader;
#[cfg(feature = "object-store")]
pub mod remote;
mod ser;
mod source;
mod stats;
#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tests;
mod value;
mod writer;

use std::io::{Seek, Write};

use serde::{de::DeserializeOwned, Serialize};

use crate::error::{Error, ErrorKind, Result};

pub use append::{append_list, append_map, append_value, AppendStep, Appender};
pub use codec::Codec;
pub use combine::{combine_list, combine_map, Combiner};
pub use layout::{DATA_START, DEFAULT_MAGIC, MAGIC_LEN};
pub use node::{Block, Node, NodeShape, TocStats};
pub use path::{IntoPath, Path, Segment};
pub use reader::Reader;
pub use source::{IoSource, SliceSource, Source};
pub use stats::ReadStats;
pub use value::{Value, EXT_STRUCT_NAME, F32_STRUCT_NAME};
pub use writer::Writer;

use layout::Header;

/// How deeply arrays and maps may nest, in values and in the TOC, unless [`Config::depth_limit`]
/// says otherwise; see "Depth" in the module docs.
pub use crate::limits::DEFAULT_DEPTH_LIMIT;

/// Settings of the writer and reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    block_size: u64,
    trivial_size: u64,
    magic: [u8; MAGIC_LEN],
    depth_limit: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            block_size: 8192,
            trivial_size: 20,
            magic: DEFAULT_MAGIC,
            depth_limit: DEFAULT_DEPTH_LIMIT,
        }
    }
}

impl Config {
    /// msglc's defaults: block size 8192, trivial size 20, magic [`DEFAULT_MAGIC`], and a
    /// depth limit of 128.
    pub fn new() -> Self {
        Config::default()
    }

    setters! {
        /// The block size T (msglc's `small_obj_optimization_threshold`): containers smaller
        /// than this are not indexed, and arrays of trivial values are cut into blocks of about
        /// this size.
        block_size(block_size: u64);
        /// The trivial size S (msglc's `trivial_size`): values of at most this many bytes are
        /// trivial. Lists of trivial values are cut into blocks rather than given one TOC node
        /// per element: raising it shrinks the TOC of lists of small records (see "Size: the
        /// trivial size" in the [module docs](self)).
        trivial_size(trivial_size: u64);
        /// The maximum nesting depth of values and TOC nodes, for writing and reading alike
        /// (default [`DEFAULT_DEPTH_LIMIT`]).
        depth_limit(depth_limit: usize);
    }

    /// The magic, at most 30 bytes, right-aligned with zero bytes as msglc does.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Unsupported`] for a magic longer than 30
    /// bytes.
    pub fn magic(mut self, magic: &[u8]) -> Result<Self> {
        if magic.len() > MAGIC_LEN {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                "magic longer than 30 bytes",
            ));
        }
        self.magic = [0; MAGIC_LEN];
        self.magic[MAGIC_LEN - magic.len()..].copy_from_slice(magic);
        Ok(self)
    }

    /// The block size.
    pub fn get_block_size(&self) -> u64 {
        self.block_size
    }

    /// The trivial size.
    pub fn get_trivial_size(&self) -> u64 {
        self.trivial_size
    }

    /// The 30-byte magic.
    pub fn get_magic(&self) -> &[u8; MAGIC_LEN] {
        &self.magic
    }
}

/// Serializes `value` into a new file in memory.
///
/// # Errors
///
/// Errors of the `Serialize` implementation, [`ErrorKind::DepthLimitExceeded`], and
/// [`ErrorKind::Unsupported`] for strings, byte strings or
/// containers longer than 2^32 - 1.
///
/// The smallest file, the worked example of `docs/spec/toc-msgpack.md` §5.2:
///
/// ```
/// let bytes = serde_formats::toc::to_bytes(&7u8).unwrap();
/// let mut expected = b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0msglc-2024".to_vec();
/// expected.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 1]); // toc_start: 1 byte of data
/// expected.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 6]); // toc_len: 6 bytes of TOC
/// expected.push(0x07); // the data
/// expected.extend_from_slice(&[0x81, 0xa1, b'p', 0x92, 0x00, 0x01]); // {"p": [0, 1]}
/// assert_eq!(bytes, expected);
/// ```
pub fn to_bytes<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    to_bytes_with(value, &Config::default())
}

/// [`to_bytes`] with settings.
///
/// # Errors
///
/// As [`to_bytes`].
pub fn to_bytes_with<T: ?Sized + Serialize>(value: &T, config: &Config) -> Result<Vec<u8>> {
    let mut buffer = Vec::new();
    to_bytes_into_with(&mut buffer, value, config)?;
    Ok(buffer)
}

/// Appends the file of `value` to `buffer`, keeping what it already holds: one buffer, cleared
/// between files, serves many without allocating again.
///
/// ```
/// let mut buffer = Vec::new();
/// for n in 0..3u8 {
///     buffer.clear();
///     serde_formats::toc::to_bytes_into(&mut buffer, &n).unwrap();
///     assert_eq!(buffer, serde_formats::toc::to_bytes(&n).unwrap());
/// }
/// ```
///
/// # Errors
///
/// As [`to_bytes`]; on error `buffer` keeps its old contents and its length.
pub fn to_bytes_into<T: ?Sized + Serialize>(buffer: &mut Vec<u8>, value: &T) -> Result<()> {
    to_bytes_into_with(buffer, value, &Config::default())
}

/// [`to_bytes_into`] with settings.
///
/// # Errors
///
/// As [`to_bytes_into`].
pub fn to_bytes_into_with<T: ?Sized + Serialize>(
    buffer: &mut Vec<u8>,
    value: &T,
    config: &Config,
) -> Result<()> {
    Writer::with_config(config.clone()).to_bytes_into(buffer, value)
}

/// Serializes `value` as a file starting at `writer`'s current position: a placeholder header,
/// the data streamed as it is serialized, the TOC, then a seek back to write the header, and a
/// seek to the end of the file.
///
/// The header comes before the data but depends on its length, so `writer` must seek. For a
/// writer that cannot, call [`to_bytes`] and write the bytes. On error the writer holds a
/// partial file with a zero header (which no reader accepts); [`write_file`] never leaves one.
///
/// # Errors
///
/// As [`to_bytes`], and [`ErrorKind::Io`].
pub fn to_writer<W: Write + Seek, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    to_writer_with(writer, value, &Config::default())
}

/// [`to_writer`] with settings.
///
/// # Errors
///
/// As [`to_writer`].
pub fn to_writer_with<W: Write + Seek, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
    config: &Config,
) -> Result<()> {
    Writer::with_config(config.clone()).to_writer(writer, value)
}

/// Writes `value` to the file at `path` the way `cp` and editors write, through
/// [`OutputFile`](crate::output::OutputFile): a regular file (or a new path) is replaced
/// atomically by a temporary file in the same directory, synced and renamed over it, so readers
/// see the old file or the whole new one; the new file keeps the old one's permissions (a new
/// path gets what `File::create` gives, on Unix `0o666` minus the umask). A symbolic link is
/// followed and its target replaced; a device or FIFO is written in place (the file is built in
/// memory first, since the header needs a seek); a read-only file is refused. The full rules
/// are in the [`output`](crate::output) module.
///
/// # Errors
///
/// As [`to_writer`]; [`ErrorKind::Io`] naming the path when it cannot be written (read-only,
/// a directory, a missing directory). On error the temporary file is removed and a regular
/// `path` is untouched.
pub fn write_file<T: ?Sized + Serialize>(
    path: impl AsRef<std::path::Path>,
    value: &T,
) -> Result<()> {
    write_file_with(path, value, &Config::default())
}

/// [`write_file`] with settings.
///
/// # Errors
///
/// As [`write_file`].
pub fn write_file_with<T: ?Sized + Serialize>(
    path: impl AsRef<std::path::Path>,
    value: &T,
    config: &Config,
) -> Result<()> {
    let path = path.as_ref();
    let io_error = |err: std::io::Error| {
        Error::with_message(
            ErrorKind::Io,
            format_args!("cannot write {}: {err}", path.display()),
        )
    };
    let mut file = crate::output::OutputFile::create(path).map_err(io_error)?;
    if file.is_temporary() {
        let mut buffered = std::io::BufWriter::with_capacity(1 << 20, &mut file);
        to_writer_with(&mut buffered, value, config)?;
        buffered.flush().map_err(io_error)?;
    } else {
        let bytes = to_bytes_with(value, config)?;
        file.write_all(&bytes).map_err(io_error)?;
    }
    file.commit().map_err(io_error)
}

/// Decodes a whole file (plain or combined).
///
/// # Errors
///
/// [`ErrorKind::BadMagic`], [`ErrorKind::BadToc`],
/// [`ErrorKind::TrailingBytes`] for bytes after the TOC, and
/// decoding errors.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    from_bytes_with(bytes, &Config::default())
}

/// [`from_bytes`] with another magic or depth limit.
///
/// # Errors
///
/// As [`from_bytes`].
pub fn from_bytes_with<T: DeserializeOwned>(bytes: &[u8], config: &Config) -> Result<T> {
    let (value, rest) = take_from_bytes_with(bytes, config)?;
    if !rest.is_empty() {
        return Err(Error::at(
            ErrorKind::TrailingBytes,
            (bytes.len() - rest.len()) as u64,
        ));
    }
    Ok(value)
}

/// Decodes the file at the start of `bytes` and returns the bytes after it.
///
/// # Errors
///
/// As [`from_bytes`], except that bytes after the TOC are returned, not an error.
pub fn take_from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<(T, &[u8])> {
    take_from_bytes_with(bytes, &Config::default())
}

fn take_from_bytes_with<'a, T: DeserializeOwned>(
    bytes: &'a [u8],
    config: &Config,
) -> Result<(T, &'a [u8])> {
    let header = Header::parse(bytes, &config.magic, 0)?;
    let len = bytes.len() as u64;
    let toc_abs = (DATA_START as u64)
        .checked_add(header.toc_start)
        .filter(|&abs| abs <= len)
        .ok_or_else(|| past_end(MAGIC_LEN as u64))?;
    let end = toc_abs
        .checked_add(header.toc_len)
        .filter(|&end| end <= len)
        .ok_or_else(|| past_end(MAGIC_LEN as u64 + 10))?;
    let file = &bytes[..end as usize];
    let value = Reader::from_slice_with(file, config)?.decode()?;
    Ok((value, &bytes[end as usize..]))
}

#[cold]
fn past_end(offset: u64) -> Error {
    Error::with_message(ErrorKind::BadToc, "TOC past the end of the input")
        .with_position(crate::Position::Byte(offset))
}
