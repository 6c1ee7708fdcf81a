//! Format primitives: kinds, and resolving one description into a node (the type array's words
//! and the framing are [`type_array`](super::type_array)'s).
//!
//! Nothing here knows about serde. [`Layout`] checks what can be checked without walking the tree
//! (array length, where compressed descriptions sit, the dense chain); [`Layout::node`] checks one
//! description when it is reached. The tree shape (every description the child of exactly one
//! column) is checked by the walkers with [`Claims`](super::claims::Claims).

use super::fraction::Fraction;
use super::type_array::{split_frame, Tree, TypeWords};
use crate::error::{Error, ErrorKind, Position, Result};

/// The top bit of a kind word: set on compressed descriptions.
pub(crate) const COMPRESSED: u64 = 1 << 63;

/// Kind words, for matching and writing descriptions.
const STRING: u64 = Kind::String.number();
pub(crate) const COLUMN: u64 = Kind::Column.number();

/// The kind of a value: the low bits of the first word of a type description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `0`: one byte, zero is false and anything else is true.
    Boolean,
    /// `1`: 16 bytes, `i64` numerator then `i64` denominator, little-endian.
    Fraction,
    /// `2`: 8 bytes, an `f64`, little-endian.
    Float,
    /// `3`: UTF-8 bytes of any length.
    String,
    /// `4`: a collection of other values, its children.
    Column,
}

impl Kind {
    /// The kind number written on the wire.
    pub const fn number(self) -> u64 {
        match self {
            Kind::Boolean => 0,
            Kind::Fraction => 1,
            Kind::Float => 2,
            Kind::String => 3,
            Kind::Column => 4,
        }
    }

    /// The kind with wire number `number` (without the compressed bit), if there is one.
    pub const fn from_number(number: u64) -> Option<Kind> {
        match number {
            0 => Some(Kind::Boolean),
            1 => Some(Kind::Fraction),
            2 => Some(Kind::Float),
            3 => Some(Kind::String),
            4 => Some(Kind::Column),
            _ => None,
        }
    }

    /// The data size of an atom of this kind, when it is fixed.
    pub const fn fixed_size(self) -> Option<usize> {
        match self {
            Kind::Boolean => Some(1),
            Kind::Fraction => Some(16),
            Kind::Float => Some(8),
            Kind::String | Kind::Column => None,
        }
    }

    pub(crate) const fn name(self) -> &'static str {
        match self {
            Kind::Boolean => "a Boolean",
            Kind::Fraction => "a Fraction",
            Kind::Float => "a Float",
            Kind::String => "a String",
            Kind::Column => "a Column",
        }
    }
}

/// Where a value sits: a type description, or an element of the dense chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cursor {
    /// Type description `index`.
    Desc(usize),
    /// Element `index` of chain level `level`, a level of columns.
    ChainColumn { level: usize, index: u64 },
    /// An atom of the dense chain at byte `at` of the data.
    ChainAtom { kind: Kind, at: usize },
}

/// The children of a column: where the first one is and how to step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Children {
    /// Descriptions `first..first + len`.
    Descs(usize),
    /// Elements `first..first + len` of chain level `level` (a level of columns).
    ChainColumns { level: usize, first: u64 },
    /// Atoms of `size` bytes from data byte `base`.
    ChainAtoms {
        kind: Kind,
        base: usize,
        size: usize,
    },
}

impl Children {
    /// The descriptions a column of `len` with these children claims, for the tree check:
    /// `(first, len)` when its children are descriptions, `None` in the dense chain.
    #[inline]
    pub(crate) fn claim(self, len: usize) -> Option<(usize, usize)> {
        match self {
            Children::Descs(first) if len > 0 => Some((first, len)),
            _ => None,
        }
    }

    /// The cursor of child `index` (which the caller keeps below the column's length).
    #[inline]
    pub(crate) fn child(self, index: usize) -> Cursor {
        match self {
            Children::Descs(first) => Cursor::Desc(first + index),
            Children::ChainColumns { level, first } => Cursor::ChainColumn {
                level,
                index: first + index as u64,
            },
            Children::ChainAtoms { kind, base, size } => Cursor::ChainAtom {
                kind,
                at: base + index * size,
            },
        }
    }
}

