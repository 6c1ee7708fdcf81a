//! [`Writer`]: the TOC-MessagePack writer as a value that keeps its working memory (the TOC
//! under construction and the spill buffers) from one file to the next. The free functions
//! [`to_bytes`](super::to_bytes), [`to_bytes_into`](super::to_bytes_into) and
//! [`to_writer`](super::to_writer) each use a new one.

use std::io::{Seek, Write};

use serde::Serialize;

use crate::error::Result;
use crate::output::IoWriter;

use super::layout::{self, Header, DATA_START};
use super::ser::{self, Memory};
use super::Config;

/// Writes TOC-MessagePack files, keeping what it allocates for the next file.
///
/// Building the TOC takes memory proportional to the values in the file: 16 bytes for each
/// element of the largest container being written (the root list of a million records holds a
/// million entries until it ends), plus the encoded nodes and keys. The free functions allocate
/// that anew for every file; a `Writer` keeps it, so writing many files of a similar shape,
/// into a buffer that is also reused, allocates nothing after the first. The bytes are the
/// same as [`to_bytes_with`](super::to_bytes_with)'s for the writer's [`Config`].
///
/// The TOC itself is about half the data's size on a list of small records (a
/// `{"p": [start, end]}` node per record, as msglc writes it), so a file has ~1.5× the bytes
/// of plain MessagePack. Measured into a reused buffer against rmp-serde's plain MessagePack
/// (`benches/toc.rs`; instruction counts from callgrind, times from one criterion run with
/// both alternated, the shared machine's wall clock varying by ±25%):
///
/// - 1M small records (shape B): 428 instructions a record against 361 (1.19×); 48-61 ms
///   against 38-55 ms (medians, seven runs alternated with the previous build, 0.95-1.27×;
///   that build 61-73 ms, 1.35-1.62×; rmp-serde itself ran ~15% slower in the new bench
///   binary than in the old, 44-47 ms, so against that figure 1.1-1.35×). 504 before field names were written straight into the
///   sink's room and a small record closed inline in its `Serialize`; 62-65 ms against
///   39-50 ms then (medians of 20 calls, four alternated runs; 1.3-1.6×). 510 before the
///   index's entries dropped their start (24 -> 16 bytes; medians 65-68 ms in the same runs),
///   537 before a small record stopped pushing a level on the writer's
///   stack and the leaves of back-to-back values stopped encoding each position twice;
///   71-73 ms before leaf nodes and field names stopped passing through a stack buffer that
///   was read back before its stores landed. Earlier: 898 instructions before the writer's
///   serde entry points, field and container openings were inlined, 1,287 before small
///   records were left unrecorded.
/// - 1,000 lists of 10,000 `f64` (shape A): 265M instructions against 220M; 8.8-10.3 ms
///   against 9.8-10.1 ms (0.89-1.02×, two builds of the same code, two runs each) since a
///   `Vec<f64>` is written as one run of floats whose blocks are worked out from its length;
///   before that 424M instructions, 14.6 ms against 10.0-10.1 ms in the same runs (1.45×),
///   and 52 ms on an older machine before a list of numbers was cut into blocks as it was
///   written instead of keeping a 24-byte entry per number and scanning them at its end.
///
/// On shape B the time is per-value work (heads, field names, opening and closing each
/// record, the TOC's leaf per record), not allocation (README, "Benchmarks").
///
/// ```
/// use serde_formats::toc::{self, Writer};
/// let mut writer = Writer::new();
/// let mut buffer = Vec::new();
/// for n in 0..3u32 {
///     let records: Vec<(u32, String)> = (0..n).map(|i| (i, format!("r{i}"))).collect();
///     buffer.clear();
///     writer.to_bytes_into(&mut buffer, &records)?;
///     assert_eq!(buffer, toc::to_bytes(&records)?);
/// }
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub struct Writer {
    config: Config,
    /// `None` only while a file is being written (or after a panic in a `Serialize`
    /// implementation, when the next file starts with new memory).
    memory: Option<Memory>,
    /// The encoded TOC when it goes after the data in a [`Writer::to_writer`] file.
    toc: Vec<u8>,
}

