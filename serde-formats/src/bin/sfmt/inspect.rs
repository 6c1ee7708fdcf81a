//! `sfmt inspect FILE`: the format of a file and its structure; a toc file may be a URL
//! (`s3://bucket/key`...), of which only the header and the TOC are fetched.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde_formats::dynd;
use serde_formats::toc::{self, Node, NodeShape, Reader, Source};
use serde_formats::typed_column::{self, Fraction, Kind};
use serde_formats::vector;
use serde_json::Value as Json;

use crate::formats::{self, Format};
use crate::get::thousands;

/// Arguments of `sfmt inspect`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to inspect (`-`: standard input). A regular toc file is read lazily; anything
    /// else is read once into memory. A URL (`s3://bucket/key`, `gs://`, `az://`, `https://`,
    /// `file://`) names a toc file in object storage.
    file: PathBuf,
    /// The format (default: from the extension, else from the contents).
    #[arg(long, value_name = "FMT")]
    from: Option<String>,
    /// Levels of the tree to print below the root (at most 64).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=64))]
    depth: u8,
    /// Children to print per node.
    #[arg(long, default_value_t = 8)]
    limit: usize,
}

/// Lines printed for a tree before it is cut short.
const MAX_LINES: usize = 400;
/// Characters of a value preview.
const PREVIEW: usize = 72;

pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    let given = Format::given_or_extension(args.from.as_deref(), &args.file)?;
    if let Some(url) = crate::remote::url(&args.file) {
        if given.is_some_and(|format| format != Format::Toc) {
            anyhow::bail!("inspect reads toc files from URLs; {url} is given as another format");
        }
        return inspect_remote(url, args, out);
    }
    // Opened once: a FIFO or `<(...)` cannot be read twice.
    let mut input = crate::io::open_input(&args.file)?;
    let head = input.head(toc::MAGIC_LEN, &args.file)?;
    let format = given.or_else(|| formats::has_toc_magic(&head).then_some(Format::Toc));
    if format == Some(Format::Toc) {
        // A regular file lazily: only the header and the TOC are read.
        return inspect_toc(input, &head, args, out)
            .with_context(|| format!("cannot read {} as toc", args.file.display()));
    }
    let bytes = input.into_bytes(&args.file)?;
    let Some(format) = format.or_else(|| formats::sniff(&bytes)) else {
        return Err(formats::undetected(&args.file));
    };
    let context = || format!("cannot read {} as {format}", args.file.display());
    match format {
        Format::Toc => {
            inspect_toc(crate::io::Input::Bytes(bytes), &head, args, out).with_context(context)
        }
        Format::TypedColumn => inspect_typed_column(args, &bytes, out).with_context(context),
        Format::Dynd => inspect_dynd(&bytes, out).with_context(context),
        Format::Vector => inspect_vector(&bytes, out).with_context(context),
        Format::Json | Format::Msgpack => {
            let value = formats::decode_json(format, &bytes).with_context(context)?;
            writeln!(
                out,
                "format: {format}, {} bytes",
                thousands(bytes.len() as u64)
            )?;
            write_json_summary(&value, out)
        }
    }
}

/// Inspects a toc file: a regular file through a lazy reader, bytes in memory through a slice.
fn inspect_toc(
    input: crate::io::Input,
    head: &[u8],
    args: &Args,
    out: &mut impl Write,
) -> Result<()> {
    match input {
        crate::io::Input::File { file, len } => {
            write_toc(&Reader::new(file)?, len, head, args, out)
        }
        crate::io::Input::Bytes(bytes) => write_toc(
            &Reader::from_slice(&bytes)?,
            bytes.len() as u64,
            head,
            args,
            out,
        ),
    }
}

