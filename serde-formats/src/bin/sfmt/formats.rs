//! The formats sfmt knows: names, detection, and conversion to and from [`Value`]s.
//!
//! Every conversion goes through [`Value`], which holds everything every format holds. A value
//! the target format has no exact form for is refused before anything is written (see
//! [`crate::value::check`]); the mapping of each format is documented on [`encode`]
//! and [`decode`].

use std::fmt;
use std::io::{Seek, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Result};
use serde::Deserialize;
use serde_formats::{dynd, toc, typed_column, vector};
use serde_json::Value as Json;

use crate::value::{self, Value};
use crate::{dynd_json, json, typed_value};

/// A file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Msgpack,
    Toc,
    Dynd,
    TypedColumn,
    Vector,
}

impl Format {
    /// The formats `compare` encodes, in table order.
    pub const COMPARED: [Format; 5] = [
        Format::Json,
        Format::Msgpack,
        Format::Toc,
        Format::Dynd,
        Format::TypedColumn,
    ];

    const NAMES: &'static str = "json, msgpack, toc, dynd, typed-column, vector";

    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Msgpack => "msgpack",
            Format::Toc => "toc",
            Format::Dynd => "dynd",
            Format::TypedColumn => "typed-column",
            Format::Vector => "vector",
        }
    }

    /// Parses a format name given on the command line (`--from`, `--to`).
    pub fn parse(name: &str) -> Result<Format> {
        Format::from_name(&name.to_ascii_lowercase())
            .ok_or_else(|| anyhow!("unknown format `{name}` (known: {})", Format::NAMES))
    }

    /// A format by its name or a file extension.
    fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "json" => Format::Json,
            "msgpack" | "mpk" | "mp" => Format::Msgpack,
            "toc" | "msglc" => Format::Toc,
            "dynd" => Format::Dynd,
            "typed-column" | "typed" | "tc" => Format::TypedColumn,
            "vector" | "vec" | "velox" => Format::Vector,
            _ => return None,
        })
    }

    /// The format a file's extension names, if any.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Format::from_name(&ext)
    }

    /// The format `given` names, else the one `path`'s extension names.
    pub fn given_or_extension(given: Option<&str>, path: &Path) -> Result<Option<Format>> {
        match given {
            Some(name) => Format::parse(name).map(Some),
            None => Ok(Format::from_extension(path)),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `head` starts with a toc file's magic.
pub fn has_toc_magic(head: &[u8]) -> bool {
    head.starts_with(&toc::DEFAULT_MAGIC)
}

/// The format of a whole file's bytes: the toc magic, else the first format that decodes
/// them completely, most specific first (typed-column and dynd check their own structure,
/// JSON and msgpack accept the most).
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    if has_toc_magic(bytes) {
        return Some(Format::Toc);
    }
    if typed_column::View::from_bytes(bytes).is_ok() {
        return Some(Format::TypedColumn);
    }
    if dynd::from_array_bytes(bytes).is_ok() {
        return Some(Format::Dynd);
    }
    if vector::from_bytes(bytes).is_ok() {
        return Some(Format::Vector);
    }
    if json::is_json(bytes) {
        return Some(Format::Json);
    }
    if read_msgpack(bytes).is_ok() {
        return Some(Format::Msgpack);
    }
    None
}

/// The error for a file whose format cannot be told.
pub fn undetected(path: &Path) -> anyhow::Error {
    anyhow!(
        "cannot detect the format of {}: it is not a valid toc, typed-column, dynd, VectorSaver, \
         JSON or msgpack file (name the format with --from: {})",
        path.display(),
        Format::NAMES
    )
}

/// Decodes a file of `format` into a [`Value`], exactly.
///
/// - JSON: plain JSON and the tagged forms of [`crate::json`];
/// - msgpack, toc: every MessagePack value (bin, float32, extensions, keys of any kind in file
///   order, equal keys kept);
/// - dynd: see [`crate::dynd_json`] (complex and `type` values are refused);
/// - typed-column: see [`crate::typed_value`] (Columns are arrays; fractions that are neither
///   integers nor exact float64s are refused).
pub fn decode(format: Format, bytes: &[u8]) -> Result<Value> {
    match format {
        Format::Json => json::read(bytes),
        Format::Msgpack => read_msgpack(bytes),
        Format::Toc => Ok(toc::from_bytes::<Value>(bytes)?),
        Format::Dynd => dynd_json::from_dynd(dynd::from_array_bytes(bytes)?.value),
        Format::TypedColumn => typed_value::read(bytes),
        Format::Vector => bail!(
            "VectorSaver files hold typed vectors, not JSON values: sfmt inspects them but does \
             not convert them"
        ),
    }
}

/// [`decode`], as a `serde_json::Value` in the tagged form (for summaries: keys sorted, integers
/// past 64 bits as floats).
pub fn decode_json(format: Format, bytes: &[u8]) -> Result<Json> {
    json::to_serde_json(&decode(format, bytes)?)
}

/// Settings of the encoders.
#[derive(Debug, Clone)]
pub struct EncodeOptions {
    /// The toc block size.
    pub block_size: u64,
    /// Indent JSON output.
    pub pretty: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            block_size: toc::Config::new().get_block_size(),
            pretty: false,
        }
    }
}

