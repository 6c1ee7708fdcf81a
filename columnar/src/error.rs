//! The one error type of the crate: what went wrong ([`ErrorKind`]) and at which byte.

use std::fmt;

/// A specialized `Result` whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong while encoding or decoding.
///
/// Match on this in code and tests instead of on message text; new kinds may be added in
/// minor releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before the value was complete.
    UnexpectedEnd,
    /// A varint was longer than its type allows, or carried bits past the type's width.
    BadVarint,
    /// A run-length count was 0 (never written by an encoder).
    ZeroRunCount,
    /// A run-length count was larger than [`MAX_RLE_COUNT`](crate::MAX_RLE_COUNT).
    RunCountTooLarge,
    /// A length or count claims more elements than the remaining bytes can hold.
    LengthPastEnd,
    /// A decoded integer does not fit the target type.
    IntegerOverflow,
    /// A value cannot be encoded (e.g. a delta outside the codec's range).
    EncodeOverflow,
    /// A bool byte other than 0 or 1, or an `Option` tag other than 0 or 1.
    BadTag,
    /// A string was not valid UTF-8.
    InvalidUtf8,
    /// A char was not a valid Unicode scalar value.
    InvalidChar,
    /// A header or trailer of a column was malformed.
    BadHeader,
    /// Columns of one container have different lengths.
    ColumnLengthMismatch,
    /// Bytes were left over after the value.
    TrailingBytes,
    /// A serde type could not be represented in this format.
    Unsupported,
    /// Values nest deeper than the deserializer's depth limit.
    DepthLimitExceeded,
    /// A message from a `Serialize` or `Deserialize` implementation (`serde::ser::Error::custom`,
    /// `serde::de::Error::custom`); see [`Error::message`].
    Message,
}

impl ErrorKind {
    fn description(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedEnd => "unexpected end of input",
            ErrorKind::BadVarint => "malformed varint",
            ErrorKind::ZeroRunCount => "run count of 0",
            ErrorKind::RunCountTooLarge => "run count larger than MAX_RLE_COUNT",
            ErrorKind::LengthPastEnd => "length claims more data than the input holds",
            ErrorKind::IntegerOverflow => "integer does not fit the target type",
            ErrorKind::EncodeOverflow => "value out of the codec's range",
            ErrorKind::BadTag => "invalid bool or option tag",
            ErrorKind::InvalidUtf8 => "invalid UTF-8",
            ErrorKind::InvalidChar => "invalid char",
            ErrorKind::BadHeader => "malformed column header",
            ErrorKind::ColumnLengthMismatch => "columns of unequal length",
            ErrorKind::TrailingBytes => "trailing bytes",
            ErrorKind::Unsupported => "unsupported type",
            ErrorKind::DepthLimitExceeded => "nesting deeper than the depth limit",
            ErrorKind::Message => "custom error",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// An encoding or decoding error: a kind, the byte offset where it was found and, for errors
/// raised by serde implementations, their message.
///
/// Boxed so that `Result<T, Error>` stays one word wider than `T`.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<ErrorImpl>,
}

#[derive(Clone, PartialEq, Eq)]
struct ErrorImpl {
    kind: ErrorKind,
    offset: Option<usize>,
    message: Option<Box<str>>,
    /// The offset is already counted from the start of the whole input.
    absolute: bool,
}

impl Error {
    /// An error of `kind` found at byte `offset` of the input.
    #[cold]
    pub fn at(kind: ErrorKind, offset: usize) -> Self {
        Error {
            inner: Box::new(ErrorImpl {
                kind,
                offset: Some(offset),
                message: None,
                absolute: false,
            }),
        }
    }

    /// An error of `kind` with no position (encode errors, mostly).
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            inner: Box::new(ErrorImpl {
                kind,
                offset: None,
                message: None,
                absolute: false,
            }),
        }
    }

    /// An error of `kind` with an explanatory message.
    #[cold]
    pub fn with_message(kind: ErrorKind, message: impl fmt::Display) -> Self {
        Error {
            inner: Box::new(ErrorImpl {
                kind,
                offset: None,
                message: Some(message.to_string().into_boxed_str()),
                absolute: false,
            }),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The byte offset into the input where the error was found, when known.
    pub fn offset(&self) -> Option<usize> {
        self.inner.offset
    }

    /// The message given by a serde implementation or by the codec, if any.
    pub fn message(&self) -> Option<&str> {
        self.inner.message.as_deref()
    }

    /// Sets the offset if none is known yet; offsets found deeper in the input win.
    #[must_use]
    pub fn or_offset(mut self, offset: usize) -> Self {
        if self.inner.offset.is_none() {
            self.inner.offset = Some(offset);
        }
        self
    }

    /// Moves a known offset by `base`: used when a column's bytes sit inside a larger input.
    #[must_use]
    pub fn shifted(mut self, base: usize) -> Self {
        if self.inner.absolute {
            return self;
        }
        if let Some(offset) = self.inner.offset.as_mut() {
            *offset += base;
        }
        self
    }
}

impl Error {
    /// Marks a known offset as counted from the start of the whole input, so enclosing
    /// decoders do not shift it again.
    #[must_use]
    pub(crate) fn absolute(mut self) -> Self {
        if self.inner.offset.is_some() {
            self.inner.absolute = true;
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner.message {
            Some(message) => write!(f, "{}: {message}", self.inner.kind)?,
            None => write!(f, "{}", self.inner.kind)?,
        }
        if let Some(offset) = self.inner.offset {
            write!(f, " at byte {offset}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("offset", &self.inner.offset)
            .field("message", &self.inner.message)
            .finish()
    }
}

impl std::error::Error for Error {}

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
    fn display_names_kind_and_offset() {
        let err = Error::at(ErrorKind::ZeroRunCount, 7);
        assert_eq!(err.to_string(), "run count of 0 at byte 7");
        assert_eq!(err.kind(), ErrorKind::ZeroRunCount);
        assert_eq!(err.offset(), Some(7));
    }

    #[test]
    fn custom_keeps_the_message() {
        let err = <Error as serde::de::Error>::custom("bad row").or_offset(3);
        assert_eq!(err.kind(), ErrorKind::Message);
        assert_eq!(err.message(), Some("bad row"));
        assert_eq!(err.to_string(), "custom error: bad row at byte 3");
    }

    #[test]
    fn deeper_offsets_win_and_shift() {
        let err = Error::at(ErrorKind::BadVarint, 2).or_offset(9).shifted(10);
        assert_eq!(err.offset(), Some(12));
    }

    #[test]
    fn error_is_one_word() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }
}
