//! `sfmt compare [FILE]`: the data in every format, with bytes and encode/decode times.
//!
//! The round-trip column compares the decoded [`Value`] with the original exactly (floats by
//! bits, float32 apart from float64, maps in order): "exact", or where and how it differed, or
//! why the format cannot hold the data (the row then has no sizes or times).

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::ProgressBar;

use crate::formats::{self, EncodeOptions, Format};
use crate::get::thousands;
use crate::value::{self, Value};
use crate::{json, progress, sample};

/// Arguments of `sfmt compare`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The data to encode (JSON, or any format sfmt reads); default: the bundled sample.
    file: Option<PathBuf>,
    /// The format of FILE (default: from the extension, else from the contents).
    #[arg(long, value_name = "FMT")]
    from: Option<String>,
    /// Runs per measurement; the table shows the median.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// toc block size.
    #[arg(long, value_name = "BYTES", default_value_t = 8192)]
    block_size: u64,
}

/// One row of the table.
struct Row {
    format: Format,
    /// Bytes and median encode and decode times, when the format holds the data.
    measured: Option<(usize, Duration, Duration)>,
    /// "exact", or what differed, or why the format cannot hold the data.
    round_trip: String,
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    if args.block_size == 0 {
        bail!("--block-size must be at least 1");
    }
    let (name, value) = match &args.file {
        Some(path) => {
            let (format, bytes) = crate::io::read_with_format(path, args.from.as_deref())?;
            let value = formats::decode(format, &bytes)
                .with_context(|| format!("cannot read {} as {format}", path.display()))?;
            (path.display().to_string(), value)
        }
        None => (
            "the bundled sample".to_owned(),
            json::read(&serde_json::to_vec(&sample::dataset())?)?,
        ),
    };
    let options = EncodeOptions {
        block_size: args.block_size,
        pretty: false,
    };
    let json_len = formats::encode_to_vec(Format::Json, &value, &options)?.len() as u64;
    let bar = if json_len >= progress::THRESHOLD {
        ProgressBar::new((Format::COMPARED.len() * args.runs * 2) as u64)
    } else {
        ProgressBar::hidden()
    };
    let mut rows = Vec::new();
    for format in Format::COMPARED {
        bar.set_message(format.name());
        rows.push(
            measure(format, &value, &options, args.runs, &bar)
                .with_context(|| format!("cannot encode {name} as {format}"))?,
        );
    }
    bar.finish_and_clear();
    write_table(out, &name, args.runs, &rows)
}

fn measure(
    format: Format,
    value: &Value,
    options: &EncodeOptions,
    runs: usize,
    bar: &ProgressBar,
) -> Result<Row> {
    if let Err(refusal) = value::check(value, format) {
        bar.inc(2 * runs as u64);
        return Ok(Row {
            format,
            measured: None,
            round_trip: format!("cannot hold it: {refusal:#}"),
        });
    }
    let mut encode_times = Vec::with_capacity(runs);
    let mut bytes = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        bytes = formats::encode_to_vec(format, value, options)?;
        encode_times.push(start.elapsed());
        bar.inc(1);
    }
    let mut decode_times = Vec::with_capacity(runs);
    let mut decoded = Value::Null;
    for _ in 0..runs {
        let start = Instant::now();
        decoded = formats::decode(format, &bytes)?;
        decode_times.push(start.elapsed());
        bar.inc(1);
    }
    let round_trip = match value::first_difference(value, &decoded) {
        None => "exact".to_owned(),
        Some(difference) => format!("differs {difference}"),
    };
    Ok(Row {
        format,
        measured: Some((bytes.len(), median(encode_times), median(decode_times))),
        round_trip,
    })
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn write_table(out: &mut impl Write, name: &str, runs: usize, rows: &[Row]) -> Result<()> {
    let json_bytes = rows
        .iter()
        .find(|row| row.format == Format::Json)
        .and_then(|row| row.measured)
        .map_or(1, |(bytes, _, _)| bytes.max(1));
    writeln!(
        out,
        "{name}; median of {runs} runs (decode: to sfmt's value; round trip: compared exactly)"
    )?;
    writeln!(
        out,
        "{:<13} {:>12} {:>8} {:>11} {:>11}  round trip",
        "format", "bytes", "vs JSON", "encode ms", "decode ms"
    )?;
    for row in rows {
        match row.measured {
            Some((bytes, encode, decode)) => writeln!(
                out,
                "{:<13} {:>12} {:>8.3} {:>11.3} {:>11.3}  {}",
                row.format.name(),
                thousands(bytes as u64),
                bytes as f64 / json_bytes as f64,
                encode.as_secs_f64() * 1e3,
                decode.as_secs_f64() * 1e3,
                row.round_trip,
            )?,
            None => writeln!(
                out,
                "{:<13} {:>12} {:>8} {:>11} {:>11}  {}",
                row.format.name(),
                "-",
                "-",
                "-",
                "-",
                row.round_trip,
            )?,
        }
    }
    Ok(())
}
