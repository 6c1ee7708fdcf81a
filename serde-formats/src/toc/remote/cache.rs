//! The bounded cache of fetched byte ranges ([`RangeCache`]) and the [`RemoteSource`] the
//! local reader's navigation reads from: it serves reads from the cache and, on a miss, records
//! the range that is missing and fails the read, so that the async layer fetches it and runs
//! the operation again.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::ops::Range;

use bytes::Bytes;

use crate::error::{Error, ErrorKind, Result};
use crate::toc::source::{private, Source};

/// One fetched range.
#[derive(Debug)]
struct Entry {
    data: Bytes,
    /// The operation that fetched it: reads of the same operation are not cache hits.
    fetched_by: u64,
    /// The last operation that read it, for least-recently-used eviction.
    last_used: Cell<u64>,
}

/// Fetched ranges by start offset, at most `capacity` bytes once no operation needs more.
///
/// Entries never contain one another, so sorted by start they are sorted by end too, and the
/// entry that starts last at or before an offset is the one reaching furthest past it.
#[derive(Debug)]
pub(super) struct RangeCache {
    entries: BTreeMap<u64, Entry>,
    bytes: usize,
    capacity: usize,
    /// The number of the last operation begun.
    op: u64,
    /// Operations running (by number, with a count): the entries they used are kept.
    active: BTreeMap<u64, usize>,
}

impl RangeCache {
    pub(super) fn new(capacity: usize) -> Self {
        RangeCache {
            entries: BTreeMap::new(),
            bytes: 0,
            capacity,
            op: 0,
            active: BTreeMap::new(),
        }
    }

    /// Begins an operation: the entries it reads or fetches stay until it ends.
    pub(super) fn begin(&mut self) -> u64 {
        self.op += 1;
        *self.active.entry(self.op).or_default() += 1;
        self.op
    }

    /// Ends operation `op` and evicts down to the capacity.
    pub(super) fn end(&mut self, op: u64) {
        if let Some(count) = self.active.get_mut(&op) {
            *count -= 1;
            if *count == 0 {
                self.active.remove(&op);
            }
        }
        self.evict();
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Stores `data` fetched at `start` by operation `op`. Entries inside the new range are
    /// replaced; a range inside an entry is dropped.
    pub(super) fn insert(&mut self, start: u64, data: Bytes, op: u64) {
        let end = start + data.len() as u64;
        if data.is_empty() {
            return;
        }
        if let Some((&s, e)) = self.entries.range(..=start).next_back() {
            if s + e.data.len() as u64 >= end {
                e.last_used.set(e.last_used.get().max(op));
                return;
            }
        }
        let inside: Vec<u64> = self
            .entries
            .range(start..end)
            .filter(|(&s, e)| s + e.data.len() as u64 <= end)
            .map(|(&s, _)| s)
            .collect();
        for s in inside {
            if let Some(old) = self.entries.remove(&s) {
                self.bytes -= old.data.len();
            }
        }
        self.bytes += data.len();
        self.entries.insert(
            start,
            Entry {
                data,
                fetched_by: op,
                last_used: Cell::new(op),
            },
        );
        self.evict();
    }

    /// Drops least recently used entries that no running operation needs until at most
    /// `capacity` bytes are held.
    fn evict(&mut self) {
        if self.bytes <= self.capacity {
            return;
        }
        let oldest_active = self.active.keys().next().copied().unwrap_or(u64::MAX);
        let mut candidates: Vec<(u64, u64)> = self
            .entries
            .iter()
            .filter(|(_, e)| e.last_used.get() < oldest_active)
            .map(|(&s, e)| (e.last_used.get(), s))
            .collect();
        candidates.sort_unstable();
        for (_, start) in candidates {
            if self.bytes <= self.capacity {
                break;
            }
            if let Some(old) = self.entries.remove(&start) {
                self.bytes -= old.data.len();
            }
        }
    }

    /// The entry holding byte `offset`, with its start.
    fn holding(&self, offset: u64) -> Option<(u64, &Entry)> {
        let (&s, e) = self.entries.range(..=offset).next_back()?;
        (offset < s + e.data.len() as u64).then_some((s, e))
    }

    /// The end of the cached bytes before `offset` and the start of those after `end`.
    fn neighbours(&self, offset: u64, end: u64) -> (Option<u64>, Option<u64>) {
        let before = self
            .entries
            .range(..offset)
            .next_back()
            .map(|(&s, e)| s + e.data.len() as u64);
        let after = self.entries.range(end..).next().map(|(&s, _)| s);
        (before, after)
    }

    /// Marks the entries holding bytes of `range` as used by operation `op` (which keeps
    /// them while it runs).
    pub(super) fn touch(&self, range: &Range<u64>, op: u64) {
        let mut pos = range.start;
        while pos < range.end {
            match self.holding(pos) {
                Some((s, e)) => {
                    e.last_used.set(e.last_used.get().max(op));
                    pos = s + e.data.len() as u64;
                }
                None => match self.entries.range(pos..).next() {
                    Some((&s, _)) => pos = s,
                    None => break,
                },
            }
        }
    }

    /// Whether all of `range` is cached.
    pub(super) fn covers(&self, range: &Range<u64>) -> bool {
        let mut pos = range.start;
        while pos < range.end {
            match self.holding(pos) {
                Some((s, e)) => pos = s + e.data.len() as u64,
                None => return false,
            }
        }
        true
    }
}

/// What one attempt at an operation read and missed.
#[derive(Debug, Default)]
pub(super) struct Attempt {
    missed: RefCell<Vec<Range<u64>>>,
    hits: Cell<u64>,
}

impl Attempt {
    /// The ranges missed, in the order met.
    pub(super) fn take_missed(&self) -> Vec<Range<u64>> {
        self.missed.take()
    }

