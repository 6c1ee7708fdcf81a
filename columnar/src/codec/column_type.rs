//! The `*Column<T>` types of the generic codecs, defined once by `column_type!`.
//!
//! `GenericColumn`, `RleColumn`, `DeltaRleColumn` and `DeltaOfDeltaColumn` are the same type
//! around a different codec: the values of one column, which serialize as a byte string of
//! the codec's output. They differ only in their element bounds and in whether `decode`
//! borrows from its input. (`BoolRleColumn` holds `bool`s and is written out in its module.)

/// Defines a codec's column type in the module of its `encode` and `decode` functions.
///
/// `encode where [..]` bounds `encode` and `Serialize`; `decode where [..]` bounds `decode` and
/// `Deserialize` and may name `'de`, which `decode<'de>` makes the lifetime of the bytes
/// `decode` borrows from.
macro_rules! column_type {
    (
        $(#[$doc:meta])*
        $name:ident, $expecting:literal,
        encode where [$($encode:tt)*],
        decode $(<$de:lifetime>)? where [$($decode:tt)*] $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Default)]
        pub struct $name<T> {
            /// The values, one per row.
            pub data: Vec<T>,
        }

        impl<T> $name<T> {
            /// A column holding `data`.
            pub fn new(data: Vec<T>) -> Self {
                $name { data }
            }

            /// The number of values.
            pub fn len(&self) -> usize {
                self.data.len()
            }

            /// Whether the column has no values.
            pub fn is_empty(&self) -> bool {
                self.data.is_empty()
            }
        }

        impl<T> $name<T>
        where
            $($encode)*
        {
            /// The codec output for this column.
            ///
            /// # Errors
            /// As [`encode`].
            pub fn encode(&self) -> $crate::Result<Vec<u8>> {
                encode(&self.data)
            }
        }

        impl<$($de,)? T> $name<T>
        where
            $($decode)*
        {
            /// Decodes a column from codec output.
            ///
            /// # Errors
            /// As [`decode`].
            pub fn decode(bytes: &$($de)? [u8]) -> $crate::Result<Self> {
                decode(bytes).map($name::new)
            }
        }

        impl<T> From<Vec<T>> for $name<T> {
            fn from(data: Vec<T>) -> Self {
                $name { data }
            }
        }

        impl<T> serde::Serialize for $name<T>
        where
            $($encode)*
        {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> $crate::Result<S::Ok, S::Error> {
                $crate::codec::serde_glue::serialize_column(self.encode(), serializer)
            }
        }

        impl<'de, T> serde::Deserialize<'de> for $name<T>
        where
            $($decode)*
        {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> $crate::Result<Self, D::Error> {
                $crate::codec::serde_glue::deserialize_column(deserializer, $expecting, $name::decode)
            }
        }
    };
}
