//! [`AsyncReader`]: a TOC file in an object store, read with ranged requests. Every operation
//! runs the local reader's navigation over the cached ranges ([`RemoteSource`]); a read of
//! bytes not fetched yet fails that attempt, the async layer fetches what was missing
//! (coalesced, several at once) and runs the operation again, each attempt getting further.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use futures::stream::{self, StreamExt};
use object_store::ObjectStore;
use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorKind, Result};
use crate::toc::layout::{Header, DATA_START};
use crate::toc::node::Node;
use crate::toc::reader::{open_file, File};
use crate::toc::stats::Counters;
use crate::toc::{Codec, Config, IntoPath, Path, ReadStats, Reader, TocStats, Value};

use super::cache::{Attempt, RangeCache, RemoteSource};
use super::fetch::Fetcher;
use super::store::{locate, one_line};
use super::RemoteOptions;

/// A lazy reader of a TOC file in an object store (S3 and S3-compatible servers, GCS, Azure,
/// HTTP(S), local files), for async code on a tokio runtime with timers enabled.
///
/// Opening sends one small ranged request for the start of the object (which also tells its
/// size), then one for the TOC; reading a value sends one for exactly that value's bytes.
/// Fetched ranges are cached (up to [`RemoteOptions::cache_bytes`]), so reads inside them send
/// nothing. Cheap to clone (the clones share the cache and the statistics) and `Send + Sync`:
/// operations from many tasks run their requests concurrently (their in-memory part, walking
/// the TOC and decoding, runs one at a time).
///
/// ```
/// use std::sync::Arc;
/// use object_store::{memory::InMemory, path::Path, ObjectStoreExt};
/// use serde_formats::toc::{self, remote::{AsyncReader, RemoteOptions}};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
/// runtime.block_on(async {
///     let rows: Vec<Vec<u32>> = (0..100).map(|i| vec![i; 1000]).collect();
///     let store = Arc::new(InMemory::new());
///     let location = Path::from("rows.msglc");
///     store.put(&location, toc::to_bytes(&rows)?.into()).await?;
///
///     let reader = AsyncReader::open_store(store, location, &RemoteOptions::new()).await?;
///     assert_eq!(reader.get::<u32>("42/7").await?, 42);
///     // The start of the object, the TOC, the block holding the value.
///     assert_eq!(reader.stats().reads, 3);
///     Ok(())
/// })
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct AsyncReader {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    core: Core,
    /// The outer file, opened.
    root: File,
}

/// What an operation needs before the outer file is open.
#[derive(Debug)]
struct Core {
    fetcher: Fetcher,
    cache: Mutex<RangeCache>,
    size: u64,
    config: Config,
    gap: usize,
    concurrency: usize,
    hits: AtomicU64,
}

/// An operation in progress: the cache keeps what it uses until it ends (dropped, also when
/// its future is).
struct OpGuard<'a> {
    cache: &'a Mutex<RangeCache>,
    id: u64,
}

impl Drop for OpGuard<'_> {
    fn drop(&mut self) {
        lock(self.cache).end(self.id);
    }
}

fn lock(cache: &Mutex<RangeCache>) -> MutexGuard<'_, RangeCache> {
    // A panic in a caller's closure leaves the ranges consistent: every change is one call.
    cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What an attempt at an operation came to.
enum Step<R> {
    Done(Result<R>),
    Fetch(Vec<Range<u64>>),
}

