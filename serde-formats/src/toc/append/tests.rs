//! Tests of appending to combined files: the layout (old bytes untouched, old TOC left dead),
//! the rules (list/dict form, names, plain and CBOR files refused), leftovers of interrupted
//! appends, the commit's steps, and rollback of failed members.

use std::path::{Path, PathBuf};

use super::*;
use crate::toc::{self, combine_list, combine_map, Reader, Value, DEFAULT_MAGIC};

fn file_of<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    toc::to_bytes(value).unwrap()
}

/// The whole value of the combined file at `path`, read by our reader.
fn read(path: &Path) -> Value {
    Reader::open(path).unwrap().get::<Value>("").unwrap()
}

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

fn dict(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(entries.into_iter().map(|(k, v)| (s(k), v)).collect())
}

fn ints(values: &[u64]) -> Value {
    Value::Array(values.iter().map(|&v| Value::UInt(v)).collect())
}

fn setup(bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("combined.toc");
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

#[test]
fn appending_to_a_list_keeps_every_old_byte_but_the_header() {
    let old = combine_list(&[&file_of(&[1u64, 2]), &file_of(&"x")]).unwrap();
    let (_dir, path) = setup(&old);
    append_list(&path, &[&file_of(&[3u64])]).unwrap();
    let new = std::fs::read(&path).unwrap();
    assert_eq!(new[..30], old[..30]);
    // Members and the old TOC stay where they were; only the header fields changed.
    assert_eq!(new[DATA_START..old.len()], old[DATA_START..]);
    assert_eq!(
        read(&path),
        Value::Array(vec![ints(&[1, 2]), s("x"), ints(&[3])])
    );
    // The new TOC is the old entries and the new one, as combine_list writes them.
    let header = Header::parse(&new, &DEFAULT_MAGIC, 0).unwrap();
    let toc = &new[DATA_START + header.toc_start as usize..];
    assert_eq!(toc.len() as u64, header.toc_len);
    let mut expected = Entries::Empty;
    expected.push(None, 0).unwrap();
    let second = Header::parse(&old[DATA_START..], &DEFAULT_MAGIC, 0).unwrap();
    expected
        .push(None, DATA_START as u64 + second.toc_start + second.toc_len)
        .unwrap();
    expected
        .push(None, old.len() as u64 - DATA_START as u64)
        .unwrap();
    assert_eq!(toc, expected.toc());
}

#[test]
fn appending_to_a_dict_adds_files_and_values_by_name() {
    let old = combine_map(&[("a", &file_of(&[1u64]))]).unwrap();
    let (_dir, path) = setup(&old);
    append_map(&path, &[("b", &file_of(&"bee"))]).unwrap();
    append_value(&path, Some("c"), &vec![7u64; 5000]).unwrap();
    let reader = Reader::open(&path).unwrap();
    assert_eq!(reader.get::<u64>("a/0").unwrap(), 1);
    assert_eq!(reader.get::<String>("b").unwrap(), "bee");
    assert_eq!(reader.get::<u64>("c/4999").unwrap(), 7);
    assert_eq!(reader.get::<Vec<u64>>("c").unwrap().len(), 5000);
}

#[test]
fn form_and_names_must_match_and_a_refusal_changes_nothing() {
    let list = combine_list(&[&file_of(&1u8)]).unwrap();
    let (_dir, path) = setup(&list);
    let err = append_map(&path, &[("a", &file_of(&2u8))]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Message);
    assert_eq!(std::fs::read(&path).unwrap(), list);

    let map = combine_map(&[("a", &file_of(&1u8))]).unwrap();
    std::fs::write(&path, &map).unwrap();
    assert_eq!(
        append_value(&path, None, &2u8).unwrap_err().kind(),
        ErrorKind::Message
    );
    let err = append_value(&path, Some("a"), &2u8).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Message);
    assert!(err.to_string().contains("`a` already combined"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), map);
}

#[test]
fn an_empty_combined_file_takes_either_form() {
    // Ours: {"t": []}.
    let empty = combine_list(&[]).unwrap();
    let (_dir, path) = setup(&empty);
    append_value(&path, Some("a"), &1u8).unwrap();
    assert_eq!(read(&path), dict(vec![("a", Value::UInt(1))]));
    // msglc's: {"t": nil}.
    let toc = [0x81, 0xa1, b't', 0xc0];
    let mut msglc_empty = DEFAULT_MAGIC.to_vec();
    msglc_empty.extend_from_slice(
        &Header {
            toc_start: 0,
            toc_len: 4,
        }
        .encode(&DEFAULT_MAGIC)[30..],
    );
    msglc_empty.extend_from_slice(&toc);
    std::fs::write(&path, &msglc_empty).unwrap();
    append_value(&path, None, &"v").unwrap();
    assert_eq!(read(&path), Value::Array(vec![s("v")]));
}

