"""Velox's side of tests/tests/velox_interop.rs (pyvelox 0.2.0, which bundles Velox).

    velox_vectors.py generate DIR   builds the matrix of vectors with Velox, saves each with
                                    Velox's save_vector as DIR/<name>.velox, and prints a JSON
                                    list: per case its name, Velox's type string, encoding,
                                    size and the values Velox reports (see `encode`).
    velox_vectors.py check DIR      loads every DIR/<name>.ours (written by serde_formats) and
                                    DIR/<name>.velox with Velox's load_vector, and prints a JSON
                                    object: per name "ok" or what differs.
    velox_vectors.py check-built DIR  loads every vector that serde_formats built and saved
                                    (DIR/built.json lists name, type, size and values; the file
                                    is DIR/<name>.built) and prints "ok" or what differs.

Values are reported through Velox's Arrow export (`export_to_arrow`), encoded as JSON that
compares exactly: null; booleans; integers (also DATE days, INTERVAL milliseconds); REAL and
DOUBLE as the integer of their bits; DECIMAL as the unscaled integer in a string; TIMESTAMP as
[seconds, nanos] (floor division of Velox's nanoseconds); VARCHAR and JSON as strings;
VARBINARY as hex; ARRAY as a list; MAP as a list of [key, value]; ROW as the list of its
fields. Types Arrow cannot carry are first turned into one it can by a Velox expression
(`CASTS`: `to_milliseconds` for INTERVAL DAY TO SECOND, `json_format` for JSON, UNKNOWN inside
a complex type cast to BIGINT); a top-level UNKNOWN is reported row by row with isNullAt.

pyvelox may abort with "pure virtual method called" at interpreter exit, so the script flushes
and leaves with os._exit. With VELOX_VECTORS_TRACE set, `generate` prints each case's name to
stderr before saving it (a Velox crash kills the process without a Python traceback).
"""

import decimal
import json
import os
import struct
import sys

from velox_common import finish, pa, pv


def expr(text, **inputs):
    e = pv.Expression.from_string(text)
    return e.evaluate(list(inputs.keys()), list(inputs.values()))


# ---------------------------------------------------------------------------------------------
# The matrix.

D = decimal.Decimal
# Decimal arithmetic (scaleb) rounds to the context's precision, 28 digits by default.
decimal.getcontext().prec = 100

SCALARS = [
    # (name, arrow type, values without nulls: at least 5, all distinct)
    ("boolean", pa.bool_(), [True, False, True, True, False, False, True, True, False]),
    ("tinyint", pa.int8(), [0, -128, 127, 5, -3, 9]),
    ("smallint", pa.int16(), [0, -32768, 32767, 300, -301]),
    ("integer", pa.int32(), [0, -2**31, 2**31 - 1, 70000, -7]),
    ("bigint", pa.int64(), [0, -2**63, 2**63 - 1, 5_000_000_000, -1]),
    ("real", pa.float32(), [0.0, -0.0, 1.5, float("inf"), float("nan"), -3.25e-20]),
    ("double", pa.float64(), [0.0, -0.0, 2.5, float("-inf"), float("nan"), 1e300]),
    ("varchar", pa.string(), ["", "short", "exactly 12 b", "longer than twelve bytes", "é∂ unicode ok!"]),
    ("varbinary", pa.binary(), [b"", b"\x00\xff", bytes(range(13)), b"x" * 40, b"\x80"]),
    ("timestamp", pa.timestamp("us"), [0, -1_500_000, 1_000_001, 86_400_000_000 * 365, -1]),
    ("date", pa.date32(), [0, -1, 18262, 2_932_896, -719_528]),
    ("decimal_short", pa.decimal128(10, 2),
     [D("0.00"), D("1.23"), D("-99999999.99"), D("99999999.99"), D("-0.01")]),
    ("decimal_long", pa.decimal128(38, 6),
     [D("0.000000"), D("-1.000000"), D("12345678901234567890123456789012.345678"),
      D("-99999999999999999999999999999999.999999"), D("0.000001")]),
]


def with_nulls(values):
    # Row 1 and every third row null.
    return [None if i == 1 or i % 3 == 2 else v for i, v in enumerate(values + values[:3])]


