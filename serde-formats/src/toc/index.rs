//! The table of contents while the writer builds it: one compact entry per value on a stack,
//! the encoded nodes of finished indexed containers in a byte arena, and msglc's rules that
//! decide, when a container ends, whether it is a leaf, an indexed map or array, or a block
//! list (the node table of the [module docs](super)).
//!
//! Entries are plain ends (16 bytes with the key), so a value costs one push, and dropping the
//! entries of a small container costs nothing. A value's start is not stored: the children of
//! a container lie back to back from its content's start, each map value right after its
//! key, so each start is the previous end plus the key's length ([`Spans`]). 1M small records
//! so keep 16 MB on the stack, not 24. A container that becomes indexed is encoded at once into
//! the arena, replacing its children's nodes there; the root's own node is never copied: its
//! children stay on the stack and [`Index::finish_into`] encodes it straight into the output.

use crate::error::{Error, ErrorKind, Result};
use crate::read::Cursor;

use super::encode::put_leaf;

mod nodes;

use nodes::{encode_blocks, encode_indexed, group_into_blocks, internal, shift_node};

/// Set in [`Entry::meta`] when the entry's node is in the arena (an indexed container or a
/// block list), not the leaf `{"p": [start, end]}`.
const INDEXED: u32 = 1 << 31;

/// A value waiting for its parent container to end.
#[derive(Clone, Copy)]
struct Entry {
    /// Where the value's data ends (its start follows from its place: see [`Spans`]).
    end: u64,
    /// Where its key starts in the key arena (entries of maps).
    key: u32,
    /// The key's length, with [`INDEXED`].
    meta: u32,
}

impl Entry {
    #[inline]
    fn indexed(&self) -> bool {
        self.meta & INDEXED != 0
    }

    /// The length of its map key (0 in an array).
    #[inline]
    fn key_len(&self) -> u64 {
        u64::from(self.meta & !INDEXED)
    }
}

/// The spans `[start, end)` of the children of a container whose content starts at `content`:
/// each starts where the one before ended, past its own key in a map.
#[derive(Clone)]
struct Spans<'a> {
    children: std::slice::Iter<'a, Entry>,
    at: u64,
}

impl<'a> Spans<'a> {
    fn new(content: u64, children: &'a [Entry]) -> Self {
        Spans {
            children: children.iter(),
            at: content,
        }
    }
}

impl Iterator for Spans<'_> {
    type Item = (u64, u64);

    #[inline]
    fn next(&mut self) -> Option<(u64, u64)> {
        let child = self.children.next()?;
        let start = self.at + child.key_len();
        self.at = child.end;
        Some((start, child.end))
    }
}

/// A key in the key arena, from [`Index::push_key`].
#[derive(Clone, Copy, Default)]
pub(super) struct Key {
    from: u32,
    len: u32,
}

/// The state of the index when a container opened: what its children are appended after.
#[derive(Clone, Copy)]
pub(super) struct Open {
    start: u64,
    /// Where its first child starts (for a buffered container, moved by [`Index::shift`]).
    content: u64,
    entries: usize,
    nodes: usize,
    arena: usize,
    keys: usize,
    is_map: bool,
}

/// msglc's rule for cutting the trivial children of an array into blocks, one child at a
/// time: a block closes with the first child that ends at least the block size past the
/// block's start; the rest forms a last block. The writer keeps one while it streams an array
/// ([`Index::stream_open`]); [`group_into_blocks`] runs one over finished children.
#[derive(Clone, Copy, Default)]
struct Stream {
    /// Where the block starts, and the position that closes it.
    block_start: u64,
    limit: u64,
    /// Its values so far.
    count: u64,
}

impl Stream {
    /// The first block, starting at `start`.
    fn new(start: u64, block_size: u64) -> Self {
        Stream {
            block_start: start,
            limit: start.saturating_add(block_size),
            count: 0,
        }
    }

    /// A child ended at `end`: pushes `[count, start, end]` to `blocks` when it closes a block.
    #[inline]
    fn push(&mut self, end: u64, block_size: u64, blocks: &mut Vec<[u64; 3]>) {
        self.count += 1;
        if end >= self.limit {
            blocks.push([self.count, self.block_start, end]);
            *self = Stream::new(end, block_size);
        }
    }

