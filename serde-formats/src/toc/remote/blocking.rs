//! [`BlockingReader`]: the [`AsyncReader`] for code without an async runtime, on a
//! current-thread tokio runtime of its own.

use std::future::Future;
use std::sync::Arc;

use object_store::ObjectStore;
use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorKind, Result};
use crate::toc::{Codec, IntoPath, ReadStats, Reader, TocStats, Value};

use super::{AsyncReader, RemoteOptions, RemoteSource};

/// A TOC file in an object store, read without async code: an [`AsyncReader`] on a
/// current-thread tokio runtime the reader owns. Same methods, blocking.
///
/// Its methods must not be called from inside an async runtime (they would block one of its
/// threads): there they return an error ([`ErrorKind::Unsupported`]); use the
/// [`AsyncReader`] (a reader's requests belong to the runtime that sends them).
///
/// ```
/// use serde_formats::toc::{self, remote::{BlockingReader, RemoteOptions}};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("rows.msglc");
/// let rows: Vec<Vec<u32>> = (0..100).map(|i| vec![i; 1000]).collect();
/// std::fs::write(&path, toc::to_bytes(&rows)?)?;
///
/// let url = format!("file://{}", path.display());
/// let reader = BlockingReader::open(&url, &RemoteOptions::new())?;
/// assert_eq!(reader.get::<Vec<u32>>("7")?, vec![7; 1000]);
/// assert_eq!(reader.stats().reads, 3);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct BlockingReader {
    /// `None` only while dropping.
    runtime: Option<tokio::runtime::Runtime>,
    reader: AsyncReader,
}

impl BlockingReader {
    /// As [`AsyncReader::open`].
    ///
    /// # Errors
    ///
    /// As [`AsyncReader::open`]; [`ErrorKind::Unsupported`] inside an async runtime, and
    /// [`ErrorKind::Io`] when the runtime cannot be started.
    pub fn open(url: &str, options: &RemoteOptions) -> Result<BlockingReader> {
        BlockingReader::start(AsyncReader::open(url, options))
    }

    /// As [`AsyncReader::open_store`].
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub fn open_store(
        store: Arc<dyn ObjectStore>,
        location: object_store::path::Path,
        options: &RemoteOptions,
    ) -> Result<BlockingReader> {
        BlockingReader::start(AsyncReader::open_store(store, location, options))
    }

    fn start(open: impl Future<Output = Result<AsyncReader>>) -> Result<BlockingReader> {
        outside_runtime()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let reader = runtime.block_on(open)?;
        Ok(BlockingReader {
            runtime: Some(runtime),
            reader,
        })
    }

    fn block_on<R>(&self, future: impl Future<Output = Result<R>>) -> Result<R> {
        outside_runtime()?;
        match &self.runtime {
            Some(runtime) => runtime.block_on(future),
            None => Err(Error::with_message(
                ErrorKind::Unsupported,
                "reader dropped",
            )),
        }
    }

    /// As [`AsyncReader::get`].
    ///
    /// # Errors
    ///
    /// As [`AsyncReader::get`]; [`ErrorKind::Unsupported`] inside an async runtime.
    pub fn get<T: DeserializeOwned>(&self, path: impl IntoPath) -> Result<T> {
        self.block_on(self.reader.get(path))
    }

    /// As [`AsyncReader::get_value`].
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get).
    pub fn get_value(&self, path: impl IntoPath) -> Result<Value> {
        self.block_on(self.reader.get_value(path))
    }

    /// As [`AsyncReader::get_many`].
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get).
    pub fn get_many<T, P>(&self, paths: impl IntoIterator<Item = P>) -> Result<Vec<T>>
    where
        T: DeserializeOwned,
        P: IntoPath,
    {
        self.block_on(self.reader.get_many(paths))
    }

    /// As [`AsyncReader::decode`].
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get).
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T> {
        self.block_on(self.reader.decode())
    }

    /// As [`AsyncReader::keys`].
    ///
    /// # Errors
    ///
    /// As [`AsyncReader::keys`]; [`ErrorKind::Unsupported`] inside an async runtime.
    pub fn keys<K: DeserializeOwned>(&self, path: impl IntoPath) -> Result<Vec<K>> {
        self.block_on(self.reader.keys(path))
    }

    /// As [`AsyncReader::len`].
    ///
    /// # Errors
    ///
    /// As [`AsyncReader::len`]; [`ErrorKind::Unsupported`] inside an async runtime.
    pub fn len(&self, path: impl IntoPath) -> Result<usize> {
        self.block_on(self.reader.len(path))
    }

    /// As [`AsyncReader::toc_stats`].
    ///
    /// # Errors
    ///
    /// As [`AsyncReader::toc_stats`]; [`ErrorKind::Unsupported`] inside an async runtime.
    pub fn toc_stats(&self) -> Result<TocStats> {
        self.block_on(self.reader.toc_stats())
    }

    /// As [`AsyncReader::with_reader`].
    ///
    /// # Errors
    ///
    /// As [`AsyncReader::with_reader`]; [`ErrorKind::Unsupported`] inside an async runtime.
    pub fn with_reader<R>(
        &self,
        f: impl FnMut(&Reader<RemoteSource<'_>>) -> Result<R>,
    ) -> Result<R> {
        self.block_on(self.reader.with_reader(f))
    }

    /// As [`AsyncReader::stats`].
    pub fn stats(&self) -> ReadStats {
        self.reader.stats()
    }

    /// As [`AsyncReader::size`].
    pub fn size(&self) -> u64 {
        self.reader.size()
    }

    /// As [`AsyncReader::url`].
    pub fn url(&self) -> &str {
        self.reader.url()
    }

    /// As [`AsyncReader::codec`].
    pub fn codec(&self) -> Codec {
        self.reader.codec()
    }

    /// As [`AsyncReader::data_len`].
    pub fn data_len(&self) -> u64 {
        self.reader.data_len()
    }

    /// As [`AsyncReader::toc_len`].
    pub fn toc_len(&self) -> u64 {
        self.reader.toc_len()
    }
}

impl Drop for BlockingReader {
    fn drop(&mut self) {
        // Dropping a runtime blocks, which a runtime's thread must not do: let it wind down
        // in the background there.
        if let Some(runtime) = self.runtime.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                runtime.shutdown_background();
            }
        }
    }
}

/// An error when called from inside a tokio runtime, where blocking on another would panic.
fn outside_runtime() -> Result<()> {
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(Error::with_message(
            ErrorKind::Unsupported,
            "BlockingReader called inside an async runtime: use AsyncReader there",
        ));
    }
    Ok(())
}
