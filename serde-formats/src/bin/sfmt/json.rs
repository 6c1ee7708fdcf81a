//! JSON text <-> [`Value`], keeping everything: key order, 128-bit integers, and tagged forms
//! for what JSON has no word for.
//!
//! # Plain JSON
//!
//! | JSON | value |
//! | --- | --- |
//! | `null`, `true`, `false`, strings, arrays | themselves |
//! | a number without `.`, `e` or `E` | an integer, up to 128 bits (`-2^127 ..= 2^128 - 1`); a longer one is refused, never rounded to a float; `-0` is float64 `-0.0` (as serde_json reads it) |
//! | any other number | a float64, correctly rounded; one too large for a float64 is refused |
//! | an object | a map with string keys, in the object's order; an object with two equal keys is refused (readers disagree on which one wins) |
//!
//! Floats are written as the shortest text that reads back to the same bits, always with a `.`
//! or an exponent (`1.0`), so they read back as floats and integers as integers.
//!
//! # Tagged forms
//!
//! An object of exactly one entry whose key is one of the tags below is that tagged value when
//! read, and its payload must be well-formed. Any other object, including one-entry objects
//! with other `$` keys (`{"$ref": "x"}`), is a plain map.
//!
//! | value | JSON |
//! | --- | --- |
//! | bin | `{"$bin": "<base64>"}` (standard alphabet, padded) |
//! | float32 | `{"$f32": 0.1}`, the shortest text of the float32, read straight into a float32 |
//! | NaN and infinities | `{"$f64": "NaN"}`, `"Infinity"`, `"-Infinity"` (also under `$f32`); a NaN other than the quiet NaN `0x7ff8000000000000` (`0x7fc00000` for float32) as its bits, `{"$f64": "0x7ff0000000000001"}` |
//! | extension | `{"$ext": [type, "<base64>"]}`, the timestamp (type -1) included |
//! | a map JSON cannot say as an object | `{"$map": [[key, value], ...]}`: written when a key is not a string, two keys are equal, or the map is one entry whose key is a tag |
//!
//! The last rule is the escape: a map `{"$bin": "x"}` is written `{"$map": [["$bin", "x"]]}`,
//! so no plain map is ever read back as a tagged value.
//!
//! # Why not serde_json for reading
//!
//! serde_json's `deserialize_any` hands integers past 64 bits over as `f64` and parses floats
//! with a fast path that is not always correctly rounded; keeping their text needs its
//! `arbitrary_precision` feature, and key order `preserve_order`. Cargo unifies features across
//! the workspace, so either would change what the library's own `serde_json::Value` conversions
//! do (`arbitrary_precision` serializes every `Number` as a private struct). JSON is read instead
//! with `json-event-parser`, which hands over each number's text and each key in order; numbers
//! are parsed here with the standard library's correctly rounded parsers. Writing goes through
//! serde_json's serializer, which writes `u128`/`i128` digits and shortest floats.

use std::collections::HashSet;
use std::io::Write;

use anyhow::{anyhow, bail, Context, Result};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use json_event_parser::{JsonEvent, SliceJsonParser};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::value::{serialize_int, serialize_uint, Path, Value};

/// The deepest nesting of JSON arrays and objects read, and written: a value whose tagged form
/// would nest deeper is refused before anything is written (every `$map` adds three levels).
pub const DEPTH_LIMIT: usize = 1024;

const BIN: &str = "$bin";
const F32: &str = "$f32";
const F64: &str = "$f64";
const EXT: &str = "$ext";
const MAP: &str = "$map";
const TAGS: [&str; 5] = [BIN, F32, F64, EXT, MAP];

const F64_QUIET_NAN: u64 = 0x7ff8_0000_0000_0000;
const F32_QUIET_NAN: u32 = 0x7fc0_0000;

/// An open container while reading.
enum Frame {
    Array(Vec<Value>),
    Object {
        entries: Vec<(String, Value)>,
        key: Option<String>,
        /// The payload of a first entry `"$f32": <number>`, read as a float32 from its text.
        f32_payload: Option<f32>,
    },
}

