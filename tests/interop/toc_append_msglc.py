#!/usr/bin/env python3
"""Append peer for serde-formats::toc::Appender: msglc (PyPI 261017) reads and appends to
combined files.

Usage:
  toc_append_msglc.py read FILE...           read each combined FILE with msglc's LazyReader: the
                                             whole value, then every member on its own (lazily),
                                             which must equal the whole value's; writes the whole
                                             value as MessagePack (msgspec) to FILE.msglc.msgpack
  toc_append_msglc.py combine OUT [NAME=]FILE...
                                             combine files with msglc (names for dict form)
  toc_append_msglc.py append OUT [NAME=]FILE...
                                             append files with msglc's append
  toc_append_msglc.py append-value OUT NAME|- MSGPACK
                                             append the value decoded from the MessagePack file
                                             with msglc's append (FileInfo(obj=...)); '-' for
                                             list form

Exit status: 0 all good, 1 a failure (details on stderr), 3 msglc or msgspec missing.
"""

import sys
import traceback

import msglc_common

try:
    import msgspec
    from msglc import FileInfo, append, combine
    from msglc.reader import LazyReader, to_obj
except ImportError as err:  # pragma: no cover - exercised by the Rust test's failure message
    msglc_common.missing(err)


def infos(specs):
    """FileInfo for each `NAME=FILE` (dict form) or `FILE` (list form)."""
    out = []
    for spec in specs:
        name, sep, path = spec.partition("=")
        out.append(FileInfo(path, name) if sep else FileInfo(spec))
    return out


def read(files):
    failures = []
    for path in files:
        try:
            with LazyReader(path) as reader:
                whole = to_obj(reader)
            with LazyReader(path) as reader:
                keys = list(whole.keys()) if isinstance(whole, dict) else range(len(whole))
                for key in keys:
                    if to_obj(reader[key]) != whole[key]:
                        failures.append(f"{path}: member {key!r} read alone differs from the whole")
            with open(path + ".msglc.msgpack", "wb") as f:
                f.write(msgspec.msgpack.encode(whole))
        except Exception:  # any error is a failure: the file must read
            failures.append(f"{path}: msglc cannot read it:\n{traceback.format_exc()}")
    return failures


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    mode = argv[1]
    if mode == "read":
        return msglc_common.report("toc_append_msglc read", read(argv[2:]))
    if mode == "combine":
        combine(argv[2], infos(argv[3:]))
        return 0
    if mode == "append":
        append(argv[2], infos(argv[3:]))
        return 0
    if mode == "append-value":
        name = None if argv[3] == "-" else argv[3]
        with open(argv[4], "rb") as f:
            obj = msgspec.msgpack.decode(f.read())
        append(argv[2], [FileInfo(None, name, obj=obj)])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
