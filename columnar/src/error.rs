//! The one error type of the crate: `serde_columnar`'s variants, each with what went wrong
//! ([`ErrorKind`]) and at which byte.

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
    /// An I/O error of the writer given to [`to_writer`](crate::to_writer).
    Io,
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
            ErrorKind::Io => "I/O error",
            ErrorKind::Message => "custom error",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// An encoding or decoding error: `serde_columnar`'s `ColumnarError` variants, each carrying
/// a kind, the byte offset where it was found and, for errors raised by serde
/// implementations, their message.
///
/// The crate exports this type under both names, [`Error`] and
/// [`ColumnarError`](crate::ColumnarError), so code written for `serde_columnar` 0.3.14 that
/// matches on its variants compiles unchanged. The variant says which part of the work
/// failed, the [`ErrorKind`] (from [`Error::kind`]) says exactly what went wrong:
///
/// | variant | kinds |
/// | --- | --- |
/// | `ColumnarDecodeError` | every malformed-input kind of the framing and the primitives: `UnexpectedEnd`, `BadVarint`, `LengthPastEnd`, `BadTag`, `InvalidUtf8`, `InvalidChar`, `BadHeader`, `ColumnLengthMismatch`, `TrailingBytes`, `DepthLimitExceeded` |
/// | `RleDecodeError` | what a column codec rejects: `ZeroRunCount`, `RunCountTooLarge`, `IntegerOverflow`, and a decoder's `take_n_finalize` given fewer than `n` values (`UnexpectedEnd`) |
/// | `RleEncodeError` | `EncodeOverflow` |
/// | `ColumnarEncodeError` | `serde::ser::Error::custom` messages (`Message`) |
/// | `SerializeError` | `serde::de::Error::custom` messages (`Message`), `Unsupported`, and postcard errors converted with `From` |
/// | `IOError` | the writer's errors in [`to_writer`](crate::to_writer) (`Io`) |
/// | `InvalidStrategy`, `OverflowError`, `Unknown` | never produced by this crate; they exist so that matches written for `serde_columnar` compile |
///
/// `serde_columnar` reports truncated or malformed input mostly as `SerializeError` (postcard's
/// error); this crate reports it as `ColumnarDecodeError`, so code that treats the decode
/// variants as "corrupt input" (as Loro does) sees every corrupt input that way.
///
/// The payloads differ from `serde_columnar`'s `String` / `postcard::Error`: they are
/// [`ErrorDetail`], which displays as the text did and also has the kind and offset. Code that
/// matches `ColumnarError::RleDecodeError(_)` or formats the payload compiles unchanged; code
/// that builds a variant from a `String` does not.
pub enum Error {
    /// A serde implementation's `de::Error::custom`, an unsupported serde type, or a postcard
    /// error (`serde_columnar`: the `postcard::Error`).
    SerializeError(ErrorDetail),
    /// A serde implementation's `ser::Error::custom` while encoding.
    ColumnarEncodeError(ErrorDetail),
    /// Malformed input: truncated, bad framing, bad primitive, columns of unequal lengths.
    ColumnarDecodeError(ErrorDetail),
    /// A value a column codec cannot encode.
    RleEncodeError(ErrorDetail),
    /// A column codec's malformed input.
    RleDecodeError(ErrorDetail),
    /// Never produced by this crate (kept for `serde_columnar` matches).
    InvalidStrategy(u8),
    /// An I/O error of the writer given to [`to_writer`](crate::to_writer).
    IOError(std::io::Error),
    /// Never produced by this crate (kept for `serde_columnar` matches); integer overflows
    /// are `RleDecodeError` with [`ErrorKind::IntegerOverflow`].
    OverflowError,
    /// Never produced by this crate (kept for `serde_columnar` matches).
    Unknown,
}

/// The payload of an [`Error`] variant: a kind, the byte offset where it was found (a `u64`,
/// as in serde-formats) and an optional message. Displays as `"{kind}: {message} at byte {offset}"`.
///
/// Boxed so that the error stays two words wide.
#[derive(Clone, PartialEq, Eq)]
pub struct ErrorDetail {
    inner: Box<ErrorImpl>,
}

#[derive(Clone, PartialEq, Eq)]
struct ErrorImpl {
    kind: ErrorKind,
    offset: Option<u64>,
    message: Option<Box<str>>,
}

