//! Datashape inference: the [`Type`] of a serde value, for self-describing `array[Any]` output.

use std::any::type_name;

use serde::ser::{self, Serialize};

use super::datashape::Type;
use super::option::{OptionKind, Sentinel};
use super::DEFAULT_DEPTH_LIMIT;
use crate::limits::{Depth, Nesting};
use crate::{Error, ErrorKind, Result};

/// Infers the datashape of `value` from what its `Serialize` does.
///
/// Structs give `{name: T, ...}` with their field names, `[T; N]` (and tuples whose elements
/// all have one type) `N * T`, other tuples and tuple structs `(T0, T1, ...)`, sequences
/// `var * T`, maps `var * (K, V)`, `Option<T>` `?T`, newtypes their inner type, `()` `void`,
/// serde bytes `bytes`. A `None` takes its type from the Rust type where that is a std type
/// (`String`, `char`, `Vec<T>`, `[T; N]`, primitives, ...). Where nothing shows a type (an empty
/// `Vec`, a `None` of a user type), the type is `void`, which describes the same bytes.
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Sample {
///     id: u32,
///     tags: Vec<String>,
///     score: Option<f64>,
///     pos: [i16; 3],
/// }
///
/// let sample = Sample { id: 1, tags: vec![], score: None, pos: [0; 3] };
/// let ty = serde_formats::dynd::infer_type(&sample).unwrap();
/// assert_eq!(ty.to_string(), "{id: uint32, tags: var * void, score: ?float64, pos: 3 * int16}");
/// ```
///
/// # Errors
/// [`ErrorKind::BadType`] when elements of one sequence or map disagree in type;
/// [`ErrorKind::Unsupported`] for enums (datashape has no sum type) and for an `Option` of a
/// non-primitive type whose payload serializes as a primitive (its bytes use a tag, which the
/// datashape `?int32` cannot say); [`ErrorKind::DepthLimitExceeded`].
pub fn infer_type<T: ?Sized + Serialize>(value: &T) -> Result<Type> {
    let mut infer = Infer {
        hint: type_name::<T>(),
        depth: Depth::new(DEFAULT_DEPTH_LIMIT),
    };
    let ty = value.serialize(&mut infer)?;
    Ok(settle(ty))
}

/// The datashape of a few std types by their `type_name`, for a `None` that shows no value:
/// `String`, `&str`, `char`, `()`, `Vec<T>`, `[T; N]`, `Option<T>`, `Box<T>` and the primitives.
/// Anything else is not known (`None`).
fn type_of_name(name: &str) -> Option<Type> {
    let name = name.trim_start_matches('&');
    if let Some(sentinel) = Sentinel::of_payload(name) {
        return Some(sentinel_type(sentinel));
    }
    let inner = |prefix: &str| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix('>'))
    };
    if let Some(element) = inner("alloc::vec::Vec<") {
        return Some(Type::Var(Box::new(type_of_name(element)?)));
    }
    if let Some(payload) = inner("core::option::Option<") {
        return Some(Type::Option(Box::new(type_of_name(payload)?)));
    }
    if let Some(pointee) = inner("alloc::boxed::Box<") {
        return type_of_name(pointee);
    }
    if let Some(array) = name
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        let (element, len) = array.rsplit_once("; ")?;
        return Some(Type::Fixed(
            len.parse().ok()?,
            Box::new(type_of_name(element)?),
        ));
    }
    match name {
        "alloc::string::String" | "str" => Some(Type::String),
        "char" => Some(Type::Char),
        "()" => Some(Type::Void),
        _ => None,
    }
}

/// `Any` stands for "not known yet" during inference; what is still unknown at the end is void.
fn settle(ty: Type) -> Type {
    match ty {
        Type::Any => Type::Void,
        Type::Fixed(len, element) => Type::Fixed(len, Box::new(settle(*element))),
        Type::Var(element) => Type::Var(Box::new(settle(*element))),
        Type::Option(inner) => Type::Option(Box::new(settle(*inner))),
        Type::Tuple(fields) => Type::Tuple(fields.into_iter().map(settle).collect()),
        Type::Struct(fields) => {
            Type::Struct(fields.into_iter().map(|(n, t)| (n, settle(t))).collect())
        }
        other => other,
    }
}

