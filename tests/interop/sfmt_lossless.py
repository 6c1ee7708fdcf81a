#!/usr/bin/env python3
"""Peer of the sfmt lossless-conversion test: msglc (PyPI 261017) writes the originals and reads
what sfmt made of them.

Usage:
  sfmt_lossless.py write DIR CODEC  msglc writes every case with CODEC ("msgpack" or "cbor") into
                                    DIR, plain and combined, and DIR/manifest.json lists them; the
                                    msgpack package writes raw MessagePack files with float32,
                                    extensions and timestamps (other writers' files); with the
                                    msgpack codec, msglc also writes its file of a JSON document
  sfmt_lossless.py check DIR        for every case and every result file the Rust test listed in
                                    DIR/results.json, msglc reads the result and it must equal
                                    the original type-strictly, key order included

Exit status: 0 all good, 1 a mismatch (details on stderr), 3 msglc or a codec missing.
"""

import json
import math
import os
import sys

import msglc_common

try:
    import msgpack
    import msglc
    from msglc import FileInfo, combine
    from msglc.codec import CBORCodec, MsgspecCodec
    from msglc.reader import LazyReader, to_obj
except ImportError as err:  # pragma: no cover - the Rust test reports it
    msglc_common.missing(err)

CODECS = {"msgpack": MsgspecCodec, "cbor": CBORCodec}


def same(a, b):
    """Type-strict equality: int, float, bool, bytes and str apart, NaN equal to NaN, the sign
    of zero kept, dict keys compared in order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, dict):
        return list(a.keys()) == list(b.keys()) and all(same(x, y) for x, y in zip(a.values(), b.values()))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def cases():
    """The values msglc writes: keys of every kind, bins, non-finite floats, empties."""
    return {
        "int_keys": {1: "a", 2: [1, 2], -5: None, "s": {3: 4, 2**64 - 1: -(2**63)}},
        "colliding_keys": {1: "a", "1": "b", None: "nil", (1, 2): "array key", 1.5: "float key"},
        "bool_key": {True: "t", "x": None},
        "bins": {"b": b"\x00\x01\xff", "empty": b"", "list": [b"x" * 300, "x"]},
        "floats": {
            "nan": float("nan"),
            "inf": float("inf"),
            "ninf": float("-inf"),
            "negzero": -0.0,
            "tenth": 0.1,
            "whole": 2.0,
            "tiny": 5e-324,
        },
        "empties": {"list": [], "map": {}, "str": "", "nested": [[], [{}], {"x": []}, [[[]]]]},
        "order_and_unicode": {"z": 1, "a": "é☃😀", "m": ["\u0000", "\uffff"], "": True, "k": False},
        "scalars": [None, True, False, 0, -1, 2**64 - 1, -(2**63), 1.5, "s", b"b"],
        # Large enough for TOC entries and blocks.
        "records": {
            "records": [
                {"id": i, "name": f"r{i}", "raw": bytes([i % 256]) * 10, i: float(i) / 3}
                for i in range(600)
            ],
            7: list(range(3000)),
        },
    }


def json_document():
    """A JSON document with keys out of sorted order, floats, nulls, unicode, enough for a TOC."""
    return {
        "zone": "é☃",
        "cars": [
            {"model": f"m{i}", "year": 1990 + i % 30, "price": i * 1234.5 + 0.1, "owner": None if i % 3 else "ß", "tags": ["a"] * (i % 4)}
            for i in range(400)
        ],
        "alpha": {"z": 1, "y": [], "x": {}},
        "count": -(2**63),
    }


def raw_cases():
    """MessagePack from another writer: float32 (use_single_float), extensions, timestamps."""
    return {
        "raw_float32": {"f": 0.1, "list": [1.5, -0.0, float("nan"), float("inf")]},
        "raw_ext": {
            "ext": msgpack.ExtType(5, b"abc"),
            "empty_ext": msgpack.ExtType(0, b""),
            "ts32": msgpack.Timestamp(1, 0),
            "ts64": msgpack.Timestamp(1, 5),
            "ts96": msgpack.Timestamp(-1, 5),
            3: [msgpack.ExtType(127, b"x" * 300)],
        },
    }


def write(directory, codec_name):
    codec = CODECS[codec_name]
    manifest = []
    for name, obj in cases().items():
        file_name = f"{name}.{codec_name}.msglc"
        msglc.dump(os.path.join(directory, file_name), obj, packer=codec())
        manifest.append({"name": name, "file": file_name, "codec": codec_name, "plain": True})
    parts = [f"{name}.{codec_name}.msglc" for name in ("int_keys", "bins", "empties")]
    combined = [
        ("combined_list", [FileInfo(os.path.join(directory, part)) for part in parts]),
        (
            "combined_map",
            [FileInfo(os.path.join(directory, part), part.split(".")[0]) for part in parts],
        ),
    ]
    for name, infos in combined:
        file_name = f"{name}.{codec_name}.msglc"
        combine(os.path.join(directory, file_name), infos, packer=codec())
        manifest.append({"name": name, "file": file_name, "codec": codec_name, "plain": False})
    # msglc's file of a JSON document, to compare with sfmt's json -> toc.
    if codec_name == "msgpack":
        with open(os.path.join(directory, "json_doc.json"), "w", encoding="utf-8") as f:
            json.dump(json_document(), f, ensure_ascii=False)
        with open(os.path.join(directory, "json_doc.json"), encoding="utf-8") as f:
            msglc.dump(os.path.join(directory, "json_doc.msgpack.msglc"), json.load(f), packer=codec())
        manifest.append(
            {"name": "json_doc", "file": "json_doc.msgpack.msglc", "codec": codec_name, "plain": True, "json": "json_doc.json"}
        )
    # Codec-independent: written once, with the msgpack codec's cases.
    for name, obj in raw_cases().items() if codec_name == "msgpack" else ():
        file_name = f"{name}.msgpack"
        with open(os.path.join(directory, file_name), "wb") as f:
            f.write(msgpack.packb(obj, use_single_float=True))
        manifest.append({"name": name, "file": file_name, "codec": "raw", "plain": True})
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    return []


def read(path, codec_name):
    with LazyReader(path, unpacker=CODECS[codec_name]()) as reader:
        return to_obj(reader.read())


def check(directory):
    with open(os.path.join(directory, "results.json")) as f:
        results = json.load(f)
    failures = []
    for case in results:
        original = read(os.path.join(directory, case["file"]), case["codec"])
        for result in case["results"]:
            got = read(os.path.join(directory, result), "msgpack")
            if not same(got, original):
                failures.append(f"{result}: {got!r:.300} != {original!r:.300}")
    return failures


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "write" and sys.argv[3] in CODECS:
        failures = write(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        failures = check(sys.argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return msglc_common.report(f"sfmt_lossless {sys.argv[1]}", failures)


if __name__ == "__main__":
    sys.exit(main())