def cases():
    """Yields (name, velox vector)."""
    for name, ty, values in SCALARS:
        yield f"flat_{name}", pv.import_from_arrow(pa.array(values, ty))
        yield f"flat_{name}_nulls", pv.import_from_arrow(pa.array(with_nulls(values), ty))
        yield f"empty_{name}", pv.import_from_arrow(pa.array([], ty))
        # A run-end encoded array of one run imports as a CONSTANT.
        yield f"constant_{name}", pv.import_from_arrow(pa.RunEndEncodedArray.from_arrays(
            pa.array([4], pa.int32()), pa.array(values[3:4], ty)))
        yield f"null_constant_{name}", pv.import_from_arrow(pa.RunEndEncodedArray.from_arrays(
            pa.array([3], pa.int32()), pa.array([None], ty)))
        # An Arrow dictionary imports as a DICTIONARY with its own nulls (null indices).
        yield f"dictionary_{name}", pv.import_from_arrow(pa.DictionaryArray.from_arrays(
            pa.array([4, 0, None, 1, 1, None, 3, 2], pa.int32()), pa.array(values[:5], ty)))
        # pyvelox's dictionary_vector: indices only, over a base with nulls.
        yield f"dictionary_over_nulls_{name}", pv.dictionary_vector(
            pv.import_from_arrow(pa.array(with_nulls(values), ty)), [1, 0, 3, 3, 2])

    # Nested types, nulls at every level.
    yield "array_bigint", pv.import_from_arrow(pa.array(
        [[1, 2, 3], None, [], [None, 5]], pa.list_(pa.int64())))
    yield "array_array_varchar", pv.import_from_arrow(pa.array(
        [[["a", None], [], None], None, [["a string longer than 12"]], []],
        pa.list_(pa.list_(pa.string()))))
    yield "map_varchar_double", pv.import_from_arrow(pa.array(
        [[("k", 1.5), ("a long key, over 12 bytes", None)], None, [], [("z", -0.0)]],
        pa.map_(pa.string(), pa.float64())))
    row_type = pa.struct([
        ("id", pa.int64()),
        ("tags", pa.list_(pa.string())),
        ("attrs", pa.map_(pa.int32(), pa.bool_())),
        ("inner", pa.struct([("d", pa.date32()), ("x", pa.decimal128(12, 3))])),
    ])
    yield "row_nested", pv.import_from_arrow(pa.array([
        {"id": 1, "tags": ["a", None], "attrs": [(1, True)], "inner": {"d": 3, "x": D("1.500")}},
        None,
        {"id": None, "tags": None, "attrs": [], "inner": None},
        {"id": 4, "tags": [], "attrs": None, "inner": {"d": None, "x": D("-0.001")}},
    ], row_type))
    yield "array_of_row", pv.import_from_arrow(pa.array(
        [[{"a": 1, "b": "x"}, None], None, [{"a": None, "b": "a longer string here"}]],
        pa.list_(pa.struct([("a", pa.int64()), ("b", pa.string())]))))
    yield "empty_row", pv.import_from_arrow(pa.array(
        [], pa.struct([("a", pa.int64()), ("b", pa.list_(pa.string()))])))
    yield "constant_array", expr(
        "array_constructor(cast(1 as bigint), null, cast(3 as bigint))", a=pv.from_list([1, 2]))
    yield "constant_row", pv.import_from_arrow(pa.RunEndEncodedArray.from_arrays(
        pa.array([3], pa.int32()),
        pa.array([{"a": 7, "b": "seven"}], pa.struct([("a", pa.int64()), ("b", pa.string())]))))
    yield "row_constructor", expr("row_constructor(a, a + 1)", a=pv.from_list([1, None, 3]))
    yield "null_constant_array", pv.import_from_arrow(pa.RunEndEncodedArray.from_arrays(
        pa.array([3], pa.int32()), pa.array([None], pa.list_(pa.int64()))))
    yield "dictionary_of_row", pv.import_from_arrow(pa.DictionaryArray.from_arrays(
        pa.array([1, 0, None, 1], pa.int32()),
        pa.array([{"a": 1, "b": None}, None], pa.struct([("a", pa.int64()), ("b", pa.string())]))))
    yield "dictionary_of_array", pv.import_from_arrow(pa.DictionaryArray.from_arrays(
        pa.array([1, 0, None], pa.int32()), pa.array([[1], [2, None, 3]], pa.list_(pa.int64()))))
    # Several runs import as a DICTIONARY over the run values.
    yield "runs_as_dictionary", pv.import_from_arrow(pa.RunEndEncodedArray.from_arrays(
        pa.array([2, 5, 6], pa.int32()), pa.array(["a run of long strings", None, "b"])))
    yield "string_view", pv.import_from_arrow(pa.array(
        ["a string_view longer than 12", None, "inline", "another long one, in a buffer"],
        pa.string_view()))
    yield "element_at_dictionary", expr("element_at(array_constructor(a, a), 1)",
                                        a=pv.from_list([1, None, 3]))
    yield "map_keys", expr("map_keys(map(array_constructor(a), array_constructor(a)))",
                           a=pv.from_list([1, 2, 3]))

    # Types Arrow cannot carry, made by Velox expressions.
    yield "constant_interval_day_time", expr("parse_duration('1.5s')", a=pv.from_list([1, 2]))
    yield "constant_json", expr("json_parse('[1, \"a long json text\", null]')",
                                a=pv.from_list([1, 2, 3]))
    yield "null_constant_unknown", expr("null", a=pv.from_list([1, 2, 3]))
    yield "array_of_unknown", expr("array_constructor(null, null)", a=pv.from_list([1, 2]))
    yield "row_with_unknown", expr("row_constructor(a, null)", a=pv.from_list([1, None, 3]))
    yield "constant_date_expression", expr("from_iso8601_date('2020-02-29')", a=pv.from_list([1, 2]))

    # Large: 100 000 rows.
    n = 100_000
    yield "large_bigint", pv.import_from_arrow(pa.array(
        [None if i % 7 == 3 else i * 1_000_003 - 50_000_000_000 for i in range(n)], pa.int64()))
    yield "large_varchar", pv.import_from_arrow(pa.array(
        [None if i % 11 == 5 else ("row %d" % i) * (i % 4) for i in range(n)], pa.string()))


