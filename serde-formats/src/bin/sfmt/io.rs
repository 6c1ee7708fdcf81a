//! sfmt's file I/O: opening each input once (a path, or `-` for standard input), reading it
//! into memory within the input size limit, finding its format from the bytes read, and
//! writing outputs through the library's [`OutputFile`] (or to standard output for `-`).
//!
//! An input is opened once and never reopened: a regular file may be read lazily with seeks
//! (toc files by `get` and `inspect`), anything else (standard input, a pipe, a FIFO,
//! process substitution, a device) is read once, front to back, into memory. Reading into
//! memory stops with an error past [`max_input_size`] bytes (`--max-input-size`, default
//! [`DEFAULT_MAX_INPUT`]), so `/dev/zero` or an endless pipe is an error, not an exhausted
//! machine.

use std::fs::File;
use std::io::{BufWriter, Cursor, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{anyhow, bail, Context, Result};
use serde_formats::output::OutputFile;

use crate::formats::{self, Format};
use crate::progress;

/// The default input size limit: 4 GiB, a fixed figure (not a share of the machine's memory)
/// so that a command behaves the same everywhere; decoding takes several times the input's
/// size, so larger inputs need a large machine and an explicit `--max-input-size`.
pub const DEFAULT_MAX_INPUT: u64 = 4 << 30;

static MAX_INPUT: AtomicU64 = AtomicU64::new(DEFAULT_MAX_INPUT);

/// Sets the input size limit for the rest of the run (from `--max-input-size`).
pub fn set_max_input_size(bytes: u64) {
    MAX_INPUT.store(bytes, Ordering::Relaxed);
}

/// The most bytes an input may have when it is read into memory.
pub fn max_input_size() -> u64 {
    MAX_INPUT.load(Ordering::Relaxed)
}

const UNITS: [(&str, u32); 5] = [("", 0), ("K", 10), ("M", 20), ("G", 30), ("T", 40)];

/// Parses a size on the command line: bytes, or a number with `K`, `M`, `G` or `T` (powers of
/// 1024, optionally followed by `iB` or `B`, any case): `4096`, `512M`, `4GiB`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = text[digits.len()..].to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let shift = UNITS
        .iter()
        .find(|(name, _)| *name == unit)
        .map(|(_, shift)| *shift)
        .ok_or_else(|| format!("unknown unit in `{text}` (use bytes, K, M, G or T)"))?;
    let number: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size (like 4096, 512M or 4G)"))?;
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// A size for messages: `4 GiB`, `1 MiB`, else bytes.
pub fn describe_size(bytes: u64) -> String {
    for (name, shift) in UNITS.iter().rev() {
        if *shift > 0 && bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {name}iB", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// Whether `path` is `-`, standard input or output.
pub fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether `path` is standard output: `-`, or a name of the file standard output is
/// (`/dev/stdout`, `/dev/fd/1`, or the file the shell redirected it to), which is then written
/// through standard output alone, as for `-`.
pub fn is_stdout(path: &Path) -> bool {
    if is_std(path) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let ours = std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .and_then(|fd| File::from(fd).metadata());
        if let (Ok(ours), Ok(theirs)) = (ours, std::fs::metadata(path)) {
            return (ours.dev(), ours.ino()) == (theirs.dev(), theirs.ino());
        }
    }
    false
}

/// The name of an input or output in messages.
fn name(path: &Path) -> String {
    if is_std(path) {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    }
}

/// An input, opened once.
#[derive(Debug)]
pub enum Input {
    /// A regular file of `len` bytes, at its start: it may be read lazily and seeked.
    File { file: File, len: u64 },
    /// Standard input or a non-regular file, read whole.
    Bytes(Vec<u8>),
}

/// Opens `path` (`-`: standard input) once: a regular file stays open unread, anything else is
/// read into memory within the input size limit.
pub fn open_input(path: &Path) -> Result<Input> {
    if is_std(path) {
        let stdin = std::io::stdin().lock();
        return read_stream(stdin, 0, path).map(Input::Bytes);
    }
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let metadata = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?;
    if metadata.is_dir() {
        bail!("cannot read {}: it is a directory", path.display());
    }
    if metadata.is_file() {
        Ok(Input::File {
            file,
            len: metadata.len(),
        })
    } else {
        read_stream(file, 0, path).map(Input::Bytes)
    }
}

impl Input {
    /// The first `n` bytes (fewer if the input is shorter), leaving a file at its start.
    pub fn head(&mut self, n: usize, path: &Path) -> Result<Vec<u8>> {
        match self {
            Input::File { file, .. } => {
                let mut head = Vec::with_capacity(n);
                let read = (&mut *file)
                    .take(n as u64)
                    .read_to_end(&mut head)
                    .and_then(|_| file.rewind());
                read.with_context(|| format!("cannot read {}", path.display()))?;
                Ok(head)
            }
            Input::Bytes(bytes) => Ok(bytes[..n.min(bytes.len())].to_vec()),
        }
    }

    /// All the bytes, within the input size limit.
    pub fn into_bytes(self, path: &Path) -> Result<Vec<u8>> {
        match self {
            Input::File { file, len } => {
                if len > max_input_size() {
                    return Err(too_large(path));
                }
                read_stream(file, len, path)
            }
            Input::Bytes(bytes) => Ok(bytes),
        }
    }
}

/// Reads `reader` to its end (`len` bytes as far as is known, for the progress bar), failing
/// once it passes the input size limit.
fn read_stream(reader: impl Read, len: u64, path: &Path) -> Result<Vec<u8>> {
    let limit = max_input_size();
    let bytes = progress::read_all(reader.take(limit.saturating_add(1)), len, "reading")
        .with_context(|| format!("cannot read {}", name(path)))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path));
    }
    Ok(bytes)
}