impl Core {
    /// Runs `attempt` over the cached ranges until it reads nothing that is missing, fetching
    /// what each attempt missed.
    async fn run<R>(&self, mut attempt: impl FnMut(RemoteSource<'_>) -> Result<R>) -> Result<R> {
        let id = lock(&self.cache).begin();
        let _op = OpGuard {
            cache: &self.cache,
            id,
        };
        let mut last_missed = Vec::new();
        loop {
            let step = {
                let cache = lock(&self.cache);
                let state = Attempt::default();
                let result = attempt(RemoteSource::new(&cache, &state, self.size, id, self.gap));
                let missed = state.take_missed();
                if missed.is_empty() {
                    self.hits.fetch_add(state.hits(), Ordering::Relaxed);
                    Step::Done(result)
                } else {
                    Step::Fetch(missed)
                }
            };
            match step {
                Step::Done(result) => return result.map_err(|e| self.name(e)),
                // What an operation fetches stays cached until it ends, so an attempt that
                // misses exactly what the last one missed would miss it forever.
                Step::Fetch(missed) if missed == last_missed => {
                    return Err(Error::with_message(
                        ErrorKind::Remote,
                        format!(
                            "{}: bytes {}..{} stay missing after they were fetched",
                            self.fetcher.url(),
                            missed[0].start,
                            missed[0].end
                        ),
                    ))
                }
                Step::Fetch(missed) => {
                    self.fetch_all(missed.clone(), id).await?;
                    last_missed = missed;
                }
            }
        }
    }

    /// Fetches `ranges` (merged when closer than the gap, several requests at once) into the
    /// cache for operation `op`, but for those another operation fetched meanwhile.
    async fn fetch_all(&self, mut ranges: Vec<Range<u64>>, op: u64) -> Result<()> {
        ranges.sort_unstable_by_key(|r| r.start);
        let mut merged: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
        for range in ranges {
            let range = range.start..range.end.min(self.size);
            match merged.last_mut() {
                Some(last) if range.start <= last.end.saturating_add(self.gap as u64) => {
                    last.end = last.end.max(range.end);
                }
                _ => merged.push(range),
            }
        }
        {
            let cache = lock(&self.cache);
            merged.retain(|r| {
                // Fetched by another operation meanwhile: kept for this one too.
                let covered = cache.covers(r);
                if covered {
                    cache.touch(r, op);
                }
                !r.is_empty() && !covered
            });
        }
        if merged.is_empty() {
            return Ok(());
        }
        let mut fetches = stream::iter(merged)
            .map(|range| async move { (range.start, self.fetcher.fetch(range).await) })
            .buffer_unordered(self.concurrency);
        while let Some((start, bytes)) = fetches.next().await {
            lock(&self.cache).insert(start, bytes?, op);
        }
        Ok(())
    }

    /// `error` with the URL in its message (store errors have it already).
    fn name(&self, error: Error) -> Error {
        if error.kind() == ErrorKind::Remote {
            return error;
        }
        let message = match error.message() {
            Some(message) => format!("{}: {}", self.fetcher.url(), one_line(message)),
            None => self.fetcher.url().to_string(),
        };
        Error::with_message(error.kind(), message).with_position(error.position())
    }
}

impl AsyncReader {
    /// Opens the file at `url`: `s3://bucket/key`, `gs://bucket/key`, `az://container/key` or
    /// `abfs://...`, `https://host/path` (or `http://`), `file:///path`.
    ///
    /// Credentials and settings come from the store's environment variables (`AWS_*`,
    /// `GOOGLE_*`, `AZURE_*`) and [`RemoteOptions::store_options`]; an S3-compatible server is
    /// reached with [`RemoteOptions::endpoint`]. The stores built here retry failed requests
    /// in their own client, with the options' retries, backoff and timeout.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Remote`] for a URL of no store, a store that cannot be built (a bad option)
    /// and failed requests (a missing object, refused credentials, a server that keeps failing
    /// or does not answer), naming the URL and the byte range; the errors of
    /// [`Reader::from_slice`] for a file that is not a TOC file, and
    /// [`ErrorKind::UnexpectedEnd`] for an object shorter than its header says.
    pub async fn open(url: &str, options: &RemoteOptions) -> Result<AsyncReader> {
        let located = locate(url, options)?;
        let fetcher = Fetcher::new(
            located.store,
            located.path,
            url.to_string(),
            located.retries,
            options,
        );
        AsyncReader::open_fetcher(fetcher, options).await
    }

    /// Opens the file at `location` of `store`, any [`ObjectStore`] (one built with its own
    /// settings, an `InMemory` store, a wrapper of another). Its errors name it as
    /// `{store}/{location}`. Failed requests the store reports as transient (its `Generic`
    /// errors) are retried here, as [`RemoteOptions::max_retries`] says (set it to 0 for a
    /// store that retries by itself).
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub async fn open_store(
        store: Arc<dyn ObjectStore>,
        location: object_store::path::Path,
        options: &RemoteOptions,
    ) -> Result<AsyncReader> {
        let url = format!("{store}/{location}");
        let fetcher = Fetcher::new(store, location, url, false, options);
        AsyncReader::open_fetcher(fetcher, options).await
    }