    /// How many reads the cache served with bytes fetched before the operation began.
    pub(super) fn hits(&self) -> u64 {
        self.hits.get()
    }
}

/// The source a remote reader's navigation reads from: the fetched ranges of one object,
/// during one attempt at an operation. A read of bytes not fetched yet fails (the attempt's
/// result is then discarded, the bytes fetched and the operation run again).
///
/// Obtained in [`AsyncReader::with_reader`](super::AsyncReader::with_reader) as the source of
/// a [`Reader`](crate::toc::Reader).
#[derive(Debug, Clone, Copy)]
pub struct RemoteSource<'c> {
    cache: &'c RangeCache,
    attempt: &'c Attempt,
    size: u64,
    op: u64,
    gap: u64,
}

impl<'c> RemoteSource<'c> {
    pub(super) fn new(
        cache: &'c RangeCache,
        attempt: &'c Attempt,
        size: u64,
        op: u64,
        gap: usize,
    ) -> Self {
        RemoteSource {
            cache,
            attempt,
            size,
            op,
            gap: gap as u64,
        }
    }

    /// The number of ranges missed so far in this attempt.
    pub(super) fn missed_count(&self) -> usize {
        self.attempt.missed.borrow().len()
    }

    /// Fails (recording the miss) unless all of `range` is cached: asks for a value's bytes in
    /// one request before decoding walks them piece by piece.
    pub(super) fn require(&self, range: Range<u64>) -> Result<()> {
        let range = range.start..range.end.min(self.size);
        if range.is_empty() || self.cache.covers(&range) {
            return Ok(());
        }
        Err(self.miss(range.start, range.end))
    }

    /// Records that `offset..end` (partly) is not cached, stretched by the coalescing gap to
    /// the cached bytes around it, and returns the error that fails the read.
    #[cold]
    fn miss(&self, offset: u64, end: u64) -> Error {
        let mut from = offset;
        while let Some((s, e)) = self.cache.holding(from) {
            from = s + e.data.len() as u64;
        }
        let mut to = end;
        while let Some((s, _)) = to.checked_sub(1).and_then(|last| self.cache.holding(last)) {
            if s <= from {
                break;
            }
            to = s;
        }
        let (before, after) = self.cache.neighbours(from, to);
        if let Some(before) = before.filter(|&b| from - b <= self.gap) {
            from = before;
        }
        if let Some(after) = after.filter(|&a| a - to <= self.gap) {
            to = after;
        }
        self.attempt.missed.borrow_mut().push(from..to);
        Error::with_message(
            ErrorKind::Remote,
            format!("bytes {from}..{to} are not fetched yet"),
        )
    }
}

impl private::Sealed for RemoteSource<'_> {}