impl ErrorDetail {
    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The byte offset into the input where the error was found, when known.
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset
    }

    /// The message given by a serde implementation or by the codec, if any.
    pub fn message(&self) -> Option<&str> {
        self.inner.message.as_deref()
    }
}

/// The variant `serde_columnar` users see for an error of `kind` (the table on [`Error`]).
fn variant_for(kind: ErrorKind) -> fn(ErrorDetail) -> Error {
    match kind {
        ErrorKind::ZeroRunCount | ErrorKind::RunCountTooLarge | ErrorKind::IntegerOverflow => {
            Error::RleDecodeError
        }
        ErrorKind::EncodeOverflow => Error::RleEncodeError,
        ErrorKind::Message | ErrorKind::Unsupported => Error::SerializeError,
        _ => Error::ColumnarDecodeError,
    }
}

/// Matches `$error` against the variants that carry an [`ErrorDetail`] (bound to `$detail`)
/// and the others: the one list of those variants, for every accessor of the payload.
macro_rules! match_detail {
    ($error:expr, $detail:ident => $with:expr, $other:pat => $without:expr) => {
        match $error {
            Error::SerializeError($detail)
            | Error::ColumnarEncodeError($detail)
            | Error::ColumnarDecodeError($detail)
            | Error::RleEncodeError($detail)
            | Error::RleDecodeError($detail) => $with,
            $other => $without,
        }
    };
}

impl Error {
    #[cold]
    fn build(kind: ErrorKind, offset: Option<u64>, message: Option<Box<str>>) -> Self {
        if kind == ErrorKind::Io {
            let text = message.as_deref().unwrap_or("I/O error").to_owned();
            return Error::IOError(std::io::Error::other(text));
        }
        variant_for(kind)(ErrorDetail {
            inner: Box::new(ErrorImpl {
                kind,
                offset,
                message,
            }),
        })
    }

    /// An error of `kind` found at byte `offset` of the input.
    #[cold]
    pub fn at(kind: ErrorKind, offset: u64) -> Self {
        Error::build(kind, Some(offset), None)
    }

    /// An error of `kind` with no position (encode errors, mostly).
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error::build(kind, None, None)
    }

    /// An error of `kind` with an explanatory message.
    #[cold]
    pub fn with_message(kind: ErrorKind, message: impl fmt::Display) -> Self {
        Error::build(kind, None, Some(message.to_string().into_boxed_str()))
    }

    /// The payload of the variants that have one.
    pub fn detail(&self) -> Option<&ErrorDetail> {
        match_detail!(self, detail => Some(detail), _ => None)
    }

    fn detail_mut(&mut self) -> Option<&mut ErrorImpl> {
        match_detail!(self, detail => Some(&mut detail.inner), _ => None)
    }

    /// Moves the payload into another variant (e.g. a codec's "fewer than n values").
    #[must_use]
    pub(crate) fn into_variant(self, variant: fn(ErrorDetail) -> Error) -> Self {
        match_detail!(self, detail => variant(detail), other => other)
    }

    /// What went wrong. The variants without a payload report [`ErrorKind::Io`]
    /// (`IOError`), [`ErrorKind::BadHeader`] (`InvalidStrategy`),
    /// [`ErrorKind::IntegerOverflow`] (`OverflowError`) and [`ErrorKind::Message`] (`Unknown`).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::IOError(_) => ErrorKind::Io,
            Error::InvalidStrategy(_) => ErrorKind::BadHeader,
            Error::OverflowError => ErrorKind::IntegerOverflow,
            Error::Unknown => ErrorKind::Message,
            other => other.detail().map_or(ErrorKind::Message, ErrorDetail::kind),
        }
    }

    /// The byte offset into the input where the error was found, when known.
    pub fn offset(&self) -> Option<u64> {
        self.detail().and_then(ErrorDetail::offset)
    }

    /// The message given by a serde implementation or by the codec, if any.
    pub fn message(&self) -> Option<&str> {
        self.detail().and_then(ErrorDetail::message)
    }

    /// Sets the offset if none is known yet; offsets found deeper in the input win.
    #[must_use]
    pub fn or_offset(mut self, offset: u64) -> Self {
        if let Some(inner) = self.detail_mut() {
            if inner.offset.is_none() {
                inner.offset = Some(offset);
            }
        }
        self
    }

    /// Moves a known offset by `base`: used when a column's bytes sit inside a larger input.
    #[must_use]
    pub fn shifted(mut self, base: u64) -> Self {
        if let Some(offset) = self.detail_mut().and_then(|inner| inner.offset.as_mut()) {
            *offset += base;
        }
        self
    }
}

