//! What we write, we read (TOC-MessagePack): any value the writer accepts, under any block and
//! trivial sizes, with deep nesting near the depth limit and long runs of nil, reads back
//! equal, whole and through the reader's TOC, and the writers to memory and to a file write
//! the same bytes; the writer refuses only values past the limit.
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
            assert_eq!(unbuffered.into_inner(), file, "file and memory writers differ");
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
