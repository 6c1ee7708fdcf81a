//! [`View`]: reading a value in place, without decoding it.

use std::fmt;

use super::claims::Claims;
use super::fraction::Fraction;
use super::wire::{utf8, Children, Cursor, Kind, Layout, Node};
use crate::error::{Position, Result};

/// A zero-copy reader over typed-column bytes or arrays.
///
/// Construction checks the whole type array once (every rule of the module docs, including the
/// tree shape and the UTF-8 of every string); after that each accessor is O(1) and never fails
/// on the input. A `View` is two slices and a resolved node: `Copy`, cheap to pass around.
///
/// ```
/// use serde_formats::typed_column::{Kind, View};
///
/// // [["a", "b"], ["c", "d"]], the nested example of docs/spec/typed-column.md §5.4.
/// let types = [4, 1, 2, 4, 3, 2, 4, 5, 2, 3, 0, 1, 3, 1, 1, 3, 2, 1, 3, 3, 1];
/// let root = View::from_columns(&types, b"abcd")?;
/// assert_eq!(root.kind(), Kind::Column);
/// assert_eq!(root.len(), 2);
/// assert_eq!(root.get(1).and_then(|row| row.get(0)).and_then(|v| v.as_str()), Some("c"));
/// let flat: Vec<&str> = root.iter().flat_map(|row| row.iter()).filter_map(|v| v.as_str()).collect();
/// assert_eq!(flat, ["a", "b", "c", "d"]);
/// # Ok::<(), serde_formats::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct View<'a> {
    layout: Layout<'a>,
    node: Node<'a>,
}

impl<'a> View<'a> {
    /// A view of the value in a framed buffer.
    ///
    /// # Errors
    /// Any violation of the wire rules, with its kind and a type-description index or data
    /// byte offset: the same inputs [`from_bytes`](super::from_bytes) rejects as malformed.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        View::validate(Layout::from_bytes(bytes)?)
    }

    /// A view of the value in the two arrays.
    ///
    /// # Errors
    /// As [`View::from_bytes`].
    pub fn from_columns(types: &'a [u64], data: &'a [u8]) -> Result<Self> {
        View::validate(Layout::from_columns(types, data)?)
    }

    /// Checks every description in index order: a parent comes before its children, so each
    /// column's claim is seen before any of its children's.
    fn validate(layout: Layout<'a>) -> Result<Self> {
        let mut claims = Claims::new(layout.tree_len());
        for index in 0..layout.tree_len() {
            match layout.node(Cursor::Desc(index))? {
                Node::String { bytes, at } => {
                    utf8(bytes, at)?;
                }
                Node::Column { len, children } => {
                    if let Some((first, len)) = children.claim(len) {
                        if !claims.claim(first, len) {
                            return Err(Claims::shared(Position::TypeWord(index as u64), first));
                        }
                    }
                }
                _ => {}
            }
        }
        claims.finish(layout.tree_len())?;
        layout.check_trailing()?;
        let node = layout.node(Cursor::Desc(0))?;
        Ok(View { layout, node })
    }

    #[inline]
    fn at(&self, cursor: Cursor) -> Option<View<'a>> {
        // Cannot fail: validate checked every description this cursor can reach.
        let node = self.layout.node(cursor).ok()?;
        Some(View {
            layout: self.layout,
            node,
        })
    }

    /// The kind of this value.
    #[inline]
    pub fn kind(&self) -> Kind {
        self.node.kind()
    }

    /// The number of children of a column; 0 for an atom.
    #[inline]
    pub fn len(&self) -> usize {
        match self.node {
            Node::Column { len, .. } => len,
            _ => 0,
        }
    }

    /// True for an empty column and for every atom.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Child `index` of a column.
    #[inline]
    pub fn get(&self, index: usize) -> Option<View<'a>> {
        match self.node {
            Node::Column { len, children, .. } if index < len => self.at(children.child(index)),
            _ => None,
        }
    }

    /// The children of a column, in order (nothing for an atom).
    #[inline]
    pub fn iter(&self) -> Iter<'a> {
        let (len, children) = match self.node {
            Node::Column { len, children, .. } => (len, children),
            _ => (0, Children::Descs(0)),
        };
        Iter {
            view: *self,
            children,
            index: 0,
            len,
        }
    }

    /// The value of a Boolean.
    #[inline]
    pub fn as_bool(&self) -> Option<bool> {
        match self.node {
            Node::Boolean(value) => Some(value),
            _ => None,
        }
    }

    /// The value of a Fraction.
    #[inline]
    pub fn as_fraction(&self) -> Option<Fraction> {
        match self.node {
            Node::Fraction(fraction) => Some(fraction),
            _ => None,
        }
    }

    /// The value of a Fraction that is an integer fitting `i64`.
    #[inline]
    pub fn as_i64(&self) -> Option<i64> {
        self.as_fraction()?
            .to_integer()
            .and_then(|value| i64::try_from(value).ok())
    }

    /// The value of a Float, or a Fraction converted to the nearest `f64`.
    #[inline]
    pub fn as_f64(&self) -> Option<f64> {
        match self.node {
            Node::Float(value) => Some(value),
            Node::Fraction(fraction) => Some(fraction.to_f64()),
            _ => None,
        }
    }

    /// The text of a String, borrowed from the data.
    #[inline]
    pub fn as_str(&self) -> Option<&'a str> {
        match self.node {
            // SAFETY: `validate` checked the bytes of every String description of this layout
            // as UTF-8, and a View's nodes only come from that layout's descriptions (chains
            // hold no strings).
            Node::String { bytes, .. } => Some(unsafe { std::str::from_utf8_unchecked(bytes) }),
            _ => None,
        }
    }
}

/// How deep `Debug` prints before writing `[..]`: input can nest deeper than the stack allows.
const DEBUG_DEPTH: usize = 32;

struct DebugAt<'a> {
    view: View<'a>,
    depth: usize,
}

impl fmt::Debug for DebugAt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let view = &self.view;
        match view.node {
            Node::Boolean(value) => write!(f, "{value:?}"),
            Node::Fraction(fraction) => write!(f, "{fraction}"),
            Node::Float(value) => write!(f, "{value:?}"),
            Node::String { .. } => write!(f, "{:?}", view.as_str().unwrap_or_default()),
            Node::Column { .. } if self.depth >= DEBUG_DEPTH => f.write_str("[..]"),
            Node::Column { .. } => f
                .debug_list()
                .entries(view.iter().map(|child| DebugAt {
                    view: child,
                    depth: self.depth + 1,
                }))
                .finish(),
        }
    }
}

impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DebugAt {
            view: *self,
            depth: 0,
        }
        .fmt(f)
    }
}

impl<'a> IntoIterator for View<'a> {
    type Item = View<'a>;
    type IntoIter = Iter<'a>;
    #[inline]
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Iterator over the children of a column [`View`].
#[derive(Clone)]
pub struct Iter<'a> {
    view: View<'a>,
    children: Children,
    index: usize,
    len: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = View<'a>;

    #[inline]
    fn next(&mut self) -> Option<View<'a>> {
        if self.index == self.len {
            return None;
        }
        let child = self.view.at(self.children.child(self.index));
        self.index += 1;
        child
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.len - self.index;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Iter<'_> {}
