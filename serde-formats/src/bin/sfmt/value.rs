//! [`Value`]: the one value model every sfmt conversion goes through, and what each format can
//! hold of it.
//!
//! It holds everything the richest of sfmt's formats hold, so that a conversion between two
//! formats that can both represent a value keeps it exactly:
//!
//! - integers up to 128 bits (JSON numbers, DyND `int128`/`uint128`); MessagePack's are 64-bit;
//! - float32 apart from float64 (MessagePack `ca`, DyND `float32`), NaN payloads and `-0.0`
//!   included: floats compare by their bits;
//! - byte strings (MessagePack `bin`, DyND `bytes`);
//! - maps as entry lists: keys of any kind, in their order, equal keys kept (MessagePack allows
//!   all three; a file msglc wrote from `{1: "a", "1": "b"}` has two distinct keys);
//! - MessagePack extensions, the timestamp (type -1) included, as their type and bytes.
//!
//! Why an enum of our own rather than `rmpv::Value` or `toc::Value`: both stop at 64-bit
//! integers, and `rmpv` strings may hold invalid UTF-8, which none of the other formats can
//! write. [`Value`] is `toc::Value` plus 128-bit integers; the conversions below are the only
//! place the two meet.
//!
//! Where a target format has no form for a value, [`check`] names the first such value and its
//! [`Path`], and the conversion stops with that one line instead of writing something that reads
//! back differently.

use std::fmt::{self, Write as _};

use anyhow::{anyhow, bail, Result};
use serde_formats::toc;

use crate::formats::Format;

/// Any value sfmt converts.
#[derive(Debug, Clone)]
pub enum Value {
    /// `null` / `nil` / `void` / a missing optional.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A non-negative integer.
    UInt(u128),
    /// A negative integer.
    Int(i128),
    /// A float32.
    F32(f32),
    /// A float64.
    F64(f64),
    /// A UTF-8 string.
    Str(String),
    /// A byte string.
    Bin(Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// A map: entries in order, keys of any kind, equal keys kept.
    Map(Vec<(Value, Value)>),
    /// A MessagePack extension: its type and data.
    Ext(i8, Vec<u8>),
}

impl PartialEq for Value {
    /// Exact equality: floats by their bits, float32 never equal to float64, maps in order.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::UInt(a), Value::UInt(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::F32(a), Value::F32(b)) => a.to_bits() == b.to_bits(),
            (Value::F64(a), Value::F64(b)) => a.to_bits() == b.to_bits(),
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Bin(a), Value::Bin(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Map(a), Value::Map(b)) => a == b,
            (Value::Ext(ta, a), Value::Ext(tb, b)) => ta == tb && a == b,
            _ => false,
        }
    }
}

impl Value {
    /// An integer, non-negative ones as [`Value::UInt`].
    pub fn int(v: i128) -> Value {
        match u128::try_from(v) {
            Ok(v) => Value::UInt(v),
            Err(_) => Value::Int(v),
        }
    }

    /// A short description for messages: `null`, `map of 2 entries`, `float32 0.1`.
    pub fn describe(&self) -> String {
        match self {
            Value::Null => "null".to_owned(),
            Value::Bool(v) => format!("boolean {v}"),
            Value::UInt(v) => format!("integer {v}"),
            Value::Int(v) => format!("integer {v}"),
            Value::F32(v) => format!("float32 {v:?}"),
            Value::F64(v) => format!("float64 {v:?}"),
            Value::Str(v) if v.chars().count() > 24 => {
                format!("string {:?}...", v.chars().take(24).collect::<String>())
            }
            Value::Str(v) => format!("string {v:?}"),
            Value::Bin(v) => format!("bin of {} bytes", v.len()),
            Value::Array(v) if v.len() == 1 => "array of 1 element".to_owned(),
            Value::Array(v) => format!("array of {} elements", v.len()),
            Value::Map(v) if v.len() == 1 => "map of 1 entry".to_owned(),
            Value::Map(v) => format!("map of {} entries", v.len()),
            Value::Ext(tag, v) => format!("ext of type {tag} ({} bytes)", v.len()),
        }
    }
}

