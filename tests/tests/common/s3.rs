//! What the object-store tests share (`toc_s3`, `toc_s3_faults`, `toc_s3_shapes`): the reader
//! options for the test's moto server or proxy, and msglc reading through s3fs. Included by
//! `#[path]`.

#![allow(dead_code)]

use std::path::Path as FsPath;
use std::time::Duration;

use integration_tests::python_peers;
use integration_tests::s3_server::{ACCESS_KEY, REGION, SECRET_KEY};
use serde_formats::toc::remote::RemoteOptions;
use serde_formats::toc::Value;

/// Options for a server (or proxy) at `endpoint` with the tests' dummy credentials; quick
/// retries so that the fault tests stay short.
pub fn options(endpoint: &str) -> RemoteOptions {
    RemoteOptions::new()
        .endpoint(endpoint)
        .store_options([
            ("aws_access_key_id", ACCESS_KEY),
            ("aws_secret_access_key", SECRET_KEY),
            ("aws_region", REGION),
        ])
        .retry_backoff(Duration::from_millis(10))
        .max_backoff(Duration::from_millis(100))
}

/// What msglc read through s3fs: the values of the paths, and its time for open + reads.
pub struct MsglcRead {
    pub values: Vec<Value>,
    pub seconds: f64,
}

/// msglc's `LazyReader` over `UPath("s3://bucket/key")` at `endpoint`, reading `paths`
/// (`tests/interop/toc_s3_msglc.py`).
pub fn msglc_read(endpoint: &str, bucket: &str, key: &str, paths: &[&str]) -> MsglcRead {
    let mut args = vec![endpoint, bucket, key];
    args.extend_from_slice(paths);
    let out = python_peers::run_script("toc_s3_msglc.py", &args);
    let json: serde_json::Value =
        serde_json::from_slice(&out).expect("toc_s3_msglc.py prints JSON");
    let values = json["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|hex| {
            let bytes = integration_tests::hex::parse(hex.as_str().expect("hex"));
            rmp_serde::from_slice(&bytes).expect("msgspec's MessagePack")
        })
        .collect();
    MsglcRead {
        values,
        seconds: json["seconds"].as_f64().expect("seconds"),
    }
}

/// The manifest directory's files uploaded under `prefix/` in `bucket`.
pub fn upload_dir(
    server: &integration_tests::s3_server::S3Server,
    bucket: &str,
    prefix: &str,
    dir: &FsPath,
) {
    for entry in std::fs::read_dir(dir).expect("read the directory") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap().to_str().unwrap();
        server.put_file(bucket, &format!("{prefix}/{name}"), &path);
    }
}
