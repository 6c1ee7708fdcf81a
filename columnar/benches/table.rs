//! Encode, decode and iterate a table of 1M `Change` rows: ours (`columnar::columnar`) next to
//! serde_columnar 0.3.14's derive and postcard row-wise in the same group. The schema is
//! expanded once per derive, each in its own module so the generated names
//! (`IterableChange`, `ChangeTableIter`) do not collide, and written again as plain serde rows
//! for postcard. Throughput is in rows.
//!
//! The table is `ChangeTable`, not `Table`: serde_columnar's derive names the iterator struct
//! `{Table}Iter` and imports its trait `TableIter` next to it, so a table named `Table` does
//! not compile there (E0782).
//!
//! Before timing, the bench checks once that our bytes equal serde_columnar's and prints the
//! encoded size of each peer.
//!
//! Each group ends with `floor_clone`, which decodes nothing and only clones the rows (or,
//! when iterating, clones and drops each row): the allocation work any decoder of this row
//! type pays, a lower bound for the peers.
//!
//! After the criterion groups, `paired` times ours and serde_columnar alternately, one call of
//! each per round, and prints the median and range of the per-round ratios. Criterion measures
//! one function for seconds before the next, and on a shared machine a slow phase lasting
//! seconds then lands on one peer and not the other (one binary gave decode ratios from 1.2x
//! to 2.5x between runs); within a round both calls meet the same phase.
//!
//! Decode times include dropping the decoded rows (1M `String`s and a 64 MB `Vec`), as a
//! caller pays it too; iterate drops each row as it goes. With an owned `String` per row,
//! allocating and freeing it is a floor shared by every peer.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: usize = 1_000_000;

/// The schema, written once and expanded with each derive (`$derive::columnar`), with the
/// conversion from the plain rows.
macro_rules! change_schema {
    ($derive:ident) => {
        use $derive::columnar;

        #[columnar(vec, ser, de, iterable)]
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Change {
            #[columnar(strategy = "Rle")]
            pub peer: u64,
            #[columnar(strategy = "DeltaRle")]
            pub counter: i32,
            #[columnar(strategy = "DeltaRle")]
            pub lamport: u32,
            #[columnar(strategy = "DeltaOfDelta")]
            pub timestamp: i64,
            #[columnar(strategy = "BoolRle")]
            pub deleted: bool,
            #[columnar(strategy = "Rle")]
            pub content: String,
            #[columnar(strategy = "Rle")]
            pub len: usize,
        }

        #[columnar(ser, de)]
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct ChangeTable {
            #[columnar(class = "vec", iter = "Change")]
            pub changes: Vec<Change>,
        }

        /// The table of `rows`.
        pub fn table(rows: &[super::ChangeRow]) -> ChangeTable {
            let changes = rows
                .iter()
                .map(|r| Change {
                    peer: r.peer,
                    counter: r.counter,
                    lamport: r.lamport,
                    timestamp: r.timestamp,
                    deleted: r.deleted,
                    content: r.content.clone(),
                    len: r.len,
                })
                .collect();
            ChangeTable { changes }
        }
    };
}

/// The schema with our derive.
mod ours {
    change_schema!(columnar);
}

/// The same schema with serde_columnar 0.3.14's derive (whose code writes `field: field`,
/// which clippy sees now that the fields come through a local macro).
#[allow(clippy::redundant_field_names)]
mod peer {
    change_schema!(serde_columnar);
}

/// The same fields as a plain serde struct, for postcard row by row.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct ChangeRow {
    peer: u64,
    counter: i32,
    lamport: u32,
    timestamp: i64,
    deleted: bool,
    content: String,
    len: usize,
}

/// What a user types into a document, one word per run.
const WORDS: [&str; 16] = [
    "a",
    "the",
    "hello",
    "world",
    "\n",
    " ",
    "lorem ipsum",
    "dolor sit amet",
    "é",
    "ok",
    "TODO",
    "fn main() {}",
    "🙂",
    "1",
    "quick brown fox",
    "",
];

