//! Appending files and values to an existing combined file in place, without rewriting the
//! members already there, safely against crashes: msglc's `append` (its `combine` in mode
//! `"a"`), made crash-safe.
//!
//! The layout, the crash model and the rules are documented on [`Appender`].

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::Position;

use super::combine::{check_file, Entries};
use super::layout::{finish_file_then, Header, DATA_START};
use super::msgpack::{Cursor, Head};
use super::{Codec, Config};

#[cfg(test)]
mod tests;

/// Buffer of the writes of a value and of the TOC.
const BUFFER: usize = 1 << 20;

/// The steps of [`Appender::commit_observed`], each reported once it is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AppendStep {
    /// The new TOC is written after the new members (not yet durable).
    TocWritten,
    /// The new members and TOC are durable; the header still leads to the old TOC.
    Synced,
    /// The header leads to the new TOC (not yet durable).
    HeaderWritten,
    /// The new header is durable: the append is complete.
    Durable,
}

/// Appends files and values to an existing combined file in place, crash-safely.
///
/// # What an append writes
///
/// The new members go after the last byte of the old file, each a whole file (magic and header
/// included), then the new TOC (the old entries, then the new ones, in the form of
/// [`combine_list`](super::combine_list) / [`combine_map`](super::combine_map)); only then is the
/// header switched to the new TOC. The old TOC stays where it was, as dead bytes inside the new
/// data section: nothing points at them. The result is a combined file as the format defines it
/// (`toc_start` is the data length, the TOC is last), which msglc reads, appends to and
/// extracts members from (`raw_data`), as the interop tests check; each append of a
/// dict-form file with `n` names leaves the old TOC, about `n * (name + 4)` bytes, behind.
///
/// msglc's own append differs: it writes its first new member *over* the old TOC (at the old
/// `toc_start`), so it leaves no dead bytes, but a crash between that write and the header
/// leaves a header pointing at a TOC that is no longer there. Both layouts read the same here
/// and in msglc; this module keeps the old TOC to keep the old file whole until the switch.
///
/// # Crash model
///
/// [`Appender::commit`] does, in order: write the new TOC after the new members, `fsync`
/// (`File::sync_data`), write the 50-byte prefix (magic unchanged, `toc_start`, `toc_len`) in one
/// `write` at offset 0, `fsync`. Until the header write, every byte the old header leads to
/// (old members, old TOC) is unchanged, so a process killed at any point before it (or a power
/// loss) leaves the old file, with unreferenced bytes after its TOC; once the header is
/// written, the new members and TOC it points to are already durable, so the file is the new
/// one. No other byte of the old file is ever written.
///
/// - The switch is one `write` of 50 bytes in the first disk sector. A killed process cannot
///   tear it (a signal is acted on between system calls, and a write this small to a regular
///   file is never cut short); a power loss cannot tear it on storage that writes a 512-byte
///   sector atomically, which disks and SSDs guarantee for their physical sector. On storage
///   without that guarantee a torn header mixes old and new bytes of `toc_start`/`toc_len`
///   and leads readers to a cut or misplaced TOC, normally refused as a bad TOC; both TOCs
///   are still in the file then, so writing either header back repairs it.
/// - A reader that opened the old file before the switch keeps reading the old file: it reads
///   the header once, and nothing else it can reach ever changes. A reader that opens the file
///   at the very moment of the switch races one 50-byte memory copy in the kernel (Linux does
///   not make buffered reads wait for writes); should it see part of each header, it is led to
///   a cut or misplaced TOC, normally refused as a bad TOC: opening again reads the new file.
/// - Bytes after the TOC left by an interrupted append are ignored by both readers and are
///   removed (truncated) by the next [`Appender::open`]; a dropped, uncommitted `Appender`
///   removes what it wrote.
/// - Two `Appender`s on one file exclude each other with an exclusive advisory lock
///   (`File::try_lock`, retried for up to about 0.25 s, since a process being started by
///   another thread briefly holds the lock of a file just closed); msglc takes no lock, so do
///   not append with both at once.
///
/// # Rules
///
/// Appending follows the combined file's form: files without names to a list, with names to a
/// dict, a name at most once, as msglc requires. An empty combined file, `{"t": []}` as
/// [`Combiner`](super::Combiner) writes it or `{"t": nil}` as msglc writes it, takes either form
/// (msglc refuses both). Only MessagePack combined files are appended to (members may be of
/// either codec): this crate does not write CBOR.
///
/// # Example
///
/// ```
/// use serde_formats::toc::{self, Appender, Reader};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("archive.toc");
/// let a = toc::to_bytes(&[1u8, 2]).unwrap();
/// std::fs::write(&path, toc::combine_map(&[("a", &a)]).unwrap()).unwrap();
///
/// let mut appender = Appender::open(&path).unwrap();
/// appender.add_value(Some("b"), &"x").unwrap();
/// appender.commit().unwrap();
///
/// let reader = Reader::open(&path).unwrap();
/// assert_eq!(reader.get::<u8>("a/1").unwrap(), 2);
/// assert_eq!(reader.get::<String>("b").unwrap(), "x");
/// ```
#[derive(Debug)]
pub struct Appender {
    file: File,
    path: PathBuf,
    config: Config,
    entries: Entries,
    /// Length of the old file: nothing before it is written but the header.
    old_len: u64,
    /// Data bytes so far, the old file's included: where the next member starts.
    pos: u64,
    /// Set once the header write was attempted: from then on dropping truncates nothing.
    header_attempted: bool,
}