/// The one type that describes both `a` and `b`, filling in unknown parts.
fn unify(a: Type, b: Type) -> Option<Type> {
    Some(match (a, b) {
        (Type::Any, other) | (other, Type::Any) => other,
        (Type::Option(a), Type::Option(b)) => Type::Option(Box::new(unify(*a, *b)?)),
        (Type::Var(a), Type::Var(b)) => Type::Var(Box::new(unify(*a, *b)?)),
        (Type::Fixed(n, a), Type::Fixed(m, b)) if n == m => {
            Type::Fixed(n, Box::new(unify(*a, *b)?))
        }
        (Type::Tuple(a), Type::Tuple(b)) if a.len() == b.len() => Type::Tuple(
            a.into_iter()
                .zip(b)
                .map(|(a, b)| unify(a, b))
                .collect::<Option<_>>()?,
        ),
        (Type::Struct(a), Type::Struct(b)) if a.len() == b.len() => Type::Struct(
            a.into_iter()
                .zip(b)
                .map(|((n, a), (m, b))| {
                    if n == m {
                        Some((n, unify(a, b)?))
                    } else {
                        None
                    }
                })
                .collect::<Option<_>>()?,
        ),
        (a, b) if a == b => a,
        _ => return None,
    })
}

fn sentinel_type(sentinel: Sentinel) -> Type {
    match sentinel {
        Sentinel::Bool => Type::Bool,
        Sentinel::I8 => Type::Int8,
        Sentinel::I16 => Type::Int16,
        Sentinel::I32 => Type::Int32,
        Sentinel::I64 => Type::Int64,
        Sentinel::I128 => Type::Int128,
        Sentinel::U8 => Type::UInt8,
        Sentinel::U16 => Type::UInt16,
        Sentinel::U32 => Type::UInt32,
        Sentinel::U64 => Type::UInt64,
        Sentinel::U128 => Type::UInt128,
        Sentinel::F32 => Type::Float32,
        Sentinel::F64 => Type::Float64,
    }
}

/// Unifies the types of the elements of one sequence (or of the keys or values of one map).
#[derive(Default)]
struct Elements {
    ty: Option<Type>,
    count: usize,
}

impl Elements {
    fn add(&mut self, ty: Type) -> Result<()> {
        self.count += 1;
        self.ty = Some(match self.ty.take() {
            None => ty,
            Some(seen) => {
                let message = format!(
                    "element {} has type {ty}, earlier elements {seen}",
                    self.count - 1
                );
                unify(seen, ty).ok_or_else(|| Error::with_message(ErrorKind::BadType, message))?
            }
        });
        Ok(())
    }

    fn finish(self) -> Type {
        self.ty.unwrap_or(Type::Any)
    }
}

struct Infer {
    hint: &'static str,
    depth: Depth,
}

impl Infer {
    fn child<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<Type> {
        self.hint = type_name::<T>();
        value.serialize(&mut *self)
    }

    fn enter(&mut self) -> Result<()> {
        self.depth.enter(Nesting::Value)
    }

    fn leave(&mut self) {
        self.depth.leave();
    }
}

fn no_enums() -> Error {
    Error::with_message(ErrorKind::Unsupported, "enums have no datashape type")
}

