//! Interop with the reference implementation, the Python package msglc 261017
//! (`tests/interop/toc_msglc.py`), in both directions:
//!
//! - our writer -> msglc: msglc's `LazyReader` reads the whole value and sample paths of each of
//!   our files as the value we wrote, and msglc writing the same value (decoded from an
//!   rmp-serde encoding of it) produces exactly our bytes;
//! - msglc's writer -> our reader: the whole value and every sample path read identically to
//!   what msgspec encoded from the Python objects.
//!
//! msglc and its codecs are pinned in `tests/interop/requirements.txt` and installed by the test
//! itself into a virtual environment under `target/` ([`integration_tests::python_peers`]). When
//! they cannot be installed this test fails and says why; it never passes silently.

use integration_tests::python_peers;
use integration_tests::xorshift::Xorshift as Rng;
use std::collections::BTreeMap;
use std::path::Path as FsPath;

use serde::{Deserialize, Serialize};
use serde_formats::toc::{self, Config, Path, Reader, Segment, Value};

#[path = "common/msglc_files.rs"]
mod msglc_files;

fn run_peer(mode: &str, dir: &FsPath) {
    python_peers::run_script("toc_msglc.py", [FsPath::new(mode), dir]);
}

/// One of our files, with what msglc must read from it.
struct Case {
    name: &'static str,
    value: Value,
    block_size: u64,
    trivial_size: u64,
    paths: Vec<Vec<Segment>>,
}

/// A case at msglc's default trivial size, 20.
fn case(name: &'static str, value: Value, block_size: u64, paths: Vec<Vec<Segment>>) -> Case {
    Case {
        name,
        value,
        block_size,
        trivial_size: 20,
        paths,
    }
}

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

fn m(entries: Vec<(Value, Value)>) -> Value {
    Value::Map(entries)
}

fn key(text: &str) -> Segment {
    Segment::Key(text.to_owned())
}

fn idx(i: i64) -> Segment {
    Segment::Index(i)
}

#[derive(Serialize, Deserialize)]
struct Record {
    id: u32,
    name: String,
    score: f64,
    flags: Vec<bool>,
    note: Option<String>,
    kind: Kind,
}

#[derive(Serialize, Deserialize)]
enum Kind {
    Plain,
    Tagged(u8),
    Pair(i16, String),
    // f64: rmp-serde writes an f32 as float32, which `Value` keeps (`Value::F32`) and msglc,
    // whose floats are Python floats, would write back as float64.
    Named { x: f64 },
}

/// Converts a typed value to a `Value` through rmp-serde (structs as maps), not our code.
fn typed<T: Serialize>(value: &T) -> Value {
    rmp_serde::from_slice(&rmp_serde::to_vec_named(value).unwrap()).unwrap()
}

/// Lists of floats as a program holds them (not `Value`s); `narrow` holds `f32`s.
#[derive(Serialize)]
struct FloatLists<N> {
    first: Vec<f64>,
    one: Vec<f64>,
    empty: Vec<f64>,
    narrow: Vec<N>,
    nested: Vec<Vec<f64>>,
    last: [f64; 2],
}

fn float_lists(rng: &mut Rng) -> FloatLists<f32> {
    let mut list = |n: usize| -> Vec<f64> { (0..n).map(|_| rng.unit() * 2e6 - 1e6).collect() };
    FloatLists {
        first: list(3000),
        one: list(1),
        empty: list(0),
        narrow: list(1000).into_iter().map(|x| x as f32).collect(),
        nested: vec![list(5), list(2000), list(70)],
        last: [0.5, -0.0],
    }
}

impl FloatLists<f32> {
    /// The same lists with `narrow` widened, as msglc (and the writer) write every float.
    fn widened(&self) -> FloatLists<f64> {
        FloatLists {
            first: self.first.clone(),
            one: self.one.clone(),
            empty: self.empty.clone(),
            narrow: self.narrow.iter().copied().map(f64::from).collect(),
            nested: self.nested.clone(),
            last: self.last,
        }
    }
}