/// Where a value lies: JSON-Pointer-like, `/a/3`; `/` is the root. String keys are written as
/// they are (with `~` and `/` escaped as `~0` and `~1`), other keys in parentheses: `/(1)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Path(Vec<String>);

impl Path {
    /// The path of a map entry's value.
    pub fn key(&self, key: &Value) -> Path {
        let segment = match key {
            Value::Str(text) => text.replace('~', "~0").replace('/', "~1"),
            other => format!("({})", other.describe()),
        };
        self.child(segment)
    }

    /// The path of an array element.
    pub fn index(&self, index: usize) -> Path {
        self.child(index.to_string())
    }

    fn child(&self, segment: String) -> Path {
        let mut segments = self.0.clone();
        segments.push(segment);
        Path(segments)
    }
}

impl fmt::Display for Path {
    /// Deep paths keep their first and last eight segments, so a message stays one short line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const ENDS: usize = 8;
        if self.0.is_empty() {
            return f.write_char('/');
        }
        let elided = self.0.len().saturating_sub(2 * ENDS);
        for (i, segment) in self.0.iter().enumerate() {
            if elided > 0 && i == ENDS {
                write!(f, "/...{elided} more...")?;
            }
            if elided == 0 || i < ENDS || i >= ENDS + elided {
                write!(f, "/{segment}")?;
            }
        }
        Ok(())
    }
}

/// Checks that `format` can hold all of `value`: the error names the first value (depth first,
/// in order) it has no exact form for, where it is and why: `null at /a/3 has no typed-column
/// form`.
///
/// - JSON holds everything (see [`crate::json`]);
/// - msgpack and toc: integers must fit 64 bits (`-2^63 ..= 2^64 - 1`);
/// - dynd has no extension, and map keys must be distinct strings (struct field names);
/// - typed-column has Boolean, Fraction (`i64` integers), Float (float64), String and Column
///   only: no null, map, bin, float32, extension, or integer outside `i64`.
pub fn check(value: &Value, format: Format) -> Result<()> {
    if let Some((levels, limit)) = nesting_rule(format) {
        if let Some(path) = too_deep(value, &Path::default(), 0, levels, limit) {
            bail!(
                "the value at {path} is nested deeper than {format}'s depth limit of {limit} \
                 (what sfmt writes, it reads back)"
            );
        }
    }
    let mut found = None;
    walk(value, &mut Vec::new(), &mut |steps, value| {
        found = refusal(value, format)
            .map(|why| anyhow!("{} at {} {why}", value.describe(), path_of(steps)));
        found.is_none()
    });
    found.map_or(Ok(()), Err)
}

/// The nesting levels a value opens for its children, in some format.
type Levels = fn(&Value) -> usize;

/// How many nesting levels of `format` a value opens (for its children), and how many the format's
/// reader accepts, where sfmt's own reader sets that limit. toc, dynd and typed-column writers
/// refuse what their readers would, with the library's own error.
fn nesting_rule(format: Format) -> Option<(Levels, usize)> {
    match format {
        Format::Json => Some((crate::json::levels, crate::json::DEPTH_LIMIT)),
        Format::Msgpack => Some((msgpack_levels, crate::formats::MSGPACK_DEPTH_LIMIT)),
        _ => None,
    }
}

/// MessagePack's nesting: arrays, maps and extensions (which rmp-serde counts as one level).
fn msgpack_levels(value: &Value) -> usize {
    usize::from(matches!(
        value,
        Value::Array(_) | Value::Map(_) | Value::Ext(..)
    ))
}