    async fn open_fetcher(fetcher: Fetcher, options: &RemoteOptions) -> Result<AsyncReader> {
        let first = fetcher
            .first(options.first_request_bytes.max(DATA_START) as u64)
            .await?;
        let size = first.size;
        if let Some(prefix) = first.bytes.get(..DATA_START) {
            if let Ok(header) = Header::parse(prefix, &options.config.magic, 0) {
                let toc_at = header.toc_start.saturating_add(DATA_START as u64);
                let toc_end = toc_at.saturating_add(header.toc_len);
                if toc_end > size {
                    return Err(Error::with_message(
                        ErrorKind::UnexpectedEnd,
                        format!(
                            "{} bytes {toc_at}..{toc_end}: the header puts the TOC there but \
                             the object has {size} bytes",
                            fetcher.url()
                        ),
                    )
                    .with_position(crate::Position::Byte(size)));
                }
            }
        }
        let mut cache = RangeCache::new(options.cache_bytes);
        cache.insert(0, first.bytes, 0);
        let core = Core {
            fetcher,
            cache: Mutex::new(cache),
            size,
            config: options.config.clone(),
            gap: options.coalesce_gap,
            concurrency: options.concurrency.max(1),
            hits: AtomicU64::new(0),
        };
        let root = core
            .run(|source| open_file(&source, &Counters::default(), 0, size, &core.config))
            .await?;
        // Opening reads the prefix the first request brought: not a hit of the cache.
        core.hits.store(0, Ordering::Relaxed);
        Ok(AsyncReader {
            shared: Arc::new(Shared { core, root }),
        })
    }

