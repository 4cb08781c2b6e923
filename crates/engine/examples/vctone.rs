use gomoku_engine::record::Record;
use gomoku_engine::vct::{VctLimits, VctSearcher};
use gomoku_engine::*;
fn main() {
    let file = std::env::args().nth(1).unwrap();
    let ln: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let seq = std::env::args().nth(3).unwrap_or_default();
    let d: i32 = std::env::args()
        .nth(4)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let text = std::fs::read_to_string(&file).unwrap();
    let r = Record::parse(text.lines().nth(ln - 1).unwrap()).unwrap();
    let mut b = r.game().unwrap().board().clone();
    for m in notation::parse_moves(&seq, 15).unwrap() {
        b.play(m);
    }
    let mut v = VctSearcher::new();
    let res = v.search(
        &mut b,
        VctLimits {
            max_depth: d,
            max_nodes: 2_000_000,
            max_ms: None,
        },
    );
    println!(
        "{:?} depth {} nodes {}",
        res.line.map(|l| notation::format_moves(&l, 15)),
        res.depth,
        res.nodes
    );
}