/// The path of the first value (depth first) whose levels, added to the `depth` its ancestors
/// opened, pass `limit`.
fn too_deep(
    value: &Value,
    path: &Path,
    depth: usize,
    levels: Levels,
    limit: usize,
) -> Option<Path> {
    let depth = depth + levels(value);
    if depth > limit {
        return Some(path.clone());
    }
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| too_deep(item, &path.index(i), depth, levels, limit)),
        Value::Map(entries) => entries.iter().find_map(|(k, v)| {
            let at = path.key(k);
            too_deep(k, &at, depth, levels, limit)
                .or_else(|| too_deep(v, &at, depth, levels, limit))
        }),
        _ => None,
    }
}

/// Why `format` cannot hold `value` itself (its children are visited on their own).
fn refusal(value: &Value, format: Format) -> Option<String> {
    let no_form = || Some(format!("has no {format} form"));
    match (format, value) {
        (Format::Json | Format::Vector, _) => None,
        (Format::Msgpack | Format::Toc, Value::UInt(v)) if *v > u128::from(u64::MAX) => no_form(),
        (Format::Msgpack | Format::Toc, Value::Int(v)) if *v < i128::from(i64::MIN) => no_form(),
        (
            Format::TypedColumn,
            Value::Null | Value::Map(_) | Value::Bin(_) | Value::F32(_) | Value::Ext(..),
        ) => no_form(),
        (Format::TypedColumn, Value::UInt(v)) if *v > i64::MAX as u128 => no_form(),
        (Format::TypedColumn, Value::Int(v)) if *v < i128::from(i64::MIN) => no_form(),
        (Format::Dynd, Value::Ext(..)) => no_form(),
        (Format::Dynd, Value::Map(entries)) => {
            let mut names = std::collections::HashSet::with_capacity(entries.len());
            entries.iter().find_map(|(key, _)| match key {
                Value::Str(name) if names.insert(name.as_str()) => None,
                Value::Str(_) => Some("has two equal keys: dynd struct fields are distinct".into()),
                _ => Some("has a key that is not a string: dynd struct fields are names".into()),
            })
        }
        _ => None,
    }
}

/// A step of the walk's path, turned into a [`Path`] only for the value reported.
enum Step<'a> {
    Index(usize),
    Key(&'a Value),
}

/// Visits every value depth first, each map key before its value; `visit` returns false to
/// stop the walk.
fn walk<'a>(
    value: &'a Value,
    steps: &mut Vec<Step<'a>>,
    visit: &mut dyn FnMut(&[Step<'a>], &'a Value) -> bool,
) -> bool {
    if !visit(steps, value) {
        return false;
    }
    let mut go = |step, value: &'a Value, key: Option<&'a Value>, steps: &mut Vec<Step<'a>>| {
        steps.push(step);
        let ok = key.is_none_or(|k| walk(k, steps, visit)) && walk(value, steps, visit);
        steps.pop();
        ok
    };
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .all(|(i, item)| go(Step::Index(i), item, None, steps)),
        Value::Map(entries) => entries
            .iter()
            .all(|(k, v)| go(Step::Key(k), v, Some(k), steps)),
        _ => true,
    }
}

fn path_of(steps: &[Step<'_>]) -> Path {
    steps.iter().fold(Path::default(), |path, step| match step {
        Step::Index(i) => path.index(*i),
        Step::Key(k) => path.key(k),
    })
}

/// Reads any MessagePack value straight from the toc and rmp-serde deserializers, as
/// [`toc::Value`] does (extensions through their `_ExtStruct` newtype, float32 through
/// `visit_f32`), without the copy [`from_toc`] makes: reading through `toc::Value` and
/// `from_toc` instead took about a quarter more CPU time converting msgpack to msgpack (debug
/// build, 100 000 small records).
impl<'de> serde::Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any MessagePack value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        serde::Deserialize::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::UInt(u128::from(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::int(i128::from(v)))
    }
    fn visit_f32<E>(self, v: f32) -> Result<Value, E> {
        Ok(Value::F32(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Bin(v.to_vec()))
    }
    fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Value, E> {
        Ok(Value::Bin(v))
    }
    /// An extension: `(type, data)`.
    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match <toc::Value as serde::Deserialize>::deserialize(d)? {
            toc::Value::Array(parts) => match <[toc::Value; 2]>::try_from(parts) {
                Ok([tag, toc::Value::Bin(data)]) => {
                    let tag = match tag {
                        toc::Value::UInt(t) => i8::try_from(t).ok(),
                        toc::Value::Int(t) => i8::try_from(t).ok(),
                        _ => None,
                    };
                    tag.map(|tag| Value::Ext(tag, data))
                }
                _ => None,
            },
            _ => None,
        }
        .ok_or_else(|| serde::de::Error::custom("a newtype struct that is not an extension"))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        // The hint comes from the input: bounded so that a lying length allocates little.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Value::Map(entries))
    }
}