    /// A local reader over the cached ranges, its outer file already open.
    fn reader<'c>(&self, source: RemoteSource<'c>) -> Reader<RemoteSource<'c>> {
        let shared = &self.shared;
        Reader::from_parts(
            source,
            shared.core.size,
            shared.core.config.clone(),
            shared.root.clone(),
        )
    }

    /// Decodes the value at `path` (a [`Path`] or its string form `a/0/b`): the TOC is walked
    /// in memory, the nested files and small containers on the way are fetched as needed, and
    /// the value's bytes in one request.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PathNotFound`], decoding errors and errors of a malformed file as
    /// [`Reader::get`], with the URL in their message; [`ErrorKind::Remote`] for failed
    /// requests.
    pub async fn get<T: DeserializeOwned>(&self, path: impl IntoPath) -> Result<T> {
        let path = path.into_path()?;
        self.shared
            .core
            .run(|source| {
                let reader = self.reader(source);
                let node = reader.node(&path)?;
                require_value(&reader, &node)?;
                node.decode()
            })
            .await
    }

    /// The value at `path` as a [`Value`].
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get).
    pub async fn get_value(&self, path: impl IntoPath) -> Result<Value> {
        self.get(path).await
    }

    /// Decodes the values at `paths`, in their order: the TOC walks of all of them first, then
    /// their values' bytes fetched together (ranges closer than
    /// [`RemoteOptions::coalesce_gap`] in one request, up to [`RemoteOptions::concurrency`]
    /// requests at once).
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get), for the first path that fails.
    pub async fn get_many<T, P>(&self, paths: impl IntoIterator<Item = P>) -> Result<Vec<T>>
    where
        T: DeserializeOwned,
        P: IntoPath,
    {
        let paths = paths
            .into_iter()
            .map(IntoPath::into_path)
            .collect::<Result<Vec<Path>>>()?;
        self.shared
            .core
            .run(|source| {
                let reader = self.reader(source);
                let mut nodes = Vec::with_capacity(paths.len());
                let mut first_error = None;
                for path in &paths {
                    let missed = reader.source.missed_count();
                    let node = reader.node(path).and_then(|node| {
                        require_value(&reader, &node)?;
                        Ok(node)
                    });
                    match node {
                        Ok(node) => nodes.push(node),
                        // Missing bytes: the other paths go on, to be fetched together.
                        Err(_) if reader.source.missed_count() > missed => {}
                        Err(e) => {
                            first_error.get_or_insert(e);
                        }
                    }
                }
                if let Some(error) = first_error {
                    return Err(error);
                }
                nodes.iter().map(Node::decode).collect()
            })
            .await
    }

    /// Decodes the whole file.
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get).
    pub async fn decode<T: DeserializeOwned>(&self) -> Result<T> {
        self.get(Path::root()).await
    }

    /// The keys of the map at `path`.
    ///
    /// # Errors
    ///
    /// As [`Node::keys`], and as [`get`](Self::get).
    pub async fn keys<K: DeserializeOwned>(&self, path: impl IntoPath) -> Result<Vec<K>> {
        let path = path.into_path()?;
        self.with_reader(|reader| reader.node(&path)?.keys()).await
    }

    /// The number of elements or entries of the array or map at `path`.
    ///
    /// # Errors
    ///
    /// As [`Node::len`], and as [`get`](Self::get).
    pub async fn len(&self, path: impl IntoPath) -> Result<usize> {
        let path = path.into_path()?;
        self.with_reader(|reader| reader.node(&path)?.len()).await
    }

    /// Walks the whole TOC (fetching the prefixes and TOCs of nested files, no data) and
    /// counts what it holds, as [`Reader::toc_stats`].
    ///
    /// # Errors
    ///
    /// As [`Reader::toc_stats`], and [`ErrorKind::Remote`] for failed requests.
    pub async fn toc_stats(&self) -> Result<TocStats> {
        self.with_reader(|reader| reader.toc_stats()).await
    }

    /// Runs `f` on a local [`Reader`] over the cached ranges of the object: any of the
    /// reader's and its [`Node`]s' methods. A read of bytes not fetched yet fails `f`'s
    /// attempt; the bytes are fetched and `f` runs again (so it may run several times, one
    /// request each: for the values themselves prefer [`get`](Self::get), which fetches a
    /// value's bytes in one request).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use object_store::{memory::InMemory, path::Path, ObjectStoreExt};
    /// # use serde_formats::toc::{self, NodeShape, remote::{AsyncReader, RemoteOptions}};
    /// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    /// # runtime.block_on(async {
    /// # let store = Arc::new(InMemory::new());
    /// # let rows: Vec<Vec<f64>> = (0..100).map(|i| vec![i as f64; 1000]).collect();
    /// # store.put(&Path::from("f"), toc::to_bytes(&rows).unwrap().into()).await.unwrap();
    /// let reader = AsyncReader::open_store(store, Path::from("f"), &RemoteOptions::new()).await?;
    /// let shape = reader.with_reader(|r| Ok(r.node("3")?.shape())).await?;
    /// assert_eq!(shape, NodeShape::Blocks);
    /// # Ok::<(), serde_formats::Error>(())
    /// # }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// `f`'s errors, with the URL in their message, and [`ErrorKind::Remote`] for failed
    /// requests.
    pub async fn with_reader<R>(
        &self,
        mut f: impl FnMut(&Reader<RemoteSource<'_>>) -> Result<R>,
    ) -> Result<R> {
        self.shared.core.run(|source| f(&self.reader(source))).await
    }

    /// Requests sent, bytes received, cache hits (reads served by ranges an earlier operation
    /// fetched) and the time spent in requests (summed over concurrent ones).
    pub fn stats(&self) -> ReadStats {
        let core = &self.shared.core;
        ReadStats {
            cache_hits: core.hits.load(Ordering::Relaxed),
            ..core.fetcher.stats()
        }
    }

    /// The object's size in bytes.
    pub fn size(&self) -> u64 {
        self.shared.core.size
    }

    /// The URL the reader was opened with (for [`open_store`](Self::open_store):
    /// `{store}/{location}`).
    pub fn url(&self) -> &str {
        self.shared.core.fetcher.url()
    }

    /// The codec of the (outer) file.
    pub fn codec(&self) -> Codec {
        self.shared.root.codec
    }

    /// The length of the data section (the header's `toc_start`).
    pub fn data_len(&self) -> u64 {
        self.shared.root.data_len
    }

    /// The length of the TOC (the header's `toc_len`).
    pub fn toc_len(&self) -> u64 {
        self.shared.root.toc_len as u64
    }

    /// Bytes held in the cache now.
    pub fn cached_bytes(&self) -> usize {
        lock(&self.shared.core.cache).bytes()
    }
}

/// Fails, recording the miss, unless the bytes of `node`'s value are cached: its data span, or
/// for a combined file (whose TOC gives none) the data of the file holding its members.
fn require_value(
    reader: &Reader<RemoteSource<'_>>,
    node: &Node<'_, RemoteSource<'_>>,
) -> Result<()> {
    let base = node.data_start();
    let range = match node.span()? {
        Some((start, end)) => base + start..base + end,
        None => base..base + node.file.data_len,
    };
    reader.source.require(range)
}