/// 1M edits from 8 peers, with the repetition of a real collaborative-editing log:
///
/// - the author changes to another peer every 10 ..= 30 rows;
/// - each peer's counter grows by the row's `len`, the lamport clock by 1 per row;
/// - timestamps step by 20 ms, with a jump of up to an hour one row in 200;
/// - ~9 % deleted rows, in runs of 1 ..= 4;
/// - `content` and `len` repeat in runs of 1 ..= 16 and 1 ..= 12.
fn changes() -> Vec<ChangeRow> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7ab1e);
    let peers: Vec<u64> = (0..8).map(|_| rng.random()).collect();
    let mut counters = [0i32; 8];
    let mut lamport = 0u32;
    let mut timestamp = 1_700_000_000_000i64;
    let (mut author, mut author_left) = (0usize, 0usize);
    let (mut word, mut word_left) = (0usize, 0usize);
    let (mut len, mut len_left) = (1usize, 0usize);
    let mut deleted_left = 0usize;
    let mut out = Vec::with_capacity(N);
    while out.len() < N {
        if author_left == 0 {
            author = (author + rng.random_range(1..peers.len())) % peers.len();
            author_left = rng.random_range(10..=30);
        }
        author_left -= 1;
        if word_left == 0 {
            word = rng.random_range(0..WORDS.len());
            word_left = rng.random_range(1..=16);
        }
        word_left -= 1;
        if len_left == 0 {
            len = if rng.random_bool(0.8) {
                1
            } else {
                rng.random_range(2..=32)
            };
            len_left = rng.random_range(1..=12);
        }
        len_left -= 1;
        if deleted_left == 0 && rng.random_bool(0.04) {
            deleted_left = rng.random_range(1..=4);
        }
        let deleted = deleted_left > 0;
        deleted_left = deleted_left.saturating_sub(1);
        timestamp += if rng.random_bool(0.005) {
            rng.random_range(1_000..3_600_000)
        } else {
            20
        };
        lamport += 1;
        out.push(ChangeRow {
            peer: peers[author],
            counter: counters[author],
            lamport,
            timestamp,
            deleted,
            content: WORDS[word].to_owned(),
            len,
        });
        counters[author] += len as i32;
    }
    out
}

fn group<'a>(
    c: &'a mut Criterion,
    name: &str,
) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(N as u64));
    group.sample_size(10);
    group
}

fn bench_table(c: &mut Criterion) {
    let rows = changes();
    let ours = ours::table(&rows);
    let peer = peer::table(&rows);

    let ours_bytes = columnar::to_vec(&ours).unwrap();
    let peer_bytes = serde_columnar::to_vec(&peer).unwrap();
    let postcard_bytes = postcard::to_allocvec(&rows).unwrap();
    if let Some(at) = first_difference(&ours_bytes, &peer_bytes) {
        panic!(
            "columnar and serde_columnar bytes differ at byte {at} (lengths {} and {})",
            ours_bytes.len(),
            peer_bytes.len()
        );
    }
    assert_eq!(
        columnar::from_bytes::<ours::ChangeTable>(&peer_bytes).unwrap(),
        ours
    );
    assert_eq!(
        serde_columnar::from_bytes::<peer::ChangeTable>(&ours_bytes).unwrap(),
        peer
    );
    println!("table: {N} rows; {}", describe(&rows));
    println!(
        "table: encoded bytes: columnar {}, serde_columnar {}, postcard row-wise {}",
        ours_bytes.len(),
        peer_bytes.len(),
        postcard_bytes.len()
    );

    let mut g = group(c, "table/encode");
    g.bench_function("columnar", |b| {
        b.iter(|| columnar::to_vec(black_box(&ours)).unwrap())
    });
    g.bench_function("serde_columnar", |b| {
        b.iter(|| serde_columnar::to_vec(black_box(&peer)).unwrap())
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::to_allocvec(black_box(&rows)).unwrap())
    });
    g.finish();

    let mut g = group(c, "table/decode");
    g.bench_function("columnar", |b| {
        b.iter(|| columnar::from_bytes::<ours::ChangeTable>(black_box(&ours_bytes)).unwrap())
    });
    g.bench_function("serde_columnar", |b| {
        b.iter(|| serde_columnar::from_bytes::<peer::ChangeTable>(black_box(&peer_bytes)).unwrap())
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::from_bytes::<Vec<ChangeRow>>(black_box(&postcard_bytes)).unwrap())
    });
    // No decoding at all: cloning the decoded rows (one allocation for the `Vec`, one per
    // `String`), the floor under every peer above.
    g.bench_function("floor_clone", |b| {
        b.iter(|| black_box(&ours.changes).clone())
    });
    g.finish();

    let expected: u64 = rows.iter().map(|r| r.len as u64).sum();
    let mut g = group(c, "table/iterate");
    g.bench_function("columnar", |b| {
        b.iter(|| iterate_ours(&ours_bytes, expected))
    });
    g.bench_function("serde_columnar", |b| {
        b.iter(|| iterate_peer(&peer_bytes, expected))
    });
    // No decoding at all: cloning each row and dropping it, the floor under both peers.
    g.bench_function("floor_clone", |b| {
        b.iter(|| {
            let rows = black_box(&ours.changes).iter();
            let sum: u64 = rows.map(|row| black_box(row.clone()).len as u64).sum();
            assert_eq!(sum, expected);
            sum
        })
    });
    g.finish();

    println!(
        "table/paired: serde_columnar's time over ours, {PAIRED_ROUNDS} rounds of one call each"
    );
    paired(
        "encode",
        || drop(black_box(columnar::to_vec(black_box(&ours)).unwrap())),
        || drop(black_box(serde_columnar::to_vec(black_box(&peer)).unwrap())),
    );
    paired(
        "decode",
        || {
            drop(black_box(
                columnar::from_bytes::<ours::ChangeTable>(black_box(&ours_bytes)).unwrap(),
            ))
        },
        || {
            drop(black_box(
                serde_columnar::from_bytes::<peer::ChangeTable>(black_box(&peer_bytes)).unwrap(),
            ))
        },
    );
    paired(
        "iterate",
        || {
            black_box(iterate_ours(&ours_bytes, expected));
        },
        || {
            black_box(iterate_peer(&peer_bytes, expected));
        },
    );
}

