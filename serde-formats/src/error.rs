//! The one error type of the crate, shared by every format: a kind and where it was found.

use std::fmt;

/// A specialized `Result` whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where in the input an error was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Position {
    /// Not known, or not about the input (most encode errors).
    Unknown,
    /// A byte offset into the input (or into the data array of a typed-column value).
    Byte(u64),
    /// The index of a type description (a triple of words) in a typed-column type array.
    TypeWord(u64),
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Unknown => Ok(()),
            Position::Byte(offset) => write!(f, " at byte {offset}"),
            Position::TypeWord(index) => write!(f, " at type word {index}"),
        }
    }
}

/// What went wrong.
///
/// Match on this in code and tests instead of on message text; new kinds may be added in
/// minor releases. Kinds shared by every format come first, then each format's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    // ---- every format ----
    /// The input ended before the value was complete.
    UnexpectedEnd,
    /// Bytes were left over after the value.
    TrailingBytes,
    /// A length or count claims more data than the remaining input holds.
    LengthPastEnd,
    /// A string was not valid UTF-8.
    InvalidUtf8,
    /// A char was not a valid Unicode scalar value.
    InvalidChar,
    /// A decoded number does not fit the requested type.
    IntegerOverflow,
    /// Nesting went deeper than the configured depth limit.
    DepthLimitExceeded,
    /// More elements that take no bytes (`()`, unit structs) than the zero-sized element
    /// budget allows; see the DyND module docs, "Limits".
    ZeroSizedLimitExceeded,
    /// The serde type cannot be represented in this format, or the input holds a kind of value
    /// the requested type cannot take.
    Unsupported,
    /// An I/O error from the underlying reader or writer; see [`Error::message`].
    Io,
    /// A message from a `Serialize` or `Deserialize` implementation; see [`Error::message`].
    Message,

    // ---- typed_column ----
    /// A typed-column type array whose length is not a multiple of 3 words.
    TypeArrayLength,
    /// An unknown kind number in a typed-column type description.
    UnknownKind,
    /// A typed-column offset or length outside the data or type array.
    OutOfBounds,
    /// A typed-column child description at or before its parent.
    ChildOrder,
    /// A compressed typed-column description where it is not allowed.
    MisplacedCompressed,
    /// Typed-column descriptions that do not form a tree: one is the child of no column, or of
    /// more than one.
    NotATree,

    // ---- dynd ----
    /// A LEB128 varint that is overlong, not minimal, or wider than its type.
    BadVarint,
    /// A byte that is neither 0 nor 1 where a bool or option tag is read.
    BadTag,
    /// Map keys out of order or repeated.
    UnsortedKeys,
    /// A missing-value sentinel written as a present value, or NaN bits that are not the sentinel.
    BadSentinel,
    /// A datashape type string that does not parse.
    BadType,

    // ---- toc ----
    /// The magic bytes do not match.
    BadMagic,
    /// A header field or table-of-contents entry is malformed or out of range.
    BadToc,
    /// A path that names no node of the file.
    PathNotFound,
    /// Malformed MessagePack data.
    BadMsgpack,
    /// Malformed CBOR data (the CBOR variant of a toc file).
    BadCbor,
    /// A request to an object store failed (`toc::remote`); the message names the URL and the
    /// byte range.
    Remote,

    // ---- vector ----
    /// An unknown vector encoding number.
    UnknownEncoding,
    /// An unknown or unsupported vector type kind.
    UnknownTypeKind,
    /// An index, offset or size that does not fit the vector it refers to.
    BadIndex,
    /// A value of a lazy vector that was not loaded was read.
    NotLoaded,
    /// A vector or value whose type differs from the type its place requires.
    TypeMismatch,
}

