//! Read statistics ([`ReadStats`]): what a reader fetched from its source, like msglc's
//! `LazyStats`; and the cheap counters ([`Counters`]) the local [`Reader`](super::Reader) keeps.

use std::cell::Cell;
use std::fmt;
use std::time::{Duration, Instant};

/// What a reader has read from its source so far: bytes, reads (requests, for a remote
/// reader), cache hits and time.
///
/// From [`Reader::stats`](super::Reader::stats) and, with the `object-store` feature, from the
/// remote readers (`toc::remote`). Display is one line:
/// `"3 reads, 172,934 bytes, 0 cache hits, 12.5ms"`.
///
/// ```
/// use serde_formats::toc::{self, Reader};
/// // 1000 strings of 44 characters, each 46 bytes of MessagePack with its own TOC entry.
/// let rows: Vec<String> = (0..1000).map(|i| format!("row {i:40}")).collect();
/// let bytes = toc::to_bytes(&rows).unwrap();
/// let reader = Reader::from_slice(&bytes).unwrap();
/// assert_eq!(reader.stats().reads, 2); // the 50-byte prefix and the TOC
/// reader.get::<String>("7").unwrap();
/// let stats = reader.stats();
/// assert_eq!((stats.reads, stats.bytes_read), (3, 50 + reader.toc_len() + 46));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Bytes read from the source (for a remote reader: the bodies of the responses received
    /// whole; a body that broke off is not counted).
    pub bytes_read: u64,
    /// Reads from the source: for a local reader each read of a byte range (the prefix, a TOC,
    /// a value), for a remote reader each ranged request made (its retries included, but not
    /// those the HTTP client of a cloud store makes by itself).
    pub reads: u64,
    /// Reads served from the cache without a request (remote readers; local readers have no
    /// cache and report 0).
    pub cache_hits: u64,
    /// Time spent reading from the source: in requests for a remote reader, in reads of a
    /// file or other `Read + Seek` for a local reader; zero for bytes in memory, which are not
    /// timed.
    pub time: Duration,
}

impl fmt::Display for ReadStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} reads, {} bytes, {} cache hits, {:.1?}",
            self.reads,
            Thousands(self.bytes_read),
            self.cache_hits,
            self.time
        )
    }
}

/// An integer with thousands separators.
struct Thousands(u64);

impl fmt::Display for Thousands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.0.to_string();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                f.write_str(",")?;
            }
            write!(f, "{digit}")?;
        }
        Ok(())
    }
}

/// The local reader's counters: plain cells, a few adds per read.
#[derive(Debug, Default)]
pub(super) struct Counters {
    bytes_read: Cell<u64>,
    reads: Cell<u64>,
    nanos: Cell<u64>,
}

impl Counters {
    /// Counts one read of `len` bytes.
    #[inline]
    pub(super) fn read(&self, len: usize) {
        self.reads.set(self.reads.get() + 1);
        self.bytes_read.set(self.bytes_read.get() + len as u64);
    }

    /// Adds the time since `start`.
    #[inline]
    pub(super) fn time_since(&self, start: Instant) {
        let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.nanos.set(self.nanos.get().saturating_add(nanos));
    }

    pub(super) fn stats(&self) -> ReadStats {
        ReadStats {
            bytes_read: self.bytes_read.get(),
            reads: self.reads.get(),
            cache_hits: 0,
            time: Duration::from_nanos(self.nanos.get()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_line_with_separators() {
        let stats = ReadStats {
            bytes_read: 1_234_567,
            reads: 3,
            cache_hits: 1,
            time: Duration::from_millis(12),
        };
        assert_eq!(
            stats.to_string(),
            "3 reads, 1,234,567 bytes, 1 cache hits, 12.0ms"
        );
        assert_eq!(Thousands(999).to_string(), "999");
        assert_eq!(Thousands(1000).to_string(), "1,000");
        assert_eq!(Thousands(0).to_string(), "0");
    }
}
