//! The object-store test harness itself: the moto server ([`integration_tests::s3_server`])
//! stores and serves ranges of what was uploaded, and the proxy
//! ([`integration_tests::fault_proxy`]) counts what passes and injects each fault as told.
//! Plain HTTP/1.1 over `std::net` (moto does not check signatures).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use integration_tests::fault_proxy::{Fault, FaultProxy};
use integration_tests::s3_server::S3Server;

#[path = "common/s3.rs"]
mod s3;

/// A response: status, headers (lowercase names), body; or the error that ended the read.
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `GET path` with an optional `Range`, on a connection of its own, read until the
/// `Content-Length` is in; `Err` when the connection ends first or times out.
fn get(addr: SocketAddr, path: &str, range: Option<&str>) -> Result<Response, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let range = range.map_or(String::new(), |r| format!("Range: {r}\r\n"));
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{range}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut bytes = Vec::new();
    let read = stream.read_to_end(&mut bytes);
    let end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| format!("no head ({read:?})"))?;
    let head = String::from_utf8(bytes[..end].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap();
    let headers: Vec<(String, String)> = lines
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap();
            (n.trim().to_ascii_lowercase(), v.trim().to_owned())
        })
        .collect();
    let body = bytes[end + 4..].to_vec();
    let response = Response {
        status: status.parse().unwrap(),
        headers,
        body,
    };
    let expected: usize = response.header("content-length").unwrap().parse().unwrap();
    if response.body.len() != expected {
        return Err(format!(
            "body of {} bytes, Content-Length {expected} ({read:?})",
            response.body.len()
        ));
    }
    Ok(response)
}

#[test]
fn the_server_serves_ranges_and_the_proxy_counts_and_injects_faults() {
    // A server of its own, dropped (and stopped) at the end.
    let server = S3Server::start();
    let bucket = server.bucket("harness");
    let object: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
    server.put_public_bytes(&bucket, "dir/object.bin", &object);
    let proxy = FaultProxy::start(server.addr());
    let path = format!("/{bucket}/dir/object.bin");

    let whole = get(proxy.addr(), &path, None).unwrap();
    assert_eq!(whole.status, 200);
    assert!(whole.body == object, "{} bytes back", whole.body.len());
    let part = get(proxy.addr(), &path, Some("bytes=10-19")).unwrap();
    assert_eq!((part.status, &part.body[..]), (206, &object[10..20]));
    assert_eq!(part.header("content-range"), Some("bytes 10-19/100000"));
    let missing = get(proxy.addr(), &format!("/{bucket}/nothing"), None).unwrap();
    assert_eq!(missing.status, 404);
    let traffic = proxy.take_traffic();
    assert_eq!(traffic.count(), 3, "{}", traffic.describe());
    assert_eq!(
        traffic.requests[..2]
            .iter()
            .map(|r| r.body_bytes)
            .collect::<Vec<_>>(),
        [100_000, 10]
    );
    assert_eq!(traffic.requests[1].range.as_deref(), Some("bytes=10-19"));

    // One 503 after one untouched request, then normal service.
    proxy.inject(Fault::Status(503), 1, Some(1));
    assert_eq!(get(proxy.addr(), &path, None).unwrap().status, 200);
    let refused = get(proxy.addr(), &path, None).unwrap();
    assert_eq!(refused.status, 503);
    assert!(String::from_utf8_lossy(&refused.body).contains("<Code>SlowDown</Code>"));
    assert_eq!(get(proxy.addr(), &path, None).unwrap().status, 200);

    proxy.inject(Fault::ResetMidBody, 0, Some(1));
    let reset = get(proxy.addr(), &path, Some("bytes=0-999")).err().unwrap();
    assert!(reset.contains("body of 500 bytes"), "{reset}");

    proxy.inject(Fault::Truncate(50_000), 0, Some(2));
    let cut = get(proxy.addr(), &path, Some("bytes=49990-50009")).unwrap();
    assert_eq!((cut.status, &cut.body[..]), (206, &object[49_990..50_000]));
    assert_eq!(cut.header("content-range"), Some("bytes 49990-49999/50000"));
    let past = get(proxy.addr(), &path, Some("bytes=60000-60009")).unwrap();
    assert_eq!(past.status, 416);
    assert_eq!(past.header("content-range"), Some("bytes */50000"));

    // A delay past the client's 3 s timeout: the client gives up, nothing hangs.
    proxy.inject(Fault::Delay(Duration::from_secs(60)), 0, Some(1));
    assert!(get(proxy.addr(), &path, None).is_err());
    let traffic = proxy.take_traffic();
    assert_eq!(traffic.count(), 7, "{}", traffic.describe());
    assert_eq!(traffic.count_method("GET"), 7);
}

#[test]
fn msglc_reads_through_s3fs_and_the_proxy() {
    let server = S3Server::shared();
    let bucket = server.bucket("harness-msglc");
    let value: Vec<Vec<u32>> = (0..50).map(|i| vec![i; 300]).collect();
    let bytes = serde_formats::toc::to_bytes(&value).unwrap();
    server.put_bytes(&bucket, "v.msglc", &bytes);
    let proxy = FaultProxy::start(server.addr());
    let read = s3::msglc_read(&proxy.endpoint(), &bucket, "v.msglc", &["7/299", "49"]);
    assert_eq!(
        read.values,
        [
            serde_formats::toc::Value::UInt(7),
            serde_formats::toc::Value::Array(vec![serde_formats::toc::Value::UInt(49); 300])
        ]
    );
    // s3fs asks for the size first (HEAD), then reads ranges.
    let traffic = proxy.take_traffic();
    assert!(traffic.count_method("HEAD") >= 1, "{}", traffic.describe());
    assert!(traffic.count_method("GET") >= 1, "{}", traffic.describe());
    assert!(traffic.body_bytes() > 0);
}
