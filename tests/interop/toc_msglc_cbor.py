#!/usr/bin/env python3
"""Interop peer for serde-formats::toc's reading of msglc's CBOR variant (msglc 261017, cbor2).

Usage:
  toc_msglc_cbor.py write DIR   write CBOR files with msglc (its Python and Rust writers, and
                                combined files mixing CBOR and MessagePack members), and
                                DIR/manifest.json naming each file, its whole value and sample
                                paths, each expected value as MessagePack (msgspec)

Exit status: 0 all good, 1 a failure (details on stderr), 3 msglc, msgspec or cbor2 missing.
"""

import json
import os
import sys

import msglc_common
from msglc_common import add_expectations

try:
    import cbor2  # noqa: F401 (msglc's CBOR codec needs it)
    import msgspec
    import msglc
    from msglc import FileInfo, combine
    from msglc.codec import CBORCodec
    from msglc.config import config
    from msglc.reader import LazyReader, to_obj
except ImportError as err:  # pragma: no cover - exercised by the Rust test's failure message
    msglc_common.missing(err)


def settings(block_size, trivial_size=20):
    msglc_common.settings(config, block_size, trivial_size)


def write_case(directory, manifest, name, obj, paths, block_size=8192, backend="python", codec="cbor"):
    settings(block_size)
    file_name = f"{name}.msglc"
    path = os.path.join(directory, file_name)
    if codec == "cbor":
        msglc.dump(path, obj, backend=backend, packer=CBORCodec())
    else:
        msglc.dump(path, obj, backend=backend)
    settings(8192)
    # msglc reads its own file back as the object: the expectations below are msglc's view.
    with LazyReader(path) as reader:
        back = to_obj(reader.read())
    if msgspec.msgpack.encode(back) != msgspec.msgpack.encode(obj):
        raise SystemExit(f"{name}: msglc does not read its own file back")
    entry = {"name": name, "file": file_name, "codec": codec}
    add_expectations(directory, entry, obj, paths)
    manifest.append(entry)
    return file_name


def write_combined(directory, manifest, name, parts, obj, paths, codec):
    file_name = f"{name}.msglc"
    infos = [FileInfo(os.path.join(directory, part), key) for part, key in parts]
    combine(os.path.join(directory, file_name), infos, packer=CBORCodec() if codec == "cbor" else None)
    entry = {"name": name, "file": file_name, "codec": codec}
    add_expectations(directory, entry, obj, paths)
    manifest.append(entry)


def seed_document():
    """A part of the document of docs/spec/toc-msgpack.md §5.5."""
    return {
        "id": [
            {"BlYFs": {"KNzFKfIR2": [True, False], "DZFf0InHcO": {"t32qEJJPII": 820701623, "RuUbcdXGT": 0.0753}}},
            {"vRpNA5": {"XLK694": {"UdRKNQBrku": "64jiA4nTf", "dTPdzp7Cd": "bC6R6Q"}}, "3uyABlBlY": None},
        ]
    }


def write(directory):
    manifest = []
    write_case(directory, manifest, "seed_t10", seed_document(),
               [["id"], ["id", 1, "vRpNA5", "XLK694"], ["id", 0, "BlYFs", "KNzFKfIR2", 1]], 10)
    ints = list(range(-3000, 3000, 7)) + [2**64 - 1, -(2**63), 2**63 - 1, 0, -1, 23, 24, 255, 256, -24, -25, -257]
    write_case(directory, manifest, "ints_t100", ints, [[0], [500], [-1], [len(ints) - 3]], 100)
    floats = [i * 0.37 - 300.0 for i in range(2000)]
    write_case(directory, manifest, "floats_blocks", floats, [[0], [1000], [1999]])
    specials = [float("nan"), float("inf"), float("-inf"), -0.0, 1e308, 5e-324, 1.5] * 3
    write_case(directory, manifest, "floats_special_t10", {"v": specials}, [["v", 0], ["v", 1], ["v", 3]], 10)
    int_keys = {i * 7 - 50: [i] * (i % 5) for i in range(40)}
    int_keys[2**40] = "big"
    int_keys["7"] = "a string key that looks like an int"
    write_case(directory, manifest, "int_keys_t10", int_keys, [[-50], [2**40], [6, 0], ["7"]], 10)
    empties = {"a": [], "b": {}, "c": "", "d": b"", "e": [[], [{}], {"x": []}], "": "empty key"}
    write_case(directory, manifest, "empties_t1", empties, [["a"], ["e", 1, 0], ["e", 2, "x"], [""]], 1)
    blobs = {"small": b"\x00\x01", "mid": bytes(range(256)) * 2, "big": bytes(70000)}
    write_case(directory, manifest, "bytes_t100", blobs, [["small"], ["mid"]], 100)
    write_case(directory, manifest, "blocks_t1", [i % 30 for i in range(300)], [[0], [150], [299]], 1)
    deep = cur = {}
    for i in range(40):
        cur["k"] = {"i": i}
        cur = cur["k"]
    write_case(directory, manifest, "deep_t1", deep, [["k"] * 20 + ["i"]], 1)
    records = [{"id": i, "name": f"n{i}", "score": float(i) / 3, "tags": ["x"] * (i % 3)} for i in range(3000)]
    write_case(directory, manifest, "records_default", records, [[0], [2999, "name"], [1500, "tags"]])
    uni = {"名前": "値" * 40, "emoji 🎉": ["ü", "ß", "🚀" * 70], "ключ": {"ψ": "λ" * 300}}
    write_case(directory, manifest, "unicode_t100", uni, [["名前"], ["emoji 🎉", 2], ["ключ", "ψ"]], 100)
    # msglc's Rust writer, CBOR codec.
    write_case(directory, manifest, "rust_records", records, [[0], [2999, "score"]], backend="rust")
    write_case(directory, manifest, "rust_int_keys", int_keys, [[-50], [2**40]], backend="rust")

    # Combined files: CBOR parts in a CBOR file, a CBOR and a MessagePack part in either codec,
    # and a combined file nested in another.
    part_c = write_case(directory, [], "part_c", {"x": list(range(100))}, [], 10)
    part_m = write_case(directory, [], "part_m", ["y"] * 50, [], 10, codec="msgpack")
    both = {"c": {"x": list(range(100))}, "m": ["y"] * 50}
    write_combined(directory, manifest, "combined_cbor", [(part_c, "c"), (part_m, "m")], both,
                   [["c"], ["c", "x", 42], ["m", 49]], "cbor")
    write_combined(directory, manifest, "combined_msgpack", [(part_c, "c"), (part_m, "m")], both,
                   [["c", "x", 99], ["m", 0]], "msgpack")
    write_combined(directory, manifest, "combined_nested", [("combined_cbor.msglc", None), (part_c, None)],
                   [both, {"x": list(range(100))}], [[0, "c", "x", 7], [1, "x", 3], [0, "m"]], "cbor")

    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    return []


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "write":
        sys.stderr.write(__doc__)
        return 2
    return msglc_common.report(f"msglc cbor {sys.argv[1]}", write(sys.argv[2]))


if __name__ == "__main__":
    sys.exit(main())
