//! Writing an output file at a path the way `cp` and editors do: atomically over regular files,
//! in place into devices and pipes. [`toc::write_file`](crate::toc::write_file) and the `sfmt`
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
//! | a directory | an error ("is a directory") |
//! | read-only (no write bit in its mode) | an error ("permission denied"), also for root, who the kernel would let write: like `cp` without `-f` and editors without `!`, a read-only file is not replaced |
//!
//! Until `commit`, readers of a regular target see the old file; dropping an uncommitted
//! `OutputFile` removes the temporary file and leaves the target untouched. Bytes written to a
//! device or pipe are gone once written, so there an error leaves what was written so far.
//! A regular file with several hard links is replaced by a new file under this one name, so the
//! other names keep the old contents (as with editors that write a new file and rename it).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Symbolic links followed before giving up, as Linux does (`ELOOP`).
const MAX_LINKS: usize = 40;

/// A file being written at a path: a temporary file that [`commit`](Self::commit) renames over
/// the path, or a device or pipe written in place. See the [module docs](self) for the rules.
///
/// Writes are not buffered; wrap it in a [`BufWriter`](std::io::BufWriter).
#[derive(Debug)]
pub struct OutputFile {
    inner: Inner,
    /// The file written: the path with symbolic links followed.
    target: PathBuf,
}

#[derive(Debug)]
enum Inner {
    /// A new file next to the target, renamed over it by `commit`.
    Temp(tempfile::NamedTempFile),
    /// A device, FIFO or other non-regular file, written where it is.
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
        let target = follow_links(path.as_ref())?;
        let metadata = match fs::metadata(&target) {
            Ok(metadata) => Some(metadata),
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(err),
        };
        let inner = match metadata {
            None => Inner::Temp(temp_file_next_to(&target)?),
            Some(metadata) if metadata.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ))
            }
            Some(metadata) => {
                if metadata.permissions().readonly() {
                    return Err(io::Error::new(
                        io::ErrorKind::PermissionDenied,
                        "permission denied: the file is read-only",
                    ));
                }
                if metadata.is_file() {
                    // Opening without truncating changes nothing, and fails as `File::create`
                    // would where the process may not write the file.
                    OpenOptions::new().write(true).open(&target)?;
                    let temp = temp_file_next_to(&target)?;
                    keep_owner_and_mode(temp.as_file(), &metadata)?;
                    Inner::Temp(temp)
                } else {
                    Inner::Direct(OpenOptions::new().write(true).open(&target)?)
                }
            }
        };
        Ok(OutputFile { inner, target })
    }

    /// The file written: the path given with symbolic links followed.
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

/// `path` with symbolic links followed to the file they lead to, which may not exist.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                // A relative link is relative to the directory holding it.
                path = match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links to follow"
    )))
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
