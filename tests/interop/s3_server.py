#!/usr/bin/env python3
"""An S3-compatible server for the object-store tests: moto's ThreadedMotoServer on a loopback port.

Usage: s3_server.py   (driven by tests/src/s3_server.rs through stdin and stdout)

Prints `port N` once the server listens on 127.0.0.1:N, then runs one command per stdin line,
a JSON object, and answers each with one line, `ok` or `error: ...`:
  {"op": "bucket", "bucket": B}                      create bucket B
  {"op": "put", "bucket": B, "key": K, "file": F}    upload the local file F as B/K
      (with "public": true readable without signing, ACL public-read)
Stops the server and exits when stdin closes (the test dropped its handle, or died): no orphan.
Nothing here talks to a real cloud: boto3 is pointed at the local server with dummy credentials.

Exit status: 0 after stdin closed, 3 moto or boto3 missing.
"""

import json
import logging
import os
import sys
import threading

import msglc_common

# Dummy credentials and region, set before boto3 loads; boto3 also gets a dummy session token.
msglc_common.use_dummy_aws_credentials()
os.environ["AWS_SESSION_TOKEN"] = "testing"

try:
    import boto3
    from moto.server import ThreadedMotoServer
except ImportError as err:  # pragma: no cover - exercised by the Rust side's failure message
    msglc_common.missing(err)


def run(client, command):
    op = command["op"]
    if op == "bucket":
        client.create_bucket(Bucket=command["bucket"])
    elif op == "put":
        extra = {"ACL": "public-read"} if command.get("public") else {}
        with open(command["file"], "rb") as f:
            client.put_object(Bucket=command["bucket"], Key=command["key"], Body=f, **extra)
    else:
        raise ValueError(f"unknown op {op!r}")


def main():
    # The request log of the server (werkzeug) would fill the test's stderr.
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    client = boto3.client("s3", endpoint_url=f"http://{host}:{port}", region_name="us-east-1")
    print(f"port {port}", flush=True)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                run(client, json.loads(line))
                print("ok", flush=True)
            except Exception as err:  # every failure is reported to the test, which fails
                print(f"error: {type(err).__name__}: {err}".replace("\n", " "), flush=True)
    finally:
        # A stop that hangs must not keep the process alive: exit regardless after 5 s.
        threading.Timer(5.0, os._exit, args=(0,)).start()
        server.stop()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