/// Reads one JSON document.
pub fn read(bytes: &[u8]) -> Result<Value> {
    let mut parser = SliceJsonParser::new(bytes);
    let mut stack: Vec<Frame> = Vec::new();
    loop {
        let event = parser.parse_next().map_err(|e| {
            let at = e.location().start;
            anyhow!(
                "invalid JSON at line {} column {} (byte {}): {}",
                at.line + 1,
                at.column + 1,
                at.offset,
                e.message()
            )
        })?;
        let value = match event {
            JsonEvent::Eof => bail!("empty JSON input"),
            JsonEvent::StartArray | JsonEvent::StartObject => {
                if stack.len() >= DEPTH_LIMIT {
                    bail!(
                        "JSON nested deeper than {DEPTH_LIMIT} levels at {}",
                        path_of(&stack)
                    );
                }
                stack.push(if event == JsonEvent::StartArray {
                    Frame::Array(Vec::new())
                } else {
                    Frame::Object {
                        entries: Vec::new(),
                        key: None,
                        f32_payload: None,
                    }
                });
                continue;
            }
            JsonEvent::ObjectKey(key) => {
                if let Some(Frame::Object { key: slot, .. }) = stack.last_mut() {
                    *slot = Some(key.into_owned());
                }
                continue;
            }
            JsonEvent::EndArray => match stack.pop() {
                Some(Frame::Array(items)) => Value::Array(items),
                _ => bail!("internal error: unbalanced JSON events"),
            },
            JsonEvent::EndObject => {
                let Some(Frame::Object {
                    entries,
                    f32_payload,
                    ..
                }) = stack.pop()
                else {
                    bail!("internal error: unbalanced JSON events");
                };
                object(entries, f32_payload, &stack)?
            }
            JsonEvent::Null => Value::Null,
            JsonEvent::Boolean(v) => Value::Bool(v),
            JsonEvent::String(v) => Value::Str(v.into_owned()),
            JsonEvent::Number(text) => {
                if let Some(Frame::Object {
                    entries,
                    key: Some(key),
                    f32_payload,
                }) = stack.last_mut()
                {
                    if entries.is_empty() && key == F32 {
                        *f32_payload = text.parse::<f32>().ok();
                    }
                }
                number(&text).with_context(|| format!("at {}", path_of(&stack)))?
            }
        };
        match stack.last_mut() {
            None => {
                return match parser.parse_next() {
                    Ok(JsonEvent::Eof) => Ok(value),
                    _ => bail!("invalid JSON: more after the value"),
                }
            }
            Some(Frame::Array(items)) => items.push(value),
            Some(Frame::Object { entries, key, .. }) => {
                let key = key
                    .take()
                    .context("internal error: JSON value without key")?;
                entries.push((key, value));
            }
        }
    }
}

