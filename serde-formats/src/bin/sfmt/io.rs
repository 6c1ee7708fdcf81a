//! sfmt's file I/O: opening and reading inputs, finding their format from the bytes read, and
//! replacing outputs atomically.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

use anyhow::{Context, Result};

use crate::formats::{self, Format};
use crate::progress;

/// Opens `path` for reading, with its size.
pub fn open(path: &Path) -> Result<(File, u64)> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let len = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    Ok((file, len))
}

/// Reads a whole file, with a progress bar when it is large.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let (file, len) = open(path)?;
    progress::read_all(file, len, "reading")
        .with_context(|| format!("cannot read {}", path.display()))
}

/// Reads a whole file and finds its format: `given`, else the extension, else the contents.
pub fn read_with_format(path: &Path, given: Option<&str>) -> Result<(Format, Vec<u8>)> {
    let format = Format::given_or_extension(given, path)?;
    let bytes = read(path)?;
    match format.or_else(|| formats::sniff(&bytes)) {
        Some(format) => Ok((format, bytes)),
        None => Err(formats::undetected(path)),
    }
}

/// Writes `path` atomically: `write` fills a temporary file in the same directory, which is
/// synced and renamed over `path`. On error `path` is untouched and the temporary file removed.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<&mut File>) -> Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".sfmt-").suffix(".tmp");
    // Like `File::create`: 0o666 minus the umask, not the temporary file's owner-only 0o600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    {
        let mut buffered = BufWriter::with_capacity(1 << 20, temp.as_file_mut());
        write(&mut buffered)?;
        buffered
            .flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    temp.as_file()
        .sync_all()
        .with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path)
        .map_err(|e| anyhow::Error::new(e.error))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Reads up to `n` bytes from the start of `reader`.
pub fn read_head(reader: &mut impl Read, n: usize) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(n);
    reader.take(n as u64).read_to_end(&mut head)?;
    Ok(head)
}
