//! `iter_from_bytes` decodes rows one at a time: the memory it allocates while iterating does
//! not grow with the row count, while `from_bytes` of the same bytes does. Measured with a
//! counting global allocator (this test binary only) — bytes, not time.
//!
//! The binary holds one `#[test]` so that no other test allocates while it measures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use columnar::columnar;

/// The system allocator, counting the bytes live now and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(live, Ordering::SeqCst);
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            if new_size >= layout.size() {
                let live = LIVE.fetch_add(new_size - layout.size(), Ordering::SeqCst)
                    + (new_size - layout.size());
                PEAK.fetch_max(live, Ordering::SeqCst);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::SeqCst);
            }
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes `f` had allocated at once, above what was live when it started.
fn peak_allocated<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let value = f();
    (PEAK.load(Ordering::SeqCst) - base, value)
}

#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq)]
struct Row {
    #[columnar(strategy = "DeltaRle")]
    id: u64,
    #[columnar(strategy = "Rle")]
    name: String,
    #[columnar(strategy = "BoolRle")]
    flag: bool,
    #[columnar(strategy = "DeltaOfDelta")]
    time: i64,
    value: u32,
    #[columnar(optional, index = 0)]
    note: u16,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Table {
    #[columnar(class = "vec", iter = "Row")]
    rows: Vec<Row>,
    version: u32,
}

fn table(rows: u64) -> Table {
    Table {
        rows: (0..rows)
            .map(|i| Row {
                id: i * 2,
                name: format!("name-{:08}", i / 100), // one length: equal peaks
                flag: i % 7 < 3,
                time: 1_700_000_000 + 15 * i as i64 + (i % 3) as i64,
                value: (i % 1000) as u32,
                note: (i % 10) as u16,
            })
            .collect(),
        version: 1,
    }
}

/// Streams every row; returns the row count and a sum over all fields, so the rows are used.
fn stream(bytes: &[u8]) -> (u64, u64) {
    let iter = columnar::iter_from_bytes::<Table>(bytes).unwrap();
    let mut count = 0;
    let mut sum = iter.version as u64;
    for row in iter.rows {
        let row = row.unwrap();
        count += 1;
        sum = sum
            .wrapping_add(row.id)
            .wrapping_add(row.name.len() as u64)
            .wrapping_add(row.flag as u64)
            .wrapping_add(row.time as u64)
            .wrapping_add(row.value as u64)
            .wrapping_add(row.note as u64);
    }
    (count, sum)
}

fn expected_sum(table: &Table) -> u64 {
    table.rows.iter().fold(table.version as u64, |sum, row| {
        sum.wrapping_add(row.id)
            .wrapping_add(row.name.len() as u64)
            .wrapping_add(row.flag as u64)
            .wrapping_add(row.time as u64)
            .wrapping_add(row.value as u64)
            .wrapping_add(row.note as u64)
    })
}

/// Bytes `iter_from_bytes` may hold while streaming any number of rows: the `String` of the
/// row being built and the one the Rle iterator keeps for its run (26 bytes here).
const STREAMING_BOUND: usize = 1024;

#[test]
fn iter_from_bytes_memory_does_not_grow_with_the_row_count() {
    let small = table(10_000);
    let large = table(1_000_000);
    let small_bytes = columnar::to_vec(&small).unwrap();
    let large_bytes = columnar::to_vec(&large).unwrap();
    let small_sum = expected_sum(&small);
    let large_sum = expected_sum(&large);
    drop((small, large));

    let (small_streaming, streamed) = peak_allocated(|| stream(&small_bytes));
    assert_eq!(streamed, (10_000, small_sum));
    let (large_streaming, streamed) = peak_allocated(|| stream(&large_bytes));
    assert_eq!(streamed, (1_000_000, large_sum));
    println!("streaming peak: 10k rows {small_streaming} B, 1M rows {large_streaming} B");
    assert_eq!(small_streaming, large_streaming);
    assert!(large_streaming <= STREAMING_BOUND, "{large_streaming} B");

    // The control: decoding the same bytes into a `Vec<Row>` grows with the row count, so the
    // allocator does see the rows.
    let (small_bulk, table) =
        peak_allocated(|| columnar::from_bytes::<Table>(&small_bytes).unwrap());
    assert_eq!(table.rows.len(), 10_000);
    drop(table);
    let (large_bulk, table) =
        peak_allocated(|| columnar::from_bytes::<Table>(&large_bytes).unwrap());
    assert_eq!(table.rows.len(), 1_000_000);
    drop(table);
    println!("from_bytes peak: 10k rows {small_bulk} B, 1M rows {large_bulk} B");
    assert!(large_bulk >= 1_000_000 * std::mem::size_of::<Row>());
    assert!(large_bulk >= 50 * small_bulk);
}