/// Whether `bytes` are one JSON document nested at most [`DEPTH_LIMIT`] deep (for format
/// detection: no value is built).
pub fn is_json(bytes: &[u8]) -> bool {
    let mut parser = SliceJsonParser::new(bytes);
    let mut depth = 0usize;
    loop {
        match parser.parse_next() {
            Ok(JsonEvent::Eof) => return true,
            Ok(JsonEvent::StartArray | JsonEvent::StartObject) => {
                depth += 1;
                if depth > DEPTH_LIMIT {
                    return false;
                }
            }
            Ok(JsonEvent::EndArray | JsonEvent::EndObject) => depth -= 1,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

/// The path of the value being read.
fn path_of(stack: &[Frame]) -> Path {
    let mut path = Path::default();
    for frame in stack {
        path = match frame {
            Frame::Array(items) => path.index(items.len()),
            Frame::Object { key: Some(key), .. } => path.key(&Value::Str(key.clone())),
            Frame::Object { key: None, .. } => path,
        };
    }
    path
}

fn number(text: &str) -> Result<Value> {
    if text.contains(['.', 'e', 'E']) {
        let v: f64 = text.parse().map_err(|_| anyhow!("invalid number {text}"))?;
        if v.is_infinite() {
            bail!("number {text} is too large for a float64");
        }
        return Ok(Value::F64(v));
    }
    if text == "-0" {
        return Ok(Value::F64(-0.0));
    }
    let fits = if text.starts_with('-') {
        text.parse::<i128>().ok().map(Value::int)
    } else {
        text.parse::<u128>().ok().map(Value::UInt)
    };
    fits.ok_or_else(|| anyhow!("integer {text} does not fit 128 bits"))
}

/// The value of a finished object: a tagged value, or a map.
fn object(
    mut entries: Vec<(String, Value)>,
    f32_payload: Option<f32>,
    stack: &[Frame],
) -> Result<Value> {
    if entries.len() == 1 && TAGS.contains(&entries[0].0.as_str()) {
        let (tag, payload) = entries.pop().expect("one entry");
        let path = path_of(stack);
        return tagged(&tag, payload, f32_payload)
            .with_context(|| format!("invalid tagged value `{tag}` at {path}"));
    }
    if entries.len() > 1 {
        let keys: Vec<&str> = entries.iter().map(|(key, _)| key.as_str()).collect();
        if let Some(key) = first_duplicate(&keys) {
            bail!(
                "duplicate key {key:?} in the object at {}: readers disagree on which value \
                 wins, so sfmt does not choose (write it as {{\"$map\": [[key, value], ...]}})",
                path_of(stack)
            );
        }
    }
    Ok(Value::Map(
        entries
            .into_iter()
            .map(|(k, v)| (Value::Str(k), v))
            .collect(),
    ))
}

fn tagged(tag: &str, payload: Value, f32_payload: Option<f32>) -> Result<Value> {
    Ok(match (tag, payload) {
        (BIN, Value::Str(text)) => Value::Bin(base64(&text)?),
        (F32, Value::Str(text)) => Value::F32(special(&text)?.f32()?),
        (F32, Value::F64(_) | Value::UInt(_) | Value::Int(_)) => {
            let v = f32_payload.context("the number is not a float32")?;
            if v.is_infinite() {
                bail!("the number is too large for a float32");
            }
            Value::F32(v)
        }
        (F64, Value::Str(text)) => Value::F64(special(&text)?.f64()?),
        (F64, Value::F64(v)) => Value::F64(v),
        (EXT, Value::Array(parts)) => match <[Value; 2]>::try_from(parts) {
            Ok([Value::UInt(t), Value::Str(data)]) if t <= 127 => {
                Value::Ext(t as i8, base64(&data)?)
            }
            Ok([Value::Int(t), Value::Str(data)]) if t >= -128 => {
                Value::Ext(t as i8, base64(&data)?)
            }
            _ => bail!("expected [type from -128 to 127, \"<base64>\"]"),
        },
        (MAP, Value::Array(pairs)) => Value::Map(
            pairs
                .into_iter()
                .map(|pair| match pair {
                    Value::Array(kv) => match <[Value; 2]>::try_from(kv) {
                        Ok([k, v]) => Ok((k, v)),
                        Err(_) => bail!("an entry is not a [key, value] pair"),
                    },
                    _ => bail!("an entry is not a [key, value] pair"),
                })
                .collect::<Result<_>>()?,
        ),
        (_, payload) => bail!("unexpected payload {}", payload.describe()),
    })
}

fn base64(text: &str) -> Result<Vec<u8>> {
    BASE64
        .decode(text)
        .map_err(|e| anyhow!("invalid base64: {e}"))
}

/// A non-finite float or the bits of a float, from its string payload.
enum Special {
    Nan,
    Inf(bool),
    Bits(u64, usize),
}

fn special(text: &str) -> Result<Special> {
    Ok(match text {
        "NaN" => Special::Nan,
        "Infinity" => Special::Inf(false),
        "-Infinity" => Special::Inf(true),
        _ => match text.strip_prefix("0x") {
            Some(hex) if !hex.is_empty() && hex.len() <= 16 => Special::Bits(
                u64::from_str_radix(hex, 16).map_err(|_| anyhow!("invalid bits {text:?}"))?,
                hex.len(),
            ),
            _ => {
                bail!("expected \"NaN\", \"Infinity\", \"-Infinity\" or \"0x<bits>\", not {text:?}")
            }
        },
    })
}

impl Special {
    fn f64(self) -> Result<f64> {
        Ok(match self {
            Special::Nan => f64::from_bits(F64_QUIET_NAN),
            Special::Inf(negative) => inf(negative),
            Special::Bits(bits, 16) => f64::from_bits(bits),
            Special::Bits(..) => bail!("a float64's bits are 16 hex digits"),
        })
    }

    fn f32(self) -> Result<f32> {
        Ok(match self {
            Special::Nan => f32::from_bits(F32_QUIET_NAN),
            Special::Inf(negative) => inf(negative) as f32,
            Special::Bits(bits, 8) => f32::from_bits(bits as u32),
            Special::Bits(..) => bail!("a float32's bits are 8 hex digits"),
        })
    }
}

fn inf(negative: bool) -> f64 {
    if negative {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    }
}

/// The JSON nesting levels `value` opens for its children: one for an array or a plain object,
/// three for a `$map` (object, pair list, pair), two for an `$ext` (object, array), one for the
/// other tags (their object).
pub fn levels(value: &Value) -> usize {
    match value {
        Value::Array(_) => 1,
        Value::Map(entries) if plain_object(entries) => 1,
        Value::Map(_) => 3,
        Value::Ext(..) => 2,
        Value::Bin(_) | Value::F32(_) => 1,
        Value::F64(v) => usize::from(!v.is_finite()),
        Value::Null | Value::Bool(_) | Value::UInt(_) | Value::Int(_) | Value::Str(_) => 0,
    }
}

/// Writes `value` as JSON text (indented when `pretty`).
pub fn write(out: &mut impl Write, value: &Value, pretty: bool) -> Result<()> {
    if pretty {
        serde_json::to_writer_pretty(out, &Json(value))?;
    } else {
        serde_json::to_writer(out, &Json(value))?;
    }
    Ok(())
}

/// `value` as a `serde_json::Value` in the tagged form, for summaries (`inspect`): key order is
/// sorted and integers past 64 bits become floats there.
pub fn to_serde_json(value: &Value) -> Result<serde_json::Value> {
    let mut text = Vec::new();
    write(&mut text, value, false)?;
    Ok(serde_json::from_slice(&text)?)
}

/// The JSON form of a [`Value`].
struct Json<'a>(&'a Value);

/// A one-entry object `{tag: payload}`.
fn tag<S: Serializer, T: ?Sized + Serialize>(
    s: S,
    tag: &str,
    payload: &T,
) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(1))?;
    map.serialize_entry(tag, payload)?;
    map.end()
}