/// Where and how `got` differs from `expected`, for `compare`: `at /a: float32 0.1 came back
/// as float64 0.10000000149011612`.
pub fn first_difference(expected: &Value, got: &Value) -> Option<String> {
    difference(expected, got, &Path::default())
}

fn difference(expected: &Value, got: &Value, path: &Path) -> Option<String> {
    match (expected, got) {
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (a, b))| difference(a, b, &path.index(i))),
        (Value::Map(a), Value::Map(b)) if a.len() == b.len() => {
            a.iter().zip(b).find_map(|((ka, va), (kb, vb))| {
                if ka != kb {
                    Some(format!(
                        "at {}: key {} came back as {}",
                        path.key(ka),
                        ka.describe(),
                        kb.describe()
                    ))
                } else {
                    difference(va, vb, &path.key(ka))
                }
            })
        }
        _ if expected == got => None,
        _ => Some(format!(
            "at {path}: {} came back as {}",
            expected.describe(),
            got.describe()
        )),
    }
}

/// The value of a MessagePack value.
pub fn from_toc(value: toc::Value) -> Result<Value> {
    Ok(match value {
        toc::Value::Nil => Value::Null,
        toc::Value::Bool(v) => Value::Bool(v),
        toc::Value::UInt(v) => Value::UInt(u128::from(v)),
        toc::Value::Int(v) => Value::int(i128::from(v)),
        toc::Value::F32(v) => Value::F32(v),
        toc::Value::F64(v) => Value::F64(v),
        toc::Value::Str(v) => Value::Str(v),
        toc::Value::Bin(v) => Value::Bin(v),
        toc::Value::Ext(tag, data) => Value::Ext(tag, data),
        toc::Value::Array(items) => {
            Value::Array(items.into_iter().map(from_toc).collect::<Result<_>>()?)
        }
        toc::Value::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| Ok((from_toc(k)?, from_toc(v)?)))
                .collect::<Result<_>>()?,
        ),
        other => return Err(anyhow!("a MessagePack value sfmt does not know: {other:?}")),
    })
}

/// Serializes an unsigned integer as a `u64` where it fits (the widest most formats take), as
/// a `u128` otherwise.
pub fn serialize_uint<S: serde::Serializer>(v: u128, s: S) -> Result<S::Ok, S::Error> {
    match u64::try_from(v) {
        Ok(v) => s.serialize_u64(v),
        Err(_) => s.serialize_u128(v),
    }
}

/// Serializes a signed integer as an `i64` where it fits, as an `i128` otherwise.
pub fn serialize_int<S: serde::Serializer>(v: i128, s: S) -> Result<S::Ok, S::Error> {
    match i64::try_from(v) {
        Ok(v) => s.serialize_i64(v),
        Err(_) => s.serialize_i128(v),
    }
}