impl Source for RemoteSource<'_> {
    fn size(&self) -> Result<u64> {
        Ok(self.size)
    }

    fn read_at(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        let end = offset
            .checked_add(len as u64)
            .filter(|&end| end <= self.size)
            .ok_or_else(|| Error::at(ErrorKind::UnexpectedEnd, self.size))?;
        if len == 0 {
            return Ok(Cow::Borrowed(&[]));
        }
        let Some((s, e)) = self.cache.holding(offset) else {
            return Err(self.miss(offset, end));
        };
        let entry_end = s + e.data.len() as u64;
        if end <= entry_end {
            e.last_used.set(e.last_used.get().max(self.op));
            if e.fetched_by < self.op {
                self.attempt.hits.set(self.attempt.hits.get() + 1);
            }
            let from = (offset - s) as usize;
            return Ok(Cow::Borrowed(&e.data[from..from + len]));
        }
        // Spread over adjacent entries: joined into one buffer.
        if !self.cache.covers(&(offset..end)) {
            return Err(self.miss(offset, end));
        }
        let mut out = Vec::with_capacity(len);
        let mut pos = offset;
        let mut old = true;
        while pos < end {
            let Some((s, e)) = self.cache.holding(pos) else {
                return Err(self.miss(pos, end));
            };
            e.last_used.set(e.last_used.get().max(self.op));
            old &= e.fetched_by < self.op;
            let stop = (s + e.data.len() as u64).min(end);
            out.extend_from_slice(&e.data[(pos - s) as usize..(stop - s) as usize]);
            pos = stop;
        }
        if old {
            self.attempt.hits.set(self.attempt.hits.get() + 1);
        }
        Ok(Cow::Owned(out))
    }

    fn whole(&self) -> Option<&[u8]> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source<'c>(cache: &'c RangeCache, attempt: &'c Attempt, gap: usize) -> RemoteSource<'c> {
        RemoteSource::new(cache, attempt, 1000, 2, gap)
    }

    /// A large cache holding `entries`, each `(offset, byte, length)`: `length` times `byte`.
    fn cache_of(entries: &[(u64, u8, usize)]) -> RangeCache {
        let mut cache = RangeCache::new(1 << 20);
        let op = cache.begin();
        for &(offset, byte, len) in entries {
            cache.insert(offset, Bytes::from(vec![byte; len]), op);
        }
        cache.end(op);
        cache
    }

    #[test]
    fn reads_hit_within_and_across_entries_and_miss_outside() {
        let cache = cache_of(&[(100, 1, 100), (200, 2, 50)]);
        let attempt = Attempt::default();
        let src = source(&cache, &attempt, 0);
        assert_eq!(&*src.read_at(110, 10).unwrap(), &[1u8; 10]);
        let joined = src.read_at(190, 20).unwrap();
        assert_eq!(&joined[..10], &[1u8; 10]);
        assert_eq!(&joined[10..], &[2u8; 10]);
        assert_eq!(attempt.hits(), 2);
        assert_eq!(src.read_at(240, 20).unwrap_err().kind(), ErrorKind::Remote);
        // Only the part not cached is asked for.
        assert_eq!(attempt.take_missed(), vec![250..260]);
        assert!(src.read_at(990, 20).is_err());
        assert!(attempt.take_missed().is_empty(), "past the end is no miss");
    }

    #[test]
    fn misses_stretch_to_neighbours_within_the_gap() {
        let cache = cache_of(&[(0, 0, 50), (300, 0, 50)]);
        let attempt = Attempt::default();
        let src = source(&cache, &attempt, 40);
        assert!(src.read_at(60, 10).is_err());
        assert!(src.read_at(200, 10).is_err());
        assert!(src.read_at(40, 280).is_err());
        assert_eq!(attempt.take_missed(), vec![50..70, 200..210, 50..300]);
    }

    #[test]
    fn eviction_keeps_what_running_operations_use() {
        let mut cache = RangeCache::new(100);
        let first = cache.begin();
        cache.insert(0, Bytes::from(vec![0u8; 80]), first);
        cache.end(first);
        let second = cache.begin();
        cache.insert(100, Bytes::from(vec![0u8; 80]), second);
        // The older entry went; the new one stays while its operation runs, even past capacity.
        assert!(!cache.covers(&(0..80)));
        cache.insert(200, Bytes::from(vec![0u8; 80]), second);
        assert_eq!(cache.bytes(), 160);
        cache.end(second);
        assert_eq!(cache.bytes(), 80);
        // A range inside a cached one is not stored twice.
        let third = cache.begin();
        let kept = if cache.covers(&(100..180)) { 100 } else { 200 };
        cache.insert(kept + 10, Bytes::from(vec![0u8; 10]), third);
        assert_eq!(cache.bytes(), 80);
        cache.end(third);
    }
}