/// The string payload of a non-finite or non-quiet-NaN float.
fn special_text(bits: u64, digits: usize, nan: bool, quiet: bool, negative: bool) -> String {
    match (nan, quiet, negative) {
        (true, true, _) => "NaN".to_owned(),
        (true, false, _) => format!("0x{bits:0digits$x}"),
        (false, _, false) => "Infinity".to_owned(),
        (false, _, true) => "-Infinity".to_owned(),
    }
}

/// Whether a map can be a plain JSON object: string keys, all distinct, and not one entry that
/// would read back as a tag.
fn plain_object(entries: &[(Value, Value)]) -> bool {
    let keys: Option<Vec<&str>> = entries
        .iter()
        .map(|(k, _)| match k {
            Value::Str(k) => Some(k.as_str()),
            _ => None,
        })
        .collect();
    match keys {
        None => false,
        Some(keys) if keys.len() == 1 => !TAGS.contains(&keys[0]),
        Some(keys) => first_duplicate(&keys).is_none(),
    }
}

/// The first key that appeared before (pairwise for the small objects of most data, hashed for
/// large ones).
fn first_duplicate<'a>(keys: &[&'a str]) -> Option<&'a str> {
    if keys.len() <= 16 {
        return keys
            .iter()
            .enumerate()
            .find(|(i, key)| keys[..*i].contains(key))
            .map(|(_, key)| *key);
    }
    let mut seen = HashSet::with_capacity(keys.len());
    keys.iter().find(|key| !seen.insert(**key)).copied()
}

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => s.serialize_unit(),
            Value::Bool(v) => s.serialize_bool(*v),
            Value::UInt(v) => serialize_uint(*v, s),
            Value::Int(v) => serialize_int(*v, s),
            Value::F64(v) if v.is_finite() => s.serialize_f64(*v),
            Value::F64(v) => {
                let bits = v.to_bits();
                let text = special_text(bits, 16, v.is_nan(), bits == F64_QUIET_NAN, *v < 0.0);
                tag(s, F64, &text)
            }
            Value::F32(v) if v.is_finite() => tag(s, F32, v),
            Value::F32(v) => {
                let bits = v.to_bits();
                let text = special_text(
                    u64::from(bits),
                    8,
                    v.is_nan(),
                    bits == F32_QUIET_NAN,
                    *v < 0.0,
                );
                tag(s, F32, &text)
            }
            Value::Str(v) => s.serialize_str(v),
            Value::Bin(v) => tag(s, BIN, &BASE64.encode(v)),
            Value::Ext(t, data) => tag(s, EXT, &(t, BASE64.encode(data))),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Json(item))?;
                }
                seq.end()
            }
            Value::Map(entries) if plain_object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(&Json(k), &Json(v))?;
                }
                map.end()
            }
            Value::Map(entries) => tag(s, MAP, &Pairs(entries)),
        }
    }
}

