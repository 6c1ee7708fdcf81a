//! Whether a value extends the Rle encoder's pending run.
//!
//! The encoder compares every value with the previous one, so on a string column most of its
//! time went into `String`'s `==`, which calls the C library's `memcmp` even for a few bytes:
//! on the bench table's 1M short strings, about 14 ns a comparison, against 4.7 ns for the same
//! comparison inlined (measured in a standalone loop). Strings and byte vectors, owned or
//! borrowed once, are therefore compared here: lengths first, then up to 16 bytes with two
//! overlapping word loads, longer ones with the slice `==` as before. Every other type keeps
//! its own `PartialEq`. The answer is the same as `==`; only the code differs.

use std::any::TypeId;

/// `a == b`, with strings and byte vectors compared inline (module docs).
#[inline(always)]
pub(crate) fn run_eq<T: PartialEq>(a: &T, b: &T) -> bool {
    match (as_bytes(a), as_bytes(b)) {
        (Some(a), Some(b)) => bytes_eq(a, b),
        _ => a == b,
    }
}

/// The bytes of `value` when `T` is `String`, `&String`, `&str`, `&&str`, `Vec<u8>` or
/// `&Vec<u8>`; `None` for any other type. The type tests are constants after
/// monomorphization, so only the matching branch is left in the code.
#[inline(always)]
fn as_bytes<T>(value: &T) -> Option<&[u8]> {
    let id = typeid::of::<T>();
    let ptr = value as *const T;
    // SAFETY (each cast below): `typeid::of` erases lifetimes, and each type compared with
    // has no lifetime parameter of its own except the reference's, so equal ids mean `T` is
    // that type with some lifetime. The reference read here lives no longer than `value`.
    if id == TypeId::of::<String>() {
        return Some(unsafe { &*ptr.cast::<String>() }.as_bytes());
    }
    if id == TypeId::of::<&String>() {
        return Some(unsafe { *ptr.cast::<&String>() }.as_bytes());
    }
    if id == TypeId::of::<&str>() {
        return Some(unsafe { *ptr.cast::<&str>() }.as_bytes());
    }
    if id == TypeId::of::<&&str>() {
        return Some(unsafe { **ptr.cast::<&&str>() }.as_bytes());
    }
    if id == TypeId::of::<Vec<u8>>() {
        return Some(unsafe { &*ptr.cast::<Vec<u8>>() });
    }
    if id == TypeId::of::<&Vec<u8>>() {
        return Some(unsafe { *ptr.cast::<&Vec<u8>>() });
    }
    None
}

/// `a == b` for byte slices, without a library call for up to 16 bytes.
#[inline(always)]
fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    match len {
        0 => true,
        1..4 => a[0] == b[0] && a[len / 2] == b[len / 2] && a[len - 1] == b[len - 1],
        4..8 => {
            word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, len - 4) == word::<4>(b, len - 4)
        }
        8..=16 => {
            word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, len - 8) == word::<8>(b, len - 8)
        }
        _ => a == b,
    }
}

/// The `N` bytes of `bytes` at `at` (in bounds by the caller's length test).
#[inline(always)]
fn word<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut word = [0; N];
    word.copy_from_slice(&bytes[at..at + N]);
    word
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_byte_view_is_taken_for_exactly_the_listed_types() {
        let owned = String::from("abc");
        assert_eq!(as_bytes(&owned), Some(&b"abc"[..]));
        assert_eq!(as_bytes(&&owned), Some(&b"abc"[..]));
        assert_eq!(as_bytes(&"abc"), Some(&b"abc"[..]));
        assert_eq!(as_bytes(&&"abc"), Some(&b"abc"[..]));
        assert_eq!(as_bytes(&vec![1u8, 2]), Some(&[1u8, 2][..]));
        assert_eq!(as_bytes(&&vec![1u8, 2]), Some(&[1u8, 2][..]));
        assert_eq!(as_bytes(&vec![1u16, 2]), None);
        assert_eq!(as_bytes(&7u64), None);
        assert_eq!(as_bytes(&&&owned), None);
    }

    #[test]
    fn each_length_class_tells_a_difference_at_every_byte() {
        for len in 0..=40usize {
            let a: Vec<u8> = (0..len as u8).collect();
            assert!(bytes_eq(&a, &a.clone()), "len {len}");
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 0x80;
                assert!(!bytes_eq(&a, &b), "len {len}, byte {at}");
            }
            assert!(!bytes_eq(&a, &[a.clone(), vec![0]].concat()), "len {len}");
        }
    }

    proptest! {
        #[test]
        fn run_eq_is_eq(a in "[ab]{0,20}", b in "[ab]{0,20}") {
            prop_assert_eq!(run_eq(&a, &b), a == b);
            prop_assert_eq!(run_eq(&&a, &&b), a == b);
            prop_assert_eq!(run_eq(&a.as_str(), &b.as_str()), a == b);
            let (a, b) = (a.into_bytes(), b.into_bytes());
            prop_assert_eq!(run_eq(&a, &b), a == b);
        }
    }
}
