//! TOC files in object storage, read with a few ranged requests (feature `object-store`).
//!
//! [`AsyncReader`] (tokio) and [`BlockingReader`] (its own runtime) read a file from any store
//! of the [`object_store`] crate, addressed by URL: `s3://bucket/key` (AWS or, with
//! [`RemoteOptions::endpoint`], an S3-compatible server), `gs://bucket/key`,
//! `az://container/key` or `abfs://...`, `https://host/path`, `file:///path`; or any
//! [`ObjectStore`](object_store::ObjectStore) passed to `open_store`.
//!
//! They read what the local [`Reader`](super::Reader) reads, with its code: opening fetches the
//! start of the object (whose response also gives the object's size: no HEAD request) and then
//! exactly the TOC's bytes; a path is walked in the TOC in memory, and the value's bytes are
//! fetched in one request, exactly them. Nested files of a combined file add a request for
//! their prefix and one for their TOC. Fetched ranges stay in a bounded cache
//! ([`RemoteOptions::cache_bytes`]), so reading near what was read sends nothing, and
//! [`AsyncReader::get_many`] fetches the values of many paths together, coalescing ranges
//! closer than [`RemoteOptions::coalesce_gap`].
//!
//! Every request has a timeout and is retried with a bounded exponential backoff when it
//! failed for a transient reason (server errors, broken connections, a body that broke off);
//! errors are [`ErrorKind::Remote`](crate::ErrorKind::Remote) and name the URL and the byte
//! range, e.g. `object store error: s3://bucket/key bytes 50..164050: not found (...)`.
//! [`ReadStats`](super::ReadStats) counts requests, bytes, cache hits and time.
//!
//! Measured with the tests' counting store (`tests/toc_remote`), opening a file and reading one
//! path (msglc through s3fs, on the same shape A: 1 HEAD + 3 GETs, 303,304 bytes):
//!
//! | file | path | requests | bytes transferred |
//! | --- | --- | --- | --- |
//! | A: 1000 keys × 10 000 f64 (90.2 MB, TOC 166 KB) | `key0500/1234` (one f64) | 3 | 178,278 |
//! | A | `key0500` (its 10 000 f64) | 3 | 260,079 |
//! | B: 1M records `{id, name, score, flags}` (61.2 MB, TOC 14.0 MB) | `500000/name` | 3 | 13,998,326 |
//!
//! The first request asks for [`RemoteOptions::first_request_bytes`] (4 KiB), the TOC and the
//! value exactly their bytes. Shape B's TOC holds an entry per record (see "Size: the trivial
//! size" in the [`toc`](super) docs: a larger trivial size makes it a few KB).
//!
//! ```
//! use serde_formats::toc::{self, remote::{BlockingReader, RemoteOptions}};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("f.msglc");
//! # std::fs::write(&path, toc::to_bytes(&vec![vec![0.5f64; 2000]; 10])?)?;
//! # let url = format!("file://{}", path.display());
//! let reader = BlockingReader::open(&url, &RemoteOptions::new().cache_bytes(64 << 20))?;
//! let x: f64 = reader.get("3/1999")?;
//! println!("{x} ({})", reader.stats()); // 3 reads, ... bytes, 0 cache hits, ...
//! # assert_eq!(x, 0.5);
//! # Ok(())
//! # }
//! ```

mod async_reader;
mod blocking;
mod cache;
mod fetch;
mod options;
mod store;

pub use async_reader::AsyncReader;
pub use blocking::BlockingReader;
pub use cache::RemoteSource;
pub use options::{Progress, RemoteOptions};
