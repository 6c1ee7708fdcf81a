//! The Python peers of the interop tests (msglc and its codecs), provisioned by the tests
//! themselves.
//!
//! The first call creates a virtual environment under the workspace's `target/` directory and
//! installs `tests/interop/requirements.txt` into it with pip; later calls, in this process or
//! any later test run, reuse it. The environment's directory is named after a hash of the
//! requirements, so editing the file provisions a fresh one. Nothing is installed into the
//! system Python, so this works on PEP 668 systems too.
//!
//! Needs `python3` (3.10 or newer, with the `venv` module) on `PATH` and access to the Python
//! package registry on the first run. When either is missing, the caller panics with one line
//! saying what to install: an interop test never passes or skips quietly.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The requirements file, pinned exact versions of every Python peer.
pub fn requirements_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/requirements.txt")
}

/// The Python interpreter of the provisioned environment, creating it on first use.
///
/// # Panics
///
/// With one line naming what to install when `python3`, its `venv` module or the registry is
/// not available. Tests call this and let the panic fail them.
pub fn python() -> PathBuf {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match PYTHON.get_or_init(provision) {
        Ok(path) => path.clone(),
        Err(message) => panic!("{message}"),
    }
}

/// A `Command` running `script` with the provisioned Python.
pub fn command(script: &Path) -> Command {
    let mut command = Command::new(python());
    command.arg(script);
    command
}

/// The environment's directory: `<workspace>/target/python-peers/<hash of requirements>`.
fn venv_dir(requirements: &[u8]) -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lives inside the workspace");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"));
    target
        .join("python-peers")
        .join(format!("{:016x}", fnv1a(requirements)))
}

/// FNV-1a: a stable hash of the requirements, to name the environment (not for security).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn provision() -> Result<PathBuf, String> {
    let requirements_path = requirements_file();
    let requirements = fs::read(&requirements_path)
        .map_err(|err| format!("cannot read {}: {err}", requirements_path.display()))?;
    let dir = venv_dir(&requirements);
    let python = dir.join("bin").join("python");
    // Written last, holding the requirements it was installed from: a half-made environment
    // (an interrupted run) has none and is made again.
    let stamp = dir.join("installed.txt");
    if fs::read(&stamp).ok().as_deref() == Some(&requirements[..]) {
        return Ok(python);
    }

    // Test binaries may run at the same time (nextest runs each test in its own process):
    // one provisions, the others wait for it.
    let parent = dir.parent().expect("venv_dir has a parent");
    fs::create_dir_all(parent)
        .map_err(|err| format!("cannot create {}: {err}", parent.display()))?;
    let lock_path = dir.with_extension("lock");
    let lock = File::create(&lock_path)
        .map_err(|err| format!("cannot create {}: {err}", lock_path.display()))?;
    lock.lock()
        .map_err(|err| format!("cannot lock {}: {err}", lock_path.display()))?;
    if fs::read(&stamp).ok().as_deref() == Some(&requirements[..]) {
        return Ok(python);
    }
    if dir.exists() {
        fs::remove_dir_all(&dir)
            .map_err(|err| format!("cannot remove {}: {err}", dir.display()))?;
    }

    eprintln!(
        "provisioning the Python peers of the interop tests in {} (first run only)",
        dir.display()
    );
    let created =
        run(Command::new("python3").arg("-m").arg("venv").arg(&dir)).map_err(|err| match err {
            Failure::NotFound => "python3 is not on PATH: install Python 3.10 or newer \
                 (with its venv module) to run the interop tests"
                .to_owned(),
            Failure::Exit(output) => {
                let cause = last_line(&output);
                // Debian's Python without its venv package says so by naming ensurepip; any
                // other failure (a full disk, a read-only target directory) is told as it is.
                let stderr = String::from_utf8_lossy(&output.stderr);
                let hint =
                    if stderr.contains("ensurepip") || stderr.contains("No module named venv") {
                        "install Python's venv module (on Debian and Ubuntu: apt-get install \
                     python3-venv) to run the interop tests: "
                    } else {
                        ""
                    };
                format!("`python3 -m venv {}` failed: {hint}{cause}", dir.display())
            }
            Failure::Io(err) => format!("cannot run python3: {err}"),
        });
    created?;
    run(Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            // The wheels are installed once per requirements file; a second copy in pip's
            // cache would only take disk space.
            "--no-cache-dir",
        ])
        .args(["--no-input", "--requirement"])
        .arg(&requirements_path))
    .map_err(|err| {
        let detail = match err {
            Failure::Exit(output) => last_line(&output),
            Failure::NotFound => format!("{} is missing", python.display()),
            Failure::Io(err) => err.to_string(),
        };
        format!(
            "cannot install the Python peers of the interop tests from {} (needs access to \
             the Python package registry): {detail}",
            requirements_path.display()
        )
    })?;
    fs::write(&stamp, &requirements)
        .map_err(|err| format!("cannot write {}: {err}", stamp.display()))?;
    Ok(python)
}

enum Failure {
    NotFound,
    Exit(Output),
    Io(io::Error),
}

fn run(command: &mut Command) -> Result<(), Failure> {
    match command.output() {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(Failure::Exit(output)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Err(Failure::NotFound),
        Err(err) => Err(Failure::Io(err)),
    }
}

/// The last non-empty line of a failed command's stderr (pip's error), else its status.
fn last_line(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .map_or_else(|| output.status.to_string(), |line| line.trim().to_owned())
}

/// Runs `tests/interop/<script>` with `args` in the provisioned Python and returns its stdout.
///
/// # Panics
///
/// When the environment cannot be provisioned (see [`python`]) or the script fails: exit
/// status 3 means a peer does not import, anything else non-zero a mismatch or a peer error;
/// the panic carries the script's output.
pub fn run_script<I, S>(script: &str, args: I) -> Vec<u8>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("interop")
        .join(script);
    let output = command(&path)
        .args(args)
        .output()
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", python().display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => output.stdout,
        Some(3) => panic!(
            "{script}: a Python peer does not import in the provisioned environment \
             (see {}):\n{stderr}",
            requirements_file().display()
        ),
        _ => panic!("{script} failed ({}):\n{stdout}\n{stderr}", output.status),
    }
}