impl Appender {
    /// Opens the combined file at `path` for appending, with the default magic and settings.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`] naming the path (missing, read-only, locked by another [`Appender`]);
    /// [`ErrorKind::BadMagic`], [`ErrorKind::UnexpectedEnd`] or [`ErrorKind::BadToc`] when it
    /// is not a combined file; [`ErrorKind::Unsupported`] for a CBOR combined file.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Appender::open_with(path, &Config::default())
    }

    /// [`Appender::open`] with `config`'s magic (the file's and every member's) and settings
    /// (for the values added).
    ///
    /// # Errors
    ///
    /// As [`Appender::open`].
    pub fn open_with(path: impl AsRef<Path>, config: &Config) -> Result<Self> {
        let path = path.as_ref();
        let io = |err: std::io::Error| io_error(path, err);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io)?;
        lock_for_append(&file).map_err(|err| {
            Error::with_message(
                ErrorKind::Io,
                format_args!("cannot append to {}: {err}", path.display()),
            )
        })?;
        let size = file.metadata().map_err(io)?.len();
        let mut prefix = vec![0u8; size.min(DATA_START as u64) as usize];
        file.read_exact(&mut prefix).map_err(io)?;
        let header = Header::parse(&prefix, &config.magic, 0)?;
        if Codec::of_prefix(&prefix) == Codec::Cbor {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                "cannot append to a CBOR combined file (this crate writes MessagePack only)",
            ));
        }
        let old_len = (DATA_START as u64)
            .checked_add(header.toc_start)
            .and_then(|end| end.checked_add(header.toc_len))
            .filter(|&end| end <= size)
            .ok_or_else(|| {
                Error::with_message(ErrorKind::BadToc, "the TOC lies past the end of the file")
                    .with_position(Position::Byte(MAGIC_END))
            })?;
        let toc_abs = DATA_START as u64 + header.toc_start;
        file.seek(SeekFrom::Start(toc_abs)).map_err(io)?;
        // Bounded by the file's size, checked above.
        let mut toc = vec![0u8; header.toc_len as usize];
        file.read_exact(&mut toc).map_err(io)?;
        let entries = read_entries(&toc, toc_abs, header.toc_start)?;
        if size > old_len {
            // What an interrupted append left after the TOC; nothing leads there.
            file.set_len(old_len).map_err(io)?;
        }
        file.seek(SeekFrom::Start(old_len)).map_err(io)?;
        Ok(Appender {
            file,
            path: path.to_owned(),
            config: config.clone(),
            entries,
            old_len,
            pos: old_len - DATA_START as u64,
            header_attempted: false,
        })
    }

    /// Opens the combined file at `path`, first creating it empty (`{"t": []}`) when there is
    /// none, as msglc's append does. The empty file is written and synced under a temporary
    /// name in the same directory, then linked to `path` only if `path` still does not exist,
    /// so a crash never leaves a partial file at `path` and a file another process created
    /// meanwhile is kept. On Unix it gets what `File::create` gives (`0o666` minus the umask).
    ///
    /// # Errors
    ///
    /// As [`Appender::open_with`].
    pub fn open_or_create(path: impl AsRef<Path>, config: &Config) -> Result<Self> {
        let path = path.as_ref();
        if !path.exists() {
            create_empty(path, config)?;
        }
        Appender::open_with(path, config)
    }

    /// Whether the file is in dict form (`Some(true)`), list form (`Some(false)`), or has no
    /// member yet and takes either (`None`).
    pub fn is_dict(&self) -> Option<bool> {
        match self.entries {
            Entries::Empty => None,
            Entries::List(_) => Some(false),
            Entries::Map(_) => Some(true),
        }
    }

    /// The number of members, the old ones and those added.
    pub fn len(&self) -> usize {
        match &self.entries {
            Entries::Empty => 0,
            Entries::List(starts) => starts.len(),
            Entries::Map(entries) => entries.len(),
        }
    }

    /// Whether the file has no member.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a whole file (magic, header, data and TOC), under `name` in a dict, without one in
    /// a list.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Message`] for a name in a list, none in a dict, or a repeated name;
    /// [`ErrorKind::BadMagic`] / [`ErrorKind::BadToc`] / [`ErrorKind::TrailingBytes`] /
    /// [`ErrorKind::UnexpectedEnd`] if `file` is not exactly one file; [`ErrorKind::Io`].
    pub fn add_file(&mut self, name: Option<&str>, file: &[u8]) -> Result<()> {
        check_file(file, &self.config)?;
        self.entries.check(name)?;
        self.write_member(name, |out| Ok(out.write_all(file)?))
    }

    /// [`Appender::add_file`] with the file read from `reader`, streamed: `reader` must hold
    /// exactly one file.
    ///
    /// # Errors
    ///
    /// As [`Appender::add_file`].
    pub fn add_file_from(&mut self, name: Option<&str>, mut reader: impl Read) -> Result<()> {
        self.entries.check(name)?;
        let mut prefix = Vec::with_capacity(DATA_START);
        (&mut reader)
            .take(DATA_START as u64)
            .read_to_end(&mut prefix)?;
        let header = Header::parse(&prefix, &self.config.magic, 0)?;
        let rest = header
            .toc_start
            .checked_add(header.toc_len)
            .ok_or_else(|| Error::at(ErrorKind::BadToc, MAGIC_END))?;
        self.write_member(name, |out| {
            out.write_all(&prefix)?;
            let copied = std::io::copy(&mut (&mut reader).take(rest), out)?;
            if copied < rest {
                return Err(Error::at(
                    ErrorKind::UnexpectedEnd,
                    DATA_START as u64 + copied,
                ));
            }
            if reader.read(&mut [0u8; 1])? != 0 {
                return Err(Error::at(
                    ErrorKind::TrailingBytes,
                    DATA_START as u64 + rest,
                ));
            }
            Ok(())
        })
    }

    /// Adds `value`, serialized as a file with the [`Config`] given to
    /// [`Appender::open_with`] (streamed to the file, not built in memory), under `name` in a
    /// dict, without one in a list.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Message`] as [`Appender::add_file`]; the errors of
    /// [`to_writer`](super::to_writer). A failed value leaves nothing behind: the appender
    /// stays usable.
    pub fn add_value<T: ?Sized + Serialize>(
        &mut self,
        name: Option<&str>,
        value: &T,
    ) -> Result<()> {
        self.entries.check(name)?;
        let config = self.config.clone();
        self.write_member(name, |out| {
            let mut buffered = BufWriter::with_capacity(BUFFER, out);
            super::to_writer_with(&mut buffered, value, &config)?;
            buffered.flush()?;
            Ok(())
        })
    }

    /// Writes one member at the end with `write`, then records it; on error removes what was
    /// written.
    fn write_member(
        &mut self,
        name: Option<&str>,
        write: impl FnOnce(&mut &File) -> Result<()>,
    ) -> Result<()> {
        let start = DATA_START as u64 + self.pos;
        let mut out = &self.file;
        let written = write(&mut out).and_then(|()| Ok(out.stream_position()?));
        match written {
            Ok(end) => {
                self.entries.push(name, self.pos)?;
                self.pos = end - DATA_START as u64;
                Ok(())
            }
            Err(err) => {
                // Nothing leads to these bytes; removing them keeps the file tidy.
                self.file
                    .set_len(start)
                    .and_then(|()| (&self.file).seek(SeekFrom::Start(start)).map(drop))
                    .map_err(|io| io_error(&self.path, io))?;
                Err(err)
            }
        }
    }

    /// Writes the new TOC and switches the header to it, durably; see
    /// [the crash model](Appender#crash-model) for the order and what a crash at each point
    /// leaves.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`] naming the path. An error before the header write leaves the old file
    /// (and the appended bytes are removed); after it, the file may be the new one.
    pub fn commit(self) -> Result<()> {
        self.commit_observed(|_| {})
    }

    /// [`Appender::commit`], calling `observe` after each [`AppendStep`] (for progress, and for
    /// tests that stop a writer at each step).
    ///
    /// # Errors
    ///
    /// As [`Appender::commit`].
    pub fn commit_observed(mut self, mut observe: impl FnMut(AppendStep)) -> Result<()> {
        let toc = self.entries.toc();
        let mut header_attempted = false;
        let mut out = BufWriter::with_capacity(BUFFER, &self.file);
        let written = finish_file_then(&mut out, 0, self.pos, &toc, &self.config.magic, |out| {
            out.flush()?;
            observe(AppendStep::TocWritten);
            out.get_ref().sync_data()?;
            observe(AppendStep::Synced);
            header_attempted = true;
            Ok(())
        });
        // finish_file_then flushed: the header is in the file (or the write failed).
        drop(out);
        self.header_attempted = header_attempted;
        written.map_err(|err| match err.kind() {
            ErrorKind::Io => io_message(&self.path, &err),
            _ => err,
        })?;
        observe(AppendStep::HeaderWritten);
        self.file
            .sync_data()
            .map_err(|err| io_error(&self.path, err))?;
        observe(AppendStep::Durable);
        Ok(())
    }
}

