//! Progress bars on stderr for work over a few MB, and the byte counts they follow.
//!
//! indicatif draws only when stderr is a terminal, so scripts and tests see no bars.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Work on fewer bytes than this finishes too fast to need a bar.
pub const THRESHOLD: u64 = 4 << 20;

/// A bar for `total` bytes of `what` ("reading big.json"), hidden under [`THRESHOLD`].
pub fn bar(total: u64, what: &str) -> ProgressBar {
    if total < THRESHOLD {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template(
        "{msg:>20} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_owned());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A spinner counting bytes of `what` when the size is not known in advance (encoding),
/// hidden when the input was under [`THRESHOLD`].
pub fn spinner(input_size: u64, what: &str) -> ProgressBar {
    if input_size < THRESHOLD {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{msg:>20} {spinner} {bytes} {bytes_per_sec}") {
        bar.set_style(style);
    }
    bar.set_message(what.to_owned());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A writer that advances a bar by the bytes written through it; seeks pass through (the toc
/// writer seeks back to write its header).
pub struct Writer<W> {
    inner: W,
    bar: ProgressBar,
}

impl<W> Writer<W> {
    pub fn new(inner: W, bar: ProgressBar) -> Self {
        Writer { inner, bar }
    }

    pub fn into_inner(self) -> W {
        self.bar.finish_and_clear();
        self.inner
    }
}

impl<W: Write> Write for Writer<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Seek> Seek for Writer<W> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Reads all of `reader` (of `len` bytes, as far as is known) with a bar.
pub fn read_all(reader: impl Read, len: u64, what: &str) -> io::Result<Vec<u8>> {
    let bar = bar(len, what);
    // Capped: the length is a hint, the read decides.
    let mut bytes = Vec::with_capacity(len.min(1 << 30) as usize);
    bar.wrap_read(reader).read_to_end(&mut bytes)?;
    bar.finish_and_clear();
    Ok(bytes)
}
