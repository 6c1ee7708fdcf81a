//! Combining whole files into one: msglc's `combine`, in list and dict form.
//!
//! A combined file's data section is the input files copied byte for byte (magic and header
//! included) one after another; its TOC has no `"p"`: `{"t": [start, ...]}` or
//! `{"t": {name: start, ...}}`, each start relative to the combined file's data start. A combined
//! file can itself be combined, to any depth.

use std::io::{Read, Seek, Write};

use crate::error::{Error, ErrorKind, Result};

use super::layout::{
    begin_file, finish_file, write_array_len, write_map_len, write_uint, Header, DATA_START,
};
use super::Config;

/// The entries of a combined file's TOC: none yet, starts in list form, or named starts in
/// dict form. Shared with the [`Appender`](super::Appender), which reads them from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Entries {
    Empty,
    List(Vec<u64>),
    Map(Vec<(String, u64)>),
}

impl Entries {
    /// Checks that [`Entries::push`] takes a file with this `name` (or none), before any byte
    /// of the file is written.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Message`] for a name in a list, no name in a dict, or a repeated name.
    pub(super) fn check(&self, name: Option<&str>) -> Result<()> {
        match (name, self) {
            (_, Entries::Empty) | (None, Entries::List(_)) => Ok(()),
            (Some(name), Entries::Map(entries)) => {
                if entries.iter().any(|(n, _)| n == name) {
                    return Err(Error::with_message(
                        ErrorKind::Message,
                        format!("file `{name}` already combined"),
                    ));
                }
                Ok(())
            }
            (None, Entries::Map(_)) | (Some(_), Entries::List(_)) => Err(mixed()),
        }
    }

    /// Records a file starting at data position `start`, in list form without a name and in
    /// dict form with one.
    ///
    /// # Errors
    ///
    /// As [`Entries::check`].
    pub(super) fn push(&mut self, name: Option<&str>, start: u64) -> Result<()> {
        self.check(name)?;
        match (name, &mut *self) {
            (None, Entries::List(starts)) => starts.push(start),
            (Some(name), Entries::Map(entries)) => entries.push((name.to_owned(), start)),
            (None, _) => *self = Entries::List(vec![start]),
            (Some(name), _) => *self = Entries::Map(vec![(name.to_owned(), start)]),
        }
        Ok(())
    }

    /// The TOC: `{"t": [start, ...]}` or `{"t": {name: start, ...}}`; with no entry
    /// `{"t": []}`, an empty list.
    pub(super) fn toc(&self) -> Vec<u8> {
        let mut toc = vec![0x81, 0xa1, b't'];
        match self {
            Entries::Empty => write_array_len(&mut toc, 0),
            Entries::List(starts) => {
                write_array_len(&mut toc, starts.len());
                for &start in starts {
                    write_uint(&mut toc, start);
                }
            }
            Entries::Map(entries) => {
                write_map_len(&mut toc, entries.len());
                for (name, start) in entries {
                    // Writing into a Vec cannot fail.
                    let _ = rmp::encode::write_str(&mut toc, name);
                    write_uint(&mut toc, *start);
                }
            }
        }
        toc
    }
}

/// Writes a combined file to a seekable writer, one input file at a time.
///
/// ```
/// use serde_formats::toc::{self, Combiner, Reader};
/// let a = toc::to_bytes(&[1u8, 2]).unwrap();
/// let b = toc::to_bytes(&"x").unwrap();
/// let mut combiner = Combiner::new(std::io::Cursor::new(Vec::new())).unwrap();
/// combiner.add_named("a", &a).unwrap();
/// combiner.add_named("b", &b).unwrap();
/// let bytes = combiner.finish().unwrap().into_inner();
/// let reader = Reader::from_slice(&bytes).unwrap();
/// assert_eq!(reader.get::<u8>("a/1").unwrap(), 2);
/// assert_eq!(reader.get::<String>("b").unwrap(), "x");
/// ```
pub struct Combiner<W> {
    out: W,
    base: u64,
    /// Bytes of data written so far.
    pos: u64,
    entries: Entries,
    config: Config,
}

