//! The TOC-MessagePack depth limit binds the writer and the reader alike: a value exactly
//! [`DEFAULT_DEPTH_LIMIT`] deep is written and read back, value and TOC; one deeper is refused
//! by the writer and, written by a writer with a higher limit, by the reader, naming the limit.

use super::{from_bytes, to_bytes, to_bytes_with, Config, Reader, Value, DEFAULT_DEPTH_LIMIT};
use crate::limits::assert_names_the_limit;

/// `depth` arrays, one inside the other, the innermost holding `nil`.
fn nested(depth: usize) -> Value {
    (0..depth).fold(Value::Nil, |inner, _| Value::Array(vec![inner]))
}

/// Every container indexed, so that the TOC is as deep as the value allows.
fn indexing_everything() -> Config {
    Config::new().block_size(1).trivial_size(0)
}

#[test]
fn a_value_exactly_at_the_limit_round_trips_with_its_toc() {
    let value = nested(DEFAULT_DEPTH_LIMIT);
    for bytes in [
        to_bytes(&value).unwrap(),
        to_bytes_with(&value, &indexing_everything()).unwrap(),
    ] {
        assert_eq!(from_bytes::<Value>(&bytes).unwrap(), value);
        let reader = Reader::from_slice(&bytes).unwrap();
        let stats = reader.toc_stats().unwrap();
        // Leaves have entries too: the TOC is as deep as the value, never deeper.
        assert!(stats.depth <= DEFAULT_DEPTH_LIMIT, "{stats:?}");
        let mut node = reader.root().unwrap();
        for _ in 1..DEFAULT_DEPTH_LIMIT {
            node = node.child(0usize).unwrap();
        }
        assert_eq!(node.decode::<Value>().unwrap(), nested(1));
        if stats.depth == DEFAULT_DEPTH_LIMIT {
            assert_eq!(
                node.child(0usize).unwrap().decode::<Value>().unwrap(),
                Value::Nil
            );
        }
        assert_eq!(reader.root().unwrap().decode::<Value>().unwrap(), value);
    }
    let stats = Reader::from_slice(&to_bytes_with(&value, &indexing_everything()).unwrap())
        .unwrap()
        .toc_stats()
        .unwrap();
    assert_eq!(stats.depth, DEFAULT_DEPTH_LIMIT);
}

#[test]
fn one_level_deeper_is_refused_by_writer_and_reader() {
    let value = nested(DEFAULT_DEPTH_LIMIT + 1);
    assert_names_the_limit(&to_bytes(&value).unwrap_err(), DEFAULT_DEPTH_LIMIT);
    assert_names_the_limit(
        &to_bytes_with(&value, &indexing_everything()).unwrap_err(),
        DEFAULT_DEPTH_LIMIT,
    );

    // Written by a writer that allows more: the reader refuses the value, naming its limit,
    // just after the header of the array one too deep.
    let generous = Config::new().depth_limit(DEFAULT_DEPTH_LIMIT + 1);
    let bytes = to_bytes_with(&value, &generous).unwrap();
    assert_eq!(
        &bytes[super::DATA_START..super::DATA_START + DEFAULT_DEPTH_LIMIT + 2],
        [vec![0x91; DEFAULT_DEPTH_LIMIT + 1], vec![0xc0]].concat()
    );
    let err = from_bytes::<Value>(&bytes).unwrap_err();
    assert_names_the_limit(&err, DEFAULT_DEPTH_LIMIT);
    assert_eq!(
        err.offset(),
        Some((super::DATA_START + DEFAULT_DEPTH_LIMIT + 1) as u64)
    );
    let reader = Reader::from_slice(&bytes).unwrap();
    assert_names_the_limit(
        &reader.root().unwrap().decode::<Value>().unwrap_err(),
        DEFAULT_DEPTH_LIMIT,
    );
}

#[test]
fn variants_count_their_map_on_both_sides() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    enum E {
        Tuple(u8, u8),
        New(Vec<u8>),
    }
    for (value, depth) in [(E::Tuple(1, 2), 2), (E::New(vec![1]), 2)] {
        let config = Config::new().depth_limit(depth - 1);
        assert_names_the_limit(&to_bytes_with(&value, &config).unwrap_err(), depth - 1);
        let bytes = to_bytes_with(&value, &Config::new().depth_limit(depth)).unwrap();
        assert_eq!(
            super::from_bytes_with::<E>(&bytes, &Config::new().depth_limit(depth)).unwrap(),
            value
        );
        let err = super::from_bytes_with::<E>(&bytes, &config).unwrap_err();
        assert_names_the_limit(&err, depth - 1);
    }
}

/// One level past the limit is refused under every block size, however the containers on
/// the way are recorded. A fuzz case of stop 35: in release builds the depth counter did not
/// count (see `limits.rs`), and a file 129 levels deep was written.
#[test]
fn depth_limit_holds_one_level_past_it() {
    for block_size in [1, 2, 64, 8192] {
        for trivial_size in [0, 20] {
            let config = Config::new()
                .depth_limit(10)
                .block_size(block_size)
                .trivial_size(trivial_size);
            for levels in [10, 11] {
                let mut value = Value::Nil;
                for level in 0..levels {
                    value = if level % 3 == 0 {
                        Value::Map(vec![(Value::Str("k".into()), value)])
                    } else {
                        Value::Array(vec![value, Value::Nil])
                    };
                }
                let result = to_bytes_with(&value, &config);
                if levels == 10 {
                    assert!(result.is_ok(), "{block_size} {trivial_size}");
                } else {
                    let Err(err) = result else {
                        panic!("wrote 11 levels: block size {block_size}, trivial {trivial_size}");
                    };
                    assert_names_the_limit(&err, 10);
                }
            }
        }
    }
}

/// The TOC walk of `toc_stats` at every depth up to the limit: each level an indexed array of
/// the level below and a `nil`, the innermost a list of 300 small integers cut into blocks of
/// 100 (block size 100). Counted by construction: the walk steps over each walked node instead
/// of reading it again per level above it, and still visits every node once.
#[test]
fn toc_stats_of_a_deep_toc_count_every_node_once() {
    let config = Config::new().block_size(100);
    for levels in [1, 2, 50, DEFAULT_DEPTH_LIMIT - 1] {
        let list = Value::Array(vec![Value::UInt(0); 300]);
        let value = (0..levels).fold(list, |inner, _| Value::Array(vec![inner, Value::Nil]));
        let bytes = to_bytes_with(&value, &config).unwrap();
        let stats = Reader::from_slice(&bytes).unwrap().toc_stats().unwrap();
        assert_eq!(
            (stats.nodes, stats.indexed, stats.depth),
            (2 * levels as u64 + 1, levels as u64, levels),
            "{levels} levels"
        );
        assert_eq!((stats.block_lists, stats.blocks), (1, 3), "{levels} levels");
    }
}
