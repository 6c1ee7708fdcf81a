//! Paths into a file: a list of map keys and array indices.
//!
//! # String form
//!
//! `a/0/b` is three segments, split at every `/`. Inside a segment `~1` stands for `/` and `~0`
//! for `~` (the escaping of JSON Pointer, RFC 6901); `~` followed by anything else is an error.
//! The empty string is the root. Empty segments are kept, not dropped: `a//b` names the key `""`
//! inside `a` (msglc drops them; we do not, so every key is reachable). A leading `/` is an
//! empty first key.
//!
//! # Matching
//!
//! - [`Segment::Key`] on a map matches a string key equal to it; if there is none and the text is
//!   a decimal integer, it matches an integer key of that value. On an array the text must be a
//!   decimal integer and is used as an index. So `"a/0/b"` works on `{"a": [{"b": 1}]}` and on
//!   `{"a": {0: {"b": 1}}}`.
//! - [`Segment::Index`] on an array is an index, negative counting from the end (`-1` is the last
//!   element, as in Python); on a map it matches an integer key of that value.
//!
//! Keys of other types (floats, byte strings, arrays) are not reachable by a path; read them with
//! [`Node::keys`](crate::toc::Node::keys) or decode the parent.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind, Result};

/// One step of a [`Path`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A map key (or, if it is a decimal integer, an array index or integer map key).
    Key(String),
    /// An array index (negative from the end) or an integer map key.
    Index(i64),
}

impl Segment {
    /// The text as an integer, if it is one.
    pub(crate) fn as_int(&self) -> Option<i64> {
        match self {
            Segment::Key(text) => parse_decimal(text),
            Segment::Index(i) => Some(*i),
        }
    }
}

fn parse_decimal(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl From<&str> for Segment {
    fn from(key: &str) -> Self {
        Segment::Key(key.to_owned())
    }
}

impl From<String> for Segment {
    fn from(key: String) -> Self {
        Segment::Key(key)
    }
}

impl From<&String> for Segment {
    fn from(key: &String) -> Self {
        Segment::Key(key.clone())
    }
}

macro_rules! index_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Segment {
            fn from(index: $t) -> Self {
                Segment::Index(i64::from(index))
            }
        }
    )*};
}
index_from!(i8, i16, i32, i64, u8, u16, u32);

impl From<usize> for Segment {
    fn from(index: usize) -> Self {
        // No array holds more than u32::MAX elements, so saturating changes no valid path.
        Segment::Index(i64::try_from(index).unwrap_or(i64::MAX))
    }
}

/// A path from the root of a file to one of its nodes.
///
/// Build it with [`Path::key`] / [`Path::index`], the [`toc_path!`](crate::toc_path) macro, or
/// parse the string form.
///
/// # String form
///
/// `a/0/b` is three segments, split at every `/`. Inside a segment `~1` stands for `/` and `~0`
/// for `~` (the escaping of JSON Pointer, RFC 6901); `~` followed by anything else is an error.
/// The empty string is the root. Empty segments are kept, not dropped: `a//b` names the key `""`
/// inside `a` (msglc drops them; we do not, so every key is reachable). A leading `/` is an
/// empty first key.
///
/// # Matching
///
/// - [`Segment::Key`] on a map matches a string key equal to it; if there is none and the text is
///   a decimal integer, it matches an integer key of that value. On an array the text must be a
///   decimal integer and is used as an index. So `"a/0/b"` works on `{"a": [{"b": 1}]}` and on
///   `{"a": {0: {"b": 1}}}`.
/// - [`Segment::Index`] on an array is an index, negative counting from the end (`-1` is the last
///   element, as in Python); on a map it matches an integer key of that value.
///
/// Keys of other types (floats, byte strings, arrays) are not reachable by a path; read them with
/// [`Node::keys`](crate::toc::Node::keys) or decode the parent.
///
/// ```
/// use serde_formats::toc::{Path, Segment};
/// let built = Path::root().key("a").index(0).key("b/c");
/// assert_eq!(built, "a/0/b~1c".parse::<Path>().unwrap().with_indices());
/// assert_eq!(built.to_string(), "a/0/b~1c");
/// assert_eq!(serde_formats::toc_path!["a", 0, "b/c"], built);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Path {
    segments: Vec<Segment>,
}

impl Path {
    /// The empty path: the root.
    pub fn root() -> Self {
        Path::default()
    }

    /// A path of these segments.
    pub fn from_segments(segments: Vec<Segment>) -> Self {
        Path { segments }
    }

