//! Tests of the output rules, each run through both writers that use them: [`OutputFile`]
//! itself and [`toc::write_file`](crate::toc::write_file).

use std::fs;
use std::io::{Read, Write};
use std::path::Path;

use super::OutputFile;
#[cfg(feature = "toc")]
use crate::toc;

/// A way of writing `text` to a path, and of reading it back from bytes.
struct Writer {
    name: &'static str,
    write: fn(&Path, &str) -> Result<(), String>,
    decode: fn(&[u8]) -> String,
}

const WRITERS: &[Writer] = &[
    Writer {
        name: "OutputFile",
        write: |path, text| {
            let mut file = OutputFile::create(path).map_err(|e| e.to_string())?;
            file.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
            file.commit().map_err(|e| e.to_string())
        },
        decode: |bytes| String::from_utf8(bytes.to_vec()).unwrap(),
    },
    #[cfg(feature = "toc")]
    Writer {
        name: "toc::write_file",
        write: |path, text| toc::write_file(path, text).map_err(|e| e.to_string()),
        decode: |bytes| toc::from_bytes::<String>(bytes).unwrap(),
    },
];

impl Writer {
    /// The text the file at `path` holds, decoded as this writer wrote it.
    fn read(&self, path: &Path) -> String {
        (self.decode)(&fs::read(path).unwrap())
    }
}

/// What a write left: `path` holds `text`, and its directory only the names `left`.
fn assert_left(writer: &Writer, path: &Path, text: &str, left: &[&str]) {
    assert_eq!(writer.read(path), text, "{}", writer.name);
    assert_eq!(names(path.parent().unwrap()), left, "{}", writer.name);
}

/// Runs `test` once for each writer, in a fresh temporary directory.
fn each_writer(test: impl Fn(&Writer, &Path)) {
    for writer in WRITERS {
        let dir = tempfile::tempdir().unwrap();
        test(writer, dir.path());
    }
}

/// The names in `dir`, sorted: no temporary file may be left behind.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn a_new_path_is_created_with_the_permissions_file_create_gives() {
    each_writer(|writer, dir| {
        let path = dir.join("new");
        (writer.write)(&path, "fresh").unwrap();
        assert_left(writer, &path, "fresh", &["new"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let reference = dir.join("reference");
            fs::File::create(&reference).unwrap();
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
            assert_eq!(mode(&path), mode(&reference), "{}", writer.name);
        }
    });
}

#[test]
fn an_uncommitted_file_leaves_the_target_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out");
    fs::write(&path, "old").unwrap();
    let mut file = OutputFile::create(&path).unwrap();
    assert!(file.is_temporary());
    file.write_all(b"half").unwrap();
    drop(file);
    assert_eq!(fs::read(&path).unwrap(), b"old");
    assert_eq!(names(dir.path()), ["out"]);
}

#[test]
fn a_directory_is_an_error() {
    each_writer(|writer, dir| {
        let err = (writer.write)(dir, "x").unwrap_err();
        assert!(err.contains("is a directory"), "{}: {err}", writer.name);
        assert!(names(dir).is_empty(), "{}", writer.name);
    });
}

#[test]
fn a_missing_directory_is_an_error_naming_no_panic() {
    each_writer(|writer, dir| {
        let err = (writer.write)(&dir.join("no/such/file"), "x").unwrap_err();
        assert!(!err.is_empty(), "{}", writer.name);
    });
}

