//! Where the crate's output goes: the one byte sink [`Output`] serializers write into, and
//! [`OutputFile`], writing a file at a path the way `cp` and editors do: atomically over regular
//! files, in place into devices and pipes. [`toc::write_file`](crate::toc::write_file) and the `sfmt`
//! tool both write through [`OutputFile`].
//!
//! What [`OutputFile::create`] does with the path it is given:
//!
//! | the path is | written |
//! | --- | --- |
//! | missing | a temporary file in the same directory, renamed to the path by [`commit`](OutputFile::commit); permissions as `File::create` gives (on Unix `0o666` minus the umask) |
//! | a regular file | the same, renamed over it; the new file keeps the old one's permission bits and, where the process may set them, its owner and group |
//! | a symbolic link | the file the link leads to (links followed, up to 40): the temporary file is made next to that file and renamed over it; the link stays a link. A dangling link creates its target, as `File::create` does |
//! | a device, FIFO or other non-regular file | opened for writing and written in place, no temporary file (`/dev/null` stays a device; a FIFO's open waits for a reader) |
//! | a regular file open in the process, named through `/proc` (`/dev/stdout` is a link to `/proc/self/fd/1`; the shell redirected it to a file), or behind a link its text does not lead through | truncated and written in place, as `> /dev/stdout` in a shell does |
//! | a directory | an error ("is a directory") |
//! | read-only (no write bit in its mode) | an error ("permission denied"), also for root, who the kernel would let write: like `cp` without `-f` and editors without `!`, a read-only file is not replaced |
//!
//! Until `commit`, readers of a regular target see the old file; dropping an uncommitted
//! `OutputFile` removes the temporary file and leaves the target untouched. Bytes written to a
//! device or pipe are gone once written, so there an error leaves what was written so far.
//! A regular file with several hard links is replaced by a new file under this one name, so the
//! other names keep the old contents (as with editors that write a new file and rename it).
//!
//! [`Output`] (in `sink.rs`) is implemented for `Vec<u8>` and for [`IoWriter`] over any
//! `io::Write`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

mod sink;
pub use sink::{IoWriter, Output};

/// The most a serializer reserves in its output ahead of time from a length the value
/// announces (an iterator's size hint, a sequence's declared length): a `Serialize`
/// implementation may announce far more than it delivers, so room past this grows as the
/// bytes come instead. 256 MiB.
pub(crate) const MAX_HINT_RESERVE: usize = 1 << 28;

/// Symbolic links followed before giving up, as Linux does (`ELOOP`).
const MAX_LINKS: usize = 40;

/// A file being written at a path: a temporary file that [`commit`](Self::commit) renames over
/// the path, or a device or pipe written in place. See the [module docs](self) for the rules.
///
/// Writes are not buffered; wrap it in a [`BufWriter`](std::io::BufWriter).
#[derive(Debug)]
pub struct OutputFile {
    inner: Inner,
    /// The file written (see [`OutputFile::target`]).
    target: PathBuf,
}

#[derive(Debug)]
enum Inner {
    /// A new file next to the target, renamed over it by `commit`.
    Temp(tempfile::NamedTempFile),
    /// A device, FIFO or other non-regular file (or an open file named through `/proc`),
    /// written where it is.
    Direct(File),
}