    /// `n` children of `width` bytes each followed, the first starting at `start`: the same
    /// blocks as `n` calls of [`Stream::push`], worked out a block at a time.
    fn push_run(
        &mut self,
        start: u64,
        width: u64,
        mut n: u64,
        block_size: u64,
        blocks: &mut Vec<[u64; 3]>,
    ) {
        let mut pos = start;
        while n > 0 {
            // The first of them to end at or past the limit closes the block.
            let closing = self.limit.saturating_sub(pos).div_ceil(width).max(1);
            if closing > n {
                self.count += n;
                return;
            }
            self.count += closing;
            pos += closing * width;
            n -= closing;
            blocks.push([self.count, self.block_start, pos]);
            *self = Stream::new(pos, block_size);
        }
    }

    /// The last child ended at `end`: pushes the last block, if it has children.
    fn finish(self, end: u64, blocks: &mut Vec<[u64; 3]>) {
        if self.count > 0 {
            blocks.push([self.count, self.block_start, end]);
        }
    }
}

/// An indexed root container whose children are the whole entry stack.
#[derive(Clone, Copy)]
struct Root {
    start: u64,
    end: u64,
    /// Where its first child starts.
    content: u64,
    is_map: bool,
    children: usize,
}

/// The table of contents under construction.
pub(super) struct Index {
    entries: Vec<Entry>,
    /// The encoded nodes of the indexed entries, in their order on `entries`.
    arena: Vec<u8>,
    /// The length of each node in `arena`.
    nodes: Vec<usize>,
    /// The encoded keys of the entries of open maps.
    keys: Vec<u8>,
    /// Reused while encoding a node before it replaces its children in `arena`.
    scratch: Vec<u8>,
    /// Reused while cutting an array into blocks: `[count, start, end]`; the blocks closed so
    /// far of a streamed array.
    blocks: Vec<[u64; 3]>,
    /// The open block of a streamed array.
    stream: Stream,
    root: Option<Root>,
    block_size: u64,
    trivial_size: u64,
    /// One past the last entry that is indexed or larger than the trivial size (0 if none): a
    /// container has such a child when this is past its first child's entry. Kept as entries
    /// are pushed, so that closing a long array of small values need not scan them for one.
    big_until: usize,
}

#[cold]
fn keys_too_long() -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        "map keys longer than 2 GiB, or 4 GiB of keys in open maps",
    )
}

impl Index {
    pub(super) fn new(block_size: u64, trivial_size: u64) -> Self {
        Index {
            entries: Vec::new(),
            arena: Vec::new(),
            nodes: Vec::new(),
            keys: Vec::new(),
            scratch: Vec::new(),
            blocks: Vec::new(),
            stream: Stream::default(),
            root: None,
            block_size,
            trivial_size,
            big_until: 0,
        }
    }

    /// Empties the index for a new file, keeping the capacity of its buffers.
    pub(super) fn reset(&mut self, block_size: u64, trivial_size: u64) {
        self.entries.clear();
        self.arena.clear();
        self.nodes.clear();
        self.keys.clear();
        self.root = None;
        self.block_size = block_size;
        self.trivial_size = trivial_size;
        self.big_until = 0;
    }

    /// Records a value known by its span (a scalar, or a container not yet decided).
    #[inline]
    pub(super) fn leaf(&mut self, start: u64, end: u64) {
        if end - start > self.trivial_size {
            self.big_until = self.entries.len() + 1;
        }
        self.entries.push(Entry {
            end,
            key: 0,
            meta: 0,
        });
    }

    /// Stores an encoded map key (`head` then `body`), for the entry that will follow it.
    #[inline]
    pub(super) fn push_key(&mut self, head: &[u8], body: &[u8]) -> Result<Key> {
        let from = self.keys.len();
        let len = head.len() + body.len();
        let (Ok(from32), Ok(len32)) = (u32::try_from(from), u32::try_from(len)) else {
            return Err(keys_too_long());
        };
        if len32 >= INDEXED || from32.checked_add(len32).is_none() {
            return Err(keys_too_long());
        }
        self.keys.extend_from_slice(head);
        self.keys.extend_from_slice(body);
        Ok(Key {
            from: from32,
            len: len32,
        })
    }

    /// [`Index::push_key`] for a fixstr: `marker`, then `body`, shorter than 32 bytes (see
    /// [`Output::put_marked_short`](crate::output::Output::put_marked_short)).
    #[inline]
    pub(super) fn push_marked_short_key(&mut self, marker: u8, body: &[u8]) -> Result<Key> {
        let from = self.keys.len();
        let len = 1 + body.len();
        let (Ok(from32), Ok(len32)) = (u32::try_from(from), u32::try_from(len)) else {
            return Err(keys_too_long());
        };
        if len32 >= INDEXED || from32.checked_add(len32).is_none() {
            return Err(keys_too_long());
        }
        crate::output::Output::put_marked_short(&mut self.keys, marker, body)?;
        Ok(Key {
            from: from32,
            len: len32,
        })
    }

