//! `sfmt convert IN OUT`: decode IN into sfmt's exact value model and encode that as OUT's format, or
//! refuse with one line naming the first value OUT's format cannot hold (see `value.rs`).

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use crate::formats::{self, EncodeOptions, Format};
use crate::progress;

/// Arguments of `sfmt convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to read (`-`: standard input).
    input: PathBuf,
    /// The file to write (`-`: standard output): a regular file is replaced atomically keeping
    /// its permissions, a symbolic link's target is replaced, a device or pipe is written in
    /// place, a read-only file is refused.
    output: PathBuf,
    /// The input format (default: from the extension, else from the contents).
    #[arg(long, value_name = "FMT")]
    from: Option<String>,
    /// The output format (default: from the extension). One of json, msgpack, toc, dynd,
    /// typed-column.
    #[arg(long, value_name = "FMT")]
    to: Option<String>,
    /// toc block size: containers of at least this many bytes get TOC entries, arrays of
    /// small values are cut into blocks of about this size.
    #[arg(long, value_name = "BYTES", default_value_t = 8192)]
    block_size: u64,
    /// Indent JSON output.
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    let to = match Format::given_or_extension(args.to.as_deref(), &args.output)? {
        Some(format) => format,
        None => bail!(
            "cannot tell the output format from {} (name it with --to)",
            args.output.display()
        ),
    };
    if to == Format::Vector {
        bail!("sfmt does not write VectorSaver files");
    }
    if args.block_size == 0 {
        bail!("--block-size must be at least 1");
    }
    let (from, bytes) = crate::io::read_with_format(&args.input, args.from.as_deref())?;
    let input_len = bytes.len() as u64;
    let value = formats::decode(from, &bytes)
        .with_context(|| format!("cannot read {} as {from}", args.input.display()))?;
    drop(bytes);
    let options = EncodeOptions {
        block_size: args.block_size,
        pretty: args.pretty,
    };
    let written = crate::io::write_output(&args.output, |file| {
        let spinner = progress::spinner(input_len, "encoding");
        // Buffered before the bar: encoders write a few bytes at a time.
        let mut writer = BufWriter::new(progress::Writer::new(&mut *file, spinner));
        formats::encode(to, &value, &mut writer, &options)
            .with_context(|| format!("cannot write {} as {to}", args.output.display()))?;
        if to == Format::Json {
            writer.write_all(b"\n")?;
        }
        writer
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("cannot write {}", args.output.display()))?
            .into_inner();
        Ok(())
    })?;
    // Written to standard output (`-`, `/dev/stdout`), the data stands alone.
    if !crate::io::is_stdout(&args.output) {
        writeln!(
            out,
            "{} ({from}, {input_len} bytes) -> {} ({to}, {written} bytes)",
            args.input.display(),
            args.output.display(),
        )?;
    }
    Ok(())
}
