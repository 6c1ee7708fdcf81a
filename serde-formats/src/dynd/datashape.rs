//! The datashape type language: [`Type`], its parser (`FromStr`) and its canonical spelling
//! (`Display`).

use std::fmt;
use std::str::FromStr;

use crate::display::write_separated;
use crate::limits::{self, Nesting};
use crate::{Error, ErrorKind, Position};

/// How many type constructors (`?`, `N *`, `var *`, tuples, structs, `pointer[]`, `array[]`)
/// may enclose one another in a type string, so that a hostile string cannot exhaust the
/// stack: a scalar type alone is depth 0, `var * int8` is 1. The same number as the data
/// limit, [`DEFAULT_DEPTH_LIMIT`](super::DEFAULT_DEPTH_LIMIT).
pub(crate) const TYPE_DEPTH_LIMIT: usize = super::DEFAULT_DEPTH_LIMIT;

/// A DyND datashape type.
///
/// `Display` prints the one canonical spelling that `array[Any]` writes and requires;
/// `FromStr` also accepts other whitespace and double-quoted field names.
///
/// ```
/// use serde_formats::dynd::Type;
///
/// let ty: Type = "3 * var * {x: int32, 'a b':?string}".parse().unwrap();
/// assert_eq!(ty.to_string(), "3 * var * {x: int32, 'a b': ?string}");
/// let err = "3 * var * {x: int33}".parse::<Type>().unwrap_err();
/// assert_eq!(err.offset(), Some(14));
/// assert_eq!(err.to_string(), "invalid datashape type: unknown type `int33` at column 15 at byte 14");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `bool`
    Bool,
    /// `int8`
    Int8,
    /// `int16`
    Int16,
    /// `int32`
    Int32,
    /// `int64`
    Int64,
    /// `int128`
    Int128,
    /// `uint8`
    UInt8,
    /// `uint16`
    UInt16,
    /// `uint32`
    UInt32,
    /// `uint64`
    UInt64,
    /// `uint128`
    UInt128,
    /// `float32`
    Float32,
    /// `float64`
    Float64,
    /// `complex[float32]`: real then imaginary part.
    ComplexFloat32,
    /// `complex[float64]`: real then imaginary part.
    ComplexFloat64,
    /// `char`: one code point, as its UTF-8 bytes.
    Char,
    /// `string`: LEB128 length and UTF-8.
    String,
    /// `bytes`: LEB128 length and bytes.
    Bytes,
    /// `bytes[N]`: exactly N bytes.
    FixedBytes(u64),
    /// `void`: no bytes.
    Void,
    /// `type`: a datashape type, written as its canonical string.
    Type,
    /// `N * T`: N elements, no count.
    Fixed(u64, Box<Type>),
    /// `var * T`: LEB128 count and the elements.
    Var(Box<Type>),
    /// `(T0, T1, ...)`: the fields packed.
    Tuple(Vec<Type>),
    /// `{name: T, 'quoted name': T}`: the fields packed; names are not written.
    Struct(Vec<(String, Type)>),
    /// `?T`: a sentinel or a tag byte, see the module docs.
    Option(Box<Type>),
    /// `pointer[T]`: written exactly as `T`.
    Pointer(Box<Type>),
    /// `array[T]`: the type string of the value, then its data.
    Array(Box<Type>),
    /// `Any`: any type; only meaningful inside `array[...]`.
    Any,
}

