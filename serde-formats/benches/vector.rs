//! Save and restore of 1M-row vectors (BIGINT, DOUBLE, VARCHAR and ROW of the three), each beside
//! a memcpy of the same bytes and arrow-ipc's stream writer and reader on the same data.
//!
//! Throughput is the logical size of the data (8 + 8 bytes per row plus the string bytes), the
//! same for every entry of a group, so the rates compare directly.
//!
//! `cargo bench -p serde-formats --bench vector -- --warm-up-time 1 --measurement-time 3`

mod common;

use std::hint::black_box;
use std::io::Cursor;
use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_ipc::reader::StreamReader;
use arrow_ipc::writer::StreamWriter;
use arrow_schema::{DataType, Field, Schema};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_formats::vector::{from_bytes, restore, restore_with_len, save, Type, Value, Vector};

use common::byte_group;

const ROWS: usize = 1_000_000;

struct Data {
    ids: Vec<i64>,
    prices: Vec<f64>,
    names: Vec<String>,
}

/// Seeded data: names of 0..=24 ASCII letters, so about half are inline views and half long.
fn data() -> Data {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0001);
    let mut names = Vec::with_capacity(ROWS);
    for _ in 0..ROWS {
        let len = rng.random_range(0..=24);
        names.push(
            (0..len)
                .map(|_| rng.random_range(b'a'..=b'z') as char)
                .collect(),
        );
    }
    Data {
        ids: (0..ROWS).map(|_| rng.random()).collect(),
        prices: (0..ROWS).map(|_| rng.random::<f64>() * 1e6).collect(),
        names,
    }
}

/// One workload: our vector and the same data as an Arrow batch.
struct Workload {
    name: &'static str,
    vector: Vector,
    batch: RecordBatch,
    /// Logical bytes: 8 per number, the string bytes.
    logical: u64,
}

fn flat(ty: Type, values: Vec<Value>) -> Vector {
    Vector::from_values(ty, &values).unwrap()
}

fn ids(data: &Data) -> Vector {
    flat(
        Type::BigInt,
        data.ids.iter().map(|&v| Value::BigInt(v)).collect(),
    )
}

fn prices(data: &Data) -> Vector {
    flat(
        Type::Double,
        data.prices.iter().map(|&v| Value::Double(v)).collect(),
    )
}

fn names(data: &Data) -> Vector {
    flat(
        Type::Varchar,
        data.names
            .iter()
            .map(|v| Value::Varchar(v.clone()))
            .collect(),
    )
}

fn batch(fields: Vec<(&str, DataType, ArrayRef)>) -> RecordBatch {
    let schema = Schema::new(
        fields
            .iter()
            .map(|(name, ty, _)| Field::new(*name, ty.clone(), false))
            .collect::<Vec<_>>(),
    );
    let columns = fields.into_iter().map(|(_, _, array)| array).collect();
    RecordBatch::try_new(Arc::new(schema), columns).unwrap()
}

/// BIGINT, DOUBLE, VARCHAR and ROW(id BIGINT, price DOUBLE, name VARCHAR), 1M rows each.
fn workloads(data: &Data) -> Vec<Workload> {
    let id_array = || -> ArrayRef { Arc::new(Int64Array::from(data.ids.clone())) };
    let price_array = || -> ArrayRef { Arc::new(Float64Array::from(data.prices.clone())) };
    let name_array = || -> ArrayRef { Arc::new(StringArray::from_iter_values(data.names.iter())) };
    let string_bytes = data.names.iter().map(String::len).sum::<usize>() as u64;
    let numbers = (ROWS * 8) as u64;
    let row_type = Type::row([
        ("id", Type::BigInt),
        ("price", Type::Double),
        ("name", Type::Varchar),
    ]);
    let row = Vector::flat_row(
        row_type,
        ROWS,
        vec![Some(ids(data)), Some(prices(data)), Some(names(data))],
        None,
    )
    .unwrap();
    vec![
        Workload {
            name: "bigint",
            vector: ids(data),
            batch: batch(vec![("id", DataType::Int64, id_array())]),
            logical: numbers,
        },
        Workload {
            name: "double",
            vector: prices(data),
            batch: batch(vec![("price", DataType::Float64, price_array())]),
            logical: numbers,
        },
        Workload {
            name: "varchar",
            vector: names(data),
            batch: batch(vec![("name", DataType::Utf8, name_array())]),
            logical: string_bytes,
        },
        Workload {
            name: "row",
            vector: row,
            batch: batch(vec![
                ("id", DataType::Int64, id_array()),
                ("price", DataType::Float64, price_array()),
                ("name", DataType::Utf8, name_array()),
            ]),
            logical: 2 * numbers + string_bytes,
        },
    ]
}

fn arrow_write(batch: &RecordBatch, out: &mut Vec<u8>) {
    out.clear();
    let mut writer = StreamWriter::try_new(out, &batch.schema()).unwrap();
    writer.write(batch).unwrap();
    writer.finish().unwrap();
}

fn arrow_read(bytes: &[u8]) -> Vec<RecordBatch> {
    let reader = StreamReader::try_new(Cursor::new(bytes), None).unwrap();
    reader.map(|batch| batch.unwrap()).collect()
}

fn bench(c: &mut Criterion) {
    let data = data();
    for Workload {
        name,
        vector,
        batch,
        logical,
    } in workloads(&data)
    {
        let mut saved = Vec::new();
        save(&vector, &mut saved).unwrap();
        let mut arrow_bytes = Vec::new();
        arrow_write(&batch, &mut arrow_bytes);
        assert_eq!(from_bytes(&saved).unwrap(), vector);
        assert_eq!(arrow_read(&arrow_bytes), vec![batch.clone()]);
        eprintln!(
            "{name}: vector bytes {}, arrow-ipc bytes {}, logical bytes {logical}",
            saved.len(),
            arrow_bytes.len()
        );

        let mut group = byte_group(c, format!("vector_save_1m_{name}"), logical, Some(10));
        // Into a reused buffer (warm allocation) for every entry.
        let mut out = Vec::with_capacity(saved.len());
        group.bench_function("vector::save", |b| {
            b.iter(|| {
                out.clear();
                save(black_box(&vector), &mut out).unwrap();
                black_box(out.len())
            })
        });
        let mut copy = vec![0u8; saved.len()];
        group.bench_function("memcpy", |b| {
            b.iter(|| {
                copy.copy_from_slice(black_box(&saved));
                black_box(copy.len())
            })
        });
        let mut arrow_out = Vec::with_capacity(arrow_bytes.len());
        group.bench_function("arrow_ipc::StreamWriter", |b| {
            b.iter(|| {
                arrow_write(black_box(&batch), &mut arrow_out);
                black_box(arrow_out.len())
            })
        });
        group.finish();

        let mut group = byte_group(c, format!("vector_restore_1m_{name}"), logical, Some(10));
        group.bench_function("vector::from_bytes", |b| {
            b.iter(|| from_bytes(black_box(&saved)).unwrap())
        });
        group.bench_function("vector::restore (io::Read)", |b| {
            b.iter(|| restore(black_box(&saved[..])).unwrap())
        });
        group.bench_function("vector::restore_with_len (io::Read)", |b| {
            b.iter(|| restore_with_len(black_box(&saved[..]), saved.len() as u64).unwrap())
        });
        // A fresh allocation, as restoring makes one.
        group.bench_function("memcpy", |b| b.iter(|| black_box(saved.clone())));
        group.bench_function("arrow_ipc::StreamReader", |b| {
            b.iter(|| arrow_read(black_box(&arrow_bytes)))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