    /// Appends a map key.
    #[must_use]
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.segments.push(Segment::Key(key.into()));
        self
    }

    /// Appends an array index (or integer map key).
    #[must_use]
    pub fn index(mut self, index: i64) -> Self {
        self.segments.push(Segment::Index(index));
        self
    }

    /// Appends a segment.
    pub fn push(&mut self, segment: impl Into<Segment>) {
        self.segments.push(segment.into());
    }

    /// The segments, root first.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Turns every key that is a decimal integer into an index. Matching treats both alike;
    /// this only helps comparing paths.
    #[must_use]
    pub fn with_indices(self) -> Self {
        Path {
            segments: self
                .segments
                .into_iter()
                .map(|s| match s.as_int() {
                    Some(i) => Segment::Index(i),
                    None => s,
                })
                .collect(),
        }
    }

    /// Parses the string form.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PathNotFound`] with the byte offset in `text` of a `~` not followed by `0`
    /// or `1`.
    pub fn parse(text: &str) -> Result<Path> {
        if text.is_empty() {
            return Ok(Path::root());
        }
        let mut segments = Vec::new();
        let mut offset = 0usize;
        for raw in text.split('/') {
            let mut key = String::with_capacity(raw.len());
            let mut chars = raw.char_indices();
            while let Some((i, c)) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some((_, '0')) => key.push('~'),
                        Some((_, '1')) => key.push('/'),
                        _ => {
                            return Err(Error::with_message(
                                ErrorKind::PathNotFound,
                                "`~` must be followed by 0 or 1 in a path",
                            )
                            .with_position(crate::Position::Byte((offset + i) as u64)))
                        }
                    }
                } else {
                    key.push(c);
                }
            }
            segments.push(Segment::Key(key));
            offset += raw.len() + 1;
        }
        Ok(Path { segments })
    }
}

impl FromStr for Path {
    type Err = Error;
    fn from_str(text: &str) -> Result<Path> {
        Path::parse(text)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            match segment {
                Segment::Key(key) => {
                    for c in key.chars() {
                        match c {
                            '~' => f.write_str("~0")?,
                            '/' => f.write_str("~1")?,
                            c => write!(f, "{c}")?,
                        }
                    }
                }
                Segment::Index(i) => write!(f, "{i}")?,
            }
        }
        Ok(())
    }
}

/// Anything a reader accepts as a path: a [`Path`], or a `&str` / `String` in the string form.
pub trait IntoPath {
    /// Converts to a path.
    ///
    /// # Errors
    ///
    /// A string that does not parse (see [`Path::parse`]).
    fn into_path(self) -> Result<Path>;
}

impl IntoPath for Path {
    fn into_path(self) -> Result<Path> {
        Ok(self)
    }
}

impl IntoPath for &Path {
    fn into_path(self) -> Result<Path> {
        Ok(self.clone())
    }
}

impl IntoPath for &str {
    fn into_path(self) -> Result<Path> {
        Path::parse(self)
    }
}

impl IntoPath for &String {
    fn into_path(self) -> Result<Path> {
        Path::parse(self)
    }
}

impl IntoPath for String {
    fn into_path(self) -> Result<Path> {
        Path::parse(&self)
    }
}

impl IntoPath for &[Segment] {
    fn into_path(self) -> Result<Path> {
        Ok(Path::from_segments(self.to_vec()))
    }
}

/// Builds a [`Path`](crate::toc::Path) from keys (`&str`, `String`) and indices (integers).
///
/// ```
/// let path = serde_formats::toc_path!["records", 7, "name"];
/// assert_eq!(path.to_string(), "records/7/name");
/// ```
#[macro_export]
macro_rules! toc_path {
    ($($segment:expr),* $(,)?) => {
        $crate::toc::Path::from_segments(::std::vec![$($crate::toc::Segment::from($segment)),*])
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_escapes_and_keeps_empty_segments() {
        let path = Path::parse("a~1b//~0c/-1").unwrap();
        assert_eq!(
            path.segments(),
            &[
                Segment::Key("a/b".into()),
                Segment::Key(String::new()),
                Segment::Key("~c".into()),
                Segment::Key("-1".into()),
            ]
        );
        assert_eq!(path.to_string(), "a~1b//~0c/-1");
        assert_eq!(Path::parse("").unwrap(), Path::root());
        assert_eq!(Path::parse("/").unwrap().segments().len(), 2);
    }

    #[test]
    fn rejects_bad_escapes_with_their_offset() {
        let err = Path::parse("ab/c~2").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PathNotFound);
        assert_eq!(err.offset(), Some(4));
        assert!(Path::parse("x~").is_err());
    }

    #[test]
    fn decimal_keys_double_as_indices() {
        assert_eq!(Segment::from("12").as_int(), Some(12));
        assert_eq!(Segment::from("-3").as_int(), Some(-3));
        assert_eq!(Segment::from("1e3").as_int(), None);
        assert_eq!(Segment::from("+1").as_int(), None);
        assert_eq!(Segment::from("").as_int(), None);
        assert_eq!(Segment::from("-").as_int(), None);
    }
}
