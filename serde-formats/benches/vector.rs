//! Save and restore of a 1M-row ROW(BIGINT, DOUBLE, VARCHAR) vector, beside a memcpy of the same
//! bytes and arrow-ipc's stream writer and reader on the same data.
//!
//! Throughput is the logical size of the data (8 + 8 bytes per row plus the string bytes), the
//! same for every entry of a group, so the rates compare directly.
//!
//! `cargo bench -p serde-formats --bench vector -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::io::Cursor;
use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_ipc::reader::StreamReader;
use arrow_ipc::writer::StreamWriter;
use arrow_schema::{DataType, Field, Schema};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_formats::vector::{from_bytes, restore, save, Type, Value, Vector};

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

fn ours(data: &Data) -> Vector {
    let ids: Vec<Value> = data.ids.iter().map(|&v| Value::BigInt(v)).collect();
    let prices: Vec<Value> = data.prices.iter().map(|&v| Value::Double(v)).collect();
    let names: Vec<Value> = data
        .names
        .iter()
        .map(|v| Value::Varchar(v.clone()))
        .collect();
    let ty = Type::row([
        ("id", Type::BigInt),
        ("price", Type::Double),
        ("name", Type::Varchar),
    ]);
    let children = vec![
        Some(Vector::from_values(Type::BigInt, &ids).unwrap()),
        Some(Vector::from_values(Type::Double, &prices).unwrap()),
        Some(Vector::from_values(Type::Varchar, &names).unwrap()),
    ];
    Vector::flat_row(ty, ROWS, children, None).unwrap()
}

fn arrow_batch(data: &Data) -> RecordBatch {
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("price", DataType::Float64, false),
        Field::new("name", DataType::Utf8, false),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from(data.ids.clone())),
        Arc::new(Float64Array::from(data.prices.clone())),
        Arc::new(StringArray::from_iter_values(data.names.iter())),
    ];
    RecordBatch::try_new(schema, columns).unwrap()
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
    let logical = (ROWS * 16 + data.names.iter().map(String::len).sum::<usize>()) as u64;
    let vector = ours(&data);
    let batch = arrow_batch(&data);

    let mut saved = Vec::new();
    save(&vector, &mut saved).unwrap();
    let mut arrow_bytes = Vec::new();
    arrow_write(&batch, &mut arrow_bytes);
    assert_eq!(from_bytes(&saved).unwrap(), vector);
    assert_eq!(arrow_read(&arrow_bytes), vec![batch.clone()]);
    eprintln!(
        "vector bytes: {}, arrow-ipc bytes: {}, logical bytes: {logical}",
        saved.len(),
        arrow_bytes.len()
    );

    let mut group = c.benchmark_group("vector_save_1m_rows");
    group.throughput(Throughput::Bytes(logical));
    group.sample_size(10);
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

    let mut group = c.benchmark_group("vector_restore_1m_rows");
    group.throughput(Throughput::Bytes(logical));
    group.sample_size(10);
    group.bench_function("vector::from_bytes", |b| {
        b.iter(|| from_bytes(black_box(&saved)).unwrap())
    });
    group.bench_function("vector::restore (io::Read)", |b| {
        b.iter(|| restore(black_box(&saved[..])).unwrap())
    });
    group.bench_function("memcpy", |b| b.iter(|| black_box(saved.clone())));
    group.bench_function("arrow_ipc::StreamReader", |b| {
        b.iter(|| arrow_read(black_box(&arrow_bytes)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
