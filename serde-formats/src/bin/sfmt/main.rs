//! `sfmt`: one command-line tool over every format of `serde-formats`.
//!
//! `convert` turns JSON into toc, dynd, typed-column or msgpack files and back; `inspect` shows
//! the structure of a file of any format; `get` reads one path of a toc file lazily (`get` and
//! `inspect` also read toc files in object storage by URL, `s3://bucket/key`); `compare`
//! encodes a dataset in every format and prints sizes and timings; `append` adds files or values
//! to a combined toc file in place. Errors, argument errors included, are one line on stderr and
//! exit status 1; `--help` and `--version` print to stdout and exit 0.

mod append;
mod compare;
mod convert;
mod dynd_json;
mod formats;
mod get;
mod inspect;
mod io;
mod json;
mod progress;
#[cfg(test)]
mod proptests;
mod remote;
mod sample;
mod typed_value;
mod value;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// Convert, inspect, query and compare files of the serde-formats formats.
#[derive(Debug, Parser)]
#[command(name = "sfmt", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most bytes an input read into memory may have (standard input, pipes, devices, and
    /// files other than toc files read lazily): bytes, or with K, M, G or T (powers of 1024).
    #[arg(long, global = true, value_name = "SIZE", default_value = "4G",
          value_parser = io::parse_size)]
    max_input_size: u64,
    /// The endpoint of an S3-compatible server (MinIO, Ceph, R2, moto...) for `s3://` URLs,
    /// e.g. `http://127.0.0.1:9000`; default: AWS, or `AWS_ENDPOINT_URL`. Credentials come
    /// from the usual environment variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`, `AWS_REGION`; `GOOGLE_*` and `AZURE_*` for `gs://` and `az://`).
    #[arg(long, global = true, value_name = "URL")]
    endpoint: Option<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Convert between JSON, msgpack, toc, dynd and typed-column (formats from the extension or
    /// the file's magic unless given).
    Convert(convert::Args),
    /// Detect the format of a file and print its structure (a toc file also by URL).
    Inspect(inspect::Args),
    /// Print the value at one path of a toc file (a path or a URL, `s3://bucket/key`) as JSON,
    /// reading only what that path needs.
    Get(get::Args),
    /// Encode a JSON dataset in every format and compare bytes and encode/decode times.
    Compare(compare::Args),
    /// Add toc files or values to a combined toc file in place, crash-safely.
    Append(append::Args),
}

/// Deeply nested input recurses through serde; with a large stack the formats' depth limits,
/// not the stack, bound it.
pub(crate) const WORKER_STACK: usize = 256 << 20;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return argument_error(&err),
    };
    io::set_max_input_size(cli.max_input_size);
    remote::set_endpoint(cli.endpoint.clone());
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
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match cli.command {
        Command::Convert(args) => convert::run(&args, &mut out)?,
        Command::Inspect(args) => inspect::run(&args, &mut out)?,
        Command::Get(args) => get::run(&args, &mut out)?,
        Command::Compare(args) => compare::run(&args, &mut out)?,
        Command::Append(args) => append::run(&args, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

/// Prints `--help` or `--version` (exit 0), or an argument error as one line (exit 1).
fn argument_error(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // stdout closed early (`sfmt --help | head`) is not an error.
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let commands: Vec<String> = <Cli as clap::CommandFactory>::command()
                .get_subcommands()
                .map(|command| command.get_name().to_owned())
                .filter(|name| name != "help")
                .collect();
            eprintln!(
                "error: no command given (commands: {}; see sfmt --help)",
                commands.join(", ")
            );
            ExitCode::FAILURE
        }
        _ => {
            eprintln!("error: {}", clap_one_line(&err.render().to_string()));
            ExitCode::FAILURE
        }
    }
}

/// clap's error text as one line: the message with its continuation lines (missing
/// arguments, tips), then the usage; the blank lines and the closing pointer to `--help` go.
fn clap_one_line(text: &str) -> String {
    let mut message = String::new();
    let mut usage = None;
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
        if let Some(rest) = line.strip_prefix("Usage:") {
            usage = Some(rest.trim());
        } else if line.starts_with("For more information") {
            continue;
        } else if let Some(tip) = line.strip_prefix("tip:") {
            message.push_str("; ");
            message.push_str(tip.trim());
        } else {
            if !message.is_empty() {
                message.push(' ');
            }
            message.push_str(line.strip_prefix("error:").unwrap_or(line).trim());
        }
    }
    match usage {
        Some(usage) => format!("{message} (usage: {usage})"),
        None => format!("{message} (see --help)"),
    }
}

/// Whether the error is stdout closed by the reader (`sfmt get ... | head`): not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|cause| cause.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Joins the lines of a message, so that every error is exactly one line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}