/// One resolved value. Atoms are decoded; strings are not yet checked for UTF-8.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Node<'a> {
    Boolean(bool),
    Fraction(Fraction),
    Float(f64),
    String { bytes: &'a [u8], at: usize },
    Column { len: usize, children: Children },
}

impl Node<'_> {
    pub(crate) fn kind(&self) -> Kind {
        match self {
            Node::Boolean(_) => Kind::Boolean,
            Node::Fraction(_) => Kind::Fraction,
            Node::Float(_) => Kind::Float,
            Node::String { .. } => Kind::String,
            Node::Column { .. } => Kind::Column,
        }
    }
}

/// Checks a string's bytes, reporting the first bad byte's data offset.
#[inline]
pub(crate) fn utf8(bytes: &[u8], at: usize) -> Result<&str> {
    crate::read::utf8(bytes)
        .map_err(|err| Error::at(ErrorKind::InvalidUtf8, (at + err.valid_up_to()) as u64))
}

/// The error for compressed description `index` outside the chain that ends the type array.
#[cold]
fn misplaced_compressed(index: usize) -> Error {
    desc_error(
        ErrorKind::MisplacedCompressed,
        index,
        format_args!("a compressed description before an uncompressed one"),
    )
}

/// The error for a tree description whose kind word is no kind: a compressed description
/// before an uncompressed one (the chain must end the type array), or an unknown kind.
#[cold]
fn unknown_tree_kind(index: usize, kind_word: u64) -> Error {
    if kind_word & COMPRESSED != 0 {
        misplaced_compressed(index)
    } else {
        desc_error(
            ErrorKind::UnknownKind,
            index,
            format_args!("kind {kind_word}"),
        )
    }
}

#[cold]
pub(super) fn desc_error(kind: ErrorKind, index: usize, message: std::fmt::Arguments<'_>) -> Error {
    Error::with_message(kind, message).with_position(Position::TypeWord(index as u64))
}

/// The checked outline of a type array and its data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout<'a> {
    /// All descriptions, the dense chain included.
    all: Tree<'a>,
    /// Descriptions `0..tree_len`, for reading one cheaply.
    tree: Tree<'a>,
    data: &'a [u8],
    /// Descriptions `0..tree_len` are uncompressed and form the tree.
    tree_len: usize,
    /// All descriptions; `tree_len..descs` is the dense chain.
    descs: usize,
    /// The data offset of the dense column's elements (when there is a chain).
    dense_base: usize,
    /// Where the dense column's atoms end (0 without a chain).
    dense_end: u64,
}

impl<'a> Layout<'a> {
    pub(crate) fn from_columns(types: &'a [u64], data: &'a [u8]) -> Result<Self> {
        Layout::new(TypeWords::Native(types), data)
    }