impl Drop for Appender {
    /// An uncommitted append (or one that failed before its header write) removes the bytes it
    /// wrote; the old file never depended on them.
    fn drop(&mut self) {
        if !self.header_attempted {
            let _ = self.file.set_len(self.old_len);
        }
    }
}

/// Appends whole files in list form to the combined file at `path`
/// ([`Appender::add_file`], then [`Appender::commit`]).
///
/// # Errors
///
/// As [`Appender::open`], [`Appender::add_file`] and [`Appender::commit`]; on error the file
/// is the old one.
pub fn append_list(path: impl AsRef<Path>, files: &[&[u8]]) -> Result<()> {
    let mut appender = Appender::open(path)?;
    for file in files {
        appender.add_file(None, file)?;
    }
    appender.commit()
}

/// Appends whole files under names in dict form to the combined file at `path`.
///
/// # Errors
///
/// As [`append_list`].
pub fn append_map(path: impl AsRef<Path>, files: &[(&str, &[u8])]) -> Result<()> {
    let mut appender = Appender::open(path)?;
    for (name, file) in files {
        appender.add_file(Some(name), file)?;
    }
    appender.commit()
}

/// Appends `value` as a new member of the combined file at `path`, under `name` in a dict,
/// without one in a list.
///
/// # Errors
///
/// As [`Appender::open`], [`Appender::add_value`] and [`Appender::commit`]; on error the file
/// is the old one.
pub fn append_value<T: ?Sized + Serialize>(
    path: impl AsRef<Path>,
    name: Option<&str>,
    value: &T,
) -> Result<()> {
    let mut appender = Appender::open(path)?;
    appender.add_value(name, value)?;
    appender.commit()
}

