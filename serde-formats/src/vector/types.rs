//! The logical type of a vector and its wire form (an `i32` type kind, children after it).

use std::fmt;

/// The logical type of a [`Vector`](super::Vector): a Velox type kind and, for the complex kinds,
/// the types of the children.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `BOOLEAN`, kind 0: one bit per row in a flat vector.
    Boolean,
    /// `TINYINT`, kind 1: `i8`.
    TinyInt,
    /// `SMALLINT`, kind 2: `i16`.
    SmallInt,
    /// `INTEGER`, kind 3: `i32`.
    Integer,
    /// `BIGINT`, kind 4: `i64`.
    BigInt,
    /// `REAL`, kind 5: `f32`.
    Real,
    /// `DOUBLE`, kind 6: `f64`.
    Double,
    /// `VARCHAR`, kind 7: UTF-8 text.
    Varchar,
    /// `VARBINARY`, kind 8: bytes.
    Varbinary,
    /// `TIMESTAMP`, kind 9: `i64` seconds and `u64` nanoseconds.
    Timestamp,
    /// `HUGEINT`, kind 10: `i128`.
    HugeInt,
    /// `ARRAY<T>`, kind 30.
    Array(Box<Type>),
    /// `MAP<K, V>`, kind 31.
    Map(Box<Type>, Box<Type>),
    /// `ROW<name: T, ...>`, kind 32: named children in order.
    Row(Vec<(String, Type)>),
}

pub(crate) const KIND_BOOLEAN: i32 = 0;
pub(crate) const KIND_TINYINT: i32 = 1;
pub(crate) const KIND_SMALLINT: i32 = 2;
pub(crate) const KIND_INTEGER: i32 = 3;
pub(crate) const KIND_BIGINT: i32 = 4;
pub(crate) const KIND_REAL: i32 = 5;
pub(crate) const KIND_DOUBLE: i32 = 6;
pub(crate) const KIND_VARCHAR: i32 = 7;
pub(crate) const KIND_VARBINARY: i32 = 8;
pub(crate) const KIND_TIMESTAMP: i32 = 9;
pub(crate) const KIND_HUGEINT: i32 = 10;
pub(crate) const KIND_ARRAY: i32 = 30;
pub(crate) const KIND_MAP: i32 = 31;
pub(crate) const KIND_ROW: i32 = 32;

impl Type {
    /// A `ROW` type from `(name, type)` pairs.
    pub fn row<N: Into<String>>(children: impl IntoIterator<Item = (N, Type)>) -> Type {
        Type::Row(
            children
                .into_iter()
                .map(|(name, ty)| (name.into(), ty))
                .collect(),
        )
    }

    /// An `ARRAY` type of `element`.
    pub fn array(element: Type) -> Type {
        Type::Array(Box::new(element))
    }