/// Inspects a toc file by URL: the tree is written once the bytes it needs are fetched (the
/// remote reader runs the walk again after each fetch, so it is written to memory first).
fn inspect_remote(url: &str, args: &Args, out: &mut impl Write) -> Result<()> {
    let reader = crate::remote::open(url)?;
    let magic = *toc::Config::default().get_magic();
    let mut failure = None;
    let text = reader
        .with_reader(|r| {
            failure = None;
            let mut text = Vec::new();
            match write_toc(r, reader.size(), &magic, args, &mut text) {
                Ok(()) => Ok(text),
                Err(err) => match err.downcast::<serde_formats::Error>() {
                    Ok(err) => Err(err),
                    Err(other) => {
                        failure = Some(other);
                        Ok(Vec::new())
                    }
                },
            }
        })
        .with_context(|| format!("cannot read {url} as toc"))?;
    if let Some(err) = failure {
        return Err(err.context(format!("cannot read {url} as toc")));
    }
    out.write_all(&text)?;
    Ok(())
}

fn write_toc<S: Source>(
    reader: &Reader<S>,
    size: u64,
    head: &[u8],
    args: &Args,
    out: &mut impl Write,
) -> Result<()> {
    let magic = magic_text(head);
    let stats = reader.toc_stats()?;
    writeln!(
        out,
        "format: toc ({} with a table of contents, msglc)",
        reader.codec()
    )?;
    writeln!(out, "file: {} bytes", thousands(size))?;
    writeln!(
        out,
        "header: magic {magic}, toc_start {} (= data bytes), toc_len {}",
        reader.data_len(),
        reader.toc_len()
    )?;
    let percent = |n: u64| {
        if size == 0 {
            0.0
        } else {
            n as f64 * 100.0 / size as f64
        }
    };
    writeln!(
        out,
        "bytes: data {} ({:.2}%), toc {} ({:.2}%), magic and header {}",
        thousands(reader.data_len()),
        percent(reader.data_len()),
        thousands(reader.toc_len()),
        percent(reader.toc_len()),
        toc::DATA_START
    )?;
    let nested = match stats.nested_files {
        0 => "0 nested files".to_owned(),
        n => format!(
            "{n} nested files (their TOCs: {} bytes, inside the data)",
            thousands(stats.toc_bytes - reader.toc_len())
        ),
    };
    writeln!(
        out,
        "toc: {} nodes, depth {}, {} indexed maps/arrays, {} block lists with {} blocks, {nested}",
        thousands(stats.nodes),
        stats.depth,
        thousands(stats.indexed),
        thousands(stats.block_lists),
        thousands(stats.blocks),
    )?;
    writeln!(out, "tree (positions are data bytes [start, end)):")?;
    let mut lines = 0;
    write_toc_node(
        &reader.root()?,
        "/",
        toc::DATA_START as u64,
        1,
        args,
        &mut lines,
        out,
    )?;
    if lines >= MAX_LINES {
        writeln!(out, "  ... (cut at {MAX_LINES} lines)")?;
    }
    Ok(())
}

/// The magic as text: its non-zero tail, quoted.
fn magic_text(magic: &[u8]) -> String {
    let start = magic.iter().position(|&b| b != 0).unwrap_or(magic.len());
    format!("{:?}", String::from_utf8_lossy(&magic[start..]))
}