    /// Gives the last entry its map key.
    #[inline]
    pub(super) fn set_last_key(&mut self, key: Key) {
        if let Some(last) = self.entries.last_mut() {
            last.key = key.from;
            last.meta = (last.meta & INDEXED) | key.len;
        }
    }

    /// A container starts at data position `start`; its children follow from `content`.
    #[inline]
    pub(super) fn open(&self, start: u64, content: u64, is_map: bool) -> Open {
        Open {
            start,
            content,
            entries: self.entries.len(),
            nodes: self.nodes.len(),
            arena: self.arena.len(),
            keys: self.keys.len(),
            is_map,
        }
    }

    /// Moves the container's children by `delta` bytes: its header, of a length known only at
    /// its end, was written before them.
    pub(super) fn shift(&mut self, open: &mut Open, delta: u64) -> Result<()> {
        open.content += delta;
        for entry in &mut self.entries[open.entries..] {
            entry.end += delta;
        }
        if self.arena.len() == open.arena {
            return Ok(());
        }
        // Positions inside encoded nodes change their length: encode those nodes again.
        self.scratch.clear();
        let mut cur = Cursor::at(&self.arena, open.arena, 0);
        for len in &mut self.nodes[open.nodes..] {
            let before = self.scratch.len();
            shift_node(&mut cur, &mut self.scratch, delta)?;
            *len = self.scratch.len() - before;
        }
        self.arena.truncate(open.arena);
        self.arena.extend_from_slice(&self.scratch);
        Ok(())
    }

    /// The container opened at `open` ends at `end`: its children are replaced by its own
    /// entry. The outermost container (`root`) that is indexed keeps its children instead.
    pub(super) fn close(&mut self, open: &Open, end: u64, root: bool) {
        let start = open.start;
        let size = end - start;
        let children = &self.entries[open.entries..];
        let has_big_child = self.big_until > open.entries;
        debug_assert_eq!(
            has_big_child,
            children
                .iter()
                .zip(Spans::new(open.content, children))
                .any(|(c, (s, e))| c.indexed() || e - s > self.trivial_size),
            "big_until disagrees with the children"
        );
        let indexed = size >= self.block_size && has_big_child;
        if indexed {
            if root && open.entries == 0 {
                self.root = Some(Root {
                    start,
                    end,
                    content: open.content,
                    is_map: open.is_map,
                    children: children.len(),
                });
                return;
            }
            self.scratch.clear();
            encode_indexed(
                &mut self.scratch,
                Root {
                    start,
                    end,
                    content: open.content,
                    is_map: open.is_map,
                    children: children.len(),
                },
                children,
                &self.nodes[open.nodes..],
                &self.arena[open.arena..],
                &self.keys,
            );
            self.arena.truncate(open.arena);
            self.arena.extend_from_slice(&self.scratch);
            self.push_node(open, end, self.scratch.len());
            return;
        }
        // A map of trivial children, or an empty container, costs more to index than to read
        // whole.
        if size >= self.block_size && !open.is_map && !children.is_empty() {
            self.blocks.clear();
            // Only leaves are trivial, so every child is its span.
            group_into_blocks(
                Spans::new(open.content, children),
                self.block_size,
                &mut self.blocks,
            );
            if self.push_block_list(open, end) {
                return;
            }
        }
        self.entries.truncate(open.entries);
        self.keys.truncate(open.keys);
        // Its children go; the container's own entry, pushed next, is large if one of them was.
        self.big_until = self.big_until.min(open.entries);
        self.leaf(start, end);
    }

    /// The size above which a value is not trivial.
    #[inline]
    pub(super) fn trivial_size(&self) -> u64 {
        self.trivial_size
    }

    /// Starts streaming an array whose children begin at `content`: while they are all
    /// trivial, each is only counted into the block it ends ([`Index::stream_leaf`]), not given
    /// an entry, and [`Index::stream_close`] then gives the array the node [`Index::close`]
    /// would. A list of ten thousand numbers so costs no entries, nor a pass over them at its
    /// end. The writer leaves this mode, replaying the children into entries, when a child
    /// is a container or not trivial.
    pub(super) fn stream_open(&mut self, content: u64) {
        self.blocks.clear();
        self.stream = Stream::new(content, self.block_size);
    }

    /// A trivial child of the streamed array ended at `end`.
    #[inline]
    pub(super) fn stream_leaf(&mut self, end: u64) {
        self.stream.push(end, self.block_size, &mut self.blocks);
    }