#[test]
fn plain_cbor_and_broken_files_are_refused() {
    let plain = file_of(&vec![1u8; 10]);
    let (_dir, path) = setup(&plain);
    let err = append_value(&path, None, &1u8).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BadToc);
    assert!(err.to_string().contains("plain file"), "{err}");

    // A CBOR combined file with one data byte: header 01 / 04 left-aligned, TOC {"t": []}.
    let mut cbor = DEFAULT_MAGIC.to_vec();
    cbor.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    cbor.extend_from_slice(&[0xf6, 0xa1, 0x61, b't', 0x80]);
    std::fs::write(&path, &cbor).unwrap();
    assert_eq!(
        append_value(&path, None, &1u8).unwrap_err().kind(),
        ErrorKind::Unsupported
    );

    let list = combine_list(&[&file_of(&1u8)]).unwrap();
    std::fs::write(&path, &list[..list.len() - 1]).unwrap();
    assert_eq!(
        append_value(&path, None, &1u8).unwrap_err().kind(),
        ErrorKind::BadToc
    );
    std::fs::write(&path, &list[..20]).unwrap();
    assert!(append_value(&path, None, &1u8).is_err());
    let missing = path.with_extension("missing");
    let err = append_value(&missing, None, &1u8).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
    assert!(err.to_string().contains("combined.missing"), "{err}");
}

#[test]
fn bytes_left_by_an_interrupted_append_are_ignored_then_removed() {
    let old = combine_list(&[&file_of(&1u8)]).unwrap();
    let mut crashed = old.clone();
    crashed.extend_from_slice(&[0xab; 300]);
    let (_dir, path) = setup(&crashed);
    assert_eq!(read(&path), Value::Array(vec![Value::UInt(1)]));
    let appender = Appender::open(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), old);
    drop(appender);
    append_value(&path, None, &2u8).unwrap();
    assert_eq!(
        read(&path),
        Value::Array(vec![Value::UInt(1), Value::UInt(2)])
    );
    let new = std::fs::read(&path).unwrap();
    assert!(!new.contains(&0xab));
}

#[test]
fn an_uncommitted_appender_leaves_the_old_file() {
    let old = combine_map(&[("a", &file_of(&1u8))]).unwrap();
    let (_dir, path) = setup(&old);
    let mut appender = Appender::open(&path).unwrap();
    assert_eq!((appender.is_dict(), appender.len()), (Some(true), 1));
    appender.add_value(Some("b"), &vec![0u8; 100_000]).unwrap();
    assert_eq!(appender.len(), 2);
    // Readers meanwhile see the old file.
    assert_eq!(read(&path), dict(vec![("a", Value::UInt(1))]));
    drop(appender);
    assert_eq!(std::fs::read(&path).unwrap(), old);
}

#[test]
fn the_commit_switches_the_header_last() {
    let old = combine_list(&[&file_of(&1u8)]).unwrap();
    let (_dir, path) = setup(&old);
    let mut appender = Appender::open(&path).unwrap();
    appender.add_value(None, &2u8).unwrap();
    let mut steps = Vec::new();
    appender
        .commit_observed(|step| {
            let seen = read(&path);
            steps.push((step, seen));
        })
        .unwrap();
    let old_value = Value::Array(vec![Value::UInt(1)]);
    let new_value = Value::Array(vec![Value::UInt(1), Value::UInt(2)]);
    assert_eq!(
        steps,
        vec![
            (AppendStep::TocWritten, old_value.clone()),
            (AppendStep::Synced, old_value),
            (AppendStep::HeaderWritten, new_value.clone()),
            (AppendStep::Durable, new_value),
        ]
    );
}

