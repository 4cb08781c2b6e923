use gomoku_engine::record::Record;
use gomoku_engine::vct::{VctLimits, VctSearcher};
use gomoku_engine::*;
fn main() {
    let file = std::env::args().nth(1).unwrap();
    let ln: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let seq = std::env::args().nth(3).unwrap_or_default();
    let text = std::fs::read_to_string(&file).unwrap();
    let r = Record::parse(text.lines().nth(ln - 1).unwrap()).unwrap();
    let mut b = r.game().unwrap().board().clone();
    let moves = notation::parse_moves(&seq, 15).unwrap();
    for k in (0..=moves.len()).rev() {
        let mut bb = b.clone();
        for m in &moves[..k] {
            bb.play(*m);
        }
        let mut v = VctSearcher::new();
        let res = v.search(
            &mut bb,
            VctLimits {
                max_depth: 20,
                max_nodes: 2_000_000,
                max_ms: None,
            },
        );
        println!(
            "after {} moves ({} to move): {:?} depth {} nodes {}",
            k,
            bb.to_move(),
            res.line.map(|l| notation::format_moves(&l, 15)),
            res.depth,
            res.nodes
        );
    }
    let _ = &mut b;
}