/// Iterates our table's rows, summing `len` (checked against `expected`).
fn iterate_ours(bytes: &[u8], expected: u64) -> u64 {
    let table = columnar::iter_from_bytes::<ours::ChangeTable>(black_box(bytes)).unwrap();
    let sum: u64 = table.changes.map(|row| row.unwrap().len as u64).sum();
    assert_eq!(sum, expected);
    sum
}

/// [`iterate_ours`] with serde_columnar.
fn iterate_peer(bytes: &[u8], expected: u64) -> u64 {
    let table = serde_columnar::iter_from_bytes::<peer::ChangeTable>(black_box(bytes)).unwrap();
    let sum: u64 = table.changes.map(|row| row.unwrap().len as u64).sum();
    assert_eq!(sum, expected);
    sum
}

/// Rounds of the paired measurement.
const PAIRED_ROUNDS: usize = 21;

/// Times `ours` and `peer` one call each per round, the order alternating so that neither
/// always runs on the heap the other just freed, and prints the median, lowest and highest
/// ratio of the peer's time over ours (above 1: we are faster).
fn paired(name: &str, mut ours: impl FnMut(), mut peer: impl FnMut()) {
    fn time(f: &mut impl FnMut()) -> Duration {
        let start = Instant::now();
        f();
        start.elapsed()
    }
    // One untimed call each: first-touch page faults and lazy setup are not a round's.
    ours();
    peer();
    let mut ratios: Vec<f64> = (0..PAIRED_ROUNDS)
        .map(|round| {
            let (ours_time, peer_time) = if round % 2 == 0 {
                let ours_time = time(&mut ours);
                (ours_time, time(&mut peer))
            } else {
                let peer_time = time(&mut peer);
                (time(&mut ours), peer_time)
            };
            peer_time.as_secs_f64() / ours_time.as_secs_f64()
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "table/paired/{name}: median {:.2}x, lowest {:.2}x, highest {:.2}x",
        ratios[PAIRED_ROUNDS / 2],
        ratios[0],
        ratios[PAIRED_ROUNDS - 1]
    );
}

/// One line describing the data, to check it against the doc comment of [`changes`].
fn describe(rows: &[ChangeRow]) -> String {
    let runs = |same: fn(&ChangeRow, &ChangeRow) -> bool| {
        let breaks = rows.windows(2).filter(|w| !same(&w[0], &w[1])).count();
        rows.len() as f64 / (breaks + 1) as f64
    };
    let deleted = rows.iter().filter(|r| r.deleted).count();
    format!(
        "deleted {:.1} %; mean run of peer {:.1}, content {:.1}, len {:.1}, deleted {:.1}",
        100.0 * deleted as f64 / rows.len() as f64,
        runs(|a, b| a.peer == b.peer),
        runs(|a, b| a.content == b.content),
        runs(|a, b| a.len == b.len),
        runs(|a, b| a.deleted == b.deleted),
    )
}

fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(at) => Some(at),
        None if a.len() != b.len() => Some(a.len().min(b.len())),
        None => None,
    }
}

criterion_group!(table, bench_table);
criterion_main!(table);