#[cfg(unix)]
mod unix {
    use std::os::unix::fs::{symlink, FileTypeExt, MetadataExt, PermissionsExt};
    use std::path::PathBuf;
    use std::process::Command;

    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    fn set_mode(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    /// An existing file `name` in `dir` that holds "old", with permissions `mode`.
    fn old_file(dir: &Path, name: &str, mode: u32) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, "old").unwrap();
        set_mode(&path, mode);
        path
    }

    #[test]
    fn a_regular_file_is_replaced_keeping_its_mode_and_owner() {
        for writer in WRITERS {
            for old_mode in [0o600, 0o640, 0o755, 0o200] {
                let dir = tempfile::tempdir().unwrap();
                let path = old_file(dir.path(), "secret", old_mode);
                let before = fs::metadata(&path).unwrap();
                (writer.write)(&path, "new").unwrap();
                assert_eq!(mode(&path), old_mode, "{} {old_mode:o}", writer.name);
                let after = fs::metadata(&path).unwrap();
                assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
                // A new file was renamed over the old one.
                assert_ne!(after.ino(), before.ino(), "{}", writer.name);
                set_mode(&path, 0o600);
                assert_left(writer, &path, "new", &["secret"]);
            }
        }
    }

    #[test]
    fn another_users_file_keeps_its_owner_where_the_process_may_set_it() {
        each_writer(|writer, dir| {
            let path = old_file(dir, "theirs", 0o664);
            if std::os::unix::fs::chown(&path, Some(4321), Some(4322)).is_err() {
                // Not root: nobody may give a file away, so there is nothing to check.
                return;
            }
            (writer.write)(&path, "new").unwrap();
            let meta = fs::metadata(&path).unwrap();
            assert_eq!((meta.uid(), meta.gid()), (4321, 4322), "{}", writer.name);
            assert_eq!(mode(&path), 0o664, "{}", writer.name);
            assert_eq!(writer.read(&path), "new");
        });
    }

    #[test]
    fn a_read_only_file_is_refused_and_left_alone() {
        each_writer(|writer, dir| {
            let path = old_file(dir, "locked", 0o444);
            let err = (writer.write)(&path, "new").unwrap_err();
            assert!(err.contains("permission denied"), "{}: {err}", writer.name);
            if writer.name == "toc::write_file" {
                assert!(err.contains(&*path.to_string_lossy()), "{err}");
            }
            assert_eq!(fs::read(&path).unwrap(), b"old");
            assert_eq!(mode(&path), 0o444);
            assert_eq!(names(dir), ["locked"], "{}", writer.name);
        });
    }

    #[test]
    fn a_symbolic_link_is_followed_and_its_target_replaced() {
        each_writer(|writer, dir| {
            fs::create_dir(dir.join("data")).unwrap();
            let target = dir.join("data/real");
            fs::write(&target, "old").unwrap();
            set_mode(&target, 0o600);
            // A relative link to a relative link in another directory.
            symlink("data/real", dir.join("inner")).unwrap();
            fs::create_dir(dir.join("links")).unwrap();
            let link = dir.join("links/outer");
            symlink("../inner", &link).unwrap();
            (writer.write)(&link, "new").unwrap();
            for name in ["inner", "links/outer"] {
                let meta = fs::symlink_metadata(dir.join(name)).unwrap();
                assert!(meta.file_type().is_symlink(), "{}: {name}", writer.name);
            }
            assert_eq!(writer.read(&target), "new");
            assert_eq!(mode(&target), 0o600, "{}", writer.name);
            // The temporary file was made next to the target, and is gone.
            assert_eq!(names(&dir.join("data")), ["real"]);
            assert_eq!(names(&dir.join("links")), ["outer"]);
            let file = OutputFile::create(&link).unwrap();
            assert_eq!(file.target(), dir.join("links/../data/real"));
        });
    }

    #[test]
    fn a_dangling_link_creates_its_target() {
        each_writer(|writer, dir| {
            let link = dir.join("link");
            symlink("made", &link).unwrap();
            (writer.write)(&link, "new").unwrap();
            assert!(fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
            let made = dir.join("made");
            assert_eq!(writer.read(&made), "new");
        });
    }

    #[test]
    fn a_link_cycle_is_an_error() {
        each_writer(|writer, dir| {
            symlink("b", dir.join("a")).unwrap();
            symlink("a", dir.join("b")).unwrap();
            let err = (writer.write)(&dir.join("a"), "x").unwrap_err();
            assert!(err.contains("symbolic links"), "{}: {err}", writer.name);
        });
    }

    #[test]
    fn dev_null_is_written_in_place_and_stays_a_device() {
        for writer in WRITERS {
            (writer.write)(Path::new("/dev/null"), "discarded").unwrap();
            let meta = fs::metadata("/dev/null").unwrap();
            assert!(meta.file_type().is_char_device(), "{}", writer.name);
            assert_eq!(mode(Path::new("/dev/null")), 0o666);
        }
        assert!(!OutputFile::create("/dev/null").unwrap().is_temporary());
    }

    #[test]
    fn an_open_file_named_through_proc_is_written_in_place() {
        use std::os::fd::AsRawFd;
        each_writer(|writer, dir| {
            let path = dir.join("open");
            let open = fs::File::create(&path).unwrap();
            fs::write(&path, "a longer old text").unwrap();
            let inode = fs::metadata(&path).unwrap().ino();
            // What `/dev/stdout` leads to when the shell redirected it to a file.
            let proc_path = format!("/proc/self/fd/{}", open.as_raw_fd());
            (writer.write)(Path::new(&proc_path), "new").unwrap();
            assert_eq!(fs::metadata(&path).unwrap().ino(), inode, "{}", writer.name);
            assert_left(writer, &path, "new", &["open"]);
        });
    }

    #[test]
    fn a_fifo_is_written_in_place_to_its_reader() {
        each_writer(|writer, dir| {
            let fifo = dir.join("fifo");
            let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
            assert!(status.success());
            let reader = {
                let fifo = fifo.clone();
                std::thread::spawn(move || {
                    let mut bytes = Vec::new();
                    fs::File::open(fifo)
                        .unwrap()
                        .read_to_end(&mut bytes)
                        .unwrap();
                    bytes
                })
            };
            (writer.write)(&fifo, "through the pipe").unwrap();
            let bytes = reader.join().unwrap();
            assert_eq!(
                (writer.decode)(&bytes),
                "through the pipe",
                "{}",
                writer.name
            );
            let meta = fs::symlink_metadata(&fifo).unwrap();
            assert!(meta.file_type().is_fifo(), "{}", writer.name);
            assert_eq!(names(dir), ["fifo"]);
        });
    }
}