fn cases() -> Vec<Case> {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut cases = Vec::new();

    let nested = m(vec![
        (
            s("users"),
            Value::Array(
                (0..60)
                    .map(|i| {
                        m(vec![
                            (s("id"), Value::UInt(i)),
                            (
                                s("profile"),
                                m(vec![
                                    (s("age"), Value::UInt(20 + i % 50)),
                                    (s("city"), s("Zürich")),
                                ]),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
        (s("meta"), m(vec![(s("version"), Value::UInt(3))])),
    ]);
    cases.push(case(
        "nested_maps_t100",
        nested,
        100,
        vec![
            vec![key("users"), idx(59), key("profile"), key("city")],
            vec![key("meta")],
        ],
    ));

    let ints: Vec<Value> = (-2500i64..2500).step_by(3).map(Value::from).collect();
    cases.push(case(
        "long_ints_t10",
        Value::Array(ints),
        10,
        vec![vec![idx(0)], vec![idx(800)], vec![idx(1666)]],
    ));

    let floats: Vec<Value> = (0..3000)
        .map(|_| Value::F64(rng.unit() * 2e6 - 1e6))
        .collect();
    cases.push(case(
        "long_floats_default",
        m(vec![(s("samples"), Value::Array(floats))]),
        8192,
        vec![
            vec![key("samples"), idx(0)],
            vec![key("samples"), idx(2999)],
            vec![key("samples"), idx(1234)],
        ],
    ));

    let records: Vec<Record> = (0..300)
        .map(|i| Record {
            id: i,
            name: format!("record {i}"),
            score: f64::from(i) / 7.0,
            flags: vec![i % 2 == 0, i % 3 == 0],
            note: (i % 4 == 0).then(|| "note".to_owned()),
            kind: match i % 4 {
                0 => Kind::Plain,
                1 => Kind::Tagged(i as u8),
                2 => Kind::Pair(-(i as i16), "p".into()),
                _ => Kind::Named { x: 1.5 },
            },
        })
        .collect();
    cases.push(case(
        "mixed_records_t1000",
        typed(&records),
        1000,
        vec![
            vec![idx(0)],
            vec![idx(299), key("name")],
            vec![idx(2), key("kind")],
            vec![idx(7), key("flags"), idx(1)],
        ],
    ));

    cases.push(case(
        "unicode_t100",
        m(vec![
            (s("名前"), s(&"値".repeat(40))),
            (
                s("emoji 🎉"),
                Value::Array(vec![s("ü"), s("ß"), s(&"🚀".repeat(70))]),
            ),
            (s("ключ"), m(vec![(s("ψ"), s(&"λ".repeat(300)))])),
        ]),
        100,
        vec![
            vec![key("名前")],
            vec![key("emoji 🎉"), idx(2)],
            vec![key("ключ"), key("ψ")],
        ],
    ));

    let extremes = vec![
        Value::UInt(u64::MAX),
        Value::Int(i64::MIN),
        Value::UInt(i64::MAX as u64),
        Value::UInt(0),
        Value::Int(-1),
        Value::UInt(127),
        Value::UInt(128),
        Value::Int(-32),
        Value::Int(-33),
        Value::UInt(255),
        Value::UInt(256),
        Value::UInt(65535),
        Value::UInt(65536),
        Value::UInt(u32::MAX as u64),
        Value::UInt(u32::MAX as u64 + 1),
        Value::Int(-129),
        Value::Int(-32769),
        Value::Int(i32::MIN as i64 - 1),
    ];
    cases.push(Case {
        name: "integer_extremes_t1",
        value: Value::Array(extremes),
        block_size: 1,
        trivial_size: 1,
        paths: vec![vec![idx(0)], vec![idx(1)], vec![idx(17)]],
    });

    cases.push(case(
        "nan_and_infinities_t10",
        m(vec![(
            s("v"),
            Value::Array(vec![
                Value::F64(f64::NAN),
                Value::F64(f64::INFINITY),
                Value::F64(f64::NEG_INFINITY),
                Value::F64(-0.0),
                Value::F64(f64::MAX),
                Value::F64(f64::MIN_POSITIVE),
                Value::F64(5e-324),
            ]),
        )]),
        10,
        vec![
            vec![key("v"), idx(0)],
            vec![key("v"), idx(2)],
            vec![key("v"), idx(3)],
        ],
    ));

    let mut int_keyed: BTreeMap<i64, Vec<u32>> = BTreeMap::new();
    for i in 0..40i64 {
        int_keyed.insert(i * 7 - 50, vec![i as u32; (i % 5) as usize]);
    }
    cases.push(case(
        "integer_keys_t10",
        typed(&int_keyed),
        10,
        vec![vec![idx(-50)], vec![idx(6), idx(0)], vec![idx(223)]],
    ));

    cases.push(case(
        "empty_containers_t1",
        m(vec![
            (s("a"), Value::Array(vec![])),
            (s("b"), m(vec![])),
            (s("c"), s("")),
            (s("d"), Value::Bin(vec![])),
            (
                s("e"),
                Value::Array(vec![
                    Value::Array(vec![]),
                    Value::Array(vec![m(vec![])]),
                    m(vec![(s("x"), Value::Array(vec![]))]),
                ]),
            ),
        ]),
        1,
        vec![
            vec![key("a")],
            vec![key("e"), idx(1), idx(0)],
            vec![key("e"), idx(2), key("x")],
        ],
    ));

    cases.push(case(
        "bytes_and_nil_t100",
        m(vec![
            (s("small"), Value::Bin(vec![0, 1])),
            (s("mid"), Value::Bin((0..=255).chain(0..=255).collect())),
            (s("big"), Value::Bin(vec![7; 70_000])),
            (s("nothing"), Value::Nil),
            (s("yes"), Value::Bool(true)),
        ]),
        100,
        vec![vec![key("small")], vec![key("mid")], vec![key("nothing")]],
    ));

    cases.push(case(
        "small_ints_t1",
        Value::Array((0..300u64).map(|i| Value::UInt(i % 10)).collect()),
        1,
        vec![vec![idx(0)], vec![idx(150)], vec![idx(-1)]],
    ));

    let big: Vec<Value> = (0..2000u64)
        .map(|i| {
            m(vec![
                (s("id"), Value::UInt(i)),
                (s("name"), s(&format!("n{i}"))),
                (s("score"), Value::F64(i as f64 * 0.5)),
                (s("flags"), Value::UInt(i % 16)),
            ])
        })
        .collect();
    cases.push(case(
        "records_default",
        Value::Array(big),
        8192,
        vec![
            vec![idx(0)],
            vec![idx(1999), key("name")],
            vec![idx(1000), key("score")],
        ],
    ));

    // A non-default trivial size (msglc's `configure(trivial_size=64)`): records of at most 64
    // bytes are trivial, so a list of them is cut into blocks instead of one node per record,
    // and a list mixing them with longer ones is indexed.
    let record = |i: u64, name: String, rng: &mut Rng| {
        m(vec![
            (s("id"), Value::UInt(i * 7919)),
            (s("name"), s(&name)),
            (s("score"), Value::F64(rng.unit() * 2e6 - 1e6)),
            (s("flags"), Value::UInt(i % 256)),
        ])
    };
    let short: Vec<Value> = (0..2000u64)
        .map(|i| record(i, format!("name-{}", rng.next() % 100_000), &mut rng))
        .collect();
    let mixed: Vec<Value> = (0..500u64)
        .map(|i| {
            let len = if i % 10 == 0 { 100 } else { 5 };
            record(i, "x".repeat(len), &mut rng)
        })
        .collect();
    cases.push(Case {
        name: "records_trivial64",
        value: m(vec![
            (s("short"), Value::Array(short)),
            (s("mixed"), Value::Array(mixed)),
        ]),
        block_size: 8192,
        trivial_size: 64,
        paths: vec![
            vec![key("short"), idx(1999), key("name")],
            vec![key("short"), idx(700)],
            vec![key("mixed"), idx(10), key("name")],
            vec![key("mixed"), idx(11)],
        ],
    });

    let mut deep = m(vec![(s("i"), Value::UInt(40))]);
    for i in (0..40).rev() {
        deep = m(vec![(s("k"), deep), (s("i"), Value::UInt(i))]);
    }
    let mut deep_path: Vec<Segment> = (0..25).map(|_| key("k")).collect();
    deep_path.push(key("i"));
    cases.push(case("deep_t1", deep, 1, vec![deep_path]));
    cases
}

fn value_at<'a>(value: &'a Value, path: &[Segment]) -> &'a Value {
    let mut target = value;
    for segment in path {
        target = match (target, segment) {
            (Value::Array(items), Segment::Index(i)) => {
                let i = if *i < 0 { items.len() as i64 + i } else { *i };
                &items[i as usize]
            }
            (Value::Map(entries), Segment::Key(k)) => {
                &entries.iter().find(|(key, _)| *key == s(k)).unwrap().1
            }
            (Value::Map(entries), Segment::Index(i)) => {
                &entries
                    .iter()
                    .find(|(key, _)| *key == Value::from(*i))
                    .unwrap()
                    .1
            }
            _ => panic!("bad test path {path:?}"),
        };
    }
    target
}

fn json_path(path: &[Segment]) -> serde_json::Value {
    serde_json::Value::Array(
        path.iter()
            .map(|segment| match segment {
                Segment::Key(k) => serde_json::Value::from(k.clone()),
                Segment::Index(i) => serde_json::Value::from(*i),
            })
            .collect(),
    )
}

fn write_case(
    dir: &FsPath,
    name: &str,
    value: &Value,
    config: &Config,
    paths: &[Vec<Segment>],
) -> serde_json::Value {
    let file = format!("{name}.toc");
    toc::write_file_with(dir.join(&file), value, config).unwrap();
    manifest_entry(dir, name, &file, value, config, paths)
}

/// The manifest entry of our file `file` holding `value`, with the files of what msglc must
/// read from it.
fn manifest_entry(
    dir: &FsPath,
    name: &str,
    file: &str,
    value: &Value,
    config: &Config,
    paths: &[Vec<Segment>],
) -> serde_json::Value {
    let plain = format!("{name}.plain");
    std::fs::write(dir.join(&plain), rmp_serde::to_vec(value).unwrap()).unwrap();
    let mut expected = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let expected_file = format!("{name}.path{i}");
        std::fs::write(
            dir.join(&expected_file),
            rmp_serde::to_vec(value_at(value, path)).unwrap(),
        )
        .unwrap();
        expected.push(serde_json::Value::from(expected_file));
    }
    serde_json::json!({
        "name": name,
        "file": file,
        "plain": plain,
        "block_size": config.get_block_size(),
        "trivial_size": config.get_trivial_size(),
        "paths": paths.iter().map(|p| json_path(p)).collect::<Vec<_>>(),
        "expected": expected,
    })
}

#[test]
fn msglc_reads_our_files_and_writes_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut manifest = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 10);
    for case in &cases {
        let config = Config::new()
            .block_size(case.block_size)
            .trivial_size(case.trivial_size);
        manifest.push(write_case(
            dir.path(),
            case.name,
            &case.value,
            &config,
            &case.paths,
        ));
        // Our own reader agrees on the same paths.
        let reader = Reader::open(dir.path().join(format!("{}.toc", case.name))).unwrap();
        assert_eq!(
            reader.decode::<Value>().unwrap(),
            case.value,
            "{}",
            case.name
        );
        for path in &case.paths {
            let got: Value = reader.get(Path::from_segments(path.clone())).unwrap();
            assert_eq!(&got, value_at(&case.value, path), "{} {path:?}", case.name);
        }
    }

    // Lists of `f64` and `f32` written to memory take the writer's float-run path (a streamed
    // list's blocks worked out from its length); the `Value` cases above never do.
    for (name, block_size, trivial_size) in [
        ("float_lists_default", 8192, 20),
        ("float_lists_t100", 100, 20),
        ("float_lists_t64_s9", 64, 9),
    ] {
        let config = Config::new()
            .block_size(block_size)
            .trivial_size(trivial_size);
        let lists = float_lists(&mut Rng(0x5eed ^ block_size));
        let bytes = toc::to_bytes_with(&lists, &config).unwrap();
        let file = format!("{name}.toc");
        std::fs::write(dir.path().join(&file), &bytes).unwrap();
        let value = typed(&lists.widened());
        assert!(toc::from_bytes::<Value>(&bytes).unwrap() == value, "{name}");
        let paths = [
            vec![key("first"), idx(2999)],
            vec![key("narrow"), idx(400)],
            vec![key("nested"), idx(1), idx(3)],
            vec![key("last"), idx(0)],
        ];
        manifest.push(manifest_entry(
            dir.path(),
            name,
            &file,
            &value,
            &config,
            &paths,
        ));
    }

    // Combined files: a dict of two files, and a list whose first element is that dict.
    let default = Config::new();
    let part_a = m(vec![(
        s("x"),
        Value::Array((0..100u64).map(Value::UInt).collect()),
    )]);
    let part_b = Value::Array(vec![s("y"); 50]);
    let bytes_a = toc::to_bytes_with(&part_a, &Config::new().block_size(10)).unwrap();
    let bytes_b = toc::to_bytes_with(&part_b, &Config::new().block_size(10)).unwrap();
    std::fs::write(dir.path().join("part_a.toc"), &bytes_a).unwrap();
    std::fs::write(dir.path().join("part_b.toc"), &bytes_b).unwrap();
    let dict = toc::combine_map(&[("a", &bytes_a), ("b", &bytes_b)]).unwrap();
    std::fs::write(dir.path().join("combined_dict.toc"), &dict).unwrap();
    let nested = toc::combine_list(&[&dict, &bytes_b]).unwrap();
    std::fs::write(dir.path().join("combined_nested.toc"), &nested).unwrap();
    let dict_value = m(vec![(s("a"), part_a.clone()), (s("b"), part_b.clone())]);
    let nested_value = Value::Array(vec![dict_value.clone(), part_b.clone()]);
    for (name, value, parts, paths) in [
        (
            "combined_dict",
            &dict_value,
            serde_json::json!([{"file": "part_a.toc", "name": "a"}, {"file": "part_b.toc", "name": "b"}]),
            vec![vec![key("a"), key("x"), idx(42)], vec![key("b")]],
        ),
        (
            "combined_nested",
            &nested_value,
            serde_json::json!([{"file": "combined_dict.toc"}, {"file": "part_b.toc"}]),
            vec![
                vec![idx(0), key("a"), key("x"), idx(99)],
                vec![idx(1), idx(3)],
            ],
        ),
    ] {
        let plain = format!("{name}.plain");
        std::fs::write(dir.path().join(&plain), rmp_serde::to_vec(value).unwrap()).unwrap();
        let mut expected = Vec::new();
        for (i, path) in paths.iter().enumerate() {
            let file = format!("{name}.path{i}");
            std::fs::write(
                dir.path().join(&file),
                rmp_serde::to_vec(value_at(value, path)).unwrap(),
            )
            .unwrap();
            expected.push(file);
        }
        manifest.push(serde_json::json!({
            "name": name,
            "file": format!("{name}.toc"),
            "plain": plain,
            "block_size": default.get_block_size(),
            "trivial_size": default.get_trivial_size(),
            "paths": paths.iter().map(|p| json_path(p)).collect::<Vec<_>>(),
            "expected": expected,
            "parts": parts,
        }));
    }

    std::fs::write(
        dir.path().join("manifest.json"),
        serde_json::to_vec(&manifest).unwrap(),
    )
    .unwrap();
    run_peer("check", dir.path());
}

#[test]
fn we_read_files_msglc_writes() {
    let dir = tempfile::tempdir().unwrap();
    run_peer("write", dir.path());
    let manifest = msglc_files::manifest(dir.path());
    assert!(
        manifest.len() >= 10,
        "the peer wrote {} files",
        manifest.len()
    );
    for case in &manifest {
        msglc_files::check_case(dir.path(), case);
    }
}
