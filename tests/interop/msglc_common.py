"""What the msglc peer scripts share (toc_msglc.py, toc_msglc_cbor.py, sfmt_lossless.py,
toc_s3_msglc.py, s3_server.py): msglc's block settings, the expected values of a case written as
MessagePack, the dummy AWS credentials, and the scripts' exit report. Imported by those scripts
from their own directory; not a script itself."""

import os
import sys


def missing(err):
    """Exits with status 3 after saying which Python the peer needs (an import failed)."""
    sys.stderr.write(
        f"cannot import a peer package ({err}); run this script with the Python that the tests\n"
        "provision from tests/interop/requirements.txt (target/python-peers/*/bin/python)\n"
    )
    sys.exit(3)


def use_dummy_aws_credentials():
    """Sets the tests' dummy AWS credentials and region in the environment, before boto3 or s3fs
    load: the real ones of the user (if any) are never read or sent anywhere."""
    for name, value in (
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
        ("AWS_CONFIG_FILE", os.devnull),
        ("AWS_SHARED_CREDENTIALS_FILE", os.devnull),
    ):
        os.environ[name] = value


def settings(config, block_size, trivial_size=20):
    """Sets msglc's `config` fields directly: configure() clamps trivial_size to the block size."""
    config.small_obj_optimization_threshold = block_size
    config.trivial_size = trivial_size


def add_expectations(directory, entry, obj, paths):
    """Writes `obj` and its value at each of `paths` as MessagePack (msgspec) files beside the
    case, and names them in the manifest `entry`: `plain`, `paths` and `expected`."""
    import msgspec

    name = entry["name"]
    with open(os.path.join(directory, f"{name}.whole.msgpack"), "wb") as f:
        f.write(msgspec.msgpack.encode(obj))
    entry["plain"] = f"{name}.whole.msgpack"
    entry["paths"] = []
    entry["expected"] = []
    for i, sample in enumerate(paths):
        target = obj
        for key in sample:
            target = target[key]
        expected_file = f"{name}.path{i}.msgpack"
        with open(os.path.join(directory, expected_file), "wb") as f:
            f.write(msgspec.msgpack.encode(target))
        entry["paths"].append(list(sample))
        entry["expected"].append(expected_file)


def report(label, failures):
    """Prints each failure to stderr and a one-line summary; returns the exit status (0 or 1)."""
    for failure in failures:
        sys.stderr.write(failure + "\n")
    print(f"{label}: {len(failures)} failure(s)")
    return 1 if failures else 0