#[test]
fn a_failed_member_is_removed_and_the_appender_goes_on() {
    let old = combine_list(&[&file_of(&1u8)]).unwrap();
    let (_dir, path) = setup(&old);
    let config = Config::new().depth_limit(2);
    let mut appender = Appender::open_with(&path, &config).unwrap();
    let deep = vec![vec![vec![vec![0u8; 3000]]]];
    let err = appender.add_value(None, &deep).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), old.len() as u64);
    let member = file_of(&[5u8]);
    let err = appender
        .add_file_from(None, &[&member[..], b"x"].concat()[..])
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TrailingBytes);
    let err = appender
        .add_file_from(None, &member[..member.len() - 1])
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(
        appender.add_file(None, &member[1..]).unwrap_err().kind(),
        ErrorKind::BadMagic
    );
    appender.add_file_from(None, &member[..]).unwrap();
    appender.commit().unwrap();
    let new = std::fs::read(&path).unwrap();
    // The old file, the member, the new TOC {"t": [0, old data length]} (81 a1 74 92 00 NN,
    // the old data being under 128 bytes): nothing else.
    assert!(old.len() < 128 + DATA_START);
    let toc_len = 6;
    assert_eq!(new.len(), old.len() + member.len() + toc_len);
    assert_eq!(read(&path), Value::Array(vec![Value::UInt(1), ints(&[5])]));
}

#[test]
fn a_second_appender_is_locked_out() {
    let old = combine_list(&[]).unwrap();
    let (_dir, path) = setup(&old);
    let first = Appender::open(&path).unwrap();
    let err = Appender::open(&path).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
    drop(first);
    Appender::open(&path).unwrap();
}

/// A lock held a moment longer than its appender, as by a descriptor a starting process
/// copied, is waited for.
#[test]
fn a_lock_released_a_moment_later_is_waited_for() {
    let old = combine_list(&[]).unwrap();
    let (_dir, path) = setup(&old);
    let holder = std::fs::File::open(&path).unwrap();
    holder.lock().unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(30));
        drop(holder);
    });
    let appender = Appender::open(&path);
    release.join().unwrap();
    appender.unwrap().commit().unwrap();
}

#[test]
fn appended_files_nest_combine_and_append_again() {
    let (_dir, path) = setup(b"");
    std::fs::remove_file(&path).unwrap();
    let mut appender = Appender::open_or_create(&path, &Config::default()).unwrap();
    assert_eq!(appender.is_dict(), None);
    appender.add_value(Some("v0"), &0u8).unwrap();
    appender.commit().unwrap();
    for i in 1..6u8 {
        append_value(&path, Some(&format!("v{i}")), &i).unwrap();
    }
    #[cfg(unix)]
    {
        // The mode File::create gives (0o666 minus the umask), not a temporary file's 0o600.
        use std::os::unix::fs::PermissionsExt;
        let plain = path.with_extension("plain");
        std::fs::File::create(&plain).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&path), mode(&plain));
    }
    // Creating again keeps the file there.
    Appender::open_or_create(&path, &Config::default()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(Reader::open(&path).unwrap().get::<u8>("v5").unwrap(), 5);
    // The appended file, dead TOCs and all, is exactly one file: it combines into another.
    let outer = combine_list(&[&bytes, &file_of(&"z")]).unwrap();
    let (_dir2, outer_path) = setup(&outer);
    append_list(&outer_path, &[&bytes]).unwrap();
    let reader = Reader::open(&outer_path).unwrap();
    assert_eq!(reader.get::<u8>("0/v5").unwrap(), 5);
    assert_eq!(reader.get::<u8>("2/v3").unwrap(), 3);
    assert_eq!(reader.get::<String>("1").unwrap(), "z");
}

#[test]
fn a_reader_of_the_old_file_keeps_reading_it_across_an_append() {
    let old = combine_map(&[("a", &file_of(&vec![3u64; 5000])), ("b", &file_of(&"bee"))]).unwrap();
    let (_dir, path) = setup(&old);
    let before = Reader::open(&path).unwrap();
    assert_eq!(before.get::<u64>("a/10").unwrap(), 3);
    append_value(&path, Some("c"), &vec![9u64; 5000]).unwrap();
    // Opened before the switch: the old TOC, every member still where it was.
    assert_eq!(before.get::<u64>("a/4999").unwrap(), 3);
    assert_eq!(before.get::<String>("b").unwrap(), "bee");
    assert!(before.get::<u64>("c/0").is_err());
    let after = Reader::open(&path).unwrap();
    assert_eq!(after.get::<u64>("c/4999").unwrap(), 9);
    assert_eq!(after.get::<String>("b").unwrap(), "bee");
}