impl Clone for Error {
    fn clone(&self) -> Self {
        match self {
            Error::SerializeError(detail) => Error::SerializeError(detail.clone()),
            Error::ColumnarEncodeError(detail) => Error::ColumnarEncodeError(detail.clone()),
            Error::ColumnarDecodeError(detail) => Error::ColumnarDecodeError(detail.clone()),
            Error::RleEncodeError(detail) => Error::RleEncodeError(detail.clone()),
            Error::RleDecodeError(detail) => Error::RleDecodeError(detail.clone()),
            Error::InvalidStrategy(code) => Error::InvalidStrategy(*code),
            // io::Error is not Clone: the copy keeps its kind and text.
            Error::IOError(err) => Error::IOError(std::io::Error::new(err.kind(), err.to_string())),
            Error::OverflowError => Error::OverflowError,
            Error::Unknown => Error::Unknown,
        }
    }
}

impl PartialEq for Error {
    /// Equal variants with equal payloads; I/O errors compare by kind and text.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Error::IOError(a), Error::IOError(b)) => {
                a.kind() == b.kind() && a.to_string() == b.to_string()
            }
            (Error::InvalidStrategy(a), Error::InvalidStrategy(b)) => a == b,
            (Error::OverflowError, Error::OverflowError) | (Error::Unknown, Error::Unknown) => true,
            (a, b) => {
                std::mem::discriminant(a) == std::mem::discriminant(b) && a.detail() == b.detail()
            }
        }
    }
}

impl Eq for Error {}

impl fmt::Display for ErrorDetail {
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

impl fmt::Debug for ErrorDetail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErrorDetail")
            .field("kind", &self.inner.kind)
            .field("offset", &self.inner.offset)
            .field("message", &self.inner.message)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::IOError(err) => write!(f, "io error: {err}"),
            Error::InvalidStrategy(code) => write!(f, "invalid strategy code `{code}`"),
            Error::OverflowError => f.write_str("overflow error"),
            Error::Unknown => f.write_str("unknown error"),
            other => match other.detail() {
                Some(detail) => fmt::Display::fmt(detail, f),
                None => Ok(()),
            },
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Error::SerializeError(_) => "SerializeError",
            Error::ColumnarEncodeError(_) => "ColumnarEncodeError",
            Error::ColumnarDecodeError(_) => "ColumnarDecodeError",
            Error::RleEncodeError(_) => "RleEncodeError",
            Error::RleDecodeError(_) => "RleDecodeError",
            Error::InvalidStrategy(code) => return write!(f, "InvalidStrategy({code})"),
            Error::IOError(err) => return f.debug_tuple("IOError").field(err).finish(),
            Error::OverflowError => return f.write_str("OverflowError"),
            Error::Unknown => return f.write_str("Unknown"),
        };
        match self.detail() {
            Some(detail) => f
                .debug_struct(name)
                .field("kind", &detail.kind())
                .field("offset", &detail.offset())
                .field("message", &detail.message())
                .finish(),
            None => f.write_str(name),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::IOError(err) => Some(err),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        Error::IOError(err)
    }
}

impl From<postcard::Error> for Error {
    /// A postcard error as `SerializeError` ([`ErrorKind::Message`] with postcard's text),
    /// as `serde_columnar`'s `From<postcard::Error>` does.
    fn from(err: postcard::Error) -> Self {
        Error::with_message(ErrorKind::Message, err)
    }
}

impl serde::ser::Error for Error {
    /// A `ColumnarEncodeError` of kind [`ErrorKind::Message`], as in `serde_columnar`.
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::with_message(ErrorKind::Message, msg).into_variant(Error::ColumnarEncodeError)
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
    fn error_is_two_words() {
        assert_eq!(
            std::mem::size_of::<Error>(),
            2 * std::mem::size_of::<usize>()
        );
    }
}
