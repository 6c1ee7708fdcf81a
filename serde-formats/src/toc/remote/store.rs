//! The store behind a URL: `s3://`, `gs://`, `az://`/`abfs://`, `http(s)://`, `file://`, each
//! built by `object_store`'s builder from the environment, the [`RemoteOptions`] endpoint and
//! store options, with its client's timeout and retries set from the options.

use std::sync::Arc;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::azure::{AzureConfigKey, MicrosoftAzureBuilder};
use object_store::gcp::{GoogleCloudStorageBuilder, GoogleConfigKey};
use object_store::http::HttpBuilder;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{
    BackoffConfig, ClientConfigKey, ClientOptions, ObjectStore, ObjectStoreScheme, RetryConfig,
};

use crate::error::{Error, ErrorKind, Result};

use super::RemoteOptions;

/// A store and the object's path in it.
pub(super) struct Located {
    pub(super) store: Arc<dyn ObjectStore>,
    pub(super) path: Path,
    /// Whether the store's client retries failed requests itself.
    pub(super) retries: bool,
}

/// The store and path that `url` names.
pub(super) fn locate(url: &str, options: &RemoteOptions) -> Result<Located> {
    let bad = |message: String| Error::with_message(ErrorKind::Remote, format!("{url}: {message}"));
    let parsed = url::Url::parse(url).map_err(|e| bad(format!("not a URL ({e})")))?;
    let (scheme, path) = ObjectStoreScheme::parse(&parsed)
        .map_err(|e| bad(format!("not a URL of a store ({e})")))?;
    let store_error = |e: object_store::Error| bad(one_line(&e.to_string()));
    if scheme == ObjectStoreScheme::Local {
        return Ok(Located {
            store: Arc::new(LocalFileSystem::new()),
            path,
            retries: false,
        });
    }
    if scheme != ObjectStoreScheme::Memory {
        install_crypto_provider();
    }
    let retry = retry_config(options);
    let plain_http = scheme == ObjectStoreScheme::Http || environment_allows_http(&scheme, options);
    let client = client_options(options, plain_http);
    // The builders share no trait: one body gives each the options' retries, client and
    // store options (after its URL and endpoint, so that a store option has the last word).
    macro_rules! build {
        ($builder:expr, $key:ty) => {{
            let mut builder = $builder.with_retry(retry).with_client_options(client);
            for (key, value) in &options.store_options {
                let key: $key = key.parse().map_err(store_error)?;
                builder = builder.with_config(key, value);
            }
            Arc::new(builder.build().map_err(store_error)?)
        }};
    }
    let store: Arc<dyn ObjectStore> = match scheme {
        ObjectStoreScheme::AmazonS3 => {
            let mut builder = AmazonS3Builder::from_env().with_url(url);
            if let Some(endpoint) = &options.endpoint {
                builder = builder.with_endpoint(endpoint);
            }
            build!(builder, AmazonS3ConfigKey)
        }
        ObjectStoreScheme::GoogleCloudStorage => {
            build!(
                GoogleCloudStorageBuilder::from_env().with_url(url),
                GoogleConfigKey
            )
        }
        ObjectStoreScheme::MicrosoftAzure => {
            let mut builder = MicrosoftAzureBuilder::from_env().with_url(url);
            if let Some(endpoint) = &options.endpoint {
                builder = builder.with_endpoint(endpoint.clone());
            }
            build!(builder, AzureConfigKey)
        }
        ObjectStoreScheme::Http => {
            let origin = &parsed[..url::Position::BeforePath];
            build!(HttpBuilder::new().with_url(origin), ClientConfigKey)
        }
        _ => {
            return Err(bad(
                "names no store that holds files (a memory:// store is empty: pass one to \
                 AsyncReader::open_store)"
                    .to_string(),
            ))
        }
    };
    Ok(Located {
        store,
        path,
        retries: true,
    })
}

/// The client's retries: as many as the options say, with their backoff, each request under
/// the options' timeout, all of them within the time they could take.
fn retry_config(options: &RemoteOptions) -> RetryConfig {
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: options.retry_backoff,
            max_backoff: options.max_backoff,
            base: 2.0,
        },
        max_retries: options.max_retries,
        retry_timeout: options.retry_budget(),
    }
}

/// Whether the environment asks for plain HTTP: `AWS_ALLOW_HTTP` / `AZURE_ALLOW_HTTP` set to
/// `true` or `1`, or, when the options name no endpoint, an `http://` endpoint in
/// `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL` or `AWS_ENDPOINT`. The builders read these
/// variables themselves, but the client options set here would otherwise refuse HTTP.
fn environment_allows_http(scheme: &ObjectStoreScheme, options: &RemoteOptions) -> bool {
    let var = |name: &str| std::env::var(name).ok();
    let truthy = |name: &str| var(name).is_some_and(|v| matches!(v.trim(), "true" | "1"));
    match scheme {
        ObjectStoreScheme::AmazonS3 => {
            truthy("AWS_ALLOW_HTTP")
                || (options.endpoint.is_none()
                    && ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ENDPOINT"]
                        .iter()
                        .find_map(|name| var(name))
                        .is_some_and(|endpoint| endpoint.starts_with("http://")))
        }
        ObjectStoreScheme::MicrosoftAzure => truthy("AZURE_ALLOW_HTTP"),
        _ => false,
    }
}

fn client_options(options: &RemoteOptions, http_url: bool) -> ClientOptions {
    let connect = options
        .request_timeout
        .min(std::time::Duration::from_secs(10));
    ClientOptions::new()
        .with_timeout(options.request_timeout)
        .with_connect_timeout(connect)
        .with_allow_http(options.allow_http || http_url)
}

/// HTTPS goes through rustls with ring (not the default aws-lc-rs, which needs cmake to
/// build): made the process's default crypto provider unless one is set already.
fn install_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Losing a race with another thread installing one is fine: one is installed.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

/// `text` on one line.
pub(super) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
