//! The Loro proof program: builds one deterministic Loro document, exports it in every mode
//! Loro offers, imports every blob into a fresh document and checks the result.
//!
//! The integration test `tests/tests/loro_proof.rs` builds this file twice, against the
//! registry's `loro` as published (the real `serde_columnar`, manifest `tests/loro/real`) and
//! with `serde_columnar` replaced by this repository's `columnar` through `[patch.crates-io]`
//! (manifest `tests/loro/columnar`), then compares the two builds' blobs byte for byte and has
//! each build import the other's.
//!
//! Usage:
//! - `loro-proof export DIR`: writes `DIR/<mode>.bin` for every export mode and checks that each
//!   imports back to the value it stands for; prints one line per blob and the time taken.
//! - `loro-proof import DIR`: imports the blobs in `DIR` (written by another build or by the
//!   Python `loro` package) and checks them against the document this build makes.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use loro::{
    ExpandType, ExportMode, Frontiers, IdSpan, LoroDoc, LoroValue, StyleConfig, TreeParentId,
    VersionVector,
};

const PEERS: [u64; 3] = [1, 2, 3];
const ROUNDS: usize = 40;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let result = match (args.get(1).map(String::as_str), args.get(2)) {
        (Some("export"), Some(dir)) => export(Path::new(dir)),
        (Some("import"), Some(dir)) => import(Path::new(dir)),
        _ => Err("usage: loro-proof export DIR | loro-proof import DIR".to_string()),
    };
    if let Err(message) = result {
        eprintln!("loro-proof: {message}");
        std::process::exit(1);
    }
}

/// The document, with the frontiers and version vector of its midpoint.
struct Built {
    doc: LoroDoc,
    mid: Frontiers,
    mid_vv: VersionVector,
}

fn new_doc(peer: u64) -> LoroDoc {
    let doc = LoroDoc::new();
    doc.set_peer_id(peer).expect("peer id");
    doc.config_default_text_style(Some(StyleConfig {
        expand: ExpandType::After,
    }));
    doc.get_tree("tree").enable_fractional_index(0);
    doc
}

/// A deterministic pseudo-random sequence (xorshift), so that both builds make the same document.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Three peers edit text (with marks), a map, a list, a movable list and a tree, exchanging
/// updates every round; returns the merged document of peer 1.
fn build() -> Result<Built, String> {
    let docs: Vec<LoroDoc> = PEERS.iter().map(|&p| new_doc(p)).collect();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut mid = None;
    for round in 0..ROUNDS {
        for (i, doc) in docs.iter().enumerate() {
            edit(doc, i, round, &mut rng).map_err(|e| format!("edit: {e}"))?;
            doc.commit();
        }
        // Exchange: every peer imports every other peer's updates.
        for a in 0..docs.len() {
            for b in 0..docs.len() {
                if a != b {
                    let vv = docs[a].oplog_vv();
                    let bytes = docs[b]
                        .export(ExportMode::updates(&vv))
                        .map_err(|e| e.to_string())?;
                    docs[a].import(&bytes).map_err(|e| e.to_string())?;
                }
            }
        }
        if round == ROUNDS / 2 {
            mid = Some((docs[0].oplog_frontiers(), docs[0].oplog_vv()));
        }
    }
    let (mid, mid_vv) = mid.expect("midpoint");
    let doc = docs.into_iter().next().expect("peer 1");
    Ok(Built { doc, mid, mid_vv })
}

fn edit(doc: &LoroDoc, peer: usize, round: usize, rng: &mut Rng) -> loro::LoroResult<()> {
    let text = doc.get_text("text");
    for k in 0..60 {
        let len = text.len_unicode();
        let word = ["lorem ", "ipsum ", "dolor ", "sit ", "amet ", "é ", "✓ ", "日本 "][k % 8];
        text.insert(rng.below(len + 1), word)?;
        if k % 7 == 0 && len > 10 {
            let at = rng.below(len - 5);
            text.delete(at, 2)?;
        }
    }
    let len = text.len_unicode();
    if len > 20 {
        let at = rng.below(len - 10);
        let key = ["bold", "italic", "link"][round % 3];
        text.mark(at..at + 8, key, LoroValue::from(peer as i64))?;
    }
    let map = doc.get_map("map");
    for k in 0..20 {
        let key = format!("k{}", rng.below(50));
        match k % 4 {
            0 => map.insert(&key, (round * 100 + k) as i64)?,
            1 => map.insert(&key, format!("p{peer}r{round}"))?,
            2 => map.insert(&key, (k as f64) / 3.0)?,
            _ => map.delete(&key)?,
        }
    }
    let list = doc.get_list("list");
    for k in 0..30 {
        let len = list.len();
        if k % 5 == 4 && len > 0 {
            list.delete(rng.below(len), 1)?;
        } else {
            list.insert(rng.below(len + 1), (peer * 1000 + k) as i64)?;
        }
    }
    let movable = doc.get_movable_list("movable");
    for k in 0..30 {
        let len = movable.len();
        match k % 3 {
            0 => movable.push(format!("m{peer}-{round}-{k}"))?,
            1 if len > 1 => movable.mov(rng.below(len), rng.below(len))?,
            _ if len > 0 => movable.set(rng.below(len), k as i64)?,
            _ => movable.push(true)?,
        }
    }
    let tree = doc.get_tree("tree");
    for _ in 0..10 {
        let nodes = tree.nodes();
        let parent = if nodes.is_empty() || rng.below(3) == 0 {
            TreeParentId::Root
        } else {
            TreeParentId::Node(nodes[rng.below(nodes.len())])
        };
        let node = tree.create(parent)?;
        tree.get_meta(node)?.insert("name", format!("n{peer}-{round}"))?;
    }
    let nodes = tree.nodes();
    if nodes.len() > 4 {
        // A move may be refused when it would make a cycle; that is part of the workload.
        let _refused_when_cyclic = tree.mov(nodes[rng.below(nodes.len())], TreeParentId::Root);
    }
    Ok(())
}