    pub(crate) fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        let (types, data) = split_frame(bytes)?;
        Layout::new(types, data)
    }

    /// Checks the array length, the placement of compressed descriptions and the dense chain.
    pub(crate) fn new(types: TypeWords<'a>, data: &'a [u8]) -> Result<Self> {
        let words = types.len();
        if !words.is_multiple_of(3) {
            return Err(desc_error(
                ErrorKind::TypeArrayLength,
                words / 3,
                format_args!("{words} type words"),
            ));
        }
        let descs = words / 3;
        if descs == 0 {
            return Err(desc_error(
                ErrorKind::UnexpectedEnd,
                0,
                format_args!("an empty type array holds no value"),
            ));
        }
        let all = Tree::new(types, descs);
        let word = |index: usize| all.get(index).unwrap_or([0; 3]);
        let tree_len = types.chain_start();
        let mut layout = Layout {
            all,
            tree: Tree::new(types, tree_len),
            data,
            tree_len,
            descs,
            dense_base: 0,
            dense_end: 0,
        };
        if tree_len == descs {
            return Ok(layout);
        }
        if tree_len == 0 {
            return Err(desc_error(
                ErrorKind::MisplacedCompressed,
                0,
                format_args!("the root cannot be compressed"),
            ));
        }
        let [parent_kind, base, len] = word(tree_len - 1);
        if parent_kind != Kind::Column.number() {
            return Err(desc_error(
                ErrorKind::MisplacedCompressed,
                tree_len,
                format_args!("a compressed description must follow a column"),
            ));
        }
        layout.dense_base = usize::try_from(base).map_err(|_| {
            desc_error(
                ErrorKind::OutOfBounds,
                tree_len - 1,
                format_args!("dense data offset {base} past the data"),
            )
        })?;
        let mut expected = len;
        for index in tree_len..descs {
            let [kind_word, count, size] = word(index);
            if kind_word & COMPRESSED == 0 {
                return Err(desc_error(
                    ErrorKind::MisplacedCompressed,
                    index,
                    format_args!("an uncompressed description follows a compressed one"),
                ));
            }
            if count != expected {
                return Err(desc_error(
                    ErrorKind::OutOfBounds,
                    index,
                    format_args!("compressed count {count}, the level above holds {expected}"),
                ));
            }
            let kind = Kind::from_number(kind_word & !COMPRESSED).ok_or_else(|| {
                desc_error(
                    ErrorKind::UnknownKind,
                    index,
                    format_args!("kind {}", kind_word & !COMPRESSED),
                )
            })?;
            let last = index + 1 == descs;
            match kind {
                Kind::Column => {
                    // Columns of no elements would let a few bytes claim any number of them.
                    if size == 0 && count != 0 {
                        return Err(desc_error(
                            ErrorKind::OutOfBounds,
                            index,
                            format_args!("{count} compressed columns of 0 elements"),
                        ));
                    }
                    if last {
                        return Err(desc_error(
                            ErrorKind::MisplacedCompressed,
                            index,
                            format_args!("a compressed chain must end with atoms"),
                        ));
                    }
                    expected = count.checked_mul(size).ok_or_else(|| {
                        desc_error(
                            ErrorKind::OutOfBounds,
                            index,
                            format_args!("{count} columns of {size} elements overflow"),
                        )
                    })?;
                }
                Kind::String => {
                    return Err(desc_error(
                        ErrorKind::MisplacedCompressed,
                        index,
                        format_args!("strings have no fixed size and cannot be compressed"),
                    ));
                }
                Kind::Boolean | Kind::Fraction | Kind::Float => {
                    let atom = kind.fixed_size().unwrap_or(0) as u64;
                    if size != atom {
                        return Err(desc_error(
                            ErrorKind::OutOfBounds,
                            index,
                            format_args!("{} has size {atom}, not {size}", kind.name()),
                        ));
                    }
                    let end = count
                        .checked_mul(size)
                        .and_then(|bytes| bytes.checked_add(base))
                        .filter(|&end| end <= data.len() as u64);
                    if let Some(end) = end {
                        layout.dense_end = end;
                    } else {
                        return Err(desc_error(
                            ErrorKind::OutOfBounds,
                            index,
                            format_args!(
                                "{count} atoms of {size} bytes from byte {base} past data of {}",
                                data.len()
                            ),
                        ));
                    }
                    if !last {
                        return Err(desc_error(
                            ErrorKind::MisplacedCompressed,
                            index + 1,
                            format_args!("descriptions follow the atoms that end the chain"),
                        ));
                    }
                }
            }
        }
        Ok(layout)
    }

    /// The data array.
    #[inline]
    pub(crate) fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Number of descriptions in the tree part (before the dense chain).
    pub(crate) fn tree_len(&self) -> usize {
        self.tree_len
    }

    /// Rejects data bytes after the last byte any atom uses. Run after the tree was checked,
    /// so every atom's range is known to be in bounds.
    pub(crate) fn check_trailing(&self) -> Result<()> {
        let data_len = self.data.len() as u64;
        let mut end = self.dense_end;
        // Backwards, stopping at the first atom that reaches the end of the data: in the
        // encoder's output the last atoms sit near the end of the type array.
        for index in (0..self.tree_len).rev() {
            if end >= data_len {
                return Ok(());
            }
            let [kind, offset, length] = self.tree.get(index).unwrap_or([0; 3]);
            if kind != Kind::Column.number() {
                end = end.max(offset.saturating_add(length));
            }
        }
        if end < data_len {
            return Err(Error::with_message(
                ErrorKind::TrailingBytes,
                format_args!(
                    "{} data bytes after the last one used",
                    self.data.len() as u64 - end
                ),
            )
            .with_position(Position::Byte(end)));
        }
        Ok(())
    }

    /// Where errors about `cursor` point.
    pub(crate) fn position(&self, cursor: Cursor) -> Position {
        match cursor {
            Cursor::Desc(index) => Position::TypeWord(index as u64),
            Cursor::ChainColumn { level, .. } => Position::TypeWord((self.tree_len + level) as u64),
            Cursor::ChainAtom { at, .. } => Position::Byte(at as u64),
        }
    }

    /// Resolves the value at `cursor`, checking its description.
    #[inline]
    pub(crate) fn node(&self, cursor: Cursor) -> Result<Node<'a>> {
        match cursor {
            Cursor::Desc(index) => self.desc_node(index),
            Cursor::ChainColumn { level, index } => {
                let chain = self.tree_len + level;
                let [kind_word, _, size] = self.all.get(chain).unwrap_or([0; 3]);
                // Layout::new checked the chain: counts multiply without overflow.
                let len = usize::try_from(size).map_err(|_| self.too_big(chain))?;
                let first = index.checked_mul(size).ok_or_else(|| self.too_big(chain))?;
                debug_assert_eq!(kind_word & !COMPRESSED, Kind::Column.number());
                Ok(Node::Column {
                    len,
                    children: self.chain_children(level + 1, first)?,
                })
            }
            Cursor::ChainAtom { kind, at } => self.atom(kind, at, Position::Byte(at as u64)),
        }
    }

    /// Fast path: the `N` data bytes of the `kind` atom that tree description `index`
    /// describes, when the description is well formed. `None` otherwise, and then
    /// [`Layout::node`] reads the value and reports what is wrong.
    #[inline]
    pub(crate) fn desc_atom<const N: usize>(
        &self,
        index: usize,
        kind: Kind,
    ) -> Option<&'a [u8; N]> {
        match self.tree.get(index)? {
            [found, offset, length] if found == kind.number() && length == N as u64 => self
                .data
                .get(usize::try_from(offset).ok()?..)?
                .first_chunk(),
            _ => None,
        }
    }

    /// Fast path: the bytes of the String that tree description `index` describes and their
    /// data offset, or `None` as for [`Layout::desc_atom`].
    #[inline]
    pub(crate) fn desc_string(&self, index: usize) -> Option<(&'a [u8], usize)> {
        match self.tree.get(index)? {
            [STRING, offset, length] => {
                let at = usize::try_from(offset).ok()?;
                let end = at.checked_add(usize::try_from(length).ok()?)?;
                Some((self.data.get(at..end)?, at))
            }
            _ => None,
        }
    }

    /// Fast path: the length and children of the Column that tree description `index`
    /// describes, when its children are descriptions in the tree. `None` otherwise (the column
    /// that heads the dense chain, or a bad description), as for [`Layout::desc_atom`].
    #[inline]
    pub(crate) fn desc_column(&self, index: usize) -> Option<(usize, Children)> {
        match self.tree.get(index)? {
            [COLUMN, offset, length]
                if index + 1 < self.tree_len || self.tree_len == self.descs =>
            {
                let len = usize::try_from(length).ok()?;
                if len == 0 {
                    return Some((0, Children::Descs(0)));
                }
                // After the parent, and ending in the tree (which bounds `offset` too).
                let fits = offset > index as u64
                    && offset
                        .checked_add(length)
                        .is_some_and(|end| end <= self.tree_len as u64);
                fits.then_some((len, Children::Descs(offset as usize)))
            }
            _ => None,
        }
    }

    /// The error for the column at `index` whose children start at `offset`, at or before
    /// it: when a compressed description follows the column, the column was written as the
    /// head of a dense chain that does not end the type array.
    #[cold]
    fn children_before(&self, index: usize, offset: u64) -> Error {
        match self.all.get(index + 1) {
            Some([kind_word, ..]) if kind_word & COMPRESSED != 0 => misplaced_compressed(index + 1),
            _ => desc_error(
                ErrorKind::ChildOrder,
                index,
                format_args!("children at description {offset}, at or before their parent"),
            ),
        }
    }

    #[cold]
    fn too_big(&self, index: usize) -> Error {
        desc_error(
            ErrorKind::OutOfBounds,
            index,
            format_args!("count does not fit this platform"),
        )
    }

    /// The children of a column whose elements are chain level `level`, from element `first`.
    fn chain_children(&self, level: usize, first: u64) -> Result<Children> {
        let chain = self.tree_len + level;
        let [kind_word, _, size] = self.all.get(chain).ok_or_else(|| self.too_big(chain))?;
        match Kind::from_number(kind_word & !COMPRESSED) {
            Some(Kind::Column) => Ok(Children::ChainColumns { level, first }),
            Some(kind) => {
                // In bounds: Layout::new checked count × size + base against the data.
                let size = size as usize;
                let base = usize::try_from(first)
                    .ok()
                    .and_then(|first| first.checked_mul(size))
                    .and_then(|offset| offset.checked_add(self.dense_base))
                    .ok_or_else(|| self.too_big(chain))?;
                Ok(Children::ChainAtoms { kind, base, size })
            }
            None => Err(self.too_big(chain)),
        }
    }

    #[inline]
    fn atom(&self, kind: Kind, at: usize, position: Position) -> Result<Node<'a>> {
        let out_of_bounds = || {
            Error::with_message(
                ErrorKind::OutOfBounds,
                format_args!(
                    "{} at byte {at} past data of {}",
                    kind.name(),
                    self.data.len()
                ),
            )
            .with_position(position)
        };
        match kind {
            Kind::Boolean => match self.data.get(at) {
                Some(&byte) => Ok(Node::Boolean(byte != 0)),
                None => Err(out_of_bounds()),
            },
            Kind::Fraction => match self.data.get(at..).and_then(|d| d.first_chunk::<16>()) {
                Some(bytes) => Ok(Node::Fraction(Fraction::from_le_bytes(bytes))),
                None => Err(out_of_bounds()),
            },
            Kind::Float => match self.data.get(at..).and_then(|d| d.first_chunk::<8>()) {
                Some(bytes) => Ok(Node::Float(f64::from_le_bytes(*bytes))),
                None => Err(out_of_bounds()),
            },
            Kind::String | Kind::Column => Err(out_of_bounds()),
        }
    }

    fn desc_node(&self, index: usize) -> Result<Node<'a>> {
        let Some([kind_word, offset, length]) = self.tree.get(index) else {
            return Err(desc_error(
                ErrorKind::OutOfBounds,
                index,
                format_args!("no description {index}"),
            ));
        };
        let kind =
            Kind::from_number(kind_word).ok_or_else(|| unknown_tree_kind(index, kind_word))?;
        let bad =
            |kind: ErrorKind, message: std::fmt::Arguments<'_>| desc_error(kind, index, message);
        match kind {
            Kind::Column => {
                let len = usize::try_from(length).ok().ok_or_else(|| {
                    bad(
                        ErrorKind::OutOfBounds,
                        format_args!("column of {length} children"),
                    )
                })?;
                if index + 1 == self.tree_len && self.tree_len < self.descs {
                    return Ok(Node::Column {
                        len,
                        children: self.chain_children(0, 0)?,
                    });
                }
                if len == 0 {
                    // An empty column's offset is not used.
                    return Ok(Node::Column {
                        len,
                        children: Children::Descs(0),
                    });
                }
                if offset <= index as u64 {
                    return Err(self.children_before(index, offset));
                }
                let first = offset as usize; // offset <= tree_len is checked next
                if offset
                    .checked_add(length)
                    .is_none_or(|end| end > self.tree_len as u64)
                {
                    return Err(bad(
                        ErrorKind::OutOfBounds,
                        format_args!(
                            "children {offset}..{offset}+{length} past {} descriptions",
                            self.tree_len
                        ),
                    ));
                }
                Ok(Node::Column {
                    len,
                    children: Children::Descs(first),
                })
            }
            Kind::String => {
                let bytes = usize::try_from(offset)
                    .ok()
                    .zip(usize::try_from(length).ok())
                    .and_then(|(at, len)| Some((at, self.data.get(at..at.checked_add(len)?)?)));
                match bytes {
                    Some((at, bytes)) => Ok(Node::String { bytes, at }),
                    None => Err(bad(
                        ErrorKind::OutOfBounds,
                        format_args!(
                            "string of {length} bytes at {offset} past data of {}",
                            self.data.len()
                        ),
                    )),
                }
            }
            Kind::Boolean | Kind::Fraction | Kind::Float => {
                let size = kind.fixed_size().unwrap_or(0) as u64;
                if length != size {
                    return Err(bad(
                        ErrorKind::OutOfBounds,
                        format_args!("{} has length {size}, not {length}", kind.name()),
                    ));
                }
                let at = usize::try_from(offset).unwrap_or(usize::MAX);
                self.atom(kind, at, Position::TypeWord(index as u64))
            }
        }
    }
}
