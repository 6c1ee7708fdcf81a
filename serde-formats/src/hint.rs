//! What a serializer can tell about the values serde hands it, shared by the formats' fast
//! paths: a sequence's exact length from its iterator, and a type's name as an element.

/// The exact length an iterator announces (`size_hint` with equal bounds), as serde's own
/// `collect_seq` passes to `serialize_seq`; `None` when the bounds differ.
#[inline(always)]
pub(crate) fn exact_len((low, high): (usize, Option<usize>)) -> Option<usize> {
    high.filter(|&high| high == low)
}

/// `T`'s type name with one leading `&` dropped: serde's impls for slices, `Vec` and the other
/// collections hand their elements over as `&T`, which serializes exactly as `T`. A constant,
/// so a comparison with a literal folds away.
#[inline(always)]
pub(crate) fn element_type_name<T: ?Sized>() -> &'static str {
    let name = std::any::type_name::<T>();
    name.strip_prefix('&').unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_equal_bounds_are_an_exact_length() {
        assert_eq!(exact_len((3, Some(3))), Some(3));
        assert_eq!(exact_len((0, Some(0))), Some(0));
        assert_eq!(exact_len((2, Some(3))), None);
        assert_eq!(exact_len((5, None)), None);
    }

    #[test]
    fn one_reference_is_dropped_from_an_element_type_name() {
        assert_eq!(element_type_name::<f64>(), "f64");
        assert_eq!(element_type_name::<&f64>(), "f64");
        assert_eq!(element_type_name::<&&f64>(), "&f64");
        assert_eq!(element_type_name::<str>(), "str");
        assert_eq!(element_type_name::<Vec<u8>>(), "alloc::vec::Vec<u8>");
    }
}