impl<W: Write + Seek> Combiner<W> {
    /// Starts a combined file at `out`'s current position, with the default magic.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`].
    pub fn new(out: W) -> Result<Self> {
        Combiner::with_config(out, &Config::default())
    }

    /// Starts a combined file with `config`'s magic; input files must carry the same magic.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`].
    pub fn with_config(mut out: W, config: &Config) -> Result<Self> {
        let base = begin_file(&mut out)?;
        Ok(Combiner {
            out,
            base,
            pos: 0,
            entries: Entries::Empty,
            config: config.clone(),
        })
    }

    /// Appends a whole file in list form.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Message`] after a named file; [`ErrorKind::BadMagic`] /
    /// [`ErrorKind::BadToc`] / [`ErrorKind::TrailingBytes`] if `file` is not exactly one file.
    pub fn add(&mut self, file: &[u8]) -> Result<()> {
        check_file(file, &self.config)?;
        self.entries.push(None, self.pos)?;
        self.copy(file)
    }

    /// Appends a whole file under `name` in dict form.
    ///
    /// # Errors
    ///
    /// As [`Combiner::add`], and [`ErrorKind::Message`] for a repeated name.
    pub fn add_named(&mut self, name: &str, file: &[u8]) -> Result<()> {
        check_file(file, &self.config)?;
        self.entries.push(Some(name), self.pos)?;
        self.copy(file)
    }

    /// Appends the file read from `reader` (to its end), in list form or, with a name, in
    /// dict form.
    ///
    /// # Errors
    ///
    /// As [`Combiner::add`] / [`Combiner::add_named`], and [`ErrorKind::Io`].
    pub fn add_reader(&mut self, name: Option<&str>, mut reader: impl Read) -> Result<()> {
        let mut file = Vec::new();
        reader.read_to_end(&mut file)?;
        match name {
            Some(name) => self.add_named(name, &file),
            None => self.add(&file),
        }
    }

    fn copy(&mut self, file: &[u8]) -> Result<()> {
        self.out.write_all(file)?;
        self.pos += file.len() as u64;
        Ok(())
    }

    /// Writes the TOC and the header, and returns the writer positioned after the file.
    ///
    /// With no file added the TOC is `{"t": []}`, an empty list.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`].
    pub fn finish(mut self) -> Result<W> {
        let toc = self.entries.toc();
        finish_file(&mut self.out, self.base, self.pos, &toc, &self.config.magic)?;
        Ok(self.out)
    }
}

/// Combines whole files into one file in list form: `{"t": [start, ...]}`.
///
/// # Errors
///
/// As [`Combiner::add`].
pub fn combine_list(files: &[&[u8]]) -> Result<Vec<u8>> {
    let mut combiner = Combiner::new(std::io::Cursor::new(Vec::new()))?;
    for file in files {
        combiner.add(file)?;
    }
    Ok(combiner.finish()?.into_inner())
}

/// Combines whole files into one file in dict form: `{"t": {name: start, ...}}`.
///
/// # Errors
///
/// As [`Combiner::add_named`].
pub fn combine_map(files: &[(&str, &[u8])]) -> Result<Vec<u8>> {
    let mut combiner = Combiner::new(std::io::Cursor::new(Vec::new()))?;
    for (name, file) in files {
        combiner.add_named(name, file)?;
    }
    Ok(combiner.finish()?.into_inner())
}

/// Checks that `file` is exactly one file with `config`'s magic.
pub(super) fn check_file(file: &[u8], config: &Config) -> Result<()> {
    let header = Header::parse(file, &config.magic, 0)?;
    let end = (DATA_START as u64)
        .checked_add(header.toc_start)
        .and_then(|v| v.checked_add(header.toc_len))
        .ok_or_else(|| Error::at(ErrorKind::BadToc, 30))?;
    match end.cmp(&(file.len() as u64)) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Less => Err(Error::at(ErrorKind::TrailingBytes, end)),
        std::cmp::Ordering::Greater => Err(Error::at(ErrorKind::UnexpectedEnd, file.len() as u64)),
    }
}

#[cold]
pub(super) fn mixed() -> Error {
    Error::with_message(
        ErrorKind::Message,
        "a combined file is either a list (no names) or a dict (all named)",
    )
}
