//! The recursive schema of the nesting-depth tests, a `Tree` of `Node`s, and its bytes built by
//! hand: shared by `depth_limit.rs` here and, through `#[path]`, by the integration tests
//! `columnar_features` and `columnar_hostile`.

#![allow(dead_code)]

use columnar::columnar;

#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    #[columnar(strategy = "DeltaRle")]
    pub v: u32,
    #[columnar(class = "vec")]
    pub children: Vec<Node>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    #[columnar(class = "vec", iter = "Node")]
    pub roots: Vec<Node>,
}

/// Appends `n` as an unsigned LEB128 varint.
pub fn varint(mut n: usize, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// `depth` nodes of v 0 above a leaf, each the one child of the node above.
pub fn chain(depth: usize) -> Node {
    let mut node = Node::default();
    for _ in 0..depth {
        node = Node {
            v: 0,
            children: vec![node],
        };
    }
    node
}

/// The bytes of `Tree { roots: [chain(depth)] }`, by hand (R2, R3, R7, R11): a node container is `02`, the v column `02 01 00` (DeltaRle literal of 1: 0), and the
/// children column, a byte string of `01` (one row) and the child's container. A leaf's children
/// column holds one empty container: `02 00 01 00`. Built back to front, in linear time: each
/// level wraps the bytes of the level inside it.
pub fn chain_bytes(depth: usize) -> Vec<u8> {
    let leaf = [0x02, 0x02, 0x01, 0x00, 0x05, 0x01, 0x02, 0x00, 0x01, 0x00];
    let mut reversed: Vec<u8> = leaf.into_iter().rev().collect();
    for _ in 0..depth {
        let column_len = reversed.len() + 1;
        reversed.push(0x01);
        let mut len = Vec::new();
        varint(column_len, &mut len);
        reversed.extend(len.into_iter().rev());
        reversed.extend([0x00, 0x01, 0x02, 0x02]); // `02 02 01 00`, reversed
    }
    reversed.push(0x01); // the table's field count
    reversed.reverse();
    reversed
}
