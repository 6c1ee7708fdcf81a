//! The limits every decoder and encoder of this crate enforces, in one place: the default
//! nesting depth and the one depth counter ([`Depth`]) each format uses to enforce it.
//!
//! Allocation is bounded by the input size at each allocation site (a length read from the
//! input is checked against the bytes left before anything is reserved); only nesting needs a
//! counter, because a deep value costs stack, not bytes.

use crate::error::{Error, ErrorKind, Result};

/// How deeply values may nest, unless a format's `with_depth_limit` or `Config` says
/// otherwise. Each format re-exports it as its own `DEFAULT_DEPTH_LIMIT`.
///
/// 128 is serde_json's recursion limit: deep enough for any real document, shallow enough that
/// a recursive decoder stays far inside a default thread stack.
pub const DEFAULT_DEPTH_LIMIT: usize = 128;

/// What is nested, for the error message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nesting {
    /// Arrays, maps, structs: the serde data model.
    Value,
    /// A type description (a DyND datashape, a Velox type).
    Type,
    /// typed-column Columns.
    Columns,
    /// The entries of a TOC.
    Toc,
    /// Velox vectors inside vectors.
    Vector,
}

impl Nesting {
    fn noun(self) -> &'static str {
        match self {
            Nesting::Value => "value",
            Nesting::Type => "type",
            Nesting::Columns => "Columns",
            Nesting::Toc => "TOC",
            Nesting::Vector => "vector",
        }
    }
}

/// The error for nesting past `limit`, without a position (the caller knows it).
#[cold]
pub(crate) fn too_deep(what: Nesting, limit: usize) -> Error {
    Error::with_message(
        ErrorKind::DepthLimitExceeded,
        format_args!("{} nested deeper than the depth limit {limit}", what.noun()),
    )
}

/// A nesting counter: [`enter`](Depth::enter) one level per container opened,
/// [`leave`](Depth::leave) when it closes. A value may hold `limit` levels; the next one is
/// refused.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Depth {
    left: usize,
    limit: usize,
}

impl Depth {
    /// A counter at the root, allowing `limit` levels.
    pub(crate) const fn new(limit: usize) -> Self {
        Depth { left: limit, limit }
    }

    /// Opens one level of `what`; [`ErrorKind::DepthLimitExceeded`] past the limit.
    #[inline]
    pub(crate) fn enter(&mut self, what: Nesting) -> Result<()> {
        if self.try_enter() {
            Ok(())
        } else {
            Err(too_deep(what, self.limit))
        }
    }

    /// Opens one level if the limit allows it, for callers that build their own error (see
    /// [`Depth::limit`]).
    ///
    /// Branch-free, and paired with an unclamped [`leave`](Depth::leave), so that a small
    /// struct's derived `deserialize` stays small enough to inline into serde's element loop
    /// (DyND, 125k triangles: 24.2M -> 19.5M instructions a read).
    ///
    /// Written with `saturating_sub`, not as `left -= usize::from(open)`: rustc 1.95's MIR
    /// pass `SimplifyComparisonIntegral` drops that subtraction when the caller branches on
    /// the returned `bool` (rust-lang/rust#158206), so in release builds every `enter`
    /// succeeded and no depth limit held. `depth_counts_down_in_release_builds` checks it.
    #[inline]
    pub(crate) fn try_enter(&mut self) -> bool {
        let open = self.left != 0;
        self.left = self.left.saturating_sub(1);
        open
    }

    /// The number of levels a value may hold.
    #[inline]
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Closes the innermost level.
    #[inline]
    pub(crate) fn leave(&mut self) {
        // Every `leave` follows an `enter`, so `left < limit` here and the sum cannot
        // overflow; no clamp, which cost the DyND reader the inlining above.
        debug_assert!(self.left < self.limit, "Depth::leave without enter");
        self.left += 1;
    }
}

/// Asserts that `err` is the depth-limit error naming `limit` (the formats' limit tests).
#[cfg(test)]
#[track_caller]
pub(crate) fn assert_names_the_limit(err: &Error, limit: usize) {
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded, "{err}");
    assert!(
        err.to_string()
            .contains(&format!("deeper than the depth limit {limit}")),
        "{err}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_may_hold_exactly_limit_levels() {
        let mut depth = Depth::new(2);
        depth.enter(Nesting::Value).unwrap();
        depth.enter(Nesting::Value).unwrap();
        let err = depth.enter(Nesting::Value).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
        assert_eq!(
            err.to_string(),
            "nesting too deep: value nested deeper than the depth limit 2"
        );
        depth.leave();
        depth.enter(Nesting::Value).unwrap();
    }

    /// Entering until refused opens exactly `limit` levels, through `enter` and `try_enter`.
    /// Meant for optimized builds too (`.ci/run` runs this crate's unit tests with
    /// `--release`): rustc 1.95 miscompiled an earlier form of `try_enter` there only.
    #[test]
    fn depth_counts_down_in_release_builds() {
        for limit in [0, 1, 2, 5, 128] {
            let mut depth = Depth::new(std::hint::black_box(limit));
            let opened = (0..limit + 3)
                .take_while(|_| depth.enter(Nesting::Value).is_ok())
                .count();
            assert_eq!(opened, limit);
            let mut depth = Depth::new(std::hint::black_box(limit));
            let opened = (0..limit + 3).take_while(|_| depth.try_enter()).count();
            assert_eq!(opened, limit);
            for _ in 0..limit {
                depth.leave();
            }
            assert_eq!(
                (0..limit + 3).take_while(|_| depth.try_enter()).count(),
                limit
            );
        }
    }

    #[test]
    fn a_zero_limit_refuses_the_first_level() {
        let mut depth = Depth::new(0);
        assert_eq!(
            depth.enter(Nesting::Columns).unwrap_err().kind(),
            ErrorKind::DepthLimitExceeded
        );
    }
}