impl Type {
    /// The name of a type without parameters, or `None` for the others.
    fn keyword(&self) -> Option<&'static str> {
        Some(match self {
            Type::Bool => "bool",
            Type::Int8 => "int8",
            Type::Int16 => "int16",
            Type::Int32 => "int32",
            Type::Int64 => "int64",
            Type::Int128 => "int128",
            Type::UInt8 => "uint8",
            Type::UInt16 => "uint16",
            Type::UInt32 => "uint32",
            Type::UInt64 => "uint64",
            Type::UInt128 => "uint128",
            Type::Float32 => "float32",
            Type::Float64 => "float64",
            Type::ComplexFloat32 => "complex[float32]",
            Type::ComplexFloat64 => "complex[float64]",
            Type::Char => "char",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::Void => "void",
            Type::Type => "type",
            Type::Any => "Any",
            _ => return None,
        })
    }

    fn from_keyword(name: &str) -> Option<Type> {
        Some(match name {
            "bool" => Type::Bool,
            "int8" => Type::Int8,
            "int16" => Type::Int16,
            "int32" => Type::Int32,
            "int64" => Type::Int64,
            "int128" => Type::Int128,
            "uint8" => Type::UInt8,
            "uint16" => Type::UInt16,
            "uint32" => Type::UInt32,
            "uint64" => Type::UInt64,
            "uint128" => Type::UInt128,
            "float32" => Type::Float32,
            "float64" => Type::Float64,
            "char" => Type::Char,
            "string" => Type::String,
            "bytes" => Type::Bytes,
            "void" => Type::Void,
            "type" => Type::Type,
            "Any" => Type::Any,
            _ => return None,
        })
    }

    /// How many type constructors enclose the deepest scalar: 0 for a scalar, 1 for
    /// `var * int8`. A type string deeper than [`DEFAULT_DEPTH_LIMIT`](super::DEFAULT_DEPTH_LIMIT)
    /// does not parse.
    pub fn nesting(&self) -> usize {
        match self {
            Type::Fixed(_, inner)
            | Type::Var(inner)
            | Type::Option(inner)
            | Type::Pointer(inner)
            | Type::Array(inner) => 1 + inner.nesting(),
            Type::Tuple(types) => 1 + types.iter().map(Type::nesting).max().unwrap_or(0),
            Type::Struct(fields) => {
                1 + fields.iter().map(|(_, ty)| ty.nesting()).max().unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// Whether `?T` of this type uses a missing-value sentinel instead of a tag byte.
    pub fn has_sentinel(&self) -> bool {
        matches!(
            self,
            Type::Bool
                | Type::Int8
                | Type::Int16
                | Type::Int32
                | Type::Int64
                | Type::Int128
                | Type::UInt8
                | Type::UInt16
                | Type::UInt32
                | Type::UInt64
                | Type::UInt128
                | Type::Float32
                | Type::Float64
        )
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

fn write_name(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    if is_identifier(name) {
        return f.write_str(name);
    }
    f.write_str("'")?;
    for c in name.chars() {
        if c == '\'' || c == '\\' {
            f.write_str("\\")?;
        }
        write!(f, "{c}")?;
    }
    f.write_str("'")
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(keyword) = self.keyword() {
            return f.write_str(keyword);
        }
        match self {
            Type::FixedBytes(len) => write!(f, "bytes[{len}]"),
            Type::Fixed(len, element) => write!(f, "{len} * {element}"),
            Type::Var(element) => write!(f, "var * {element}"),
            Type::Option(inner) => write!(f, "?{inner}"),
            Type::Pointer(inner) => write!(f, "pointer[{inner}]"),
            Type::Array(inner) => write!(f, "array[{inner}]"),
            Type::Tuple(fields) => {
                write_separated(f, ["(", ", ", ")"], fields, |f, field| write!(f, "{field}"))
            }
            Type::Struct(fields) => {
                write_separated(f, ["{", ", ", "}"], fields, |f, (name, field)| {
                    write_name(f, name)?;
                    write!(f, ": {field}")
                })
            }
            // Every other variant has a keyword.
            _ => Ok(()),
        }
    }
}

impl FromStr for Type {
    type Err = Error;

    /// Parses a datashape.
    ///
    /// # Errors
    /// [`ErrorKind::BadType`] at the byte column where the text stops making sense, or
    /// [`ErrorKind::DepthLimitExceeded`] for types nested over 128 deep.
    fn from_str(text: &str) -> Result<Type, Error> {
        let mut parser = Parser { text, pos: 0 };
        let ty = parser.parse_type(0)?;
        parser.skip_space();
        if parser.pos < text.len() {
            return Err(parser.error("unexpected text after the type"));
        }
        Ok(ty)
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    #[cold]
    fn error(&self, what: impl fmt::Display) -> Error {
        let column = self
            .text
            .get(..self.pos)
            .map_or(self.pos, |s| s.chars().count())
            + 1;
        Error::with_message(ErrorKind::BadType, format!("{what} at column {column}"))
            .with_position(Position::Byte(self.pos as u64))
    }

    fn rest(&self) -> &str {
        self.text.get(self.pos..).unwrap_or_default()
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Skips spaces and takes `c` if it comes next.
    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), Error> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(format_args!("expected `{c}`")))
        }
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        let rest = self.rest();
        let len = rest.find(|c| !keep(c)).unwrap_or(rest.len());
        self.pos += len;
        self.text.get(start..self.pos).unwrap_or_default()
    }

    fn number(&mut self) -> Result<u64, Error> {
        let start = self.pos;
        let digits = self.take_while(|c| c.is_ascii_digit());
        match digits.parse::<u64>() {
            Ok(n) if digits.len() == 1 || !digits.starts_with('0') => Ok(n),
            _ => {
                self.pos = start;
                Err(self.error("expected a number without leading zeros that fits 64 bits"))
            }
        }
    }

    /// `depth`: how many constructors enclose the type about to be parsed.
    fn parse_type(&mut self, depth: usize) -> Result<Type, Error> {
        if depth > TYPE_DEPTH_LIMIT {
            return Err(limits::too_deep(Nesting::Type, TYPE_DEPTH_LIMIT)
                .with_position(Position::Byte(self.pos as u64)));
        }
        self.skip_space();
        let start = self.pos;
        match self.peek() {
            Some('?') => {
                self.pos += 1;
                Ok(Type::Option(Box::new(self.parse_type(depth + 1)?)))
            }
            Some(c) if c.is_ascii_digit() => {
                let len = self.number()?;
                self.expect('*')?;
                Ok(Type::Fixed(len, Box::new(self.parse_type(depth + 1)?)))
            }
            Some('(') => {
                self.pos += 1;
                let mut fields = Vec::new();
                if !self.eat(')') {
                    loop {
                        fields.push(self.parse_type(depth + 1)?);
                        if self.eat(')') {
                            break;
                        }
                        self.expect(',')?;
                    }
                }
                Ok(Type::Tuple(fields))
            }
            Some('{') => {
                self.pos += 1;
                let mut fields: Vec<(String, Type)> = Vec::new();
                if !self.eat('}') {
                    loop {
                        self.skip_space();
                        let name_at = self.pos;
                        let name = self.field_name()?;
                        if fields.iter().any(|(seen, _)| *seen == name) {
                            self.pos = name_at;
                            return Err(self.error(format_args!("duplicate field name `{name}`")));
                        }
                        self.expect(':')?;
                        let ty = self.parse_type(depth + 1)?;
                        fields.push((name, ty));
                        if self.eat('}') {
                            break;
                        }
                        self.expect(',')?;
                    }
                }
                Ok(Type::Struct(fields))
            }
            Some(c) if c == '_' || c.is_ascii_alphabetic() => {
                let name = self.take_while(|c| c == '_' || c.is_ascii_alphanumeric());
                match name {
                    "var" => {
                        self.expect('*')?;
                        Ok(Type::Var(Box::new(self.parse_type(depth + 1)?)))
                    }
                    "complex" | "pointer" | "array" | "bytes"
                        if self.rest().trim_start().starts_with('[') =>
                    {
                        self.expect('[')?;
                        let ty = match name {
                            "bytes" => {
                                self.skip_space();
                                Type::FixedBytes(self.number()?)
                            }
                            "complex" => {
                                self.skip_space();
                                let at = self.pos;
                                // A scalar: read the name here, so that it does not count
                                // as a nesting level.
                                match self.take_while(|c| c == '_' || c.is_ascii_alphanumeric()) {
                                    "float32" => Type::ComplexFloat32,
                                    "float64" => Type::ComplexFloat64,
                                    _ => {
                                        self.pos = at;
                                        return Err(self.error("complex takes float32 or float64"));
                                    }
                                }
                            }
                            "pointer" => Type::Pointer(Box::new(self.parse_type(depth + 1)?)),
                            _ => Type::Array(Box::new(self.parse_type(depth + 1)?)),
                        };
                        self.expect(']')?;
                        Ok(ty)
                    }
                    _ => match Type::from_keyword(name) {
                        Some(ty) => Ok(ty),
                        None => {
                            self.pos = start;
                            Err(self.error(format_args!("unknown type `{name}`")))
                        }
                    },
                }
            }
            Some(_) => Err(self.error("expected a type")),
            None => Err(self.error("expected a type, found the end")),
        }
    }

    fn field_name(&mut self) -> Result<String, Error> {
        match self.peek() {
            Some(quote @ ('\'' | '"')) => {
                self.pos += 1;
                let mut name = String::new();
                loop {
                    match self.peek() {
                        None => return Err(self.error("unterminated quoted name")),
                        Some('\\') => {
                            self.pos += 1;
                            match self.peek() {
                                Some(c @ ('\\' | '\'' | '"')) => {
                                    name.push(c);
                                    self.pos += 1;
                                }
                                _ => return Err(self.error("unknown escape in a quoted name")),
                            }
                        }
                        Some(c) if c == quote => {
                            self.pos += 1;
                            return Ok(name);
                        }
                        Some(c) => {
                            name.push(c);
                            self.pos += c.len_utf8();
                        }
                    }
                }
            }
            Some(c) if c == '_' || c.is_ascii_alphabetic() => Ok(self
                .take_while(|c| c == '_' || c.is_ascii_alphanumeric())
                .to_owned()),
            _ => Err(self.error("expected a field name")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Type {
        text.parse().unwrap_or_else(|err| panic!("{text}: {err}"))
    }

    #[test]
    fn parses_into_the_expected_tree() {
        assert_eq!(
            parse("3 * var * {x: int32, 'a b': ?string}"),
            Type::Fixed(
                3,
                Box::new(Type::Var(Box::new(Type::Struct(vec![
                    ("x".into(), Type::Int32),
                    ("a b".into(), Type::Option(Box::new(Type::String))),
                ]))))
            )
        );
        assert_eq!(
            parse("(int8, float64)"),
            Type::Tuple(vec![Type::Int8, Type::Float64])
        );
        assert_eq!(parse("bytes[16]"), Type::FixedBytes(16));
        assert_eq!(parse("complex[float64]"), Type::ComplexFloat64);
        assert_eq!(parse("array[Any]"), Type::Array(Box::new(Type::Any)));
        assert_eq!(
            parse("pointer[?uint8]"),
            Type::Pointer(Box::new(Type::Option(Box::new(Type::UInt8))))
        );
        assert_eq!(
            parse("?3 * int8"),
            Type::Option(Box::new(Type::Fixed(3, Box::new(Type::Int8))))
        );
        assert_eq!(parse("()"), Type::Tuple(vec![]));
        assert_eq!(parse("{}"), Type::Struct(vec![]));
        assert_eq!(
            parse("{\"it's\": bool}"),
            Type::Struct(vec![("it's".into(), Type::Bool)])
        );
    }

    #[test]
    fn prints_the_canonical_spelling() {
        for (text, canonical) in [
            (
                "3*var*{x:int32,'a b':?string}",
                "3 * var * {x: int32, 'a b': ?string}",
            ),
            ("( int8 ,float64 )", "(int8, float64)"),
            (
                "{\"it's\": bool, 'a\\\\b': void}",
                "{'it\\'s': bool, 'a\\\\b': void}",
            ),
            ("complex [ float32 ]", "complex[float32]"),
            (
                "{'x': int8, 'x1': int8, '1x': int8}",
                "{x: int8, x1: int8, '1x': int8}",
            ),
        ] {
            assert_eq!(parse(text).to_string(), canonical);
        }
    }

    #[test]
    fn errors_point_at_the_column() {
        for (text, offset) in [
            ("", 0),
            ("3 *", 3),
            ("3 + int8", 2),
            ("var int8", 4),
            ("{x int8}", 3),
            ("{x: int8, x: int8}", 10),
            ("(int8,", 6),
            ("complex[int8]", 8),
            ("bytes[]", 6),
            ("bytes[016]", 6),
            ("int8 int8", 5),
            ("99999999999999999999 * int8", 0),
            ("{'open: int8}", 13),
            ("{'\\n': int8}", 3),
            ("ïnt8", 0),
        ] {
            let err = text.parse::<Type>().unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (ErrorKind::BadType, Some(offset)),
                "{text:?}"
            );
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "?".repeat(100_000) + "int8";
        assert_eq!(
            deep.parse::<Type>().unwrap_err().kind(),
            ErrorKind::DepthLimitExceeded
        );
        let deep = "(".repeat(100_000);
        assert_eq!(
            deep.parse::<Type>().unwrap_err().kind(),
            ErrorKind::DepthLimitExceeded
        );
    }
}