/// The `[[key, value], ...]` payload of `$map`.
struct Pairs<'a>(&'a [(Value, Value)]);

impl Serialize for Pairs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for (k, v) in self.0 {
            seq.serialize_element(&(Json(k), Json(v)))?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &Value) -> String {
        let mut out = Vec::new();
        write(&mut out, value, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn read_str(json: &str) -> Result<Value> {
        read(json.as_bytes())
    }

    fn s(text: &str) -> Value {
        Value::Str(text.to_owned())
    }

    #[test]
    fn every_kind_of_value_is_written_as_documented_and_read_back() {
        let cases: Vec<(Value, &str)> = vec![
            (Value::Null, "null"),
            (
                Value::UInt(u128::MAX),
                "340282366920938463463374607431768211455",
            ),
            (
                Value::Int(i128::MIN),
                "-170141183460469231731687303715884105728",
            ),
            (Value::F64(1.0), "1.0"),
            (Value::F64(-0.0), "-0.0"),
            (Value::F64(f64::NAN), r#"{"$f64":"NaN"}"#),
            (Value::F64(f64::NEG_INFINITY), r#"{"$f64":"-Infinity"}"#),
            (
                Value::F64(f64::from_bits(0x7ff0_0000_0000_0001)),
                r#"{"$f64":"0x7ff0000000000001"}"#,
            ),
            (Value::F32(0.1), r#"{"$f32":0.1}"#),
            (Value::F32(f32::INFINITY), r#"{"$f32":"Infinity"}"#),
            (
                Value::F32(f32::from_bits(0xffc0_0000)),
                r#"{"$f32":"0xffc00000"}"#,
            ),
            (Value::Bin(vec![0, 1, 2, 255]), r#"{"$bin":"AAEC/w=="}"#),
            (Value::Bin(vec![]), r#"{"$bin":""}"#),
            (
                Value::Ext(-1, vec![0, 0, 0, 1]),
                r#"{"$ext":[-1,"AAAAAQ=="]}"#,
            ),
            (
                Value::Map(vec![(Value::UInt(1), s("a")), (s("1"), s("b"))]),
                r#"{"$map":[[1,"a"],["1","b"]]}"#,
            ),
            (
                Value::Map(vec![(s("a"), Value::UInt(1)), (s("a"), Value::UInt(2))]),
                r#"{"$map":[["a",1],["a",2]]}"#,
            ),
            // The escape: a plain map that would read back as a tag.
            (
                Value::Map(vec![(s("$bin"), s("AA=="))]),
                r#"{"$map":[["$bin","AA=="]]}"#,
            ),
            (
                Value::Map(vec![(s("z"), Value::UInt(1)), (s("a"), Value::Map(vec![]))]),
                r#"{"z":1,"a":{}}"#,
            ),
            (Value::Map(vec![(s("$ref"), s("x"))]), r#"{"$ref":"x"}"#),
            (
                Value::Map(vec![(s("$bin"), s("AA==")), (s("x"), Value::Null)]),
                r#"{"$bin":"AA==","x":null}"#,
            ),
        ];
        for (value, json) in cases {
            assert_eq!(text(&value), json, "{value:?}");
            assert_eq!(read_str(json).unwrap(), value, "{json}");
        }
    }

    #[test]
    fn numbers_keep_integers_apart_from_floats_and_read_float32_from_their_text() {
        assert_eq!(read_str("-0").unwrap(), Value::F64(-0.0));
        assert_eq!(read_str("0").unwrap(), Value::UInt(0));
        assert_eq!(read_str("1e2").unwrap(), Value::F64(100.0));
        assert_eq!(read_str("-5").unwrap(), Value::Int(-5));
        assert_eq!(read_str(r#"{"$f32": 1}"#).unwrap(), Value::F32(1.0));
        // 16777217 is between two float32s: read straight from the text, it rounds once.
        assert_eq!(
            read_str(r#"{"$f32": 16777217.0}"#).unwrap(),
            Value::F32(16777216.0)
        );
        for f in [f32::MIN_POSITIVE, f32::MAX, 1.0e-45, 0.3, 123456.79] {
            assert_eq!(read_str(&text(&Value::F32(f))).unwrap(), Value::F32(f));
        }
        for f in [f64::MIN_POSITIVE, f64::MAX, 5e-324, 0.1, 1e300, 1e-7] {
            assert_eq!(read_str(&text(&Value::F64(f))).unwrap(), Value::F64(f));
        }
    }

    #[test]
    fn what_has_no_value_is_refused_with_its_path() {
        let cases = [
            (
                "[1, 340282366920938463463374607431768211456]",
                "integer 340282366920938463463374607431768211456 does not fit 128 bits",
            ),
            (r#"{"a": [1e400]}"#, "at /a/0"),
            (
                r#"{"a": 1, "b": 2, "a": 3}"#,
                "duplicate key \"a\" in the object at /",
            ),
            (
                r#"[{"$bin": "not base64!"}]"#,
                "invalid tagged value `$bin` at /0",
            ),
            (r#"{"$bin": 5}"#, "unexpected payload integer 5"),
            (r#"{"$f32": 1e39}"#, "too large for a float32"),
            (r#"{"$f64": "nan"}"#, "expected \"NaN\""),
            (r#"{"$f64": "0x7ff8"}"#, "16 hex digits"),
            (r#"{"$ext": [128, ""]}"#, "type from -128 to 127"),
            (r#"{"$map": [[1]]}"#, "not a [key, value] pair"),
            ("[1, 2", "invalid JSON at line 1"),
            ("[1] [2]", "invalid JSON"),
            ("", "JSON"),
        ];
        for (json, message) in cases {
            let err = format!("{:#}", read_str(json).unwrap_err());
            assert!(err.contains(message), "{json}: {err}");
        }
    }

    #[test]
    fn detection_takes_any_json_document_and_nothing_else() {
        assert!(is_json(b" [1, {\"a\": null}] "));
        assert!(is_json(
            format!("{}{}", "[".repeat(1024), "]".repeat(1024)).as_bytes()
        ));
        assert!(!is_json(
            format!("{}{}", "[".repeat(1025), "]".repeat(1025)).as_bytes()
        ));
        assert!(!is_json(b"[1] 2"));
        assert!(!is_json(b"\x93\x01\x02\x03"));
        assert!(!is_json(b""));
    }

    #[test]
    fn key_order_and_unicode_survive() {
        let json = r#"{"é":"☃","😀":[],"a":{"y":null,"x":true},"":"\u0000"}"#;
        let value = read_str(json).unwrap();
        assert_eq!(
            text(&value),
            r#"{"é":"☃","😀":[],"a":{"y":null,"x":true},"":"\u0000"}"#
        );
    }
}
