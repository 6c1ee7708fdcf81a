#!/usr/bin/env python3
"""msglc reading a TOC file from an S3-compatible server through fsspec/s3fs (universal_pathlib),
as its users do: the peer of tests/tests/toc_s3.rs and the msglc side of the comparison in
tests/tests/toc_s3_shapes.rs.

Usage: toc_s3_msglc.py ENDPOINT BUCKET KEY PATH [PATH ...]

Opens s3://BUCKET/KEY at ENDPOINT (the test's moto server, or the counting proxy in front of
it) with msglc's LazyReader over a UPath, reads each PATH (`/`-separated; decimal segments
are list indexes) and prints one JSON line: {"seconds": open + reads, imports excluded,
"values": [hex of each value as MessagePack (msgspec)]}. Credentials are the tests' dummies.

Exit status: 0 all read, 1 a read failed (details on stderr), 3 msglc, s3fs or msgspec missing.
"""

import json
import os
import sys
import time

import msglc_common

msglc_common.use_dummy_aws_credentials()

try:
    import msgspec
    import s3fs  # noqa: F401 - UPath needs it for s3://
    from msglc.reader import LazyReader, to_obj
    from upath import UPath
except ImportError as err:  # pragma: no cover - exercised by the Rust test's failure message
    msglc_common.missing(err)


def main():
    if len(sys.argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    endpoint, bucket, key, paths = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    start = time.perf_counter()
    path = UPath(
        f"s3://{bucket}/{key}",
        endpoint_url=endpoint,
        key="testing",
        secret="testing",
        client_kwargs={"region_name": "us-east-1"},
    )
    values = []
    try:
        with LazyReader(path) as reader:
            for target in paths:
                values.append(to_obj(reader.read(target)))
    except Exception as err:  # the Rust side reports it
        sys.stderr.write(f"msglc cannot read s3://{bucket}/{key}: {type(err).__name__}: {err}\n")
        return 1
    seconds = time.perf_counter() - start
    encoded = [msgspec.msgpack.encode(value).hex() for value in values]
    print(json.dumps({"seconds": seconds, "values": encoded}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
