//! Reading msglc's CBOR variant: files msglc 261017 writes with `packer=CBORCodec()` (its Python
//! and Rust writers), and combined files mixing CBOR and MessagePack members, written at test
//! time by `tests/interop/toc_msglc_cbor.py`. Each file's whole value and sample paths must read
//! as what msgspec encodes (as MessagePack) from the same Python objects.
//!
//! msglc, cbor2 and msgspec are pinned in `tests/interop/requirements.txt` and installed by the
//! test itself ([`integration_tests::python_peers`]); when they cannot be, the test fails.

use std::path::Path as FsPath;

use integration_tests::python_peers;
use serde_formats::toc::{self, Codec, NodeShape, Reader, Value};

#[path = "common/msglc_files.rs"]
mod msglc_files;

fn write_files(dir: &FsPath) -> Vec<serde_json::Value> {
    python_peers::run_script("toc_msglc_cbor.py", [FsPath::new("write"), dir]);
    msglc_files::manifest(dir)
}

#[test]
fn we_read_cbor_files_msglc_writes() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = write_files(dir.path());
    assert!(
        manifest.len() >= 15,
        "the peer wrote {} files",
        manifest.len()
    );
    let mut shapes = Vec::new();
    for case in &manifest {
        let name = case["name"].as_str().unwrap();
        let (reader, whole) = msglc_files::check_case(dir.path(), case);
        let codec = match case["codec"].as_str().unwrap() {
            "cbor" => Codec::Cbor,
            _ => Codec::MessagePack,
        };
        assert_eq!(reader.codec(), codec, "{name}");
        let root = reader.root().unwrap();
        // The plain MessagePack of the value is what msgspec writes, re-decoded.
        let plain: Value = rmp_serde::from_slice(&root.to_msgpack().unwrap()).unwrap();
        assert_eq!(plain, whole, "{name}: to_msgpack");
        let stats = reader.toc_stats().unwrap();
        shapes.push((name.to_owned(), root.shape(), stats));
    }
    // The files exercise what the lazy reader has to walk: block lists, indexed maps and
    // arrays, and nested files of both codecs.
    let shape = |name: &str| shapes.iter().find(|(n, ..)| n == name).unwrap();
    assert_eq!(shape("floats_blocks").1, NodeShape::Blocks);
    assert_eq!(shape("blocks_t1").1, NodeShape::Blocks);
    assert_eq!(shape("records_default").1, NodeShape::Array);
    assert_eq!(shape("int_keys_t10").1, NodeShape::Map);
    assert!(shape("records_default").2.block_lists == 0 && shape("records_default").2.indexed > 0);
    assert_eq!(shape("combined_nested").2.nested_files, 4);
}

#[test]
fn members_keep_their_own_codec_and_int_keys_read_as_ints() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path());
    let reader = Reader::open(dir.path().join("combined_msgpack.msglc")).unwrap();
    assert_eq!(reader.codec(), Codec::MessagePack);
    let root = reader.root().unwrap();
    assert_eq!(root.child("c").unwrap().codec(), Codec::Cbor);
    assert_eq!(root.child("m").unwrap().codec(), Codec::MessagePack);
    assert_eq!(
        reader.get::<Vec<u32>>("c/x").unwrap(),
        (0..100).collect::<Vec<_>>()
    );

    let reader = Reader::open(dir.path().join("int_keys_t10.msglc")).unwrap();
    let keys: Vec<Value> = reader.root().unwrap().keys().unwrap();
    assert_eq!(keys[0], Value::Int(-50));
    assert!(keys.contains(&Value::UInt(1 << 40)));
    assert!(keys.contains(&Value::from("7")));
    assert_eq!(
        reader
            .get::<String>(serde_formats::toc_path![1i64 << 40])
            .unwrap(),
        "big"
    );
}

#[test]
fn every_truncation_and_byte_flip_of_msglc_cbor_files_is_handled() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path());
    for name in [
        "seed_t10",
        "empties_t1",
        "int_keys_t10",
        "blocks_t1",
        "combined_cbor",
    ] {
        let bytes = std::fs::read(dir.path().join(format!("{name}.msglc"))).unwrap();
        for len in 0..bytes.len() {
            assert!(
                toc::from_bytes::<Value>(&bytes[..len]).is_err(),
                "{name}: prefix {len}"
            );
        }
        for i in 0..bytes.len() {
            for flip in [0xff, 0x01, 0x80] {
                let mut corrupt = bytes.clone();
                corrupt[i] ^= flip;
                // Any result but a panic, each error inside the input.
                let within = |err: serde_formats::Error| {
                    let ok = err.offset().is_none_or(|at| at <= corrupt.len() as u64);
                    assert!(ok, "{name}: flip {flip:#x} at {i}: {err}");
                };
                if let Err(err) = toc::from_bytes::<Value>(&corrupt) {
                    within(err);
                }
                match Reader::from_slice(&corrupt) {
                    Ok(reader) => {
                        let mut results = vec![
                            reader.toc_stats().map(drop),
                            reader.root().and_then(|r| r.len()).map(drop),
                            reader.root().and_then(|r| r.keys::<Value>()).map(drop),
                            reader.root().and_then(|r| r.to_msgpack()).map(drop),
                        ];
                        for path in ["0", "-1", "e/2/x", "id/1", "c/x/42", "m/3", "6/0"] {
                            results.push(reader.get::<Value>(path).map(drop));
                        }
                        results.into_iter().filter_map(Result::err).for_each(within);
                    }
                    Err(err) => within(err),
                }
            }
        }
    }
}