/// Writes an empty combined file at `path` unless a file is there (see
/// [`Appender::open_or_create`]).
fn create_empty(path: &Path, config: &Config) -> Result<()> {
    let io = |err: std::io::Error| io_error(path, err);
    let empty = super::Combiner::with_config(std::io::Cursor::new(Vec::new()), config)?
        .finish()?
        .into_inner();
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(dir).map_err(io)?;
    temp.write_all(&empty).map_err(io)?;
    temp.as_file().sync_all().map_err(io)?;
    match temp.persist_noclobber(path) {
        Ok(_) => Ok(()),
        // Created by someone else meanwhile: append to theirs (the temporary file goes).
        Err(err) if err.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(err) => Err(io(err.error)),
    }
}

/// Takes the file's exclusive lock, waiting up to about a quarter of a second for it. The lock
/// of an `Appender` that just closed the file can outlive it for a moment: a process that
/// another thread of the program is starting holds a copy of every open descriptor until it
/// runs its program, and the lock is released only when the last copy closes. A lock still
/// held after the wait is another appender's.
fn lock_for_append(file: &File) -> std::result::Result<(), std::fs::TryLockError> {
    let mut wait = std::time::Duration::from_millis(1);
    for _ in 0..8 {
        match file.try_lock() {
            Err(std::fs::TryLockError::WouldBlock) => std::thread::sleep(wait),
            done => return done,
        }
        wait *= 2;
    }
    file.try_lock()
}

