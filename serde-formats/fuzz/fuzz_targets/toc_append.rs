//! Appending to a file of arbitrary bytes: `Appender::open` may refuse it (any error is fine)
//! but never panics; when it opens, a value and a small file append and commit, the result
//! reads with `toc::Reader`, the new members read back equal, the members that read before
//! read the same, and no byte of the old file but its header changed.
//!
//! Seeds: with `TOC_APPEND_SEEDS=<dir>` in the environment, the first run writes a few small
//! combined files (list, dict, empty, appended to, nested) into `<dir>`.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_formats::toc::{self, Appender, Reader, Segment, Source, Value, DATA_START};
use serde_formats::ErrorKind;

/// At most this many old members are compared before and after.
const MEMBERS: usize = 16;

/// The directory of the file appended to: one per process, in tmpfs when there is one.
fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_owned()
        } else {
            std::env::temp_dir()
        };
        base.join(format!("toc_append_fuzz.{}", std::process::id()))
    })
}

/// Removes the directory of one run when the run returns (a crashing run leaves it behind).
struct Cleanup(&'static Path);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0);
    }
}

/// Writes the seed corpus into `dir`.
fn write_seeds(dir: &Path) {
    std::fs::create_dir_all(dir).expect("the seed directory");
    let a = toc::to_bytes(&[1u8, 2, 3]).unwrap();
    let b = toc::to_bytes(&("b", -7i64, 1.5f64)).unwrap();
    let list = toc::combine_list(&[&a, &b]).unwrap();
    let map = toc::combine_map(&[("a", &a), ("b", &b)]).unwrap();
    let empty = toc::Combiner::new(std::io::Cursor::new(Vec::new()))
        .unwrap()
        .finish()
        .unwrap()
        .into_inner();
    let nested = toc::combine_map(&[("inner", &list), ("a", &a)]).unwrap();
    let appended = dir.join("appended_list");
    std::fs::write(&appended, &list).unwrap();
    toc::append_list(&appended, &[&b]).unwrap();
    toc::append_value(&appended, None, &vec![Value::Nil; 3]).unwrap();
    for (name, bytes) in [
        ("list", &list),
        ("map", &map),
        ("empty", &empty),
        ("nested", &nested),
        ("plain", &a),
    ] {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

/// The members the first [`MEMBERS`] children of the root: each one's segment and, when it
/// reads, its value (`Debug`, so that NaN equals NaN) and its MessagePack bytes.
fn members<S: Source>(reader: &Reader<S>) -> Vec<(Segment, String, Vec<u8>)> {
    let Ok(root) = reader.root() else {
        return Vec::new();
    };
    let segments: Vec<Segment> = match root.keys::<String>() {
        Ok(keys) => keys.into_iter().map(Segment::from).collect(),
        Err(_) => (0..root.len().unwrap_or(0).min(MEMBERS))
            .map(|index| Segment::Index(index as i64))
            .collect(),
    };
    segments
        .into_iter()
        .take(MEMBERS)
        .filter_map(|segment| {
            let node = root.child(segment.clone()).ok()?;
            let value = node.decode::<Value>().ok()?;
            let bytes = node.to_msgpack().ok()?;
            Some((segment, format!("{value:?}"), bytes))
        })
        .collect()
}

/// The segment of a new member: `name` in a dict, the next index in a list.
fn segment(name: Option<&str>, index: usize) -> Segment {
    match name {
        Some(name) => Segment::from(name),
        None => Segment::Index(index as i64),
    }
}

fuzz_target!(
    init: {
        if let Some(dir) = std::env::var_os("TOC_APPEND_SEEDS") {
            write_seeds(Path::new(&dir));
        }
    },
    |data: &[u8]| {
        std::fs::create_dir_all(dir()).expect("a temporary directory");
        let _cleanup = Cleanup(dir());
        let path = &dir().join("combined.toc");
        std::fs::write(path, data).expect("the temporary file is written");
        let before = Reader::from_slice(data).ok();
        let old_members = before.as_ref().map(members).unwrap_or_default();
        let Ok(mut appender) = Appender::open(path) else {
            return;
        };
        // An empty file takes either form: the input's length picks one.
        let dict = appender.is_dict().unwrap_or(data.len() % 2 == 1);
        let (value_name, file_name) = if dict {
            (Some("\u{0}fuzz value"), Some("\u{0}fuzz file"))
        } else {
            (None, None)
        };
        let first = appender.len();
        let value: Vec<u8> = data.iter().take(8).copied().collect();
        let member = toc::to_bytes(&("m", data.len() as u64)).unwrap();
        let added = appender
            .add_value(value_name, &value)
            .and_then(|()| appender.add_file(file_name, &member));
        if let Err(err) = added {
            // Only a name already in the dict is refused.
            assert_eq!(err.kind(), ErrorKind::Message, "add refused: {err}");
            return;
        }
        appender.commit().expect("an append to an opened file commits");

        let after = std::fs::read(path).expect("the appended file");
        if let Some(before) = &before {
            let old_end = DATA_START + (before.data_len() + before.toc_len()) as usize;
            assert_eq!(
                after[DATA_START..old_end],
                data[DATA_START..old_end],
                "an old byte past the header changed"
            );
        }
        let reader = Reader::open(path).expect("an appended file opens");
        let root = reader.root().expect("an appended file has a root");
        let new_value = root
            .child(segment(value_name, first))
            .and_then(|node| node.decode::<Vec<u8>>())
            .expect("the appended value reads");
        assert_eq!(new_value, value);
        let new_file = root
            .child(segment(file_name, first + 1))
            .and_then(|node| node.decode::<(String, u64)>())
            .expect("the appended file reads");
        assert_eq!(new_file, ("m".to_owned(), data.len() as u64));
        for (segment, value, bytes) in old_members {
            let node = root
                .child(segment.clone())
                .unwrap_or_else(|err| panic!("old member {segment} is gone: {err}"));
            let now = node.decode::<Value>().map(|v| format!("{v:?}"));
            assert_eq!(now.ok().as_ref(), Some(&value), "old member {segment} changed");
            assert_eq!(node.to_msgpack().ok(), Some(bytes), "old member {segment} changed");
        }
        let _ = reader.stats();
    }
);
