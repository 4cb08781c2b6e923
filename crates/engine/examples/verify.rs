//! Checks the VCT's wins with a full-width defender: `verify FILE [MAX_DEPTH] [NODES]`.
use gomoku_engine::record::Record;
use gomoku_engine::vct::{VctLimits, VctSearcher};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_d: i32 = args.get(2).map_or(2, |s| s.parse().unwrap());
    let nodes: u64 = args.get(3).map_or(20_000_000, |s| s.parse().unwrap());
    let (mut ok, mut bad, mut unk) = (0, 0, 0);
    for (i, line) in std::fs::read_to_string(&args[1])
        .unwrap()
        .lines()
        .enumerate()
    {
        let Ok(rec) = Record::parse(line) else {
            continue;
        };
        let Ok(g) = rec.game() else { continue };
        let mut s = VctSearcher::new();
        let r = s.search(
            &mut g.board().clone(),
            VctLimits {
                max_depth: max_d,
                max_nodes: 1_000_000,
                max_ms: None,
            },
        );
        if r.line.is_none() {
            continue;
        }
        let mut v = VctSearcher::full_width();
        let rv = v.search(
            &mut g.board().clone(),
            VctLimits {
                max_depth: r.depth,
                max_nodes: nodes,
                max_ms: None,
            },
        );
        let verdict = if rv.line.is_some() {
            ok += 1;
            "ok"
        } else if rv.depth >= r.depth {
            bad += 1;
            "REFUTED"
        } else {
            unk += 1;
            "unknown"
        };
        println!("{} d{} {} ({} nodes)", i + 1, r.depth, verdict, rv.nodes);
    }
    println!("verified {ok} refuted {bad} unknown {unk}");
}
