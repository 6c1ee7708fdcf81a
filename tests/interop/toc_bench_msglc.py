#!/usr/bin/env python3
"""Open + read one random leaf in a fresh process: our reader vs msglc, same files.

Usage: toc_bench_msglc.py TOC_LEAF_BINARY DIR [RUNS]

DIR must hold shape_a.msglc and shape_b.msglc (`toc_leaf write DIR`). For each shape and run,
a random leaf path is read once by `TOC_LEAF_BINARY read FILE PATH` and once by a fresh
python3 process with msglc's LazyReader. Reported: medians of the in-process time (open the
file + read the leaf, imports excluded) and of the wall time per process, and ratios ours/msglc.
The page cache is warmed first by reading each file whole.
"""

import random
import statistics
import subprocess
import sys
import time

MSGLC_READ = r"""
import sys, time
from msglc import LazyReader
from msglc.reader import to_obj
start = time.perf_counter()
with LazyReader(sys.argv[1]) as reader:
    value = to_obj(reader.read(sys.argv[2]))
print(f"{(time.perf_counter() - start) * 1e6:.1f}")
print(value)
"""


def run(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    wall = (time.perf_counter() - start) * 1e6
    return float(out[0]), wall, out[1] if len(out) > 1 else ""


def main():
    binary, directory = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    rng = random.Random(5)
    shapes = {
        "A": (f"{directory}/shape_a.msglc", lambda: f"key{rng.randrange(1000):04}/{rng.randrange(10000)}"),
        "B": (f"{directory}/shape_b.msglc", lambda: f"{rng.randrange(1000000)}/name"),
    }
    for shape, (path, leaf) in shapes.items():
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
        ours_in, ours_wall, theirs_in, theirs_wall = [], [], [], []
        for _ in range(runs):
            target = leaf()
            a = run([binary, "read", path, target])
            b = run([sys.executable, "-c", MSGLC_READ, path, target])
            ours_in.append(a[0]); ours_wall.append(a[1])
            theirs_in.append(b[0]); theirs_wall.append(b[1])
            ours_value = a[2].replace("F64(", "").replace("Str(", "").rstrip(")").strip('"')
            if ours_value != b[2] and float_or(ours_value) != float_or(b[2]):
                print(f"value mismatch at {target}: {a[2]} vs {b[2]}", file=sys.stderr)
                return 1
        m = statistics.median
        print(
            f"shape {shape}: open+read in-process median ours {m(ours_in) / 1000:.3f} ms, "
            f"msglc {m(theirs_in) / 1000:.3f} ms, ratio {m(ours_in) / m(theirs_in):.4f}; "
            f"wall per process ours {m(ours_wall) / 1000:.2f} ms, msglc {m(theirs_wall) / 1000:.2f} ms"
        )
    return 0


def float_or(text):
    try:
        return float(text)
    except ValueError:
        return text


if __name__ == "__main__":
    sys.exit(main())