# ---------------------------------------------------------------------------------------------
# Values as Velox reports them.

def float_bits(ty, value):
    if pa.types.is_float32(ty):
        return struct.unpack("<I", struct.pack("<f", value))[0]
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def encode(arr):
    """The values of an Arrow array as comparable JSON (see the module docs)."""
    ty = arr.type
    if pa.types.is_dictionary(ty):
        return encode(arr.dictionary_decode())
    if pa.types.is_run_end_encoded(ty):
        ends = arr.run_ends.to_pylist()
        values = encode(arr.values)
        out, start = [], 0
        for i, end in enumerate(ends):
            out.extend([values[i]] * (end - start))
            start = end
        return out[arr.offset:arr.offset + len(arr)]
    valid = [v.as_py() for v in arr.is_valid()] if len(arr) else []
    if pa.types.is_struct(ty):
        fields = [encode(child) for child in arr.flatten()]
        return [[f[r] for f in fields] if valid[r] else None for r in range(len(arr))]
    if pa.types.is_map(ty):
        offsets = arr.offsets.to_pylist()
        keys, items = encode(arr.keys), encode(arr.items)
        return [[[keys[i], items[i]] for i in range(offsets[r], offsets[r + 1])]
                if valid[r] else None for r in range(len(arr))]
    if pa.types.is_list(ty) or pa.types.is_large_list(ty):
        offsets = arr.offsets.to_pylist()
        values = encode(arr.values)
        return [values[offsets[r]:offsets[r + 1]] if valid[r] else None
                for r in range(len(arr))]
    if pa.types.is_timestamp(ty):
        per_unit = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}[ty.unit]
        ints = arr.cast(pa.int64()).to_pylist()
        return [list(divmod(v * per_unit, 10**9)) if v is not None else None for v in ints]
    if pa.types.is_date32(ty):
        return arr.cast(pa.int32()).to_pylist()
    values = arr.to_pylist()
    if pa.types.is_floating(ty):
        return [float_bits(ty, v) if v is not None else None for v in values]
    if pa.types.is_decimal(ty):
        return [str(int(v.scaleb(ty.scale))) if v is not None else None for v in values]
    if pa.types.is_binary(ty) or pa.types.is_large_binary(ty):
        return [v.hex() if v is not None else None for v in values]
    if pa.types.is_null(ty):
        return [None] * len(arr)
    return values


