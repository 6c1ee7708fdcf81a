//! The nodes the index encodes: an indexed container from its children's entries, a block
//! list, msglc's cut of an array into blocks, and an encoded node moved by a shift of the data.

use crate::error::{Error, ErrorKind, Result};
use crate::read::Cursor;

use super::super::encode::{self, put_leaf, put_leaves, put_pair, uint_len};
use super::super::msgpack::Head;
use super::{Entry, Root, Spans, Stream};

/// Appends `{"p": [s, e], "t": {key: child, ...}}` (a map) or `{"p": [s, e], "t": [child, ...]}`
/// for a container of `children`, whose indexed nodes are `nodes` long, in order, in `arena`.
pub(super) fn encode_indexed(
    out: &mut Vec<u8>,
    node: Root,
    children: &[Entry],
    nodes: &[usize],
    arena: &[u8],
    keys: &[u8],
) {
    // Every position is at most `end`: a leaf takes at most 4 + 2 * uint_len(end) bytes.
    let leaf_max = 4 + 2 * uint_len(node.end);
    out.reserve(17 + children.len() * leaf_max + arena.len());
    out.extend_from_slice(&[0x82, 0xa1, b'p']);
    put_pair(out, node.start, node.end);
    out.extend_from_slice(&[0xa1, b't']);
    // Lengths beyond u32 were refused while serializing.
    let n = children.len() as u32;
    let head = if node.is_map {
        encode::map_len(n)
    } else {
        encode::array_len(n)
    };
    out.extend_from_slice(head.as_bytes());
    if !node.is_map && nodes.is_empty() {
        // An array of leaves (a long list of small records): one inlined leaf each.
        put_leaves(out, Spans::new(node.content, children));
        return;
    }
    let mut at = 0;
    let mut lens = nodes.iter();
    for (child, (start, end)) in children.iter().zip(Spans::new(node.content, children)) {
        if node.is_map {
            let from = child.key as usize;
            let len = child.key_len() as usize;
            out.extend_from_slice(&keys[from..from + len]);
        }
        match child.indexed().then(|| lens.next()).flatten() {
            Some(&len) => {
                out.extend_from_slice(&arena[at..at + len]);
                at += len;
            }
            None => put_leaf(out, start, end),
        }
    }
}

/// Appends `{"p": [[count, start, end], ...]}`.
pub(super) fn encode_blocks(out: &mut Vec<u8>, blocks: &[[u64; 3]]) {
    out.extend_from_slice(&[0x81, 0xa1, b'p']);
    out.extend_from_slice(encode::array_len(blocks.len() as u32).as_bytes());
    for block in blocks {
        out.push(0x93);
        for v in block {
            out.extend_from_slice(encode::uint(*v).as_bytes());
        }
    }
}

/// Cuts the children of an array whose children are all trivial into blocks, appended to
/// `blocks` (see [`Stream`]).
pub(super) fn group_into_blocks(
    spans: impl IntoIterator<Item = (u64, u64)>,
    block_size: u64,
    blocks: &mut Vec<[u64; 3]>,
) {
    let mut spans = spans.into_iter().peekable();
    let Some(&(first_start, _)) = spans.peek() else {
        return;
    };
    let mut stream = Stream::new(first_start, block_size);
    let mut last_end = first_start;
    for (_, end) in spans {
        stream.push(end, block_size, blocks);
        last_end = end;
    }
    stream.finish(last_end, blocks);
}

/// Copies one encoded node from `cur` to `out` with every data position moved by `delta`.
pub(super) fn shift_node(cur: &mut Cursor<'_>, out: &mut Vec<u8>, delta: u64) -> Result<()> {
    let Head::Map(fields) = cur.head()? else {
        return Err(internal());
    };
    out.extend_from_slice(encode::map_len(fields).as_bytes());
    for _ in 0..fields {
        let key = cur.pos();
        cur.skip_value()?;
        let key = cur.since(key);
        out.extend_from_slice(key);
        match (key, cur.head()?) {
            (b"\xa1p", Head::Array(n)) => {
                out.extend_from_slice(encode::array_len(n).as_bytes());
                let first = cur.pos();
                let blocks = matches!(cur.head()?, Head::Array(_));
                cur.set_pos(first);
                if blocks {
                    for _ in 0..n {
                        cur.head()?;
                        out.push(0x93);
                        let count = cur.uint(ErrorKind::Message)?;
                        out.extend_from_slice(encode::uint(count).as_bytes());
                        shift_uints(cur, out, 2, delta)?;
                    }
                } else {
                    shift_uints(cur, out, n, delta)?;
                }
            }
            (b"\xa1t", Head::Array(n)) => {
                out.extend_from_slice(encode::array_len(n).as_bytes());
                for _ in 0..n {
                    shift_node(cur, out, delta)?;
                }
            }
            (b"\xa1t", Head::Map(n)) => {
                out.extend_from_slice(encode::map_len(n).as_bytes());
                for _ in 0..n {
                    let key = cur.pos();
                    cur.skip_value()?;
                    out.extend_from_slice(cur.since(key));
                    shift_node(cur, out, delta)?;
                }
            }
            _ => return Err(internal()),
        }
    }
    Ok(())
}

fn shift_uints(cur: &mut Cursor<'_>, out: &mut Vec<u8>, n: u32, delta: u64) -> Result<()> {
    for _ in 0..n {
        let v = cur.uint(ErrorKind::Message)?;
        out.extend_from_slice(encode::uint(v + delta).as_bytes());
    }
    Ok(())
}

/// The arena holds only nodes this module encoded; anything else is a bug.
#[cold]
pub(super) fn internal() -> Error {
    Error::with_message(ErrorKind::Message, "internal error: malformed TOC node")
}