/// Offset of the header's first field.
const MAGIC_END: u64 = 30;

fn io_error(path: &Path, err: std::io::Error) -> Error {
    Error::with_message(
        ErrorKind::Io,
        format_args!("cannot append to {}: {err}", path.display()),
    )
}

fn io_message(path: &Path, err: &Error) -> Error {
    Error::with_message(
        ErrorKind::Io,
        format_args!("cannot append to {}: {err}", path.display()),
    )
}

#[cold]
fn not_combined(at: u64, why: &str) -> Error {
    Error::with_message(
        ErrorKind::BadToc,
        format_args!("not a combined file: {why}"),
    )
    .with_position(Position::Byte(at))
}

/// The entries of a combined file's TOC `toc` (at absolute offset `toc_abs`): a map whose
/// `"t"` is nil, an array of starts or a map of names to starts, each start inside the
/// `data_len` bytes of data. Other keys are skipped (msglc drops them too); a `"p"` means a
/// plain file.
fn read_entries(toc: &[u8], toc_abs: u64, data_len: u64) -> Result<Entries> {
    let mut cur = Cursor::at(toc, 0, toc_abs);
    let Head::Map(count) = cur.head()? else {
        return Err(not_combined(toc_abs, "the TOC is not a map"));
    };
    let mut entries = None;
    for _ in 0..count {
        let key_at = cur.offset();
        let key = match cur.head()? {
            Head::Str(len) => cur.take_body(len as usize)?,
            _ => {
                cur.skip_values(2)?;
                continue;
            }
        };
        match key {
            b"t" => entries = Some(read_starts(&mut cur, data_len)?),
            b"p" => return Err(not_combined(key_at, "its TOC has a \"p\" (a plain file)")),
            _ => cur.skip_value()?,
        }
    }
    if !cur.is_empty() {
        return Err(Error::at(ErrorKind::TrailingBytes, cur.offset()));
    }
    entries.ok_or_else(|| not_combined(toc_abs, "its TOC has no \"t\""))
}

fn read_starts(cur: &mut Cursor<'_>, data_len: u64) -> Result<Entries> {
    let at = cur.offset();
    Ok(match cur.head()? {
        Head::Nil | Head::Array(0) => Entries::Empty,
        Head::Array(count) => {
            let mut starts = Vec::with_capacity((count as usize).min(cur.remaining().len()));
            for _ in 0..count {
                starts.push(read_start(cur, data_len)?);
            }
            Entries::List(starts)
        }
        Head::Map(count) => {
            let mut entries = Vec::with_capacity((count as usize).min(cur.remaining().len() / 2));
            for _ in 0..count {
                let name_at = cur.offset();
                let Head::Str(len) = cur.head()? else {
                    return Err(not_combined(name_at, "a member's name is not a string"));
                };
                let body_at = cur.offset();
                let name = std::str::from_utf8(cur.take_body(len as usize)?).map_err(|e| {
                    Error::at(ErrorKind::InvalidUtf8, body_at + e.valid_up_to() as u64)
                })?;
                entries.push((name.to_owned(), read_start(cur, data_len)?));
            }
            Entries::Map(entries)
        }
        _ => return Err(not_combined(at, "\"t\" is not a list or a map")),
    })
}

fn read_start(cur: &mut Cursor<'_>, data_len: u64) -> Result<u64> {
    let at = cur.offset();
    match cur.head()? {
        Head::UInt(start) if start.saturating_add(DATA_START as u64) <= data_len => Ok(start),
        Head::Int(start) if start >= 0 && (start as u64) + DATA_START as u64 <= data_len => {
            Ok(start as u64)
        }
        Head::UInt(_) | Head::Int(_) => Err(not_combined(at, "a member starts past the data")),
        _ => Err(not_combined(at, "a member's start is not an integer")),
    }
}
