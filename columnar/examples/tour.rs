//! A tour of the format: a generated change log (seeded, so every run prints the same numbers)
//! stored as a `#[columnar]` table, compared with row-wise postcard, then each column on its
//! own with each codec.
//!
//! ```sh
//! cargo run --release --example tour -p columnar-codec
//! ```

use std::fmt::Debug;

use columnar::codec::{bool_rle, delta_of_delta, delta_rle, generic, rle};
use columnar::{columnar, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// One edit of a collaborative document; each field becomes a column with its own codec.
#[columnar(vec, iterable)]
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
struct Change {
    /// Lamport-style counter: grows by one per change, with gaps where other peers interleave.
    #[columnar(strategy = "DeltaRle")]
    counter: u64,
    /// Milliseconds since the epoch; changes come in bursts.
    #[columnar(strategy = "DeltaOfDelta")]
    timestamp: i64,
    /// Who made the change; peers type in streaks.
    #[columnar(strategy = "Rle")]
    peer: String,
    /// Insert (true) or delete (false); inserts dominate.
    #[columnar(strategy = "BoolRle")]
    insert: bool,
    /// Position in the document.
    #[columnar(strategy = "DeltaRle")]
    position: u32,
    /// The inserted text (empty for deletes).
    text: String,
}

/// The document's history: the changes as one vec container, plus a format version.
#[columnar(ser, de)]
#[derive(Debug, PartialEq)]
struct History {
    #[columnar(class = "vec", iter = "Change")]
    changes: Vec<Change>,
    version: u32,
}

const CHANGES: usize = 100_000;

fn change_log() -> Vec<Change> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let peers = ["alice", "bob", "carol", "dave"];
    let words = [
        "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", " ", "\n",
    ];
    let mut counter = 0u64;
    let mut timestamp = 1_700_000_000_000i64;
    let mut peer = 0usize;
    let mut position = 0u32;
    (0..CHANGES)
        .map(|_| {
            counter += if rng.random_bool(0.9) {
                1
            } else {
                rng.random_range(2..20)
            };
            // Keystrokes every ~120 ms, with an occasional pause.
            timestamp += if rng.random_bool(0.02) {
                rng.random_range(1_000..60_000)
            } else {
                120 + rng.random_range(-3..=3)
            };
            if rng.random_bool(0.01) {
                peer = rng.random_range(0..peers.len());
            }
            let insert = rng.random_bool(0.85);
            if rng.random_bool(0.05) {
                position = rng.random_range(0..=position.max(1));
            } else if insert {
                position += 1;
            }
            let text = if insert {
                words[rng.random_range(0..words.len())].to_string()
            } else {
                String::new()
            };
            Change {
                counter,
                timestamp,
                peer: peers[peer].to_string(),
                insert,
                position,
                text,
            }
        })
        .collect()
}

struct Line {
    column: &'static str,
    codec: &'static str,
    values: usize,
    bytes: usize,
    generic_bytes: usize,
}

/// Encodes one column with `encode`, checks that `decode` gives the values back, and measures
/// it next to the Generic encoding of the same values.
fn measure<T: PartialEq + Debug + Serialize>(
    column: &'static str,
    codec: &'static str,
    values: &[T],
    encode: fn(&[T]) -> Result<Vec<u8>>,
    decode: impl Fn(&[u8]) -> Result<Vec<T>>,
) -> Result<Line> {
    let bytes = encode(values)?;
    assert_eq!(decode(&bytes)?, values);
    Ok(Line {
        column,
        codec,
        values: values.len(),
        bytes: bytes.len(),
        generic_bytes: generic::encode(values)?.len(),
    })
}

fn main() -> Result<()> {
    let log = change_log();

    // The whole log through the derive: one call each way, and a streaming read.
    let history = History {
        changes: log.clone(),
        version: 1,
    };
    let bytes = columnar::to_vec(&history)?;
    assert_eq!(columnar::from_bytes::<History>(&bytes)?, history);
    let streamed = columnar::iter_from_bytes::<History>(&bytes)?;
    let mut rows = 0;
    for (row, change) in streamed.changes.zip(&log) {
        assert_eq!(&row?, change);
        rows += 1;
    }
    assert_eq!(rows, CHANGES);
    let row_wise = postcard::to_allocvec(&log)
        .map_err(|err| columnar::Error::with_message(columnar::ErrorKind::Message, err))?;
    println!("change log of {CHANGES} edits (seeded)\n");
    println!(
        "#[columnar] table: {:>9} bytes ({:.2} bytes/edit)",
        bytes.len(),
        bytes.len() as f64 / CHANGES as f64
    );
    println!(
        "postcard row-wise: {:>9} bytes ({:.2} bytes/edit, {:.1}x larger)\n",
        row_wise.len(),
        row_wise.len() as f64 / CHANGES as f64,
        row_wise.len() as f64 / bytes.len() as f64
    );
    let counters: Vec<u64> = log.iter().map(|c| c.counter).collect();
    let timestamps: Vec<i64> = log.iter().map(|c| c.timestamp).collect();
    let peers: Vec<String> = log.iter().map(|c| c.peer.clone()).collect();
    let inserts: Vec<bool> = log.iter().map(|c| c.insert).collect();
    let positions: Vec<u32> = log.iter().map(|c| c.position).collect();
    let texts: Vec<String> = log.iter().map(|c| c.text.clone()).collect();

    // Encode each column, decode it back to prove the bytes hold the values, and record sizes.
    #[rustfmt::skip]
    let lines = [
        measure("counter", "DeltaRle", &counters, delta_rle::encode, delta_rle::decode)?,
        measure("timestamp", "DeltaOfDelta", &timestamps, delta_of_delta::encode, delta_of_delta::decode)?,
        measure("peer", "Rle", &peers, rle::encode, |b| rle::decode(b))?,
        measure("insert", "BoolRle", &inserts, bool_rle::encode, bool_rle::decode)?,
        measure("position", "DeltaRle", &positions, delta_rle::encode, delta_rle::decode)?,
        measure("text", "Generic", &texts, generic::encode, |b| generic::decode(b))?,
    ];

    println!("each column on its own:\n");
    println!(
        "{:<10} {:<13} {:>8} {:>9} {:>11} {:>14} {:>9}",
        "column", "codec", "values", "bytes", "bytes/value", "Generic bytes", "saved"
    );
    let total = Line {
        column: "total",
        codec: "",
        values: CHANGES,
        bytes: lines.iter().map(|l| l.bytes).sum(),
        generic_bytes: lines.iter().map(|l| l.generic_bytes).sum(),
    };
    for l in lines.iter().chain([&total]) {
        println!(
            "{:<10} {:<13} {:>8} {:>9} {:>11.3} {:>14} {:>8.1}%",
            l.column,
            l.codec,
            l.values,
            l.bytes,
            l.bytes as f64 / l.values as f64,
            l.generic_bytes,
            100.0 * (1.0 - l.bytes as f64 / l.generic_bytes as f64),
        );
    }
    Ok(())
}
