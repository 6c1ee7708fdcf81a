//! `sfmt get FILE PATH`: one value of a toc file, read lazily through its table of contents;
//! FILE may be a URL (`s3://bucket/key`...), read with ranged requests ([`crate::remote`]).

use std::cell::RefCell;
use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use serde_formats::toc::{self, ReadStats, Reader};

use crate::formats::{self, Format};

/// Arguments of `sfmt get`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A toc file (`-`: standard input). A regular file is read lazily; standard input, pipes
    /// and devices are read into memory first. A URL (`s3://bucket/key`, `gs://`, `az://`,
    /// `https://`, `file://`) is read with ranged requests: the header, the TOC and the value.
    file: PathBuf,
    /// The path of the value: `/` before each key or index (`/items/3/name`; a missing leading
    /// `/` is implied); empty for the root. A decimal integer is an index (`-1`: the last
    /// element) or an integer key, else the string key of that text; `'...'` is always a
    /// string key (`/'3'`); an empty segment is the key "" (`/` alone). In a key, `~1` stands
    /// for `/` and `~0` for `~`.
    #[arg(allow_hyphen_values = true, verbatim_doc_comment)]
    path: String,
    /// Print the read statistics to stderr: bytes read, reads (requests for a URL), cache
    /// hits, time.
    #[arg(long)]
    stats: bool,
    /// Indent the JSON.
    #[arg(long)]
    pretty: bool,
}

/// What was read from the file (the reader's [`ReadStats`] count the bytes and reads).
#[derive(Debug, Default)]
struct Counts {
    /// The byte ranges read, `[start, end)`.
    ranges: RefCell<Vec<(u64, u64)>>,
}

impl Counts {
    /// Bytes read at least once: the size of the union of the ranges.
    fn distinct(&self) -> u64 {
        let mut ranges = self.ranges.borrow().clone();
        ranges.sort_unstable();
        let mut total = 0;
        let mut covered_to = 0;
        for (start, end) in ranges {
            let start = start.max(covered_to);
            if end > start {
                total += end - start;
                covered_to = end;
            }
        }
        total
    }
}

/// A file (or a file's bytes in memory) that counts the bytes read from it.
struct CountingFile<R> {
    file: R,
    pos: u64,
    counts: Rc<Counts>,
}

impl<R: Read> Read for CountingFile<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.counts
            .ranges
            .borrow_mut()
            .push((self.pos, self.pos + n as u64));
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Seek> Seek for CountingFile<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.pos = self.file.seek(pos)?;
        Ok(self.pos)
    }
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    let start = Instant::now();
    if let Some(url) = crate::remote::url(&args.file) {
        return run_remote(url, start, args, out);
    }
    let mut input = crate::io::open_input(&args.file)?;
    if let Some(format) = Format::from_extension(&args.file).filter(|f| *f != Format::Toc) {
        bail!(
            "get reads toc files; {} is a {format} file by its extension",
            args.file.display()
        );
    }
    let head = input.head(toc::MAGIC_LEN, &args.file)?;
    if !formats::has_toc_magic(&head) {
        bail!(
            "{} is not a toc file (it does not start with the msglc magic); get reads toc files",
            args.file.display()
        );
    }
    let counts = Rc::new(Counts::default());
    // A regular file is read lazily; anything else was read into memory, and is read from
    // there the same way.
    let ((value, stats), size) = match input {
        crate::io::Input::File { file, len } => (lookup(file, &counts, args)?, len),
        crate::io::Input::Bytes(bytes) => {
            let len = bytes.len() as u64;
            (lookup(Cursor::new(bytes), &counts, args)?, len)
        }
    };
    let elapsed = start.elapsed();
    print(value, args, out)?;
    if args.stats {
        eprintln!("{}", stats_line(stats, counts.distinct(), size, elapsed));
    }
    Ok(())
}

/// `sfmt get URL PATH`: the header and TOC, then the value, with ranged requests.
fn run_remote(url: &str, start: Instant, args: &Args, out: &mut impl Write) -> Result<()> {
    let reader = crate::remote::open(url)?;
    let value = crate::remote::get(&reader, &args.path)?;
    print(value, args, out)?;
    if args.stats {
        eprintln!(
            "{}",
            crate::remote::stats_line(reader.stats(), reader.size(), start)
        );
    }
    Ok(())
}

/// Prints `value` as JSON: in file order, with the tagged forms of `convert` for bins,
/// float32, NaN and other keys.
fn print(value: toc::Value, args: &Args, out: &mut impl Write) -> Result<()> {
    crate::json::write(&mut *out, &crate::value::from_toc(value)?, args.pretty)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// The value at `args.path` of the toc file `file` (at its start), counting the reads; and the
/// reader's statistics.
fn lookup<R: Read + Seek>(
    file: R,
    counts: &Rc<Counts>,
    args: &Args,
) -> Result<(toc::Value, ReadStats)> {
    let source = CountingFile {
        file,
        pos: 0,
        counts: Rc::clone(counts),
    };
    let what = || format!("cannot read {} as toc", args.file.display());
    let reader = Reader::new(source).with_context(what)?;
    let value = reader
        .node(args.path.as_str())
        .and_then(|node| node.decode())
        .with_context(|| {
            format!(
                "cannot read path `{}` of {}",
                args.path,
                args.file.display()
            )
        })?;
    Ok((value, reader.stats()))
}

/// `read N of M bytes (P%; D distinct) in R reads, T ms`, from the reader's [`ReadStats`]: N
/// counts every byte read, re-reads included; D counts each byte of the file once; T is the
/// whole command's time so far.
fn stats_line(stats: ReadStats, distinct: u64, size: u64, elapsed: Duration) -> String {
    format!(
        "read {} of {} bytes ({:.4}%; {} distinct) in {} reads, {:.3} ms",
        thousands(stats.bytes_read),
        thousands(size),
        percent(stats.bytes_read, size),
        thousands(distinct),
        stats.reads,
        elapsed.as_secs_f64() * 1e3
    )
}

/// `part` as a percentage of `whole` (0 of nothing), for the `--stats` lines.
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(104_857_650), "104,857,650");
    }

    #[test]
    fn stats_line_gives_the_fraction_read() {
        let stats = ReadStats {
            bytes_read: 512,
            reads: 3,
            cache_hits: 0,
            time: Duration::from_micros(100),
        };
        assert_eq!(
            stats_line(stats, 500, 2048, Duration::from_micros(1500)),
            "read 512 of 2,048 bytes (25.0000%; 500 distinct) in 3 reads, 1.500 ms"
        );
    }

    #[test]
    fn distinct_bytes_count_overlapping_reads_once() {
        let counts = Counts::default();
        counts.ranges.borrow_mut().extend([
            (50, 100),
            (0, 50),
            (60, 70),
            (90, 120),
            (200, 210),
            (205, 205),
        ]);
        assert_eq!(counts.distinct(), 130);
    }
}