    /// `n` trivial children of the streamed array, `width` bytes each, the first starting at
    /// `start`: as `n` calls of [`Index::stream_leaf`].
    pub(super) fn stream_run(&mut self, start: u64, width: u64, n: u64) {
        self.stream
            .push_run(start, width, n, self.block_size, &mut self.blocks);
    }

    /// Closes the streamed array opened with `open`, ending at `end`: a block list when it
    /// reached the block size in more than one block, otherwise a leaf (as [`Index::close`]).
    pub(super) fn stream_close(&mut self, open: &Open, end: u64) {
        self.stream.finish(end, &mut self.blocks);
        if end - open.start < self.block_size || !self.push_block_list(open, end) {
            self.leaf(open.start, end);
        }
    }

    /// Makes the blocks in `self.blocks` the node of the array `open` ending at `end`, if there
    /// is more than one (one block is the whole array: a leaf). Returns whether it did.
    fn push_block_list(&mut self, open: &Open, end: u64) -> bool {
        if self.blocks.len() <= 1 {
            return false;
        }
        let before = self.arena.len();
        encode_blocks(&mut self.arena, &self.blocks);
        let len = self.arena.len() - before;
        self.push_node(open, end, len);
        true
    }

    /// Replaces the children of `open` by one indexed entry whose node, `len` bytes, ends the
    /// arena.
    fn push_node(&mut self, open: &Open, end: u64, len: usize) {
        self.entries.truncate(open.entries);
        self.keys.truncate(open.keys);
        self.nodes.truncate(open.nodes);
        self.nodes.push(len);
        self.entries.push(Entry {
            end,
            key: 0,
            meta: INDEXED,
        });
        self.big_until = self.entries.len();
    }

    /// Records the children of a container starting at data position `base` from their bytes
    /// (values written while the container was not recorded, all leaves): an entry per value,
    /// and for a map its key. Returns a map's last key, which the entry of a value still being
    /// written will take (an empty key for an array).
    pub(super) fn replay(&mut self, bytes: &[u8], base: u64, is_map: bool) -> Result<Key> {
        let mut cur = Cursor::at(bytes, 0, 0);
        let mut key = Key::default();
        while !cur.is_empty() {
            if is_map {
                let from = cur.pos();
                cur.skip_value().map_err(|_| internal())?;
                key = self.push_key(&[], cur.since(from))?;
                if cur.is_empty() {
                    return Ok(key);
                }
            }
            let from = cur.pos();
            cur.skip_value().map_err(|_| internal())?;
            self.leaf(base + from as u64, base + cur.pos() as u64);
            if is_map {
                self.set_last_key(key);
            }
        }
        Ok(key)
    }