fn write_toc_node<S: Source>(
    node: &Node<'_, S>,
    name: &str,
    parent_data_start: u64,
    level: usize,
    args: &Args,
    lines: &mut usize,
    out: &mut impl Write,
) -> Result<()> {
    let indent = "  ".repeat(level);
    if *lines >= MAX_LINES {
        return Ok(());
    }
    *lines += 1;
    let span = match node.span()? {
        Some((start, end)) => format!("[{start}, {end})"),
        None => "(no span)".to_owned(),
    };
    let nested = if node.data_start() == parent_data_start {
        String::new()
    } else {
        format!(
            ", nested {} file with data at byte {}",
            node.codec(),
            node.data_start()
        )
    };
    let what = match node.shape() {
        NodeShape::Map => format!("map, {} entries, indexed", node.len()?),
        NodeShape::Array => format!("array, {} elements, indexed", node.len()?),
        NodeShape::Blocks => format!(
            "array, {} elements in {} blocks",
            node.len()?,
            node.block_list()?.len()
        ),
        _ => value_preview(node)?,
    };
    writeln!(out, "{indent}{name}  {what} {span}{nested}")?;
    if level > usize::from(args.depth) {
        return Ok(());
    }
    if node.shape() == NodeShape::Blocks {
        let blocks = node.block_list()?;
        for block in blocks.iter().take(args.limit.min(3)) {
            writeln!(
                out,
                "{indent}  block: {} values [{}, {})",
                block.count, block.start, block.end
            )?;
            *lines += 1;
        }
        if blocks.len() > args.limit.min(3) {
            writeln!(
                out,
                "{indent}  ... {} more blocks",
                blocks.len() - args.limit.min(3)
            )?;
            *lines += 1;
        }
        return Ok(());
    }
    let len = match node.shape() {
        NodeShape::Map | NodeShape::Array => node.len()?,
        _ => 0,
    };
    for (key, child) in node.indexed_children(args.limit)? {
        let key = match key {
            toc::Value::Str(key) => key,
            other => formats::toc_value_to_json(other)?.to_string(),
        };
        write_toc_node(&child, &key, node.data_start(), level + 1, args, lines, out)?;
    }
    if len > args.limit {
        writeln!(out, "{indent}  ... {} more", len - args.limit)?;
        *lines += 1;
    }
    Ok(())
}

/// A node the TOC does not index: its kind and size, and the value itself when it is small.
fn value_preview<S: Source>(node: &Node<'_, S>) -> Result<String> {
    let Some((start, end)) = node.span()? else {
        return Ok("value".to_owned());
    };
    let size = end - start;
    if size > 512 {
        return Ok(match node.len() {
            Ok(n) => format!("container of {n}, {} bytes", thousands(size)),
            Err(_) => format!("value, {} bytes", thousands(size)),
        });
    }
    let json = formats::toc_value_to_json(node.decode::<toc::Value>()?)?;
    Ok(format!("{} = {}", kind_of(&json), preview(&json)))
}

/// The first two lines of a file's inspection: its format, then its size and `layout`.
fn write_header(
    out: &mut impl Write,
    format: &str,
    size: usize,
    layout: &str,
) -> std::io::Result<()> {
    writeln!(out, "format: {format}")?;
    writeln!(out, "file: {} bytes: {layout}", thousands(size as u64))
}

fn inspect_typed_column(args: &Args, bytes: &[u8], out: &mut impl Write) -> Result<()> {
    // Validates the whole type array: the walk below then only meets well-formed descriptions.
    typed_column::View::from_bytes(bytes)?;
    let count = word_at(bytes, 0).unwrap_or(0) as usize;
    let data_start = 8 + count * 8;
    let data = bytes.get(data_start..).unwrap_or_default();
    let words: Vec<u64> = (0..count)
        .map_while(|i| word_at(bytes, 8 + i * 8))
        .collect();
    let layout = format!(
        "type array of {count} words ({} descriptions), data array of {} bytes",
        count / 3,
        thousands(data.len() as u64)
    );
    write_header(out, "typed-column", bytes.len(), &layout)?;
    writeln!(
        out,
        "types (#index kind [offset][length]; ' marks compressed descriptions):"
    )?;
    let mut lines = 0;
    write_description(&words, data, 0, 1, args, &mut lines, out)?;
    if lines >= MAX_LINES {
        writeln!(out, "  ... (cut at {MAX_LINES} lines)")?;
    }
    Ok(())
}

fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk = bytes.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(chunk.try_into().ok()?))
}

const COMPRESSED: u64 = 1 << 63;

fn description(words: &[u64], index: usize) -> Option<(u64, u64, u64)> {
    let at = index.checked_mul(3)?;
    Some((*words.get(at)?, *words.get(at + 1)?, *words.get(at + 2)?))
}

