//! `sfmt`: one command-line tool over every format of `serde-formats`.
//!
//! `convert` turns JSON into toc, dynd, typed-column or msgpack files and back; `inspect` shows
//! the structure of a file of any format; `get` reads one path of a toc file lazily; `compare`
//! encodes a dataset in every format and prints sizes and timings. Errors are one line on
//! stderr and a non-zero exit status.

mod compare;
mod convert;
mod dynd_json;
mod formats;
mod get;
mod inspect;
mod json;
mod progress;
#[cfg(test)]
mod proptests;
mod sample;
mod typed_value;
mod value;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// Convert, inspect, query and compare files of the serde-formats formats.
#[derive(Debug, Parser)]
#[command(name = "sfmt", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Convert between JSON, msgpack, toc, dynd and typed-column (formats from the extension or
    /// the file's magic unless given).
    Convert(convert::Args),
    /// Detect the format of a file and print its structure.
    Inspect(inspect::Args),
    /// Print the value at one path of a toc file as JSON, reading only what that path needs.
    Get(get::Args),
    /// Encode a JSON dataset in every format and compare bytes and encode/decode times.
    Compare(compare::Args),
}

/// Deeply nested input recurses through serde; with a large stack the formats' depth limits,
/// not the stack, bound it.
const WORKER_STACK: usize = 256 << 20;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A bug must still end with one line on stderr, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error: {}", one_line(&info.to_string()));
    }));
    let worker = std::thread::Builder::new()
        .name("sfmt".into())
        .stack_size(WORKER_STACK)
        .spawn(move || run(cli));
    let result = match worker {
        Ok(handle) => match handle.join() {
            Ok(result) => result,
            // The panic hook has printed the message.
            Err(_) => return ExitCode::FAILURE,
        },
        Err(err) => Err(anyhow::Error::new(err).context("cannot start the worker thread")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", one_line(&format!("{err:#}")));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match cli.command {
        Command::Convert(args) => convert::run(&args, &mut out)?,
        Command::Inspect(args) => inspect::run(&args, &mut out)?,
        Command::Get(args) => get::run(&args, &mut out)?,
        Command::Compare(args) => compare::run(&args, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

/// Whether the error is stdout closed by the reader (`sfmt get ... | head`): not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|cause| cause.downcast_ref::<io::Error>())
        .any(|io| io.kind() == io::ErrorKind::BrokenPipe)
}

/// Joins the lines of a message, so that every error is exactly one line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}