impl<'a> ser::Serializer for &'a mut Infer {
    type Ok = Type;
    type Error = Error;
    type SerializeSeq = SeqInfer<'a>;
    type SerializeTuple = TupleInfer<'a>;
    type SerializeTupleStruct = TupleInfer<'a>;
    type SerializeTupleVariant = ser::Impossible<Type, Error>;
    type SerializeMap = MapInfer<'a>;
    type SerializeStruct = StructInfer<'a>;
    type SerializeStructVariant = ser::Impossible<Type, Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_bool(self, _: bool) -> Result<Type> {
        Ok(Type::Bool)
    }
    fn serialize_i8(self, _: i8) -> Result<Type> {
        Ok(Type::Int8)
    }
    fn serialize_i16(self, _: i16) -> Result<Type> {
        Ok(Type::Int16)
    }
    fn serialize_i32(self, _: i32) -> Result<Type> {
        Ok(Type::Int32)
    }
    fn serialize_i64(self, _: i64) -> Result<Type> {
        Ok(Type::Int64)
    }
    fn serialize_i128(self, _: i128) -> Result<Type> {
        Ok(Type::Int128)
    }
    fn serialize_u8(self, _: u8) -> Result<Type> {
        Ok(Type::UInt8)
    }
    fn serialize_u16(self, _: u16) -> Result<Type> {
        Ok(Type::UInt16)
    }
    fn serialize_u32(self, _: u32) -> Result<Type> {
        Ok(Type::UInt32)
    }
    fn serialize_u64(self, _: u64) -> Result<Type> {
        Ok(Type::UInt64)
    }
    fn serialize_u128(self, _: u128) -> Result<Type> {
        Ok(Type::UInt128)
    }
    fn serialize_f32(self, _: f32) -> Result<Type> {
        Ok(Type::Float32)
    }
    fn serialize_f64(self, _: f64) -> Result<Type> {
        Ok(Type::Float64)
    }
    fn serialize_char(self, _: char) -> Result<Type> {
        Ok(Type::Char)
    }
    fn serialize_str(self, _: &str) -> Result<Type> {
        Ok(Type::String)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Type> {
        Ok(Type::Bytes)
    }

    fn serialize_none(self) -> Result<Type> {
        match OptionKind::of_option(self.hint) {
            Some(OptionKind::Sentinel(sentinel)) => {
                Ok(Type::Option(Box::new(sentinel_type(sentinel))))
            }
            Some(OptionKind::Tagged) => {
                let payload = self
                    .hint
                    .strip_prefix("core::option::Option<")
                    .and_then(|rest| rest.strip_suffix('>'))
                    .and_then(type_of_name)
                    .unwrap_or(Type::Any);
                Ok(Type::Option(Box::new(payload)))
            }
            None => Err(Error::with_message(
                ErrorKind::Unsupported,
                format!(
                    "a missing value written by `{}`, which is not a std Option",
                    self.hint
                ),
            )),
        }
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Type> {
        self.enter()?;
        let inner = self.child(value)?;
        self.leave();
        let tagged = OptionKind::of_payload(type_name::<T>()) == OptionKind::Tagged;
        if tagged && inner.has_sentinel() {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                format!(
                    "Option<{}> is written with a tag byte, but its datashape ?{inner} would need \
                     a sentinel; use Option of the primitive",
                    type_name::<T>()
                ),
            ));
        }
        Ok(Type::Option(Box::new(inner)))
    }

    fn serialize_unit(self) -> Result<Type> {
        Ok(Type::Void)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Type> {
        Ok(Type::Void)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Type> {
        self.child(value)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<SeqInfer<'a>> {
        self.enter()?;
        Ok(SeqInfer {
            infer: self,
            elements: Elements::default(),
        })
    }
    fn serialize_tuple(self, _: usize) -> Result<TupleInfer<'a>> {
        self.enter()?;
        Ok(TupleInfer {
            infer: self,
            fields: Vec::new(),
            is_struct: false,
        })
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<TupleInfer<'a>> {
        self.enter()?;
        Ok(TupleInfer {
            infer: self,
            fields: Vec::new(),
            is_struct: true,
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapInfer<'a>> {
        self.enter()?;
        Ok(MapInfer {
            infer: self,
            keys: Elements::default(),
            values: Elements::default(),
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<StructInfer<'a>> {
        self.enter()?;
        Ok(StructInfer {
            infer: self,
            fields: Vec::new(),
        })
    }
    refuse!(no_enums();
        serialize_unit_variant serialize_newtype_variant
        serialize_tuple_variant serialize_struct_variant
    );
}

struct SeqInfer<'a> {
    infer: &'a mut Infer,
    elements: Elements,
}

impl ser::SerializeSeq for SeqInfer<'_> {
    type Ok = Type;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let ty = self.infer.child(value)?;
        self.elements.add(ty)
    }
    fn end(self) -> Result<Type> {
        self.infer.leave();
        Ok(Type::Var(Box::new(self.elements.finish())))
    }
}

struct TupleInfer<'a> {
    infer: &'a mut Infer,
    fields: Vec<Type>,
    is_struct: bool,
}

impl TupleInfer<'_> {
    fn finish(self) -> Type {
        self.infer.leave();
        if !self.is_struct {
            // `[T; N]` and tuples both come as tuples; one element type makes it a dimension.
            let mut elements = Elements::default();
            if self
                .fields
                .iter()
                .all(|ty| elements.add(ty.clone()).is_ok())
            {
                return Type::Fixed(self.fields.len() as u64, Box::new(elements.finish()));
            }
        }
        Type::Tuple(self.fields)
    }
}