impl Default for Writer {
    fn default() -> Self {
        Writer::new()
    }
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Writer {
    /// A writer with the default [`Config`] (msglc's settings).
    pub fn new() -> Self {
        Writer::with_config(Config::default())
    }

    /// A writer with `config`.
    pub fn with_config(config: Config) -> Self {
        Writer {
            config,
            memory: None,
            toc: Vec::new(),
        }
    }

    /// The settings files are written with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The memory for the next file: the kept one, emptied, or a new one.
    fn take_memory(&mut self) -> Memory {
        match self.memory.take() {
            Some(mut memory) => {
                memory.reset(&self.config);
                memory
            }
            None => Memory::new(&self.config),
        }
    }

    /// Serializes `value` into a new file in memory; as [`to_bytes_with`](super::to_bytes_with)
    /// with this writer's settings.
    ///
    /// # Errors
    ///
    /// As [`to_bytes`](super::to_bytes).
    pub fn to_bytes<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<Vec<u8>> {
        let mut buffer = Vec::new();
        self.to_bytes_into(&mut buffer, value)?;
        Ok(buffer)
    }

    /// Appends the file of `value` to `buffer`, keeping what it already holds; as
    /// [`to_bytes_into_with`](super::to_bytes_into_with) with this writer's settings.
    ///
    /// # Errors
    ///
    /// As [`to_bytes`](super::to_bytes); on error `buffer` keeps its old contents and its
    /// length.
    pub fn to_bytes_into<T: ?Sized + Serialize>(
        &mut self,
        buffer: &mut Vec<u8>,
        value: &T,
    ) -> Result<()> {
        let base = buffer.len();
        let mut data = std::mem::take(buffer);
        data.extend_from_slice(&[0u8; DATA_START]);
        let memory = self.take_memory();
        let mut ser = ser::Writer::with_memory(data, &self.config, memory);
        let result = value.serialize(&mut ser);
        let (mut file, data_len, memory) = ser.into_parts();
        let result = result.and_then(|()| {
            let toc_start = file.len();
            memory.index.finish_into(&mut file)?;
            let header = Header {
                toc_start: data_len,
                toc_len: (file.len() - toc_start) as u64,
            };
            file[base..base + DATA_START].copy_from_slice(&header.encode(&self.config.magic));
            Ok(())
        });
        self.memory = Some(memory);
        if result.is_err() {
            file.truncate(base);
        }
        *buffer = file;
        result
    }

    /// Serializes `value` as a file starting at `writer`'s current position; as
    /// [`to_writer_with`](super::to_writer_with) with this writer's settings. The TOC is
    /// built in a buffer the writer also keeps.
    ///
    /// # Errors
    ///
    /// As [`to_writer`](super::to_writer).
    pub fn to_writer<W: Write + Seek, T: ?Sized + Serialize>(
        &mut self,
        mut writer: W,
        value: &T,
    ) -> Result<()> {
        let base = layout::begin_file(&mut writer)?;
        let memory = self.take_memory();
        let mut ser = ser::Writer::with_memory(IoWriter(writer), &self.config, memory);
        let result = value.serialize(&mut ser);
        let (IoWriter(mut writer), data_len, memory) = ser.into_parts();
        let result = result.and_then(|()| {
            self.toc.clear();
            memory.index.finish_into(&mut self.toc)?;
            layout::finish_file(&mut writer, base, data_len, &self.toc, &self.config.magic)
        });
        self.memory = Some(memory);
        result
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::io::Cursor;

    use super::*;
    use crate::error::ErrorKind;
    use crate::toc::{to_bytes_with, Config};

    /// Values of different shapes one after another: an indexed map (arena nodes and keys),
    /// a long list cut into blocks, a map with a non-string key (spilled), a small record.
    fn values() -> Vec<BTreeMap<String, Vec<f64>>> {
        let big: BTreeMap<String, Vec<f64>> = (0..20)
            .map(|k| (format!("key{k}"), (0..200).map(f64::from).collect()))
            .collect();
        let small: BTreeMap<String, Vec<f64>> = [("a".to_owned(), vec![1.5])].into();
        vec![big.clone(), small, BTreeMap::new(), big]
    }

    #[test]
    fn a_reused_writer_writes_the_bytes_of_a_new_one() {
        let config = Config::new().block_size(64);
        let mut writer = Writer::with_config(config.clone());
        let mut buffer = Vec::new();
        for value in values() {
            let expected = to_bytes_with(&value, &config).unwrap();
            buffer.clear();
            writer.to_bytes_into(&mut buffer, &value).unwrap();
            assert_eq!(buffer, expected);
            assert_eq!(writer.to_bytes(&value).unwrap(), expected);
            let mut file = Cursor::new(Vec::new());
            writer.to_writer(&mut file, &value).unwrap();
            assert_eq!(file.into_inner(), expected);
        }
        // Keys that are not strings go through the spill buffers; records of different
        // lengths in one list.
        let odd: BTreeMap<(u8, bool), Vec<u16>> = (0..40u8)
            .map(|k| ((k, k % 2 == 0), (0..u16::from(k)).collect()))
            .collect();
        assert_eq!(
            writer.to_bytes(&odd).unwrap(),
            to_bytes_with(&odd, &config).unwrap()
        );
    }

    /// A value of every container kind: declared and unknown lengths, struct fields, keys of
    /// any type (containers too), enum variants.
    enum Tree {
        Int(u64),
        Text(String),
        List(Vec<Tree>),
        /// A list of unknown length (buffered by the writer).
        Unsized(Vec<Tree>),
        /// A map of unknown length with keys of any type.
        Map(Vec<(Tree, Tree)>),
        Record(u8, Vec<Tree>),
        Variant(Vec<Tree>),
    }

    impl serde::Serialize for Tree {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            use serde::ser::{SerializeStruct, SerializeTupleVariant};
            match self {
                Tree::Int(v) => s.serialize_u64(*v),
                Tree::Text(v) => s.serialize_str(v),
                Tree::List(items) => s.collect_seq(items),
                Tree::Unsized(items) => s.collect_seq(items.iter().filter(|_| true)),
                Tree::Map(entries) => {
                    s.collect_map(entries.iter().filter(|_| true).map(|(k, v)| (k, v)))
                }
                Tree::Record(flags, items) => {
                    let mut record = s.serialize_struct("Record", 2)?;
                    record.serialize_field("flags", flags)?;
                    record.serialize_field("items", items)?;
                    record.end()
                }
                Tree::Variant(items) => {
                    let mut variant = s.serialize_tuple_variant("Tree", 0, "variant", 2)?;
                    variant.serialize_field(&items.len())?;
                    variant.serialize_field(items)?;
                    variant.end()
                }
            }
        }
    }

    /// A tree of about `budget` nodes from the xorshift state `seed`.
    fn tree(seed: &mut u64, budget: usize, depth: usize) -> Tree {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let pick = next();
        let leaf = budget <= 1 || depth > 4;
        match (leaf, pick % 7) {
            (true, n) if n % 2 == 0 => Tree::Int(next() >> (next() % 64)),
            (true, _) => Tree::Text("t".repeat((next() % 40) as usize)),
            (false, kind) => {
                let len = 1 + (next() % 12) as usize;
                let child = budget / len;
                let mut items =
                    || -> Vec<Tree> { (0..len).map(|_| tree(seed, child, depth + 1)).collect() };
                match kind {
                    0 | 1 => Tree::List(items()),
                    2 => Tree::Unsized(items()),
                    3 | 4 => {
                        let keys = items();
                        let values = items();
                        Tree::Map(keys.into_iter().zip(values).collect())
                    }
                    5 => Tree::Record(pick as u8, items()),
                    _ => Tree::Variant(items()),
                }
            }
        }
    }

    /// In memory, containers start unrecorded and are promoted as they grow; into a file
    /// every container is recorded from its start. Both give the same bytes, whatever the
    /// block size makes of the tree.
    #[test]
    fn promoted_containers_give_the_toc_of_recorded_ones() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        for round in 0..60 {
            let value = tree(&mut seed, 20 + round * 10, 0);
            for block_size in [1, 2, 7, 16, 40, 100, 300, 1000, 8192] {
                for trivial_size in [0, 20] {
                    let config = Config::new()
                        .block_size(block_size)
                        .trivial_size(trivial_size);
                    let mut writer = Writer::with_config(config.clone());
                    let mut file = Cursor::new(Vec::new());
                    writer.to_writer(&mut file, &value).unwrap();
                    let in_memory = writer.to_bytes(&value).unwrap();
                    assert_eq!(
                        in_memory,
                        file.into_inner(),
                        "round {round}, block size {block_size}, trivial size {trivial_size}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_failed_file_leaves_the_buffer_and_the_writer_usable() {
        let mut writer = Writer::with_config(Config::new().depth_limit(3));
        let mut buffer = b"kept".to_vec();
        let deep = vec![vec![vec![vec![1u8]]]];
        let err = writer.to_bytes_into(&mut buffer, &deep).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
        assert_eq!(buffer, b"kept");
        // The index of the failed file is not carried into the next.
        let shallow = vec![vec![2u8]];
        writer.to_bytes_into(&mut buffer, &shallow).unwrap();
        let expected = to_bytes_with(&shallow, &Config::new().depth_limit(3)).unwrap();
        assert_eq!(&buffer[4..], &expected[..]);
    }
}
