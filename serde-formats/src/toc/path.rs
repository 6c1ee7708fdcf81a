//! Paths into a file: a list of map keys and array indices, and their string form.
//!
//! The syntax of the string form and the matching rules are documented on [`Path`].

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind, Result};

/// One step of a [`Path`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A string map key.
    Key(String),
    /// An array index (negative from the end), or an integer map key (else the string key
    /// spelled as this integer).
    Index(i64),
}

impl Segment {
    /// The index or integer key of an [`Segment::Index`].
    pub(crate) fn as_int(&self) -> Option<i64> {
        match self {
            Segment::Key(_) => None,
            Segment::Index(i) => Some(*i),
        }
    }
}

/// Whether `text` is written as a decimal integer: `0`, or an optional `-` and digits without a
/// leading zero (`-0` is not one).
fn is_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    match digits.as_bytes() {
        [] => false,
        [b'0'] => digits.len() == text.len(),
        [first, rest @ ..] => (b'1'..=b'9').contains(first) && rest.iter().all(u8::is_ascii_digit),
    }
}

/// Whether `text` is in single quotes (the quoted form of a string key).
fn is_quoted(text: &str) -> bool {
    text.len() >= 2 && text.starts_with('\'') && text.ends_with('\'')
}

impl fmt::Display for Segment {
    /// The segment's string form, without its leading `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Segment::Index(i) => write!(f, "{i}"),
            Segment::Key(key) => {
                let quote = is_decimal(key) || is_quoted(key);
                if quote {
                    f.write_str("'")?;
                }
                for c in key.chars() {
                    match c {
                        '~' => f.write_str("~0")?,
                        '/' => f.write_str("~1")?,
                        c => write!(f, "{c}")?,
                    }
                }
                if quote {
                    f.write_str("'")?;
                }
                Ok(())
            }
        }
    }
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
/// parse the string form: the empty string is the root, `/a/0` the element 0 of the key `a`,
/// `/'0'` the string key `"0"`, `/` the empty key.
///
/// # String form
///
/// Like a JSON Pointer (RFC 6901), with a way to tell integers from strings:
///
/// - The empty string is the root. Every segment is introduced by `/`: `/a/0/b` is three
///   segments. A path that does not start with `/` gets one implied, so msglc's `a/0/b` means
///   `/a/0/b`.
/// - Inside a segment, `~1` stands for `/` and `~0` for `~`; `~` followed by anything else is an
///   error.
/// - A segment that is a decimal integer (`0`, `17`, `-1`: no `+`, no leading zero, no `-0`) is
///   a [`Segment::Index`]; it must fit an `i64`.
/// - A segment in single quotes, `'...'`, is the string key between them: `'1'` is the string
///   `"1"`, `''` the empty string, `''x''` the string `'x'`.
/// - Any other segment is a string key, as it is: `/name`, `/007`, `/-0`, `/1.5`. An empty
///   segment is the empty key: `/` is the key `""` of the root, `/a//b` the key `""` inside `a`
///   (msglc drops empty segments; we do not, so every key is reachable).
///
/// `Display` writes this form, quoting exactly the string keys that would otherwise
/// read as integers or as quoted keys, so parsing what it writes gives the same path back.
///
/// | string form | segments |
/// | --- | --- |
/// | (empty) | none: the root |
/// | `/` or `/''` | `Key("")` |
/// | `//` | `Key("")`, `Key("")` |
/// | `/1` or `1` | `Index(1)` |
/// | `/'1'` | `Key("1")` |
/// | `/-1` | `Index(-1)` |
/// | `/01` | `Key("01")` |
/// | `/a~1b/~0` | `Key("a/b")`, `Key("~")` |
///
/// # Matching
///
/// - [`Segment::Key`] matches a string key equal to it, in a map only.
/// - [`Segment::Index`] on an array is an index, negative counting from the end (`-1` is the last
///   element, as in Python). On a map it matches the integer key of that value; when the map has
///   none, the string key spelled as that integer (as msglc and JSON Pointer read `a/0` on a map
///   with string keys). So `/1` finds the integer key 1 before the string key `"1"`, and `/'1'`
///   finds only the string key.
/// - When a map holds the same key twice, the first one is found.
///
/// Keys of other types (floats, byte strings, arrays), and integer keys beyond `i64`, are not
/// reachable by a path; read them with [`Node::keys`](crate::toc::Node::keys) or decode the
/// parent.///
/// ```
/// use serde_formats::toc::Path;
/// let built = Path::root().key("a").index(0).key("b/c").key("7").key("");
/// assert_eq!(built.to_string(), "/a/0/b~1c/'7'/");
/// assert_eq!("/a/0/b~1c/'7'/".parse::<Path>().unwrap(), built);
/// assert_eq!("a/0/b~1c/'7'/".parse::<Path>().unwrap(), built);
/// assert_eq!(serde_formats::toc_path!["a", 0, "b/c", "7", ""], built);
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

    /// Appends a string map key.
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

    /// Parses the string form (see [`Path`]).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::PathNotFound`] with the byte offset in `text` of a `~` not followed by `0`
    /// or `1`, or of an integer segment beyond `i64`.
    pub fn parse(text: &str) -> Result<Path> {
        if text.is_empty() {
            return Ok(Path::root());
        }
        // A missing leading `/` is implied; offsets stay those of `text`.
        let (body, mut offset) = match text.strip_prefix('/') {
            Some(body) => (body, 1),
            None => (text, 0),
        };
        let mut segments = Vec::new();
        for raw in body.split('/') {
            let segment = if is_quoted(raw) {
                Segment::Key(unescape(&raw[1..raw.len() - 1], offset + 1)?)
            } else {
                let key = unescape(raw, offset)?;
                if is_decimal(&key) {
                    let index = key.parse().map_err(|_| {
                        path_error("integer segment beyond the range of i64", offset)
                    })?;
                    Segment::Index(index)
                } else {
                    Segment::Key(key)
                }
            };
            segments.push(segment);
            offset += raw.len() + 1;
        }
        Ok(Path { segments })
    }
}