    /// Appends the TOC of the one value recorded to `out`.
    pub(super) fn finish_into(&self, out: &mut Vec<u8>) -> Result<()> {
        match (self.root, self.entries.as_slice()) {
            (Some(root), entries) if entries.len() == root.children => {
                encode_indexed(out, root, entries, &self.nodes, &self.arena, &self.keys);
            }
            (None, [entry]) if entry.indexed() => out.extend_from_slice(&self.arena),
            // The one value starts the data.
            (None, [entry]) => put_leaf(out, 0, entry.end),
            _ => {
                return Err(Error::with_message(
                    ErrorKind::Message,
                    "the serializer must be given exactly one value",
                ))
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of docs/spec/toc-msgpack.md §5.4.
    #[test]
    fn blocks_close_at_or_past_the_block_size() {
        // Five 9-byte floats from offset 3 with T = 18: blocks of 2, 2, then 1.
        let children: Vec<(u64, u64)> = (0..5).map(|i| (3 + 9 * i, 12 + 9 * i)).collect();
        let mut blocks = Vec::new();
        group_into_blocks(children, 18, &mut blocks);
        assert_eq!(blocks, vec![[2, 3, 21], [2, 21, 39], [1, 39, 48]]);
    }

    /// An array at 0 (block size 100, trivial size 10) of a 4-byte value, a map at 5 ending at
    /// `map_end` whose one value (after a 1-byte key) fills it, and 12 floats: it is indexed
    /// (`root` set) only if the map is large; otherwise its children are all trivial and it is
    /// cut into blocks.
    fn array_after_a_map(map_end: u64) -> Index {
        let mut index = Index::new(100, 10);
        let outer = index.open(0, 1, false);
        index.leaf(1, 5);
        let map = index.open(5, 6, true);
        let key = index.push_key(&[], &[0x00]).unwrap();
        index.leaf(7, map_end);
        index.set_last_key(key);
        index.close(&map, map_end, false);
        for i in 0..12 {
            index.leaf(map_end + 9 * i, map_end + 9 + 9 * i);
        }
        index.close(&outer, map_end + 108, true);
        index
    }

    /// A large child counts after its container closed as a leaf; trivial children alone make
    /// block lists, and a block list counts as large for its parent.
    #[test]
    fn large_children_are_tracked_through_closed_containers() {
        // A 25-byte map: large, so the array is indexed, with an entry per child.
        let indexed = array_after_a_map(30);
        assert!(indexed.root.is_some());
        assert_eq!(indexed.entries.len(), 14);
        // A 7-byte map: the array is a block list, one indexed entry.
        let blocks = array_after_a_map(12);
        assert!(blocks.root.is_none());
        assert_eq!((blocks.entries.len(), blocks.big_until), (1, 1));
        assert!(blocks.entries[0].indexed());

        // A block list inside an array makes that array indexed.
        let mut index = Index::new(100, 10);
        let outer = index.open(0, 1, false);
        let list = index.open(1, 2, false);
        for i in 0..20 {
            index.leaf(2 + 9 * i, 11 + 9 * i);
        }
        assert_eq!(index.big_until, 0);
        index.close(&list, 182, false);
        assert!(index.root.is_none());
        index.leaf(182, 183);
        index.close(&outer, 183, true);
        assert!(index.root.is_some());
    }

    /// The worked example of docs/spec/toc-msgpack.md §5.3.
    #[test]
    fn indexed_node_encodes_p_before_t() {
        let mut index = Index::new(300, 0);
        let open = index.open(0, 3, false);
        index.leaf(3, 4);
        index.close(&open, 300, false);
        let mut out = Vec::new();
        index.finish_into(&mut out).unwrap();
        assert_eq!(
            out,
            [
                0x82, 0xa1, b'p', 0x92, 0x00, 0xcd, 0x01, 0x2c, 0xa1, b't', 0x91, 0x81, 0xa1, b'p',
                0x92, 0x03, 0x04
            ]
        );
    }

    /// An indexed root is encoded from the stack, and as the same bytes as a nested node.
    #[test]
    fn root_and_nested_nodes_encode_alike() {
        let mut nested = Index::new(300, 0);
        let outer = nested.open(0, 1, false);
        let open = nested.open(1, 4, false);
        nested.leaf(4, 5);
        nested.close(&open, 301, false);
        nested.close(&outer, 302, true);
        let mut out = Vec::new();
        nested.finish_into(&mut out).unwrap();
        let mut expected = vec![
            0x82, 0xa1, b'p', 0x92, 0x00, 0xcd, 0x01, 0x2e, 0xa1, b't', 0x91,
        ];
        expected.extend_from_slice(&[0x82, 0xa1, b'p', 0x92, 0x01, 0xcd, 0x01, 0x2d]);
        expected.extend_from_slice(&[0xa1, b't', 0x91, 0x81, 0xa1, b'p', 0x92, 0x04, 0x05]);
        assert_eq!(out, expected);
    }

    /// A map `{"k": [30 floats]}` at 0 whose list starts at `start` (after the 2-byte key): its
    /// TOC, the list's positions moved by `shift` (see [`Index::shift`]) once it ends.
    fn shifted_map_toc(start: u64, shift: u64) -> Vec<u8> {
        let mut index = Index::new(100, 10);
        let mut outer = index.open(0, start - 2, true);
        let key = index.push_key(&[0xa1], b"k").unwrap();
        let open = index.open(start, start + 1, false);
        for i in 0..30 {
            index.leaf(start + 1 + 9 * i, start + 10 + 9 * i);
        }
        index.close(&open, start + 271, false);
        index.set_last_key(key);
        if shift > 0 {
            index.shift(&mut outer, shift).unwrap();
        }
        index.close(&outer, start + shift + 271, true);
        let mut toc = Vec::new();
        index.finish_into(&mut toc).unwrap();
        toc
    }

    /// Shifting re-encodes positions whose encoded length changes, blocks and keys included.
    #[test]
    fn shift_moves_every_position_of_encoded_nodes() {
        let shifted = shifted_map_toc(2, 200);
        let expected = shifted_map_toc(202, 0);
        assert_eq!(shifted, expected);
        // The block list holds positions past 255 (two-byte uints) only after the shift.
        assert!(expected.windows(1).any(|w| w[0] == 0xcd));
    }
}