impl OutputFile {
    /// Opens `path` for writing, following the rules in the [module docs](self).
    ///
    /// # Errors
    ///
    /// [`io::ErrorKind::PermissionDenied`] for a read-only file, `IsADirectory` for a directory,
    /// errors following symbolic links (more than 40 of them is an error), and errors of
    /// creating the temporary file (a missing or read-only directory) or opening a device.
    pub fn create(path: impl AsRef<Path>) -> io::Result<OutputFile> {
        let path = path.as_ref();
        // What the path leads to, as the kernel follows it.
        let metadata = match fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                let (target, _) = follow_links(path)?;
                let inner = Inner::Temp(temp_file_next_to(&target)?);
                return Ok(OutputFile { inner, target });
            }
            Err(err) => return Err(err),
        };
        if metadata.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
        if metadata.permissions().readonly() {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "permission denied: the file is read-only",
            ));
        }
        if !metadata.is_file() {
            let file = OpenOptions::new().write(true).open(path)?;
            let inner = Inner::Direct(file);
            return Ok(OutputFile {
                inner,
                target: path.to_path_buf(),
            });
        }
        // Opening without truncating changes nothing, and fails as `File::create` would where
        // the process may not write the file.
        let probe = OpenOptions::new().write(true).open(path)?;
        let (target, through_proc) = follow_links(path)?;
        if through_proc || !same_file(&target, &metadata) {
            // An open file named by a link of `/proc` (`/dev/stdout` is `/proc/self/fd/1`) or
            // a link its text does not lead through: the file the process has open is written
            // in place, truncated, as a shell redirection to `/dev/stdout` would.
            probe.set_len(0)?;
            let inner = Inner::Direct(probe);
            return Ok(OutputFile {
                inner,
                target: path.to_path_buf(),
            });
        }
        let temp = temp_file_next_to(&target)?;
        keep_owner_and_mode(temp.as_file(), &metadata)?;
        Ok(OutputFile {
            inner: Inner::Temp(temp),
            target,
        })
    }

    /// The file written: for a temporary file, the path it is renamed to (the path given with
    /// symbolic links followed); for a file written in place, the path given.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Whether writes go to a temporary file, which may seek; `false` for a device or pipe,
    /// which takes bytes in order (write a format that seeks, like toc, into memory first).
    pub fn is_temporary(&self) -> bool {
        matches!(self.inner, Inner::Temp(_))
    }

    /// Finishes the file: a temporary file is synced and renamed over the target (then the
    /// directory is synced, where the platform allows); a device or pipe is flushed.
    ///
    /// # Errors
    ///
    /// Errors of syncing and renaming; the temporary file is then removed and the target left
    /// as it was.
    pub fn commit(self) -> io::Result<()> {
        match self.inner {
            Inner::Temp(temp) => {
                temp.as_file().sync_all()?;
                temp.persist(&self.target).map_err(|err| err.error)?;
                sync_dir(&self.target);
                Ok(())
            }
            Inner::Direct(mut file) => file.flush(),
        }
    }

    fn file(&mut self) -> &mut File {
        match &mut self.inner {
            Inner::Temp(temp) => temp.as_file_mut(),
            Inner::Direct(file) => file,
        }
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Seek for OutputFile {
    /// Seeks the temporary file; on a device or pipe, whatever the system does (an error for
    /// a pipe).
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.file().seek(pos)
    }
}

/// `path` with symbolic links followed to the file they lead to, which may not exist, and
/// whether a link of `/proc` was on the way.
fn follow_links(path: &Path) -> io::Result<(PathBuf, bool)> {
    let mut path = path.to_path_buf();
    let mut through_proc = false;
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                through_proc |= path.starts_with("/proc");
                let link = fs::read_link(&path)?;
                // A relative link is relative to the directory holding it.
                path = match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok((path, through_proc)),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links to follow"
    )))
}

/// Whether `path` is the file `metadata` describes.
fn same_file(path: &Path, metadata: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).is_ok_and(|m| (m.dev(), m.ino()) == (metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        fs::metadata(path).is_ok()
    }
}

/// A new temporary file in `target`'s directory, so that renaming it over `target` is atomic.
fn temp_file_next_to(target: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut name = std::ffi::OsString::from(".");
    name.push(target.file_name().unwrap_or_default());
    name.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&name).suffix(".tmp");
    // Like `File::create`: 0o666 minus the umask, not the temporary file's owner-only 0o600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Gives `file` the owner and group of the file it replaces where the process may (root, or
/// a group the user is in), then its permission bits (after `chown`, which clears set-id bits).
fn keep_owner_and_mode(file: &File, old: &fs::Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let new = file.metadata()?;
        if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
            // Not allowed is not an error: the file then belongs to whoever wrote it, as with
            // editors.
            if std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_err() {
                let _ = std::os::unix::fs::fchown(file, None, Some(old.gid()));
            }
        }
    }
    file.set_permissions(old.permissions())
}

/// Syncs the directory holding `target`, so that the rename survives a crash. Best effort:
/// not every platform or file system syncs directories.
fn sync_dir(target: &Path) {
    #[cfg(unix)]
    {
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = target;
}

#[cfg(test)]
mod tests;