fn kind_name(kind_word: u64) -> String {
    let compressed = if kind_word & COMPRESSED != 0 { "'" } else { "" };
    match Kind::from_number(kind_word & !COMPRESSED) {
        Some(kind) => format!("{kind:?}{compressed}"),
        None => format!("kind {}{compressed}", kind_word & !COMPRESSED),
    }
}

fn write_description(
    words: &[u64],
    data: &[u8],
    index: usize,
    level: usize,
    args: &Args,
    lines: &mut usize,
    out: &mut impl Write,
) -> Result<()> {
    if *lines >= MAX_LINES {
        return Ok(());
    }
    let Some((kind, offset, length)) = description(words, index) else {
        return Ok(());
    };
    let indent = "  ".repeat(level);
    *lines += 1;
    let head = format!("{indent}#{index} {} [{offset}][{length}]", kind_name(kind));
    let atom = |size: usize| -> Option<&[u8]> {
        let start = usize::try_from(offset).ok()?;
        data.get(start..start.checked_add(size)?)
    };
    match Kind::from_number(kind & !COMPRESSED) {
        Some(Kind::Column) => {
            let dense = description(words, index + 1).is_some_and(|(k, _, _)| k & COMPRESSED != 0);
            if dense {
                writeln!(
                    out,
                    "{head} dense: {length} elements stored from data byte {offset}"
                )?;
                // The chain: one compressed description per level, to the end of the array.
                let mut next = index + 1;
                while let Some((k, count, size)) = description(words, next) {
                    let what = if k & !COMPRESSED == Kind::Column.number() {
                        format!("{count} columns of {size} elements each")
                    } else {
                        format!("{count} atoms of {size} bytes")
                    };
                    writeln!(
                        out,
                        "{indent}  #{next} {} [{count}][{size}] compressed run: {what}",
                        kind_name(k)
                    )?;
                    *lines += 1;
                    next += 1;
                }
                return Ok(());
            }
            writeln!(out, "{head} {length} children from #{offset}")?;
            if level > usize::from(args.depth) {
                return Ok(());
            }
            let first = usize::try_from(offset).unwrap_or(usize::MAX);
            let shown = usize::try_from(length)
                .unwrap_or(usize::MAX)
                .min(args.limit);
            for child in 0..shown {
                if let Some(child) = first.checked_add(child) {
                    write_description(words, data, child, level + 1, args, lines, out)?;
                }
            }
            if length > shown as u64 {
                writeln!(out, "{indent}  ... {} more", length - shown as u64)?;
                *lines += 1;
            }
        }
        Some(Kind::Boolean) => match atom(1) {
            Some(b) => writeln!(out, "{head} = {}", b[0] != 0)?,
            None => writeln!(out, "{head}")?,
        },
        Some(Kind::Fraction) => match atom(16) {
            Some(b) => {
                let num = i64::from_le_bytes(b[..8].try_into()?);
                let den = i64::from_le_bytes(b[8..].try_into()?);
                writeln!(out, "{head} = {}", Fraction { num, den })?;
            }
            None => writeln!(out, "{head}")?,
        },
        Some(Kind::Float) => match atom(8) {
            Some(b) => writeln!(out, "{head} = {}", f64::from_le_bytes(b.try_into()?))?,
            None => writeln!(out, "{head}")?,
        },
        Some(Kind::String) => match atom(usize::try_from(length).unwrap_or(usize::MAX)) {
            Some(b) => writeln!(
                out,
                "{head} = {}",
                truncate(&format!("{:?}", String::from_utf8_lossy(b)))
            )?,
            None => writeln!(out, "{head}")?,
        },
        None => writeln!(out, "{head}")?,
    }
    Ok(())
}

