//! `sfmt append COMBINED INPUT...`: add files or values to a combined toc file in place,
//! crash-safely, through `serde_formats::toc::Appender` (the members already there are not
//! rewritten; a crash leaves the old file or the new one).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_formats::toc::{self, AppendStep, Appender};

use crate::formats::{self, Format};
use crate::value;

/// Environment variable of the crash tests: the step at which `sfmt append` stops and waits
/// to be killed (`opened`, `member`, `toc`, `synced`, `header`, `done`), after printing
/// `sfmt append: paused at STEP` on stderr.
const PAUSE_VAR: &str = "SFMT_APPEND_PAUSE";

/// Arguments of `sfmt append`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The combined toc file, created empty first when missing (as msglc's append does).
    combined: PathBuf,
    /// The files to add, in order (`-`: standard input). A toc file is added whole, byte for
    /// byte (streamed); a file of any other format is decoded and added as a value.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The member name of each input, in order, for a combined file in dict form (give one per
    /// input, or none for list form).
    #[arg(long = "name", value_name = "NAME")]
    names: Vec<String>,
    /// The input format of the inputs that are not toc files (default: from the extension,
    /// else from the contents).
    #[arg(long, value_name = "FMT")]
    from: Option<String>,
    /// toc block size of the values added.
    #[arg(long, value_name = "BYTES", default_value_t = 8192)]
    block_size: u64,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    if !args.names.is_empty() && args.names.len() != args.inputs.len() {
        bail!(
            "{} input(s) but {} --name: give one name per input, or none",
            args.inputs.len(),
            args.names.len()
        );
    }
    if args.block_size == 0 {
        bail!("--block-size must be at least 1");
    }
    let pause = std::env::var(PAUSE_VAR).ok();
    let pause_at = |step: &str| {
        if pause.as_deref() == Some(step) {
            eprintln!("sfmt append: paused at {step}");
            loop {
                std::thread::park();
            }
        }
    };
    let config = toc::Config::new().block_size(args.block_size);
    let mut appender = Appender::open_or_create(&args.combined, &config)
        .with_context(|| format!("cannot append to {}", args.combined.display()))?;
    pause_at("opened");
    for (i, input) in args.inputs.iter().enumerate() {
        let name = args.names.get(i).map(String::as_str);
        add(&mut appender, name, input, args.from.as_deref())
            .with_context(|| format!("cannot append {}", input.display()))?;
        pause_at("member");
    }
    let members = appender.len();
    appender
        .commit_observed(|step| match step {
            AppendStep::TocWritten => pause_at("toc"),
            AppendStep::Synced => pause_at("synced"),
            AppendStep::HeaderWritten => pause_at("header"),
            AppendStep::Durable => pause_at("done"),
            _ => {}
        })
        .with_context(|| format!("cannot append to {}", args.combined.display()))?;
    let size = std::fs::metadata(&args.combined)
        .map(|meta| meta.len())
        .unwrap_or_default();
    writeln!(
        out,
        "{}: appended {} member(s), now {members} ({size} bytes)",
        args.combined.display(),
        args.inputs.len(),
    )?;
    Ok(())
}

/// Adds one input: a regular toc file streamed whole, anything else decoded as a value.
fn add(
    appender: &mut Appender,
    name: Option<&str>,
    input: &Path,
    from: Option<&str>,
) -> Result<()> {
    let given = Format::given_or_extension(from, input)?;
    if !crate::io::is_std(input) && given.is_none_or(|format| format == Format::Toc) {
        let mut file = File::open(input)?;
        let mut head = Vec::with_capacity(toc::MAGIC_LEN);
        (&mut file)
            .take(toc::MAGIC_LEN as u64)
            .read_to_end(&mut head)?;
        if file.metadata()?.is_file() && formats::has_toc_magic(&head) {
            appender.add_file_from(name, head.as_slice().chain(file))?;
            return Ok(());
        }
    }
    let (format, bytes) = crate::io::read_with_format(input, from)?;
    if format == Format::Toc {
        appender.add_file(name, &bytes)?;
        return Ok(());
    }
    let value = formats::decode(format, &bytes)
        .with_context(|| format!("cannot read {} as {format}", input.display()))?;
    drop(bytes);
    value::check(&value, Format::Toc)?;
    appender.add_value(name, &value)?;
    Ok(())
}
