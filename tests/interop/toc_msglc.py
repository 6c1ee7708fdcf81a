#!/usr/bin/env python3
"""Interop peer for serde-formats::toc: runs the reference implementation msglc (PyPI 261017).

Usage:
  toc_msglc.py check DIR   read the files our Rust writer put in DIR/manifest.json with msglc's
                           LazyReader (whole value and sample paths), and write the same values
                           with msglc to compare the bytes
  toc_msglc.py write DIR   write msglc files and a manifest of sample paths for our reader

Exit status: 0 all good, 1 a mismatch (details on stderr), 3 msglc or msgspec missing.
"""

import json
import math
import os
import random
import sys

import msglc_common
from msglc_common import add_expectations
from io import BytesIO

try:
    import msgspec
    import msglc
    from msglc import FileInfo, combine
    from msglc.config import config
    from msglc.reader import LazyReader, to_obj
except ImportError as err:  # pragma: no cover - exercised by the Rust test's failure message
    msglc_common.missing(err)


def same(a, b):
    """Equality that treats NaN as equal to NaN and keeps int/float/bool apart."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if type(a) is not type(b):
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            pass
        else:
            return False
    if isinstance(a, dict):
        return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def settings(block_size, trivial_size):
    msglc_common.settings(config, block_size, trivial_size)


def decode(data):
    return msgspec.msgpack.decode(data)


def check(directory):
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    failures = []
    for case in manifest:
        name = case["name"]
        path = os.path.join(directory, case["file"])
        with open(os.path.join(directory, case["plain"]), "rb") as f:
            whole = decode(f.read())
        with LazyReader(path) as reader:
            got = to_obj(reader.read())
            if not same(got, whole):
                failures.append(f"{name}: whole value differs: {got!r:.200} != {whole!r:.200}")
            for sample, expected_file in zip(case["paths"], case["expected"]):
                with open(os.path.join(directory, expected_file), "rb") as f:
                    expected = decode(f.read())
                got = to_obj(reader.read(list(sample)))
                if not same(got, expected):
                    failures.append(f"{name}: path {sample} differs: {got!r:.200} != {expected!r:.200}")
        with open(path, "rb") as f:
            ours = f.read()
        settings(case["block_size"], case["trivial_size"])
        if case.get("parts"):
            buffer = BytesIO()
            infos = [
                FileInfo(os.path.join(directory, part["file"]), part.get("name"))
                for part in case["parts"]
            ]
            combine(buffer, infos)
            theirs = buffer.getvalue()
        else:
            theirs = msglc.dumps(whole).getvalue()
        if ours != theirs:
            at = next((i for i, (x, y) in enumerate(zip(ours, theirs)) if x != y), min(len(ours), len(theirs)))
            failures.append(
                f"{name}: bytes differ from msglc's at byte {at} (ours {len(ours)} bytes, msglc {len(theirs)})"
            )
    settings(8192, 20)
    return failures


def write_case(directory, manifest, name, obj, paths, block_size=8192, trivial_size=20):
    settings(block_size, trivial_size)
    file_name = f"{name}.msglc"
    msglc.dump(os.path.join(directory, file_name), obj)
    entry = {"name": name, "file": file_name, "block_size": block_size, "trivial_size": trivial_size}
    add_expectations(directory, entry, obj, paths)
    manifest.append(entry)
    settings(8192, 20)
    return file_name


def seed_document():
    """The document of docs/spec/toc-msgpack.md §5.5 (msglc's own worked example)."""
    return {
        "id": [
            {
                "BlYFs": {
                    "KNzFKfIR2": [True, False],
                    "DZFf0InHcO": {"t32qEJJPII": 820701623, "RuUbcdXGT": 0.07535274189499452},
                },
                "SWCWj": {
                    "T5Jm7j1p99": {"yEsYr8Ww": "1lgCDlDR", "1041dt7DYk": "XQUFG"},
                    "ZJejJRP": {"SCIVA7Lb": 0.5045895502672991, "p5I3XN3": True},
                },
            },
            {
                "vRpNA5": {
                    "0HNVOgUVHs": {"EsvObl4Q3": -1008950541, "SacDVqMG": -764697401},
                    "XLK694": {"UdRKNQBrku": "64jiA4nTf", "dTPdzp7Cd": "bC6R6Q"},
                },
                "3uyABlBlY": {"7umSPsl7": {"gFa9yuPyQ": 0.24175848344688433, "UYa6UiMDZ7": True}, "zuP2wLok": "G9k2y"},
            },
        ]
    }


def write(directory):
    rng = random.Random(4)
    manifest = []
    write_case(directory, manifest, "seed_t10", seed_document(),
               [["id"], ["id", 1, "vRpNA5", "XLK694"], ["id", 0, "BlYFs", "KNzFKfIR2", 1]], 10)
    ints = list(range(-3000, 3000, 7)) + [2**64 - 1, -(2**63), 2**63 - 1, 0, -1, 127, 128, -32, -33]
    write_case(directory, manifest, "ints_t100", ints, [[0], [500], [-1], [len(ints) - 3]], 100)
    floats = [rng.uniform(-1e6, 1e6) for _ in range(2000)]
    write_case(directory, manifest, "floats_default", floats, [[0], [1000], [1999]])
    records = [
        {"id": i, "name": f"rec-{i}", "score": rng.random(), "flags": [i % 2 == 0, i % 3 == 0], "note": None}
        for i in range(400)
    ]
    write_case(directory, manifest, "records_t1000", {"records": records, "count": 400},
               [["records", 0], ["records", 399, "name"], ["records", 123, "flags", 1], ["count"]], 1000)
    uni = {"名前": "値" * 40, "emoji 🎉": ["ü", "ß", "🚀" * 70], "ключ": {"ψ": "λ" * 300}}
    write_case(directory, manifest, "unicode_t100", uni, [["名前"], ["emoji 🎉", 2], ["ключ", "ψ"]], 100)
    specials = [float("nan"), float("inf"), float("-inf"), -0.0, 1e308, 5e-324] * 3
    write_case(directory, manifest, "floats_special_t10", {"v": specials}, [["v", 0], ["v", 1], ["v", 3]], 10)
    int_keys = {i * 7 - 50: [i] * (i % 5) for i in range(40)}
    int_keys[2**40] = "big"
    write_case(directory, manifest, "int_keys_t10", int_keys, [[-50], [2**40], [6, 0]], 10)
    empties = {"a": [], "b": {}, "c": "", "d": b"", "e": [[], [{}], {"x": []}]}
    write_case(directory, manifest, "empties_t1", empties, [["a"], ["e", 1, 0], ["e", 2, "x"]], 1)
    blobs = {"small": b"\x00\x01", "mid": bytes(range(256)) * 2, "big": bytes(70000)}
    write_case(directory, manifest, "bytes_t100", blobs, [["small"], ["mid"]], 100)
    small = [i % 10 for i in range(300)]
    write_case(directory, manifest, "blocks_t1", small, [[0], [150], [299]], 1)
    deep = cur = {}
    for i in range(40):
        cur["k"] = {"i": i}
        cur = cur["k"]
    write_case(directory, manifest, "deep_t1", deep, [["k"] * 20 + ["i"]], 1)
    big_records = [{"id": i, "name": f"n{i}", "score": float(i), "flags": i} for i in range(3000)]
    write_case(directory, manifest, "records_default", big_records, [[0], [2999, "name"], [1500]])

    # msglc's configure(trivial_size=64): records of at most 64 bytes are trivial (blocks).
    short = [{"id": i * 7919, "name": f"name-{rng.randrange(100000)}", "score": rng.random(), "flags": i % 256}
             for i in range(2000)]
    mixed = [{"id": i, "name": "x" * (100 if i % 10 == 0 else 5), "score": rng.random(), "flags": i % 256}
             for i in range(500)]
    write_case(directory, manifest, "records_trivial64", {"short": short, "mixed": mixed},
               [["short", 1999, "name"], ["short", 700], ["mixed", 10, "name"], ["mixed", 11]], 8192, 64)

    # Combined files: dict form, and a list whose first element is itself combined.
    part_a = write_case(directory, [], "part_a", {"x": list(range(100))}, [], 10)
    part_b = write_case(directory, [], "part_b", ["y"] * 50, [], 10)
    combine(os.path.join(directory, "combined_dict.msglc"),
            [FileInfo(os.path.join(directory, part_a), "a"), FileInfo(os.path.join(directory, part_b), "b")])
    entry = {"name": "combined_dict", "file": "combined_dict.msglc", "block_size": 8192, "trivial_size": 20}
    combined_obj = {"a": {"x": list(range(100))}, "b": ["y"] * 50}
    add_expectations(directory, entry, combined_obj, [["a"], ["a", "x", 42], ["b", 49]])
    manifest.append(entry)
    combine(os.path.join(directory, "combined_nested.msglc"),
            [FileInfo(os.path.join(directory, "combined_dict.msglc")), FileInfo(os.path.join(directory, part_b))])
    entry = {"name": "combined_nested", "file": "combined_nested.msglc", "block_size": 8192, "trivial_size": 20}
    add_expectations(directory, entry, [combined_obj, ["y"] * 50], [[0, "a", "x", 99], [1, 3], [0, "b"]])
    manifest.append(entry)

    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    return []


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "write"):
        sys.stderr.write(__doc__)
        return 2
    failures = check(sys.argv[2]) if sys.argv[1] == "check" else write(sys.argv[2])
    return msglc_common.report(f"msglc {sys.argv[1]}", failures)


if __name__ == "__main__":
    sys.exit(main())