    /// A `MAP` type from `key` to `value`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Box::new(key), Box::new(value))
    }

    /// The Velox `TypeKind` number written on the wire.
    pub fn kind(&self) -> i32 {
        match self {
            Type::Boolean => KIND_BOOLEAN,
            Type::TinyInt => KIND_TINYINT,
            Type::SmallInt => KIND_SMALLINT,
            Type::Integer => KIND_INTEGER,
            Type::BigInt => KIND_BIGINT,
            Type::Real => KIND_REAL,
            Type::Double => KIND_DOUBLE,
            Type::Varchar => KIND_VARCHAR,
            Type::Varbinary => KIND_VARBINARY,
            Type::Timestamp => KIND_TIMESTAMP,
            Type::HugeInt => KIND_HUGEINT,
            Type::Array(_) => KIND_ARRAY,
            Type::Map(..) => KIND_MAP,
            Type::Row(_) => KIND_ROW,
        }
    }

    /// The scalar type of a kind number, `None` for complex or unknown kinds.
    pub(crate) fn scalar_of_kind(kind: i32) -> Option<Type> {
        Some(match kind {
            KIND_BOOLEAN => Type::Boolean,
            KIND_TINYINT => Type::TinyInt,
            KIND_SMALLINT => Type::SmallInt,
            KIND_INTEGER => Type::Integer,
            KIND_BIGINT => Type::BigInt,
            KIND_REAL => Type::Real,
            KIND_DOUBLE => Type::Double,
            KIND_VARCHAR => Type::Varchar,
            KIND_VARBINARY => Type::Varbinary,
            KIND_TIMESTAMP => Type::Timestamp,
            KIND_HUGEINT => Type::HugeInt,
            _ => return None,
        })
    }

    /// True for every type but `ARRAY`, `MAP` and `ROW`.
    pub fn is_scalar(&self) -> bool {
        !matches!(self, Type::Array(_) | Type::Map(..) | Type::Row(_))
    }

    /// True for `VARCHAR` and `VARBINARY`, whose flat values are 16-byte string views.
    pub fn is_string(&self) -> bool {
        matches!(self, Type::Varchar | Type::Varbinary)
    }

    /// Bytes per value of a fixed-width scalar (`BOOLEAN` counts 1, its flat form packs bits);
    /// `None` for strings and complex types.
    pub(crate) fn fixed_width(&self) -> Option<usize> {
        Some(match self {
            Type::Boolean | Type::TinyInt => 1,
            Type::SmallInt => 2,
            Type::Integer | Type::Real => 4,
            Type::BigInt | Type::Double => 8,
            Type::Timestamp | Type::HugeInt => 16,
            _ => return None,
        })
    }
}

impl fmt::Display for Type {
    /// Velox's spelling: `BIGINT`, `ARRAY<BIGINT>`, `MAP<VARCHAR,BIGINT>`, `ROW<a:BIGINT,b:VARCHAR>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Boolean => f.write_str("BOOLEAN"),
            Type::TinyInt => f.write_str("TINYINT"),
            Type::SmallInt => f.write_str("SMALLINT"),
            Type::Integer => f.write_str("INTEGER"),
            Type::BigInt => f.write_str("BIGINT"),
            Type::Real => f.write_str("REAL"),
            Type::Double => f.write_str("DOUBLE"),
            Type::Varchar => f.write_str("VARCHAR"),
            Type::Varbinary => f.write_str("VARBINARY"),
            Type::Timestamp => f.write_str("TIMESTAMP"),
            Type::HugeInt => f.write_str("HUGEINT"),
            Type::Array(element) => write!(f, "ARRAY<{element}>"),
            Type::Map(key, value) => write!(f, "MAP<{key},{value}>"),
            Type::Row(children) => {
                f.write_str("ROW<")?;
                for (i, (name, ty)) in children.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{name}:{ty}")?;
                }
                f.write_str(">")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_veloxs_type_kind_numbers() {
        let expected = [
            (Type::Boolean, 0),
            (Type::TinyInt, 1),
            (Type::SmallInt, 2),
            (Type::Integer, 3),
            (Type::BigInt, 4),
            (Type::Real, 5),
            (Type::Double, 6),
            (Type::Varchar, 7),
            (Type::Varbinary, 8),
            (Type::Timestamp, 9),
            (Type::HugeInt, 10),
        ];
        for (ty, kind) in expected {
            assert_eq!(ty.kind(), kind);
            assert_eq!(Type::scalar_of_kind(kind), Some(ty));
        }
        assert_eq!(Type::array(Type::BigInt).kind(), 30);
        assert_eq!(Type::map(Type::BigInt, Type::BigInt).kind(), 31);
        assert_eq!(Type::row([("a", Type::BigInt)]).kind(), 32);
        assert_eq!(Type::scalar_of_kind(11), None);
        assert_eq!(Type::scalar_of_kind(30), None);
    }

    #[test]
    fn displays_like_velox() {
        let ty = Type::row([
            ("a", Type::array(Type::BigInt)),
            ("b", Type::map(Type::Varchar, Type::Double)),
        ]);
        assert_eq!(ty.to_string(), "ROW<a:ARRAY<BIGINT>,b:MAP<VARCHAR,DOUBLE>>");
    }
}
