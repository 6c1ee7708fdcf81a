//! `sfmt get` and `sfmt inspect` on `s3://` URLs, against a real S3-compatible server (moto,
//! started by the test through `integration_tests::s3_server`; nothing talks to a real cloud):
//! the same output as for the local file, `--endpoint` and credentials from the environment,
//! `--stats` with the request count, one line on stderr for store errors.

use std::path::Path;

use assert_cmd::Command;
use integration_tests::s3_server::{S3Server, ACCESS_KEY, REGION, SECRET_KEY};
use serde_formats::toc;

/// `sfmt` with the test's dummy credentials in the environment and nothing of the user's
/// (no real endpoint, profile or credentials file can be reached).
fn sfmt() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sfmt"));
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        if key.starts_with("AWS_") {
            command.env_remove(&key);
        }
    }
    command
        .env("AWS_ACCESS_KEY_ID", ACCESS_KEY)
        .env("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
        .env("AWS_REGION", REGION)
        .env("AWS_CONFIG_FILE", "/dev/null")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/dev/null");
    command
}

/// Runs `sfmt args`, expecting success; returns stdout and stderr.
fn ok(args: &[&str]) -> (String, String) {
    super::ok_with(sfmt(), args)
}

/// Runs `sfmt args`, expecting failure with one line on stderr; returns it.
fn fails(args: &[&str]) -> String {
    super::fails_with(sfmt(), args)
}

/// A map of 12 series of 60 000 f64 (about 6 MB, one series 480 KB) and a few small values.
fn series() -> std::collections::BTreeMap<String, Vec<f64>> {
    (0..12)
        .map(|s| {
            let values = (0..60_000).map(|i| (s * 60_000 + i) as f64 + 0.5).collect();
            (format!("s{s:02}"), values)
        })
        .collect()
}

/// The file uploaded to a fresh bucket; its URL and local path.
fn uploaded(dir: &Path) -> (String, String) {
    let server = S3Server::shared();
    let bucket = server.bucket("sfmt");
    let file = dir.join("series.toc");
    toc::write_file(&file, &series()).unwrap();
    server.put_file(&bucket, "data/series.toc", &file);
    (
        format!("s3://{bucket}/data/series.toc"),
        file.to_str().unwrap().to_owned(),
    )
}

#[test]
fn get_and_inspect_on_a_url_print_what_they_print_for_the_local_file() {
    let dir = tempfile::tempdir().unwrap();
    let (url, file) = uploaded(dir.path());
    let endpoint = S3Server::shared().endpoint();
    for path in ["s07/59999", "s00/0", "s11", ""] {
        let (local, _) = ok(&["get", &file, path]);
        let (remote, stderr) = ok(&["get", &url, path, "--endpoint", &endpoint]);
        assert_eq!(remote, local, "{path}");
        assert_eq!(stderr, "", "no progress bar when stderr is not a terminal");
    }
    let (local, _) = ok(&["inspect", &file]);
    let (remote, _) = ok(&["inspect", &url, "--endpoint", &endpoint, "--depth", "3"]);
    let (remote_default, _) = ok(&["--endpoint", &endpoint, "inspect", &url]);
    assert_eq!(remote_default, local);
    assert!(remote.starts_with("format: toc"), "{remote}");
    assert!(remote.contains("block: "), "{remote}");
}

#[test]
fn the_endpoint_and_http_can_come_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let (url, file) = uploaded(dir.path());
    let output = sfmt()
        .env("AWS_ENDPOINT_URL", S3Server::shared().endpoint())
        .args(["get", &url, "s03/3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(output.stdout, ok(&["get", &file, "s03/3"]).0.as_bytes());
}

#[test]
fn get_stats_on_a_url_count_three_requests_for_a_leaf() {
    let dir = tempfile::tempdir().unwrap();
    let (url, _) = uploaded(dir.path());
    let size = std::fs::metadata(dir.path().join("series.toc"))
        .unwrap()
        .len();
    let endpoint = S3Server::shared().endpoint();
    let (stdout, stderr) = ok(&["get", &url, "s05/12345", "--stats", "--endpoint", &endpoint]);
    assert_eq!(stdout, format!("{}\n", (5 * 60_000 + 12_345) as f64 + 0.5));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // `read N of M bytes (P%) in R requests, C cache hits, T ms`
    let words: Vec<&str> = stderr.split_whitespace().collect();
    let number = |s: &str| s.replace(',', "").parse::<u64>().unwrap();
    assert_eq!(
        (words[0], words[2], words[4]),
        ("read", "of", "bytes"),
        "{stderr}"
    );
    assert_eq!(
        (words[8], words[10], words[11]),
        ("requests,", "cache", "hits,"),
        "{stderr}"
    );
    assert_eq!(number(words[3]), size, "{stderr}");
    assert!(number(words[1]) * 20 < size, "{stderr}");
    assert_eq!(number(words[7]), 3, "the head, the TOC, the leaf: {stderr}");
    assert!(stderr.trim_end().ends_with(" ms"), "{stderr}");

    // A whole series (480 KB) also takes one request once the TOC is in.
    let (_, stderr) = ok(&["get", &url, "s05", "--stats", "--endpoint", &endpoint]);
    assert!(stderr.contains(" in 3 requests, "), "{stderr}");
}

#[test]
fn store_errors_are_one_line_naming_the_url() {
    let dir = tempfile::tempdir().unwrap();
    let (url, _) = uploaded(dir.path());
    let endpoint = S3Server::shared().endpoint();
    let missing = url.replace("series.toc", "missing.toc");
    let line = fails(&["get", &missing, "s00/0", "--endpoint", &endpoint]);
    assert!(line.contains(&missing), "{line}");
    let line = fails(&["inspect", &missing, "--endpoint", &endpoint]);
    assert!(line.contains(&missing), "{line}");
    let line = fails(&["get", &url, "s99", "--endpoint", &endpoint]);
    assert!(line.contains("s99") && line.contains(&url), "{line}");
    let line = fails(&["inspect", &url, "--from", "json", "--endpoint", &endpoint]);
    assert!(line.contains(&url), "{line}");
}