/// MessagePack through serde, with toc's and rmp-serde's conventions for float32 and
/// extensions (`toc::F32_STRUCT_NAME`, and `toc::EXT_STRUCT_NAME` through [`toc::Value`]).
/// Integers past 64 bits are serde `u128`/`i128`, which the MessagePack writers refuse:
/// [`check`] first.
impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(v) => s.serialize_bool(*v),
            Value::UInt(v) => serialize_uint(*v, s),
            Value::Int(v) => serialize_int(*v, s),
            Value::F32(v) => s.serialize_newtype_struct(toc::F32_STRUCT_NAME, v),
            Value::F64(v) => s.serialize_f64(*v),
            Value::Str(v) => s.serialize_str(v),
            Value::Bin(v) => s.serialize_bytes(v),
            // As toc::Value writes it (the data copied: extensions are small).
            Value::Ext(tag, data) => {
                serde::Serialize::serialize(&toc::Value::Ext(*tag, data.clone()), s)
            }
            // A sequence and a map of known lengths, element by element, entry by entry.
            Value::Array(items) => s.collect_seq(items),
            Value::Map(entries) => s.collect_map(entries.iter().map(|(k, v)| (k, v))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{self, EncodeOptions, MSGPACK_DEPTH_LIMIT};
    use crate::json;

    /// `levels` containers, each the only child of the one above, around a null.
    fn nested(levels: usize, wrap: impl Fn(Value) -> Value) -> Value {
        (0..levels).fold(Value::Null, |inner, _| wrap(inner))
    }

    fn array(inner: Value) -> Value {
        Value::Array(vec![inner])
    }

    /// A map with an integer key: `$map` in JSON, three JSON levels.
    fn int_keyed(inner: Value) -> Value {
        Value::Map(vec![(Value::UInt(1), inner)])
    }

    /// Runs `test` on a stack as large as sfmt's worker thread: a debug build recurses deeply
    /// through 1024 levels of serde.
    fn on_worker_stack(test: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(crate::WORKER_STACK)
            .spawn(test)
            .unwrap()
            .join()
            .unwrap();
    }

    fn round_trip(format: Format, value: &Value) -> Result<Value> {
        let bytes = formats::encode_to_vec(format, value, &EncodeOptions::default())?;
        formats::decode(format, &bytes)
    }

    #[test]
    fn json_at_its_depth_limit_round_trips_and_one_level_deeper_is_refused_by_the_writer() {
        on_worker_stack(|| {
            let at_limit = nested(json::DEPTH_LIMIT, array);
            assert_eq!(round_trip(Format::Json, &at_limit).unwrap(), at_limit);
            let refused = format!(
                "{:#}",
                round_trip(Format::Json, &array(at_limit)).unwrap_err()
            );
            assert!(refused.contains("json's depth limit of 1024"), "{refused}");
            // The reader refuses the same nesting written by hand.
            let text = format!("{}{}", "[".repeat(1025), "]".repeat(1025));
            let read = format!("{:#}", json::read(text.as_bytes()).unwrap_err());
            assert!(read.contains("deeper than 1024"), "{read}");
        });
    }

    #[test]
    fn json_depth_counts_the_levels_of_tagged_maps() {
        on_worker_stack(|| {
            // 341 int-keyed maps open 1023 JSON levels, 342 would open 1026.
            let fits = nested(341, int_keyed);
            assert_eq!(round_trip(Format::Json, &fits).unwrap(), fits);
            let refused = format!(
                "{:#}",
                round_trip(Format::Json, &int_keyed(fits.clone())).unwrap_err()
            );
            assert!(refused.contains("depth limit of 1024"), "{refused}");
            // MessagePack holds it: 342 levels there.
            let deeper = int_keyed(fits);
            assert_eq!(round_trip(Format::Msgpack, &deeper).unwrap(), deeper);
        });
    }

    #[test]
    fn msgpack_at_its_depth_limit_round_trips_and_one_level_deeper_is_refused_by_both_sides() {
        on_worker_stack(|| {
            let at_limit = nested(MSGPACK_DEPTH_LIMIT, array);
            assert_eq!(round_trip(Format::Msgpack, &at_limit).unwrap(), at_limit);
            let refused = format!(
                "{:#}",
                round_trip(Format::Msgpack, &array(at_limit)).unwrap_err()
            );
            assert!(
                refused.contains("msgpack's depth limit of 1024"),
                "{refused}"
            );
            // fixarray markers around a nil, written by hand.
            let mut bytes = vec![0x91; MSGPACK_DEPTH_LIMIT + 1];
            bytes.push(0xc0);
            let read = format!("{:#}", formats::read_msgpack(&bytes).unwrap_err());
            assert!(read.contains("depth limit of 1024"), "{read}");
            bytes.remove(0);
            assert!(formats::read_msgpack(&bytes).is_ok());
        });
    }

    fn s(text: &str) -> Value {
        Value::Str(text.to_owned())
    }

    #[test]
    fn the_first_value_a_format_cannot_hold_is_named_with_its_path() {
        let value = Value::Map(vec![
            (s("a/b"), Value::Array(vec![Value::UInt(1), Value::Null])),
            (
                Value::UInt(7),
                Value::Map(vec![(Value::UInt(u128::from(u64::MAX) + 1), Value::Null)]),
            ),
            (s("e"), Value::Ext(-1, vec![0; 4])),
        ]);
        let line = |format| format!("{:#}", check(&value, format).unwrap_err());
        assert_eq!(
            line(Format::TypedColumn),
            "map of 3 entries at / has no typed-column form"
        );
        assert_eq!(
            line(Format::Msgpack),
            "integer 18446744073709551616 at /(integer 7)/(integer 18446744073709551616) has no \
             msgpack form"
        );
        assert_eq!(
            line(Format::Dynd),
            "map of 3 entries at / has a key that is not a string: dynd struct fields are names"
        );
        assert!(check(&value, Format::Json).is_ok());
        let list = Value::Array(vec![Value::Array(vec![Value::UInt(1), Value::Null])]);
        assert_eq!(
            format!("{:#}", check(&list, Format::TypedColumn).unwrap_err()),
            "null at /0/1 has no typed-column form"
        );
        let escaped = Value::Map(vec![(s("a/b~"), Value::F32(1.0))]);
        assert_eq!(
            format!("{:#}", check(&escaped, Format::TypedColumn).unwrap_err()),
            "map of 1 entry at / has no typed-column form"
        );
        assert_eq!(Path::default().key(&s("a/b~")).to_string(), "/a~1b~0");
    }

    #[test]
    fn differences_say_where_and_what() {
        let a = Value::Map(vec![(s("x"), Value::Array(vec![Value::F32(0.1)]))]);
        let b = Value::Map(vec![(
            s("x"),
            Value::Array(vec![Value::F64(f64::from(0.1f32))]),
        )]);
        assert_eq!(
            first_difference(&a, &b).unwrap(),
            "at /x/0: float32 0.1 came back as float64 0.10000000149011612"
        );
        let c = Value::Map(vec![(Value::UInt(1), Value::Null)]);
        let d = Value::Map(vec![(s("1"), Value::Null)]);
        assert_eq!(
            first_difference(&c, &d).unwrap(),
            "at /(integer 1): key integer 1 came back as string \"1\""
        );
        assert_eq!(first_difference(&a, &a.clone()), None);
        let nan = Value::F64(f64::NAN);
        assert_eq!(first_difference(&nan, &nan.clone()), None);
        assert!(first_difference(&Value::F64(0.0), &Value::F64(-0.0)).is_some());
        assert!(
            first_difference(&Value::Bin(vec![1]), &Value::Array(vec![Value::UInt(1)])).is_some()
        );
    }

    #[test]
    fn messagepack_values_convert_both_ways() {
        let toc_value = toc::Value::Map(vec![
            (toc::Value::Int(-3), toc::Value::F32(0.5)),
            (toc::Value::Bin(vec![1]), toc::Value::Ext(-1, vec![0; 8])),
        ]);
        let value = from_toc(toc_value.clone()).unwrap();
        assert_eq!(
            value,
            Value::Map(vec![
                (Value::Int(-3), Value::F32(0.5)),
                (Value::Bin(vec![1]), Value::Ext(-1, vec![0; 8])),
            ])
        );
        let bytes = toc::to_bytes(&value).unwrap();
        assert_eq!(toc::from_bytes::<toc::Value>(&bytes).unwrap(), toc_value);
    }
}
