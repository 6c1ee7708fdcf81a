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
    for writer in WRITERS {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new");
        (writer.write)(&path, "fresh").unwrap();
        assert_eq!((writer.decode)(&fs::read(&path).unwrap()), "fresh");
        assert_eq!(names(dir.path()), ["new"], "{}", writer.name);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let reference = dir.path().join("reference");
            fs::File::create(&reference).unwrap();
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
            assert_eq!(mode(&path), mode(&reference), "{}", writer.name);
        }
    }
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
    for writer in WRITERS {
        let dir = tempfile::tempdir().unwrap();
        let err = (writer.write)(dir.path(), "x").unwrap_err();
        assert!(err.contains("is a directory"), "{}: {err}", writer.name);
        assert!(names(dir.path()).is_empty(), "{}", writer.name);
    }
}

#[test]
fn a_missing_directory_is_an_error_naming_no_panic() {
    for writer in WRITERS {
        let dir = tempfile::tempdir().unwrap();
        let err = (writer.write)(&dir.path().join("no/such/file"), "x").unwrap_err();
        assert!(!err.is_empty(), "{}", writer.name);
    }
}

#[cfg(unix)]
mod unix {
    use std::os::unix::fs::{symlink, FileTypeExt, MetadataExt, PermissionsExt};
    use std::process::Command;

    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    fn set_mode(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn a_regular_file_is_replaced_keeping_its_mode_and_owner() {
        for writer in WRITERS {
            for old_mode in [0o600, 0o640, 0o755, 0o200] {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("secret");
                fs::write(&path, "old").unwrap();
                set_mode(&path, old_mode);
                let before = fs::metadata(&path).unwrap();
                (writer.write)(&path, "new").unwrap();
                assert_eq!(mode(&path), old_mode, "{} {old_mode:o}", writer.name);
                let after = fs::metadata(&path).unwrap();
                assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
                // A new file was renamed over the old one.
                assert_ne!(after.ino(), before.ino(), "{}", writer.name);
                set_mode(&path, 0o600);
                assert_eq!((writer.decode)(&fs::read(&path).unwrap()), "new");
                assert_eq!(names(dir.path()), ["secret"], "{}", writer.name);
            }
        }
    }

    #[test]
    fn another_users_file_keeps_its_owner_where_the_process_may_set_it() {
        for writer in WRITERS {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("theirs");
            fs::write(&path, "old").unwrap();
            set_mode(&path, 0o664);
            if std::os::unix::fs::chown(&path, Some(4321), Some(4322)).is_err() {
                // Not root: nobody may give a file away, so there is nothing to check.
                return;
            }
            (writer.write)(&path, "new").unwrap();
            let meta = fs::metadata(&path).unwrap();
            assert_eq!((meta.uid(), meta.gid()), (4321, 4322), "{}", writer.name);
            assert_eq!(mode(&path), 0o664, "{}", writer.name);
            assert_eq!((writer.decode)(&fs::read(&path).unwrap()), "new");
        }
    }

    #[test]
    fn a_read_only_file_is_refused_and_left_alone() {
        for writer in WRITERS {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("locked");
            fs::write(&path, "old").unwrap();
            set_mode(&path, 0o444);
            let err = (writer.write)(&path, "new").unwrap_err();
            assert!(err.contains("permission denied"), "{}: {err}", writer.name);
            if writer.name == "toc::write_file" {
                assert!(err.contains(&*path.to_string_lossy()), "{err}");
            }
            assert_eq!(fs::read(&path).unwrap(), b"old");
            assert_eq!(mode(&path), 0o444);
            assert_eq!(names(dir.path()), ["locked"], "{}", writer.name);
        }
    }

    #[test]
    fn a_symbolic_link_is_followed_and_its_target_replaced() {
        for writer in WRITERS {
            let dir = tempfile::tempdir().unwrap();
            fs::create_dir(dir.path().join("data")).unwrap();
            let target = dir.path().join("data/real");
            fs::write(&target, "old").unwrap();
            set_mode(&target, 0o600);
            // A relative link to a relative link in another directory.
            symlink("data/real", dir.path().join("inner")).unwrap();
            fs::create_dir(dir.path().join("links")).unwrap();
            let link = dir.path().join("links/outer");
            symlink("../inner", &link).unwrap();
            (writer.write)(&link, "new").unwrap();
            for name in ["inner", "links/outer"] {
                let meta = fs::symlink_metadata(dir.path().join(name)).unwrap();
                assert!(meta.file_type().is_symlink(), "{}: {name}", writer.name);
            }
            assert_eq!((writer.decode)(&fs::read(&target).unwrap()), "new");
            assert_eq!(mode(&target), 0o600, "{}", writer.name);
            // The temporary file was made next to the target, and is gone.
            assert_eq!(names(&dir.path().join("data")), ["real"]);
            assert_eq!(names(&dir.path().join("links")), ["outer"]);
            let file = OutputFile::create(&link).unwrap();
            assert_eq!(file.target(), dir.path().join("links/../data/real"));
        }
    }

    #[test]
    fn a_dangling_link_creates_its_target() {
        for writer in WRITERS {
            let dir = tempfile::tempdir().unwrap();
            let link = dir.path().join("link");
            symlink("made", &link).unwrap();
            (writer.write)(&link, "new").unwrap();
            assert!(fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
            let made = dir.path().join("made");
            assert_eq!((writer.decode)(&fs::read(made).unwrap()), "new");
        }
    }

    #[test]
    fn a_link_cycle_is_an_error() {
        for writer in WRITERS {
            let dir = tempfile::tempdir().unwrap();
            symlink("b", dir.path().join("a")).unwrap();
            symlink("a", dir.path().join("b")).unwrap();
            let err = (writer.write)(&dir.path().join("a"), "x").unwrap_err();
            assert!(err.contains("symbolic links"), "{}: {err}", writer.name);
        }
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
        for writer in WRITERS {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("open");
            let open = fs::File::create(&path).unwrap();
            fs::write(&path, "a longer old text").unwrap();
            let inode = fs::metadata(&path).unwrap().ino();
            // What `/dev/stdout` leads to when the shell redirected it to a file.
            let proc_path = format!("/proc/self/fd/{}", open.as_raw_fd());
            (writer.write)(Path::new(&proc_path), "new").unwrap();
            assert_eq!(fs::metadata(&path).unwrap().ino(), inode, "{}", writer.name);
            assert_eq!((writer.decode)(&fs::read(&path).unwrap()), "new");
            assert_eq!(names(dir.path()), ["open"], "{}", writer.name);
        }
    }

    #[test]
    fn a_fifo_is_written_in_place_to_its_reader() {
        for writer in WRITERS {
            let dir = tempfile::tempdir().unwrap();
            let fifo = dir.path().join("fifo");
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
            assert_eq!(names(dir.path()), ["fifo"]);
        }
    }
}
