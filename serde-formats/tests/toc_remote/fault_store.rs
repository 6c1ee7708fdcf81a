//! `FaultStore`: an `ObjectStore` wrapper for the tests that counts the reads sent to the
//! store it wraps (requests and bytes) and fails the next ones as told (server errors,
//! refusals, bodies that break off, requests that never answer).

use std::collections::VecDeque;
use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use futures::stream::{self, BoxStream, StreamExt};
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, GetResultPayload, ListResult, MultipartUpload, ObjectMeta,
    ObjectStore, PutMultipartOptions, PutOptions, PutPayload, PutResult, Result,
};

/// How the next read fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A server error (object_store's `Generic`): transient.
    ServerError,
    /// 404.
    NotFound,
    /// 403.
    Forbidden,
    /// The response starts, then its body breaks off halfway.
    BrokenBody,
    /// No answer at all.
    Hang,
}

/// Counts and fails reads of the store it wraps.
#[derive(Debug)]
pub struct FaultStore {
    inner: Arc<dyn ObjectStore>,
    requests: AtomicU64,
    bytes: AtomicU64,
    faults: Mutex<VecDeque<Fault>>,
    ranges: Mutex<Vec<Range<u64>>>,
}

impl FaultStore {
    pub fn new(inner: Arc<dyn ObjectStore>) -> Arc<FaultStore> {
        Arc::new(FaultStore {
            inner,
            requests: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            faults: Mutex::new(VecDeque::new()),
            ranges: Mutex::new(Vec::new()),
        })
    }

    /// Fails the next reads with `faults`, in order.
    pub fn fail_next(&self, faults: &[Fault]) {
        self.faults.lock().unwrap().extend(faults);
    }

    /// Read requests received.
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::SeqCst)
    }

    /// Body bytes sent back.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::SeqCst)
    }

    /// The ranges asked for, in order.
    pub fn ranges(&self) -> Vec<Range<u64>> {
        self.ranges.lock().unwrap().clone()
    }

    fn generic(message: &str) -> object_store::Error {
        object_store::Error::Generic {
            store: "FaultStore",
            source: message.to_string().into(),
        }
    }
}

impl fmt::Display for FaultStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FaultStore({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for FaultStore {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> Result<PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        self.requests.fetch_add(1, Ordering::SeqCst);
        // Lets other tasks run, as a network read would.
        tokio::task::yield_now().await;
        if let Some(object_store::GetRange::Bounded(range)) = &options.range {
            self.ranges.lock().unwrap().push(range.clone());
        }
        let fault = self.faults.lock().unwrap().pop_front();
        match fault {
            Some(Fault::ServerError) => return Err(FaultStore::generic("503 Slow Down")),
            Some(Fault::NotFound) => {
                return Err(object_store::Error::NotFound {
                    path: location.to_string(),
                    source: "404 Not Found".into(),
                })
            }
            Some(Fault::Forbidden) => {
                return Err(object_store::Error::PermissionDenied {
                    path: location.to_string(),
                    source: "403 Forbidden".into(),
                })
            }
            Some(Fault::Hang) => std::future::pending::<()>().await,
            Some(Fault::BrokenBody) | None => {}
        }
        let result = self.inner.get_opts(location, options).await?;
        let (meta, range, attributes, extensions) = (
            result.meta.clone(),
            result.range.clone(),
            result.attributes.clone(),
            result.extensions.clone(),
        );
        let bytes = result.bytes().await?;
        let body: BoxStream<'static, Result<bytes::Bytes>> = if fault == Some(Fault::BrokenBody) {
            let half = bytes.slice(..bytes.len() / 2);
            self.bytes.fetch_add(half.len() as u64, Ordering::SeqCst);
            stream::iter(vec![
                Ok(half),
                Err(FaultStore::generic("connection reset by peer")),
            ])
            .boxed()
        } else {
            self.bytes.fetch_add(bytes.len() as u64, Ordering::SeqCst);
            stream::iter(vec![Ok(bytes)]).boxed()
        };
        Ok(GetResult {
            payload: GetResultPayload::Stream(body),
            meta,
            range,
            attributes,
            extensions,
        })
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, Result<Path>>,
    ) -> BoxStream<'static, Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}