fn inspect_dynd(bytes: &[u8], out: &mut impl Write) -> Result<()> {
    let array = dynd::from_array_bytes(bytes)?;
    let type_string = array.ty.to_string();
    let type_bytes = dynd::to_bytes(&type_string)?.len();
    let data_bytes = thousands((bytes.len() - type_bytes.min(bytes.len())) as u64);
    let layout = format!("datashape string {type_bytes} bytes, data {data_bytes} bytes");
    write_header(
        out,
        "dynd (self-describing array[Any])",
        bytes.len(),
        &layout,
    )?;
    writeln!(out, "datashape: {type_string}")?;
    let mut summary = Summary::default();
    summary.add_dynd(&array.value, 0);
    writeln!(
        out,
        "value: {}; {} values in all ({} missing), depth {}",
        describe_dynd(&array.value),
        thousands(summary.values),
        thousands(summary.missing),
        summary.depth
    )?;
    writeln!(
        out,
        "preview: {}",
        preview(&serde_json::Value::from(&array.value))
    )?;
    Ok(())
}

#[derive(Default)]
struct Summary {
    values: u64,
    missing: u64,
    depth: usize,
}

impl Summary {
    fn add_dynd(&mut self, value: &dynd::Value, depth: usize) {
        self.values += 1;
        self.depth = self.depth.max(depth);
        match value {
            dynd::Value::Missing => self.missing += 1,
            dynd::Value::Present(inner) => self.add_dynd(inner, depth),
            dynd::Value::List(items) | dynd::Value::Tuple(items) => {
                for item in items {
                    self.add_dynd(item, depth + 1);
                }
            }
            dynd::Value::Struct(fields) => {
                for (_, field) in fields {
                    self.add_dynd(field, depth + 1);
                }
            }
            dynd::Value::Array(array) => self.add_dynd(&array.value, depth + 1),
            _ => {}
        }
    }

    fn add_json(&mut self, value: &Json, depth: usize) {
        self.values += 1;
        self.depth = self.depth.max(depth);
        match value {
            Json::Null => self.missing += 1,
            Json::Array(items) => {
                for item in items {
                    self.add_json(item, depth + 1);
                }
            }
            Json::Object(fields) => {
                for field in fields.values() {
                    self.add_json(field, depth + 1);
                }
            }
            _ => {}
        }
    }
}

fn describe_dynd(value: &dynd::Value) -> String {
    match value {
        dynd::Value::List(items) => format!("list of {} elements", items.len()),
        dynd::Value::Tuple(items) => format!("tuple of {} fields", items.len()),
        dynd::Value::Struct(fields) => format!("struct of {} fields", fields.len()),
        dynd::Value::Missing => "missing".to_owned(),
        _ => "scalar".to_owned(),
    }
}

fn inspect_vector(bytes: &[u8], out: &mut impl Write) -> Result<()> {
    let vector = vector::from_bytes(bytes)?;
    writeln!(
        out,
        "format: VectorSaver, {} bytes",
        thousands(bytes.len() as u64)
    )?;
    writeln!(out, "{vector}")?;
    Ok(())
}

fn write_json_summary(value: &Json, out: &mut impl Write) -> Result<()> {
    let mut summary = Summary::default();
    summary.add_json(value, 0);
    writeln!(
        out,
        "value: {}; {} values in all ({} null), depth {}",
        kind_of(value),
        thousands(summary.values),
        thousands(summary.missing),
        summary.depth
    )?;
    writeln!(out, "preview: {}", preview(value))?;
    Ok(())
}

fn kind_of(value: &Json) -> String {
    match value {
        Json::Null => "null".to_owned(),
        Json::Bool(_) => "bool".to_owned(),
        Json::Number(_) => "number".to_owned(),
        Json::String(_) => "string".to_owned(),
        Json::Array(items) => format!("array of {}", items.len()),
        Json::Object(fields) => format!("map of {}", fields.len()),
    }
}

/// Compact JSON, cut at [`PREVIEW`] characters.
fn preview(value: &Json) -> String {
    truncate(&value.to_string())
}

fn truncate(text: &str) -> String {
    match text.char_indices().nth(PREVIEW) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}
