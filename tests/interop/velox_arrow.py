"""Velox's and pyarrow's side of tests/tests/vector_arrow.rs (pyvelox 0.2.0, pyarrow 19.0.1).

    velox_arrow.py generate DIR   builds Arrow arrays with pyarrow, imports each into Velox
                                  (import_from_arrow) and saves it with Velox's save_vector as
                                  DIR/<name>.velox; prints the JSON list of names.
    velox_arrow.py check DIR      for every name of `generate`, reads DIR/<name>.ours.arrow (an
                                  Arrow IPC file of one column "v" that serde_formats wrote after
                                  restoring DIR/<name>.velox and converting it to Arrow) and
                                  compares it with the original array; prints a JSON object:
                                  per name "ok" or what differs.
    velox_arrow.py check-built DIR  for every DIR/<name>.built (a vector serde_formats built and
                                  saved), loads it with Velox, exports it with export_to_arrow
                                  and compares that with DIR/<name>.arrow (serde_formats' own
                                  conversion, as Arrow IPC); prints the same JSON object.

The originals are rebuilt by `check` from the same code, so nothing here is produced by the
code under test. pyvelox may abort with "pure virtual method called" at interpreter exit, so the
script flushes and leaves with os._exit.
"""

import decimal
import json
import os
import sys

from velox_common import finish, pa, pv


D = decimal.Decimal


def cases():
    """(name, pyarrow array): every array has nulls where its type allows."""
    yield "boolean", pa.array([True, None, False, True], pa.bool_())
    yield "tinyint", pa.array([1, None, -128, 127], pa.int8())
    yield "smallint", pa.array([1, None, -32768, 32767], pa.int16())
    yield "integer", pa.array([1, None, -(2**31), 2**31 - 1], pa.int32())
    yield "bigint", pa.array([1, None, -(2**63), 2**63 - 1], pa.int64())
    yield "real", pa.array([1.5, None, float("-inf"), -0.0], pa.float32())
    yield "double", pa.array([1.5, None, 1e300, -0.0], pa.float64())
    yield "varchar", pa.array(["short", None, "", "a string longer than twelve bytes é"])
    yield "varbinary", pa.array([b"\x00\x01", None, b"", b"x" * 40], pa.binary())
    yield "date", pa.array([0, None, -719162, 2932896], pa.date32())
    yield "timestamp", pa.array([0, None, -1, 1_700_000_000_123_456_789], pa.timestamp("ns"))
    yield "short_decimal", pa.array([D("1.25"), None, D("-99999999.99")], pa.decimal128(10, 2))
    yield "long_decimal", pa.array([D("1.5"), None, D("-" + "9" * 33 + ".99999")],
                                   pa.decimal128(38, 5))
    yield "empty_bigint", pa.array([], pa.int64())
    yield "array_bigint", pa.array([[1, None], None, [], [3]], pa.list_(pa.int64()))
    yield "array_array_varchar", pa.array([[["a"], None], None, [[], ["long string, longer"]]],
                                          pa.list_(pa.list_(pa.string())))
    yield "map_varchar_double", pa.array([[("a", 1.0), ("b", None)], None, []],
                                         pa.map_(pa.string(), pa.float64()))
    yield "row", pa.array([{"x": 1, "y": "one"}, None, {"x": None, "y": None}],
                          pa.struct([("x", pa.int64()), ("y", pa.string())]))
    yield "row_nested", pa.array(
        [{"a": [1, 2], "m": [(1, "x")]}, {"a": None, "m": None}, None],
        pa.struct([("a", pa.list_(pa.int32())), ("m", pa.map_(pa.int32(), pa.string()))]))
    yield "array_of_row", pa.array([[{"k": True}, None], None, []],
                                   pa.list_(pa.struct([("k", pa.bool_())])))
    yield "constant_bigint", pa.RunEndEncodedArray.from_arrays(
        pa.array([3], pa.int32()), pa.array([7], pa.int64()))
    yield "constant_varchar", pa.RunEndEncodedArray.from_arrays(
        pa.array([2], pa.int32()), pa.array(["a string longer than twelve bytes"]))
    yield "null_constant_double", pa.RunEndEncodedArray.from_arrays(
        pa.array([4], pa.int32()), pa.array([None], pa.float64()))
    yield "constant_row", pa.RunEndEncodedArray.from_arrays(
        pa.array([2], pa.int32()), pa.array([{"a": 1, "b": None}],
                                            pa.struct([("a", pa.int64()), ("b", pa.string())])))
    yield "dictionary_varchar", pa.DictionaryArray.from_arrays(
        pa.array([1, 0, None, 1, 2], pa.int32()), pa.array(["x", "a longer value here", None]))
    yield "dictionary_bigint", pa.DictionaryArray.from_arrays(
        pa.array([0, 0, 1, None], pa.int32()), pa.array([7, -7], pa.int64()))


def read_ipc(path):
    with pa.OSFile(path, "rb") as source:
        table = pa.ipc.open_file(source).read_all()
    return table.column("v").combine_chunks()


def compare(got, want):
    if got.type == want.type and got.equals(want):
        return "ok"
    # NaN never equals itself: floats are compared bit for bit.
    bits = {pa.float32(): pa.int32(), pa.float64(): pa.int64()}.get(want.type)
    if got.type == want.type and bits is not None and got.view(bits).equals(want.view(bits)):
        return "ok"
    return f"got {got.type} {got.to_pylist()!r:.300}, want {want.type} {want.to_pylist()!r:.300}"


def generate(out_dir):
    names = []
    for name, array in cases():
        pv.save_vector(pv.import_from_arrow(array), os.path.join(out_dir, name + ".velox"))
        names.append(name)
    print(json.dumps(names))


def check(out_dir):
    result = {}
    for name, array in cases():
        try:
            result[name] = compare(read_ipc(os.path.join(out_dir, name + ".ours.arrow")), array)
        except Exception as err:  # report every case, not just the first failure
            result[name] = f"{type(err).__name__}: {err}"
    print(json.dumps(result))


def check_built(out_dir):
    result = {}
    for file in sorted(os.listdir(out_dir)):
        if not file.endswith(".built"):
            continue
        name = file[: -len(".built")]
        try:
            theirs = pv.export_to_arrow(pv.load_vector(os.path.join(out_dir, file)))
            result[name] = compare(read_ipc(os.path.join(out_dir, name + ".arrow")), theirs)
        except Exception as err:
            result[name] = f"{type(err).__name__}: {err}"
    print(json.dumps(result))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("generate", "check", "check-built"):
        print(__doc__, file=sys.stderr)
        finish(2)
    {"generate": generate, "check": check, "check-built": check_built}[sys.argv[1]](sys.argv[2])
    finish(0)


if __name__ == "__main__":
    main()
