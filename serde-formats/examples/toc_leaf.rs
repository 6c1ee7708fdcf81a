//! Fresh-process leaf reads for the TOC benchmark (driven by `tests/interop/toc_bench_msglc.py`).
//!
//! - `toc_leaf write DIR` writes the benchmark shapes A (map of 1000 keys x 10 000 f64) and B
//!   (1M records `{id, name, score, flags}`) to `DIR/shape_a.msglc` and `DIR/shape_b.msglc`;
//! - `toc_leaf read FILE PATH` opens FILE, reads the value at PATH and prints the microseconds
//!   from the start of `main` to the decoded value, then the value.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_formats::toc::{self, Reader, Value};

#[path = "common/toc_shapes.rs"]
mod toc_shapes;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let start = Instant::now();
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("write") if args.len() == 3 => {
            let dir = std::path::Path::new(&args[2]);
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let a = toc_shapes::shape_a(|| rng.random());
            toc::write_file(dir.join("shape_a.msglc"), &a)?;
            drop(a);
            let b = toc_shapes::shape_b(|| {
                (rng.random_range(0..100_000u32), rng.random(), rng.random())
            });
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