/// Encodes `value` as `format` into `out`, exactly, or refuses with the first value `format`
/// has no form for and its path (nothing is written then).
///
/// - JSON: plain JSON, with the tagged forms of [`crate::json`] for what JSON cannot say;
/// - msgpack: the smallest encodings, float32 as float32, extensions as extensions; integers
///   must fit 64 bits;
/// - toc: the same MessagePack with a table of contents (`--block-size`);
/// - dynd: a self-describing `array[Any]` whose datashape is inferred from the value (see
///   [`dynd_json`]); no extensions, and maps must have distinct string keys;
/// - typed-column: see [`typed_value`]: no null, map, bin, float32, extension or integer
///   outside `i64`.
pub fn encode<W: Write + Seek>(
    format: Format,
    value: &Value,
    out: &mut W,
    options: &EncodeOptions,
) -> Result<()> {
    value::check(value, format)?;
    match format {
        Format::Json => json::write(&mut *out, value, options.pretty)?,
        Format::Msgpack => rmp_serde::encode::write(out, value)?,
        Format::Toc => {
            let config = toc::Config::new().block_size(options.block_size);
            toc::to_writer_with(out, value, &config)?;
        }
        Format::Dynd => dynd::to_writer(out, &dynd_json::to_array(value)?)?,
        Format::TypedColumn => typed_column::to_writer(out, &typed_value::Typed(value))?,
        Format::Vector => bail!("sfmt does not write VectorSaver files"),
    }
    Ok(())
}

/// Encodes `value` into a byte vector (for `compare`).
pub fn encode_to_vec(format: Format, value: &Value, options: &EncodeOptions) -> Result<Vec<u8>> {
    let mut out = std::io::Cursor::new(Vec::new());
    encode(format, value, &mut out, options)?;
    Ok(out.into_inner())
}

/// How deeply arrays, maps and extensions may nest in a plain MessagePack file, read and written
/// (rmp-serde's default).
pub const MSGPACK_DEPTH_LIMIT: usize = 1024;

/// Decodes one whole MessagePack value; bytes after it are an error.
pub fn read_msgpack(bytes: &[u8]) -> Result<Value> {
    let mut de = rmp_serde::Deserializer::new(std::io::Cursor::new(bytes));
    // rmp-serde refuses the container that brings its counter to zero.
    de.set_max_depth(MSGPACK_DEPTH_LIMIT + 1);
    let value = Value::deserialize(&mut de).map_err(|err| {
        let end = de.position();
        msgpack_error(&err, end)
    })?;
    let end = de.position();
    if end != bytes.len() as u64 {
        bail!(
            "{} bytes after the MessagePack value at byte {end}",
            bytes.len() as u64 - end
        );
    }
    Ok(value)
}

/// One line for an rmp-serde error (whose `Display` repeats its source) at byte `at`.
fn msgpack_error(err: &rmp_serde::decode::Error, at: u64) -> anyhow::Error {
    use rmp_serde::decode::Error as E;
    match err {
        E::InvalidMarkerRead(io) | E::InvalidDataRead(io)
            if io.kind() == std::io::ErrorKind::UnexpectedEof =>
        {
            anyhow!("unexpected end of input at byte {at}")
        }
        E::InvalidMarkerRead(io) | E::InvalidDataRead(io) => anyhow!("{io} at byte {at}"),
        E::DepthLimitExceeded => anyhow!(
            "MessagePack nested deeper than the depth limit of {MSGPACK_DEPTH_LIMIT} at byte {at}"
        ),
        other => anyhow!("{other} at byte {at}"),
    }
}

/// A MessagePack value as a `serde_json::Value` in the tagged form of [`crate::json`] (for
/// `inspect`'s previews).
pub fn toc_value_to_json(value: toc::Value) -> Result<Json> {
    json::to_serde_json(&value::from_toc(value)?)
}