/// Replaces `~0` and `~1` in a segment that starts at byte `offset` of the path.
fn unescape(raw: &str, offset: usize) -> Result<String> {
    let mut key = String::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '~' {
            key.push(c);
            continue;
        }
        match chars.next() {
            Some((_, '0')) => key.push('~'),
            Some((_, '1')) => key.push('/'),
            _ => {
                return Err(path_error(
                    "`~` must be followed by 0 or 1 in a path",
                    offset + i,
                ))
            }
        }
    }
    Ok(key)
}

#[cold]
fn path_error(message: &str, offset: usize) -> Error {
    Error::with_message(ErrorKind::PathNotFound, message)
        .with_position(crate::Position::Byte(offset as u64))
}

impl FromStr for Path {
    type Err = Error;
    fn from_str(text: &str) -> Result<Path> {
        Path::parse(text)
    }
}

impl fmt::Display for Path {
    /// The string form: `/` before every segment; the root is the empty string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for segment in &self.segments {
            write!(f, "/{segment}")?;
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

/// Builds a [`Path`] from string keys (`&str`, `String`) and indices or
/// integer keys (integers).
///
/// ```
/// let path = serde_formats::toc_path!["records", 7, "name", "7"];
/// assert_eq!(path.to_string(), "/records/7/name/'7'");
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
    use Segment::Index;

    fn key(text: &str) -> Segment {
        Segment::Key(text.to_owned())
    }

    #[test]
    fn every_ambiguous_form_has_one_reading() {
        let cases: &[(&str, Vec<Segment>)] = &[
            ("", vec![]),
            ("/", vec![key("")]),
            ("/''", vec![key("")]),
            ("''", vec![key("")]),
            ("//", vec![key(""), key("")]),
            ("/a//b", vec![key("a"), key(""), key("b")]),
            ("a//b", vec![key("a"), key(""), key("b")]),
            ("a/", vec![key("a"), key("")]),
            ("/1", vec![Index(1)]),
            ("1", vec![Index(1)]),
            ("/'1'", vec![key("1")]),
            ("/-1", vec![Index(-1)]),
            ("/'-1'", vec![key("-1")]),
            ("/0", vec![Index(0)]),
            ("/-0", vec![key("-0")]),
            ("/01", vec![key("01")]),
            ("/+1", vec![key("+1")]),
            ("/1e3", vec![key("1e3")]),
            ("/'", vec![key("'")]),
            ("/'x'", vec![key("x")]),
            ("/''x''", vec![key("'x'")]),
            ("/'a/b'", vec![key("'a"), key("b'")]),
            ("/'a~1b'", vec![key("a/b")]),
            ("/a~1b/~0c", vec![key("a/b"), key("~c")]),
            ("/~01", vec![key("~1")]),
            ("/9223372036854775807", vec![Index(i64::MAX)]),
            ("/-9223372036854775808", vec![Index(i64::MIN)]),
            ("/'99999999999999999999'", vec![key("99999999999999999999")]),
        ];
        for (text, segments) in cases {
            assert_eq!(
                Path::parse(text).unwrap().segments(),
                &segments[..],
                "{text}"
            );
        }
    }

    #[test]
    fn display_quotes_exactly_what_would_misread_and_round_trips() {
        let paths = [
            Path::root(),
            Path::root().key(""),
            Path::root().key("").key(""),
            Path::root().key("1").index(1).key("-1").index(-1),
            Path::root()
                .key("01")
                .key("-0")
                .key("'")
                .key("'x'")
                .key("''"),
            Path::root()
                .key("a/b")
                .key("~")
                .key("~1")
                .key("99999999999999999999"),
            Path::root().index(i64::MIN).key("é/ü"),
        ];
        let shown: Vec<String> = paths.iter().map(Path::to_string).collect();
        let expected = [
            "",
            "/",
            "//",
            "/'1'/1/'-1'/-1",
            "/01/-0/'/''x''/''''",
            "/a~1b/~0/~01/'99999999999999999999'",
            "/-9223372036854775808/é~1ü",
        ];
        assert_eq!(shown, expected);
        for (path, text) in paths.iter().zip(&shown) {
            assert_eq!(&Path::parse(text).unwrap(), path, "{text}");
        }
    }

    #[test]
    fn rejects_bad_escapes_and_huge_integers_with_their_offset() {
        let err = Path::parse("/ab/c~2").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PathNotFound);
        assert_eq!(err.offset(), Some(5));
        assert_eq!(Path::parse("ab/c~2").unwrap_err().offset(), Some(4));
        assert_eq!(Path::parse("/'x~'").unwrap_err().offset(), Some(3));
        assert!(Path::parse("x~").is_err());
        let err = Path::parse("/a/99999999999999999999").unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::PathNotFound, Some(3))
        );
    }

    #[test]
    fn decimal_means_canonical_integer() {
        for text in ["0", "7", "-3", "120", "-9223372036854775808"] {
            assert!(is_decimal(text), "{text}");
        }
        for text in ["", "-", "-0", "00", "01", "+1", "1e3", "1.0", " 1", "١"] {
            assert!(!is_decimal(text), "{text}");
        }
    }
}
