//! [`RemoteOptions`]: how a remote reader reaches its store (endpoint, credentials), how much
//! it caches, how it coalesces, times out and retries its requests.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::toc::Config;

/// How a remote reader reaches its store and reads from it. `Default` plus builder-style
/// setters:
///
/// ```
/// use std::time::Duration;
/// use serde_formats::toc::remote::RemoteOptions;
/// let options = RemoteOptions::new()
///     .endpoint("http://127.0.0.1:9000")
///     .store_option("aws_access_key_id", "test")
///     .cache_bytes(64 << 20)
///     .request_timeout(Duration::from_secs(10));
/// assert!(options.allow_http);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RemoteOptions {
    /// The endpoint of an S3-compatible server (MinIO, moto, Ceph, R2...), e.g.
    /// `http://127.0.0.1:9000`; for `az://` URLs, the Azure endpoint (Azurite). `None`: the
    /// store's own, or the one its environment variables name (`AWS_ENDPOINT_URL`...).
    pub endpoint: Option<String>,
    /// Whether plain `http://` is allowed to the store; set by [`endpoint`](Self::endpoint)
    /// for an `http://` endpoint. `http://` URLs (the HTTP store) always allow it.
    pub allow_http: bool,
    /// Configuration keys passed to the store's builder after its environment variables were
    /// read: credentials and settings named as in `object_store`'s config keys
    /// (`aws_access_key_id`, `aws_region`, `google_service_account`, `azure_storage_account_name`,
    /// `timeout`...). Credentials otherwise come from the usual environment variables
    /// (`AWS_*`, `GOOGLE_*`, `AZURE_*`).
    pub store_options: Vec<(String, String)>,
    /// The most bytes of fetched ranges kept for later reads (least recently used go first).
    /// Default 16 MiB. The bytes one operation needs are kept until it ends, even beyond this.
    pub cache_bytes: usize,
    /// Ranges needed at the same time and less than this many bytes apart are fetched as one
    /// request, and a range that falls this close to bytes already cached is stretched to
    /// join them. Default 4 KiB: small enough not to fetch much that is not asked for.
    pub coalesce_gap: usize,
    /// How many bytes the first request asks for, from the start of the object (at least the
    /// 50-byte prefix; a file no larger than this opens in one request). Default 4 KiB.
    pub first_request_bytes: usize,
    /// The longest one request may take, body included; then it is retried. Default 30 s.
    pub request_timeout: Duration,
    /// How many times a request that failed for a transient reason (5xx, connection reset,
    /// timeout, a body that broke off) is sent again. Default 5.
    pub max_retries: usize,
    /// The wait before the first retry, doubled at each next one up to
    /// [`max_backoff`](Self::max_backoff). Default 100 ms.
    pub retry_backoff: Duration,
    /// The longest wait between two retries. Default 5 s.
    pub max_backoff: Duration,
    /// How many requests [`get_many`](super::AsyncReader::get_many) sends at once. Default 8.
    pub concurrency: usize,
    /// The magic and depth limit of the files read, as for the local
    /// [`Reader`](crate::toc::Reader).
    pub config: Config,
    /// Told the size of each piece of a response body as it arrives (for a progress bar);
    /// set with [`on_progress`](Self::on_progress).
    pub progress: Option<Progress>,
}

/// A callback told how many bytes of a response body just arrived
/// ([`RemoteOptions::on_progress`]).
#[derive(Clone)]
pub struct Progress(Arc<dyn Fn(u64) + Send + Sync>);

impl Progress {
    pub(super) fn report(&self, bytes: u64) {
        (self.0)(bytes);
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Progress(..)")
    }
}

impl Default for RemoteOptions {
    fn default() -> Self {
        RemoteOptions {
            endpoint: None,
            allow_http: false,
            store_options: Vec::new(),
            cache_bytes: 16 << 20,
            coalesce_gap: 4 << 10,
            first_request_bytes: 4 << 10,
            request_timeout: Duration::from_secs(30),
            max_retries: 5,
            retry_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(5),
            concurrency: 8,
            config: Config::default(),
            progress: None,
        }
    }
}

impl RemoteOptions {
    /// The defaults.
    pub fn new() -> Self {
        RemoteOptions::default()
    }

    /// Sets [`endpoint`](Self::endpoint); an `http://` endpoint also sets
    /// [`allow_http`](Self::allow_http).
    #[must_use]
    pub fn endpoint(mut self, endpoint: impl Into<String>) -> Self {
        let endpoint = endpoint.into();
        if endpoint.starts_with("http://") {
            self.allow_http = true;
        }
        self.endpoint = Some(endpoint);
        self
    }

    /// Adds one of the [`store_options`](Self::store_options).
    #[must_use]
    pub fn store_option(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.store_options.push((key.into(), value.into()));
        self
    }

    /// Adds [`store_options`](Self::store_options).
    #[must_use]
    pub fn store_options<K, V>(mut self, options: impl IntoIterator<Item = (K, V)>) -> Self
    where
        K: Into<String>,
        V: Into<String>,
    {
        self.store_options
            .extend(options.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }

    setters! {
        /// Sets [`allow_http`](Self::allow_http).
        allow_http(allow: bool);
        /// Sets [`cache_bytes`](Self::cache_bytes).
        cache_bytes(bytes: usize);
        /// Sets [`coalesce_gap`](Self::coalesce_gap).
        coalesce_gap(bytes: usize);
        /// Sets [`first_request_bytes`](Self::first_request_bytes).
        first_request_bytes(bytes: usize);
        /// Sets [`request_timeout`](Self::request_timeout).
        request_timeout(timeout: Duration);
        /// Sets [`max_retries`](Self::max_retries).
        max_retries(retries: usize);
        /// Sets [`retry_backoff`](Self::retry_backoff).
        retry_backoff(backoff: Duration);
        /// Sets [`max_backoff`](Self::max_backoff).
        max_backoff(backoff: Duration);
        /// Sets [`config`](Self::config).
        config(config: crate::toc::Config);
    }

    /// Sets [`concurrency`](Self::concurrency) (at least 1).
    #[must_use]
    pub fn concurrency(mut self, requests: usize) -> Self {
        self.concurrency = requests.max(1);
        self
    }

    /// Calls `progress` with the size of each piece of a response body as it arrives, e.g.
    /// to advance a progress bar. Bodies are then read piece by piece (without it, a file
    /// store reads a range in one go).
    #[must_use]
    pub fn on_progress(mut self, progress: impl Fn(u64) + Send + Sync + 'static) -> Self {
        self.progress = Some(Progress(Arc::new(progress)));
        self
    }

    /// The longest all attempts at one request may take: each attempt's timeout and each wait.
    pub(super) fn retry_budget(&self) -> Duration {
        let attempts = u32::try_from(self.max_retries.saturating_add(1)).unwrap_or(u32::MAX);
        self.request_timeout
            .saturating_add(self.max_backoff)
            .saturating_mul(attempts)
    }

    /// The wait before retry number `retry` (0 for the first): doubling, bounded.
    pub(super) fn backoff(&self, retry: usize) -> Duration {
        let factor = 1u32 << retry.min(20);
        self.retry_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }
}
