//! What we write, we read (TOC-MessagePack): any value the writer accepts, under any block and
//! trivial sizes, with deep nesting near the depth limit and long runs of nil, reads back
//! equal, whole and through the reader's TOC, and the writers to memory and to a file write
//! the same bytes; the writer refuses only values past the limit. Records of a derived struct
//! (field names of each key path, a list of floats) write the same bytes in a list of known
//! length, one of unknown length and to a file, and read back.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_formats::toc::{self, Config, Reader, Value};
use serde_formats::ErrorKind;

/// Arrays and maps on the deepest path, as the module docs define depth.
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Map(entries) => {
            1 + entries
                .iter()
                .map(|(k, v)| depth(k).max(depth(v)))
                .max()
                .unwrap_or(0)
        }
        _ => 0,
    }
}

fn leaf(u: &mut Unstructured<'_>) -> Result<Value> {
    Ok(match u.int_in_range(0..=9)? {
        0 => Value::Nil,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::UInt(u.arbitrary()?),
        3 => Value::Int(u.int_in_range(i64::MIN..=-1)?),
        4 => Value::F64(u.arbitrary()?),
        5 => Value::F32(u.arbitrary()?),
        6 => Value::Str(u.arbitrary()?),
        7 => Value::Bin(u.arbitrary()?),
        8 => Value::Ext(u.arbitrary()?, u.arbitrary()?),
        _ => Value::Array(vec![Value::Nil; u.int_in_range(0..=5000)?]),
    })
}

/// A record whose field names take each path of the key writer (short, 31 and 32 bytes).
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Record {
    a: u64,
    sixteen_letters_: String,
    thirty_one_letters_in_this_name: Option<i32>,
    a_field_name_of_thirty_two_bytes: Vec<bool>,
    /// Written as one run of floats when the record is recorded by then (`toc::ser::floats`).
    samples: Vec<f64>,
}

/// Records as a sequence that does not tell its length, which the writer buffers.
struct Unsized<'a>(&'a [Record]);

impl serde::Serialize for Unsized<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().filter(|_| true))
    }
}

fn records(u: &mut Unstructured<'_>) -> Result<Vec<Record>> {
    let n = u.int_in_range(0..=200)?;
    let mut records = Vec::with_capacity(n);
    for _ in 0..n {
        records.push(Record {
            a: u.arbitrary()?,
            sixteen_letters_: u.arbitrary()?,
            thirty_one_letters_in_this_name: u.arbitrary()?,
            a_field_name_of_thirty_two_bytes: u.arbitrary()?,
            samples: {
                // Long enough to span blocks; no NaN, so that records compare equal.
                let first = f64::from(u.arbitrary::<i32>()?);
                (0..u.int_in_range(0..=3000)?)
                    .map(|i| first + f64::from(i) / 8.0)
                    .collect()
            },
        });
    }
    Ok(records)
}

/// The records written three ways give one file, which reads back.
fn check_records(records: &[Record], config: &Config) {
    let file = toc::to_bytes_with(&records, config).expect("records are within every limit");
    assert_eq!(
        toc::to_bytes_with(&Unsized(records), config).expect("buffered records"),
        file,
        "a list of unknown length differs"
    );
    let mut unbuffered = std::io::Cursor::new(Vec::new());
    toc::to_writer_with(&mut unbuffered, &records, config).expect("records to a file");
    assert_eq!(
        unbuffered.into_inner(),
        file,
        "file and memory writers differ on records"
    );
    let back: Vec<Record> = toc::from_bytes(&file).expect("what we write, we read");
    assert_eq!(back, records);
}

fn value(u: &mut Unstructured<'_>, budget: &mut u32) -> Result<Value> {
    if *budget == 0 || u.ratio(1, 2)? {
        return leaf(u);
    }
    *budget -= 1;
    let n = u.int_in_range(0..=5)?;
    if u.arbitrary()? {
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(value(u, budget)?);
        }
        Ok(Value::Array(items))
    } else {
        let mut entries = Vec::with_capacity(n);
        for _ in 0..n {
            entries.push((value(u, budget)?, value(u, budget)?));
        }
        Ok(Value::Map(entries))
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok((mut value, levels, block_size, trivial_size)) = (|| -> Result<_> {
        let mut budget = 24;
        Ok((
            value(&mut u, &mut budget)?,
            u.int_in_range(0..=135)?,
            u.int_in_range(1..=400)?,
            u.int_in_range(0..=40)?,
        ))
    })() else {
        return;
    };
    if let Ok(records) = records(&mut u) {
        let config = Config::new()
            .block_size(block_size)
            .trivial_size(trivial_size);
        check_records(&records, &config);
    }
    // Around the depth limit of 128.
    for level in 0..levels {
        value = if level % 3 == 0 {
            Value::Map(vec![(Value::Str("k".into()), value)])
        } else {
            Value::Array(vec![value, Value::Nil])
        };
    }
    let config = Config::new()
        .block_size(block_size)
        .trivial_size(trivial_size);
    let deep = depth(&value) > toc::DEFAULT_DEPTH_LIMIT;
    match toc::to_bytes_with(&value, &config) {
        Ok(file) => {
            assert!(!deep, "wrote a value deeper than the limit");
            // The writer to a file records every container from its start; the writer to
            // memory streams arrays and promotes containers late. Same bytes.
            let mut unbuffered = std::io::Cursor::new(Vec::new());
            toc::to_writer_with(&mut unbuffered, &value, &config)
                .expect("the file writer takes what the memory writer took");
            assert_eq!(
                unbuffered.into_inner(),
                file,
                "file and memory writers differ"
            );
            let back: Value = toc::from_bytes(&file).expect("what we write, we read");
            assert_eq!(back, value);
            let reader = Reader::from_slice(&file).expect("the reader opens what we write");
            reader
                .toc_stats()
                .expect("the reader walks the TOC we write");
            let root = reader.root().expect("root");
            assert_eq!(
                root.decode::<Value>().expect("decode through the TOC"),
                value
            );
            let msgpack = root
                .to_msgpack()
                .expect("the reader reassembles what we write");
            assert!(msgpack.len() < file.len());
        }
        Err(err) => {
            assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded, "{err}");
            assert!(deep, "refused a value within the limit: {err}");
        }
    }
});
