"""Writes the golden files of tests/golden/vector/ with Velox itself (pyvelox's save_vector).

Run once by hand, from the repository root, with the pinned peers of requirements.txt:

    python tests/interop/velox_goldens.py tests/golden/vector

Each vector is saved by Velox, and the file's bytes are written as `<name>.hex`: a comment line
saying what the vector holds, then the bytes in hex, 32 per line. The tests
(tests/tests/vector_golden.rs) restore these bytes and compare with values written there by
hand. Velox's output is not deterministic (the key order of its type JSON varies, null slots
hold uninitialised memory), so running this again gives different, equally valid, files.
"""

import decimal
import os
import sys

import pyarrow as pa  # pyvelox needs pyarrow imported first
import pyvelox.legacy as pv


def expr(text, inputs=None):
    inputs = inputs or {}
    e = pv.Expression.from_string(text)
    return e.evaluate(list(inputs.keys()), list(inputs.values()))


def cases():
    """(name, description, vector)."""
    yield ("flat_bigint_nulls", "FLAT BIGINT [1, null, 3, -4]",
           pv.import_from_arrow(pa.array([1, None, 3, -4], pa.int64())))
    yield ("flat_boolean", "FLAT BOOLEAN [true, null, false, true, true, false, true, false, true]",
           pv.import_from_arrow(pa.array([True, None, False, True, True, False, True, False, True])))
    yield ("flat_varchar_inline_and_long",
           "FLAT VARCHAR ['short', null, 'exactly 12 b', 'longer than twelve', '', 'thirteen byte']",
           pv.import_from_arrow(pa.array(
               ["short", None, "exactly 12 b", "longer than twelve", "", "thirteen byte"])))
    yield ("flat_varbinary", "FLAT VARBINARY [0x00ff, null, 0x000102030405060708090a0b0c0d]",
           pv.import_from_arrow(pa.array([b"\x00\xff", None, bytes(range(14))], pa.binary())))
    yield ("flat_timestamp", "FLAT TIMESTAMP [-1.5 s, null, 1 s + 1 us] (seconds, nanos)",
           pv.import_from_arrow(pa.array([-1_500_000, None, 1_000_001], pa.timestamp("us"))))
    yield ("flat_date", "FLAT DATE [0, null, 18262, -1] (days)",
           pv.import_from_arrow(pa.array([0, None, 18262, -1], pa.date32())))
    yield ("flat_decimal_short", "FLAT DECIMAL(10, 2) [1.23, null, -99999999.99]",
           pv.import_from_arrow(pa.array(
               [decimal.Decimal("1.23"), None, decimal.Decimal("-99999999.99")],
               pa.decimal128(10, 2))))
    yield ("flat_decimal_long", "FLAT DECIMAL(38, 5) [-1.00000, 123456789012345678901234567890.12345]",
           pv.import_from_arrow(pa.array(
               [decimal.Decimal("-1.00000"),
                decimal.Decimal("123456789012345678901234567890.12345")],
               pa.decimal128(38, 5))))
    yield ("constant_integer", "CONSTANT INTEGER 42, 5 rows",
           pv.constant_vector(42, 5, pv.IntegerType()))
    yield ("constant_long_varchar", "CONSTANT VARCHAR 'a string longer than twelve', 3 rows",
           pv.constant_vector("a string longer than twelve", 3))
    yield ("constant_null_unknown", "CONSTANT UNKNOWN null, 3 rows (the NULL literal)",
           expr("null", {"a": pv.from_list([1, 2, 3])}))
    yield ("constant_interval_day_time", "CONSTANT INTERVAL DAY TO SECOND 1500 ms, 2 rows",
           expr("parse_duration('1.5s')", {"a": pv.from_list([1, 2])}))
    yield ("constant_json", "CONSTANT JSON '[1,\"a long json text\"]', 2 rows",
           expr("json_parse('[1, \"a long json text\"]')", {"a": pv.from_list([1, 2])}))
    yield ("constant_array", "CONSTANT ARRAY<BIGINT> [1, 2] over a base, 3 rows",
           expr("array_constructor(cast(1 as bigint), cast(2 as bigint))",
                {"a": pv.from_list([1, 2, 3])}))
    yield ("constant_array_of_unknown", "CONSTANT ARRAY<UNKNOWN> [null, null] over a base, 3 rows",
           expr("array_constructor(null, null)", {"a": pv.from_list([1, 2, 3])}))
    yield ("dictionary_over_varchar", "DICTIONARY VARCHAR ['x', 'y', null, 'x'] over ['x', 'y']",
           pv.import_from_arrow(pa.DictionaryArray.from_arrays(
               pa.array([0, 1, None, 0], pa.int32()), pa.array(["x", "y"]))))
    yield ("array_bigint", "FLAT ARRAY<BIGINT> [[1, 2, 3], null, [], [null, 5]]",
           pv.import_from_arrow(pa.array([[1, 2, 3], None, [], [None, 5]], pa.list_(pa.int64()))))
    yield ("map_bigint_varchar", "FLAT MAP<BIGINT,VARCHAR> [{1: 'a', 2: null}, null, {}]",
           pv.import_from_arrow(pa.array([[(1, "a"), (2, None)], None, []],
                                         pa.map_(pa.int64(), pa.string()))))
    yield ("row_of_two_named_children",
           "FLAT ROW<a:BIGINT,b:VARCHAR> [{a: 1, b: 'x'}, null, {a: null, b: 'a longer string here'}]",
           pv.import_from_arrow(pa.array(
               [{"a": 1, "b": "x"}, None, {"a": None, "b": "a longer string here"}],
               pa.struct([("a", pa.int64()), ("b", pa.string())]))))
    yield ("row_with_unknown_child", "FLAT ROW<c1:BIGINT,c2:UNKNOWN> [{1, null}, {2, null}, {null, null}]",
           expr("row_constructor(a, null)", {"a": pv.from_list([1, 2, None])}))


def main():
    out_dir = sys.argv[1]
    tmp = os.path.join(out_dir, ".velox_goldens.tmp")
    for name, description, vector in cases():
        pv.save_vector(vector, tmp)
        with open(tmp, "rb") as f:
            data = f.read()
        lines = [f"# Written by Velox (pyvelox 0.2.0 save_vector): {description}"]
        for i in range(0, len(data), 32):
            lines.append(data[i:i + 32].hex(" "))
        with open(os.path.join(out_dir, name + ".hex"), "w") as f:
            f.write("\n".join(lines) + "\n")
    os.remove(tmp)
    sys.stdout.flush()
    # pyvelox may abort with "pure virtual method called" at interpreter exit.
    os._exit(0)


if __name__ == "__main__":
    main()