impl ser::SerializeTuple for TupleInfer<'_> {
    type Ok = Type;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let ty = self.infer.child(value)?;
        self.fields.push(ty);
        Ok(())
    }
    fn end(self) -> Result<Type> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleStruct for TupleInfer<'_> {
    type Ok = Type;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeTuple::serialize_element(self, value)
    }
    fn end(self) -> Result<Type> {
        Ok(self.finish())
    }
}

struct MapInfer<'a> {
    infer: &'a mut Infer,
    keys: Elements,
    values: Elements,
}

impl ser::SerializeMap for MapInfer<'_> {
    type Ok = Type;
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let ty = self.infer.child(key)?;
        self.keys.add(ty)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let ty = self.infer.child(value)?;
        self.values.add(ty)
    }
    fn end(self) -> Result<Type> {
        self.infer.leave();
        Ok(Type::Var(Box::new(Type::Tuple(vec![
            self.keys.finish(),
            self.values.finish(),
        ]))))
    }
}

struct StructInfer<'a> {
    infer: &'a mut Infer,
    fields: Vec<(String, Type)>,
}

impl ser::SerializeStruct for StructInfer<'_> {
    type Ok = Type;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        let ty = self.infer.child(value)?;
        self.fields.push((name.to_owned(), ty));
        Ok(())
    }
    fn end(self) -> Result<Type> {
        self.infer.leave();
        Ok(Type::Struct(self.fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn inferred<T: ?Sized + Serialize>(value: &T) -> String {
        infer_type(value).unwrap().to_string()
    }

    #[test]
    fn infers_from_rust_shapes() {
        assert_eq!(inferred(&[1i16, 2, 3]), "3 * int16");
        assert_eq!(inferred(&vec![[0u8; 2]; 3]), "var * 2 * uint8");
        assert_eq!(inferred(&(1u8, 'c', "s")), "(uint8, char, string)");
        assert_eq!(inferred(&Some(1.5f32)), "?float32");
        assert_eq!(inferred(&None::<String>), "?string");
        assert_eq!(inferred(&None::<Vec<[char; 2]>>), "?var * 2 * char");
        assert_eq!(inferred(&None::<Option<u8>>), "??uint8");
        assert_eq!(inferred(&()), "void");
        let map: BTreeMap<String, u32> = [("a".to_owned(), 1)].into_iter().collect();
        assert_eq!(inferred(&map), "var * (string, uint32)");
        assert_eq!(inferred(&Vec::<String>::new()), "var * void");
    }

    #[test]
    fn fills_unknown_parts_from_later_elements() {
        assert_eq!(inferred(&vec![vec![], vec![1u64]]), "var * var * uint64");
    }

    #[test]
    fn tuple_structs_stay_tuples() {
        #[derive(serde::Serialize)]
        struct Pair(u8, u8);
        assert_eq!(inferred(&Pair(1, 2)), "(uint8, uint8)");
    }

    #[test]
    fn refuses_tagged_options_of_primitive_shape() {
        #[derive(serde::Serialize)]
        struct Meters(u16);
        let err = infer_type(&Some(Meters(3))).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported);
    }

    #[test]
    fn unify_fills_and_refuses() {
        let a = Type::Option(Box::new(Type::Any));
        let b = Type::Option(Box::new(Type::String));
        assert_eq!(unify(a, b.clone()), Some(b));
        assert_eq!(unify(Type::Int8, Type::UInt8), None);
        assert_eq!(
            unify(
                Type::Struct(vec![("a".into(), Type::Int8)]),
                Type::Struct(vec![("b".into(), Type::Int8)])
            ),
            None
        );
    }
}
