//! Fresh-process leaf reads for the TOC benchmark (driven by `tests/interop/toc_bench_msglc.py`).
//!
//! - `toc_leaf write DIR` writes the benchmark shapes A (map of 1000 keys x 10 000 f64) and B
//!   (1M records `{id, name, score, flags}`) to `DIR/shape_a.msglc` and `DIR/shape_b.msglc`;
//! - `toc_leaf read FILE PATH` opens FILE, reads the value at PATH and prints the microseconds
//!   from the start of `main` to the decoded value, then the value.

use std::collections::BTreeMap;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_formats::toc::{self, Reader, Value};

#[derive(Serialize)]
struct Record {
    id: u64,
    name: String,
    score: f64,
    flags: u8,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let start = Instant::now();
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("write") if args.len() == 3 => {
            let dir = std::path::Path::new(&args[2]);
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let a: BTreeMap<String, Vec<f64>> = (0..1000)
                .map(|k| {
                    (
                        format!("key{k:04}"),
                        (0..10_000).map(|_| rng.random::<f64>()).collect(),
                    )
                })
                .collect();
            toc::write_file(dir.join("shape_a.msglc"), &a)?;
            drop(a);
            let b: Vec<Record> = (0..1_000_000u64)
                .map(|id| Record {
                    id,
                    name: format!("name-{}", rng.random_range(0..100_000u32)),
                    score: rng.random(),
                    flags: rng.random(),
                })
                .collect();
            toc::write_file(dir.join("shape_b.msglc"), &b)?;
            Ok(())
        }
        Some("read") if args.len() == 4 => {
            let reader = Reader::open(&args[2])?;
            let opened = start.elapsed();
            let value: Value = reader.get(args[3].as_str())?;
            if std::env::var_os("TOC_LEAF_VERBOSE").is_some() {
                eprintln!("open {opened:?}, total {:?}", start.elapsed());
            }
            let micros = start.elapsed().as_secs_f64() * 1e6;
            println!("{micros:.1}");
            println!("{value:?}");
            Ok(())
        }
        _ => {
            eprintln!("usage: toc_leaf write DIR | toc_leaf read FILE PATH");
            std::process::exit(2);
        }
    }
}
