"""What the pyvelox peer scripts share (velox_arrow.py, velox_vectors.py): pyarrow and pyvelox,
imported in the order pyvelox needs (exit status 3 when missing), and `finish`, which leaves
without running pyvelox's exit handlers (they may abort with "pure virtual method called").
Imported by those scripts from their own directory; not a script itself."""

import os
import sys

try:
    import pyarrow as pa  # noqa: F401 (pyvelox needs pyarrow imported first; scripts use it)
    import pyvelox.legacy as pv  # noqa: F401
except ImportError as err:
    print(f"cannot import pyvelox / pyarrow: {err}", file=sys.stderr)
    sys.exit(3)


def finish(code=0):
    """Flushes stdout and stderr and leaves at once with `code`."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