# Velox expressions turning types Arrow cannot carry (Velox's export crashes on UNKNOWN inside a
# complex type) into ones it can, by Velox's type string.
CASTS = {
    "INTERVAL DAY TO SECOND": "to_milliseconds(c)",
    "JSON": "json_format(c)",
    # Neither has an Arrow type; Velox prints HUGEINT as its digits, the interval as its months.
    "HUGEINT": "cast(c as varchar)",
    "INTERVAL YEAR TO MONTH": "cast(c as varchar)",
    "ARRAY<UNKNOWN>": "cast(c as bigint[])",
    "ROW<c1:BIGINT,c2:UNKNOWN>": "cast(c as struct(c1 bigint, c2 bigint))",
}


def report(vector):
    """(values, how) of a Velox vector."""
    kind = str(vector.dtype())
    if kind == "UNKNOWN":
        if any(not vector.isNullAt(i) for i in range(vector.size())):
            raise ValueError("an UNKNOWN row that is not null")
        return [None] * vector.size(), "isNullAt"
    if vector.isLazy():
        # Velox's Arrow export refuses LAZY; evaluating an expression over it loads it.
        vector = expr("c", c=vector)
    if kind in CASTS:
        vector = expr(CASTS[kind], c=vector)
    values = encode(pv.export_to_arrow(vector))
    if kind == "INTERVAL YEAR TO MONTH":
        values = [int(v) if v is not None else None for v in values]
    return values, "export_to_arrow"


def describe(name, vector):
    values, how = report(vector)
    return {
        "name": name,
        "type": str(vector.dtype()),
        "encoding": str(vector.encoding()).split(".")[-1],
        "size": vector.size(),
        "values": values,
        "reported_by": how,
    }


def generate(out_dir):
    out = []
    for name, vector in cases():
        if os.environ.get("VELOX_VECTORS_TRACE"):
            print(name, file=sys.stderr, flush=True)
        pv.save_vector(vector, os.path.join(out_dir, name + ".velox"))
        out.append(describe(name, vector))
    print(json.dumps(out))


def check(out_dir):
    results = {}
    names = sorted(f[:-len(".ours")] for f in os.listdir(out_dir) if f.endswith(".ours"))
    for name in names:
        try:
            ours = describe(name, pv.load_vector(os.path.join(out_dir, name + ".ours")))
            theirs = describe(name, pv.load_vector(os.path.join(out_dir, name + ".velox")))
            diffs = [key for key in ("type", "size", "values") if ours[key] != theirs[key]]
            if diffs:
                results[name] = "differs in " + ", ".join(
                    f"{key}: ours {str(ours[key])[:200]} vs Velox {str(theirs[key])[:200]}"
                    for key in diffs)
            else:
                results[name] = "ok"
        except Exception as err:  # a Velox error loading our file is a failure of the case
            results[name] = f"error: {type(err).__name__}: {str(err)[:300]}"
    print(json.dumps(results))


def check_built(out_dir):
    """Vectors built by serde_formats (DIR/built.json lists them with their expected type,
    size and values), each in DIR/<name>.built: Velox loads and reports them."""
    with open(os.path.join(out_dir, "built.json")) as f:
        expected = json.load(f)
    results = {}
    for case in expected:
        name = case["name"]
        try:
            got = describe(name, pv.load_vector(os.path.join(out_dir, name + ".built")))
            diffs = [key for key in ("type", "size", "values") if got[key] != case[key]]
            results[name] = "ok" if not diffs else "differs in " + ", ".join(
                f"{key}: Velox read {str(got[key])[:200]}, expected {str(case[key])[:200]}"
                for key in diffs)
        except Exception as err:
            results[name] = f"error: {type(err).__name__}: {str(err)[:300]}"
    print(json.dumps(results))


def main():
    mode, out_dir = sys.argv[1], sys.argv[2]
    if mode == "generate":
        generate(out_dir)
    elif mode == "check":
        check(out_dir)
    elif mode == "check-built":
        check_built(out_dir)
    else:
        print(f"unknown mode {mode}", file=sys.stderr)
        finish(2)
    finish(0)


if __name__ == "__main__":
    try:
        main()
    except Exception:  # report, then leave without running pyvelox's exit handlers
        import traceback
        traceback.print_exc()
        finish(1)