/// Every export mode Loro 1.17 offers, by file name.
fn blobs(built: &Built) -> Result<BTreeMap<&'static str, Vec<u8>>, String> {
    let doc = &built.doc;
    let all = doc.oplog_vv();
    let rest: Vec<IdSpan> = all
        .iter()
        .filter_map(|(&peer, &end)| {
            let start = built.mid_vv.get(&peer).copied().unwrap_or(0);
            (end > start).then(|| IdSpan::new(peer, start, end))
        })
        .collect();
    let modes: Vec<(&'static str, ExportMode)> = vec![
        ("snapshot", ExportMode::Snapshot),
        ("all_updates", ExportMode::all_updates()),
        ("updates_since_mid", ExportMode::updates(&built.mid_vv)),
        ("updates_in_range", ExportMode::updates_in_range(rest)),
        ("shallow_snapshot", ExportMode::shallow_snapshot(&built.mid)),
        ("state_only", ExportMode::state_only(None)),
        ("state_only_at_mid", ExportMode::state_only(Some(&built.mid))),
        ("snapshot_at_mid", ExportMode::snapshot_at(&built.mid)),
    ];
    let mut out = BTreeMap::new();
    for (name, mode) in modes {
        let bytes = doc.export(mode).map_err(|e| format!("export {name}: {e}"))?;
        out.insert(name, bytes);
    }
    Ok(out)
}

/// Imports `bytes` (the blob `name`) into a fresh document and checks it holds what it should:
/// the same deep value and the same rich text (marks included) as the document it stands for.
fn check(built: &Built, name: &str, bytes: &[u8]) -> Result<(), String> {
    let fresh = new_doc(99);
    let at_mid;
    let expected = match name {
        "updates_since_mid" | "updates_in_range" => {
            // These hold the second half only: start from the midpoint.
            let base = built
                .doc
                .export(ExportMode::snapshot_at(&built.mid))
                .map_err(|e| e.to_string())?;
            fresh.import(&base).map_err(|e| e.to_string())?;
            &built.doc
        }
        "state_only_at_mid" | "snapshot_at_mid" => {
            at_mid = built.doc.fork_at(&built.mid).map_err(|e| e.to_string())?;
            &at_mid
        }
        _ => &built.doc,
    };
    let status = fresh
        .import(bytes)
        .map_err(|e| format!("import {name}: {e}"))?;
    if status.pending.is_some() {
        return Err(format!("import {name}: changes left pending"));
    }
    if fresh.get_deep_value() != expected.get_deep_value() {
        return Err(format!("import {name}: the document's value differs"));
    }
    if fresh.get_text("text").to_delta() != expected.get_text("text").to_delta() {
        return Err(format!("import {name}: the rich text (marks) differs"));
    }
    Ok(())
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn export(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let started = Instant::now();
    let built = build()?;
    let ops: usize = built.doc.oplog_vv().iter().map(|(_, &c)| c as usize).sum();
    if ops < 10_000 {
        return Err(format!("only {ops} operations; the proof wants 10k or more"));
    }
    println!("document: {ops} operations, built in {:?}", started.elapsed());
    let started = Instant::now();
    let blobs = blobs(&built)?;
    let exported = started.elapsed();
    let started = Instant::now();
    for (name, bytes) in &blobs {
        check(&built, name, bytes)?;
    }
    let imported = started.elapsed();
    let deep = serde_json::to_string(&built.doc.get_deep_value()).map_err(|e| e.to_string())?;
    let path = dir.join("deep.json");
    std::fs::write(&path, deep).map_err(|e| format!("{}: {e}", path.display()))?;
    for (name, bytes) in &blobs {
        let path = dir.join(format!("{name}.bin"));
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{name:20} {:8} bytes  fnv {:016x}", bytes.len(), fnv(bytes));
    }
    println!("export all modes: {exported:?}; import and check all: {imported:?}");
    Ok(())
}

fn import(dir: &Path) -> Result<(), String> {
    let built = build()?;
    let mut seen = 0;
    for name in blobs(&built)?.keys() {
        let path = dir.join(format!("{name}.bin"));
        // Peers other than this program (Python's loro) write a subset of the modes.
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        check(&built, name, &bytes)?;
        seen += 1;
    }
    if seen == 0 {
        return Err(format!("no blob to import in {}", dir.display()));
    }
    println!("imported and checked {seen} blobs from {}", dir.display());
    Ok(())
}