fn too_large(path: &Path) -> anyhow::Error {
    anyhow!(
        "cannot read {}: it is larger than the input size limit of {} (--max-input-size)",
        name(path),
        describe_size(max_input_size())
    )
}

/// Reads a whole input (`-`: standard input) within the input size limit, with a progress bar
/// when it is large.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    open_input(path)?.into_bytes(path)
}

/// Reads a whole input and finds its format: `given`, else the extension, else the contents.
pub fn read_with_format(path: &Path, given: Option<&str>) -> Result<(Format, Vec<u8>)> {
    let format = Format::given_or_extension(given, path)?;
    let bytes = read(path)?;
    match format.or_else(|| formats::sniff(&bytes)) {
        Some(format) => Ok((format, bytes)),
        None => Err(formats::undetected(path)),
    }
}

/// Where an encoder writes: a buffered temporary file, or memory for outputs that cannot seek
/// (standard output, devices, pipes), copied out once the encoder is done.
pub struct Sink(Place);

enum Place {
    File(BufWriter<OutputFile>),
    /// The bytes, and the device or pipe they go to (none: standard output).
    Memory(Cursor<Vec<u8>>, Option<OutputFile>),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.0 {
            Place::File(file) => file.write(buf),
            Place::Memory(memory, _) => memory.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.0 {
            Place::File(file) => file.flush(),
            Place::Memory(memory, _) => memory.flush(),
        }
    }
}

impl Seek for Sink {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        match &mut self.0 {
            Place::File(file) => file.seek(pos),
            Place::Memory(memory, _) => memory.seek(pos),
        }
    }
}

/// Writes `path` with `write` and returns the bytes written. Standard output ([`is_stdout`])
/// is written through standard output; another path is written through [`OutputFile`]: regular files and new paths atomically (on error they are
/// untouched), links followed, devices and pipes in place, read-only files refused.
pub fn write_output(path: &Path, write: impl FnOnce(&mut Sink) -> Result<()>) -> Result<u64> {
    let context = || format!("cannot write {}", path.display());
    let place = if is_stdout(path) {
        Place::Memory(Cursor::new(Vec::new()), None)
    } else {
        let file = OutputFile::create(path).with_context(context)?;
        if file.is_temporary() {
            Place::File(BufWriter::with_capacity(1 << 20, file))
        } else {
            Place::Memory(Cursor::new(Vec::new()), Some(file))
        }
    };
    let mut sink = Sink(place);
    write(&mut sink)?;
    match sink.0 {
        Place::File(mut buffered) => {
            let written = buffered.seek(SeekFrom::End(0)).with_context(context)?;
            let file = buffered
                .into_inner()
                .map_err(|err| err.into_error())
                .with_context(context)?;
            file.commit().with_context(context)?;
            Ok(written)
        }
        Place::Memory(memory, Some(mut file)) => {
            let bytes = memory.into_inner();
            file.write_all(&bytes).with_context(context)?;
            file.commit().with_context(context)?;
            Ok(bytes.len() as u64)
        }
        Place::Memory(memory, None) => {
            let bytes = memory.into_inner();
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(&bytes)
                .and_then(|()| stdout.flush())
                .context("cannot write to standard output")?;
            Ok(bytes.len() as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("1k"), Ok(1024));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert_eq!(parse_size("2tb"), Ok(2 << 40));
        assert_eq!(parse_size("3B"), Ok(3));
        for bad in ["", "G", "1.5G", "-1", "4X", "4 G", "99999999999999999999"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("20000000T").unwrap_err().contains("too large"));
    }

    #[test]
    fn sizes_are_described_in_the_largest_exact_unit() {
        assert_eq!(describe_size(DEFAULT_MAX_INPUT), "4 GiB");
        assert_eq!(describe_size(1 << 20), "1 MiB");
        assert_eq!(describe_size(3 << 10), "3 KiB");
        assert_eq!(describe_size(1536), "1536 bytes");
        assert_eq!(describe_size(1000), "1000 bytes");
        assert_eq!(describe_size(0), "0 bytes");
    }
}
