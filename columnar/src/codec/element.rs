//! The element traits of the two integer codecs, DeltaRle ([`super::DeltaRleable`]) and
//! DeltaOfDelta ([`super::DeltaOfDeltable`]), defined once by `integer_element!`.

/// Defines a codec's element trait, whose values convert to and from the wide integer
/// `$wide`, and implements it through `TryFrom` for every primitive integer type.
macro_rules! integer_element {
    ($(#[$attr:meta])* pub trait $name:ident: $wide:ident { $to:ident, $from:ident }) => {
        $(#[$attr])*
        pub trait $name: Copy {
            #[doc = concat!("The value as an `", stringify!($wide), "`, `None` when it does not fit.")]
            fn $to(self) -> Option<$wide>;
            /// The value for `value`, `None` when it is out of range.
            fn $from(value: $wide) -> Option<Self>;
        }

        integer_element!(@impl $name, $wide, $to, $from:
            u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
    };
    (@impl $name:ident, $wide:ident, $to:ident, $from:ident: $($ty:ty),*) => {$(
        impl $name for $ty {
            #[inline]
            fn $to(self) -> Option<$wide> {
                $wide::try_from(self).ok()
            }
            #[inline]
            fn $from(value: $wide) -> Option<Self> {
                <$ty>::try_from(value).ok()
            }
        }
    )*};
}