impl ErrorKind {
    fn description(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedEnd => "unexpected end of input",
            ErrorKind::TrailingBytes => "trailing bytes",
            ErrorKind::LengthPastEnd => "length claims more data than the input holds",
            ErrorKind::InvalidUtf8 => "invalid UTF-8",
            ErrorKind::InvalidChar => "invalid char",
            ErrorKind::IntegerOverflow => "number does not fit the target type",
            ErrorKind::DepthLimitExceeded => "nesting too deep",
            ErrorKind::ZeroSizedLimitExceeded => "too many elements that take no bytes",
            ErrorKind::Unsupported => "unsupported type",
            ErrorKind::Io => "I/O error",
            ErrorKind::Message => "custom error",
            ErrorKind::TypeArrayLength => "type array length is not a multiple of 3",
            ErrorKind::UnknownKind => "unknown kind",
            ErrorKind::OutOfBounds => "offset or length out of bounds",
            ErrorKind::ChildOrder => "child description at or before its parent",
            ErrorKind::MisplacedCompressed => "compressed description where it is not allowed",
            ErrorKind::NotATree => "type descriptions do not form a tree",
            ErrorKind::BadVarint => "malformed varint",
            ErrorKind::BadTag => "invalid bool or option tag",
            ErrorKind::UnsortedKeys => "map keys not strictly increasing",
            ErrorKind::BadSentinel => "invalid missing-value sentinel",
            ErrorKind::BadType => "invalid datashape type",
            ErrorKind::BadMagic => "wrong magic bytes",
            ErrorKind::BadToc => "malformed table of contents",
            ErrorKind::PathNotFound => "path not found",
            ErrorKind::BadMsgpack => "malformed MessagePack",
            ErrorKind::BadCbor => "malformed CBOR",
            ErrorKind::Remote => "object store error",
            ErrorKind::UnknownEncoding => "unknown vector encoding",
            ErrorKind::UnknownTypeKind => "unknown vector type kind",
            ErrorKind::BadIndex => "index, offset or size out of range",
            ErrorKind::NotLoaded => "lazy vector not loaded",
            ErrorKind::TypeMismatch => "vector type mismatch",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// An encoding or decoding error of any format of this crate.
///
/// Boxed so that `Result<T, Error>` stays one word wider than `T`. Display is
/// `"{kind}: {message} at byte {offset}"`, leaving out what is not known (and the kind of a
/// [`ErrorKind::Message`], whose text is the whole message).
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<ErrorImpl>,
}

#[derive(Clone, PartialEq, Eq)]
struct ErrorImpl {
    kind: ErrorKind,
    position: Position,
    message: Option<Box<str>>,
}

impl Error {
    /// An error of `kind` with no position.
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            inner: Box::new(ErrorImpl {
                kind,
                position: Position::Unknown,
                message: None,
            }),
        }
    }

    /// An error of `kind` found at byte `offset` of the input.
    #[cold]
    pub fn at(kind: ErrorKind, offset: u64) -> Self {
        Error::new(kind).with_position(Position::Byte(offset))
    }

    /// An error of `kind` with an explanatory message.
    #[cold]
    pub fn with_message(kind: ErrorKind, message: impl fmt::Display) -> Self {
        let mut err = Error::new(kind);
        err.inner.message = Some(message.to_string().into_boxed_str());
        err
    }

    /// Sets the position, replacing any earlier one.
    #[must_use]
    pub fn with_position(mut self, position: Position) -> Self {
        self.inner.position = position;
        self
    }

    /// Sets the position if none is known yet: positions found deeper in the input win.
    #[must_use]
    pub fn or_position(mut self, position: Position) -> Self {
        if self.inner.position == Position::Unknown {
            self.inner.position = position;
        }
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// Where it went wrong.
    pub fn position(&self) -> Position {
        self.inner.position
    }

    /// The byte offset where it went wrong, when the position is a byte offset.
    pub fn offset(&self) -> Option<u64> {
        match self.inner.position {
            Position::Byte(offset) => Some(offset),
            _ => None,
        }
    }

    /// The message given by a serde implementation or by the format, if any.
    pub fn message(&self) -> Option<&str> {
        self.inner.message.as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.inner.message, self.inner.kind) {
            // As serde_json does: a `Serialize` impl's own message needs no prefix.
            (Some(message), ErrorKind::Message) => write!(f, "{message}")?,
            (Some(message), kind) => write!(f, "{kind}: {message}")?,
            (None, kind) => write!(f, "{kind}")?,
        }
        write!(f, "{}", self.inner.position)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("position", &self.inner.position)
            .field("message", &self.inner.message)
            .finish()
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        let kind = if err.kind() == std::io::ErrorKind::UnexpectedEof {
            ErrorKind::UnexpectedEnd
        } else {
            ErrorKind::Io
        };
        Error::with_message(kind, err)
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::with_message(ErrorKind::Message, msg)
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::with_message(ErrorKind::Message, msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_kind_message_and_position() {
        let err = Error::at(ErrorKind::BadTag, 4);
        assert_eq!(err.to_string(), "invalid bool or option tag at byte 4");
        let err = Error::with_message(ErrorKind::OutOfBounds, "length 9 past data of 5")
            .with_position(Position::TypeWord(2));
        assert_eq!(
            err.to_string(),
            "offset or length out of bounds: length 9 past data of 5 at type word 2"
        );
    }

    #[test]
    fn custom_keeps_the_message_and_deeper_position_wins() {
        let err = <Error as serde::de::Error>::custom("missing field `x`")
            .or_position(Position::Byte(3))
            .or_position(Position::Byte(0));
        assert_eq!(err.kind(), ErrorKind::Message);
        assert_eq!(err.message(), Some("missing field `x`"));
        assert_eq!(err.offset(), Some(3));
    }

    #[test]
    fn error_is_one_word() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }
}
