"""The Python `loro` package (built with the real serde_columnar) as an independent Loro peer.

Usage: loro_peer.py IN_DIR OUT_DIR

IN_DIR holds the blobs and `deep.json` that tests/loro's program wrote (built with this
repository's `columnar` in place of serde_columnar). Every blob is imported into a fresh
document and its value compared with `deep.json` (or with the midpoint's value for the blobs
exported at the midpoint); then the document is exported again, in the modes that stand for the
whole document, into OUT_DIR, for the Rust program to import. Prints one summary line.
"""

import json
import os
import sys

import loro

WHOLE = ["snapshot", "all_updates", "shallow_snapshot", "state_only"]


def read(directory, name):
    with open(os.path.join(directory, name + ".bin"), "rb") as f:
        return f.read()


def imported(*blobs):
    doc = loro.LoroDoc()
    for blob in blobs:
        status = doc.import_(blob)
        if status.pending is not None:
            raise SystemExit(f"changes left pending: {status}")
    return doc


def main():
    in_dir, out_dir = sys.argv[1], sys.argv[2]
    with open(os.path.join(in_dir, "deep.json")) as f:
        expected = json.load(f)
    checked = 0
    for name in WHOLE:
        value = imported(read(in_dir, name)).get_deep_value()
        if value != expected:
            raise SystemExit(f"{name}: Python loro reads a different document")
        checked += 1
    at_mid = imported(read(in_dir, "snapshot_at_mid")).get_deep_value()
    if imported(read(in_dir, "state_only_at_mid")).get_deep_value() != at_mid:
        raise SystemExit("state_only_at_mid: differs from snapshot_at_mid")
    checked += 2
    for name in ["updates_since_mid", "updates_in_range"]:
        doc = imported(read(in_dir, "snapshot_at_mid"), read(in_dir, name))
        if doc.get_deep_value() != expected:
            raise SystemExit(f"{name}: the midpoint plus these updates is a different document")
        checked += 1

    doc = imported(read(in_dir, "snapshot"))
    os.makedirs(out_dir, exist_ok=True)
    modes = {
        "snapshot": loro.ExportMode.Snapshot(),
        "all_updates": loro.ExportMode.Updates(loro.VersionVector()),
        "shallow_snapshot": loro.ExportMode.ShallowSnapshot(doc.oplog_frontiers),
        "state_only": loro.ExportMode.StateOnly(None),
    }
    for name, mode in modes.items():
        with open(os.path.join(out_dir, name + ".bin"), "wb") as f:
            f.write(doc.export(mode))
    print(f"python loro: checked {checked} blobs, wrote {len(modes)}")


if __name__ == "__main__":
    main()
