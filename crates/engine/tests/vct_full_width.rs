//! The VCT's defence rules checked against a defender that may answer anywhere: for renju
//! puzzles that the VCT proves within a few threats, the same search with a full-width defender
//! (every empty point it may play, see `VctSearcher::full_width`) proves the win too. A defence
//! the rules forgot shows up here as a win the full-width search cannot prove.

use gomoku_engine::record::Record;
use gomoku_engine::vct::{VctLimits, VctSearcher};
use gomoku_engine::Board;
use std::path::PathBuf;

fn positions(name: &str) -> Vec<(String, Board)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !Record::is_blank(l))
        .map(|l| {
            let r = Record::parse(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            let b = r
                .game()
                .unwrap_or_else(|e| panic!("{l}: {e}"))
                .board()
                .clone();
            (l.to_string(), b)
        })
        .collect()
}

fn limits(max_depth: i32, max_nodes: u64) -> VctLimits {
    VctLimits {
        max_depth,
        max_nodes,
        max_ms: None,
    }
}

#[test]
fn wins_proven_with_the_real_defences_hold_against_every_defence() {
    let set = positions("renju-vct-sample.txt");
    assert!(set.len() >= 8);
    for (line, board) in set {
        let found = VctSearcher::new().search(&mut board.clone(), limits(4, 2_000_000));
        assert!(found.line.is_some(), "{line}: no VCT found");
        let full =
            VctSearcher::full_width().search(&mut board.clone(), limits(found.depth, 5_000_000));
        assert!(
            full.line.is_some(),
            "{line}: won in {} threats with the real defences, not against every defence \
             (full-width search completed depth {}, {} nodes)",
            found.depth,
            full.depth,
            full.nodes
        );
    }
}

#[test]
fn the_full_width_defender_finds_the_defence_the_rules_once_missed() {
    // Black's g9 sets up the four-three j6; White's k8 makes the forced block k6 a four of
    // its own. Within one threat Black has no win (the defence rules once missed k8 and
    // claimed one); it takes six.
    let mut b = Board::new(15, gomoku_engine::Rule::Renju).unwrap();
    for m in gomoku_engine::notation::parse_moves(
        "h10 f9 h8 h9 i8 k9 e7 f8 f7 h7 g7 k7 j7 d6 g6 f6 h6 g5 i6 i5",
        15,
    )
    .unwrap()
    {
        b.play(m);
    }
    let full = VctSearcher::full_width().search(&mut b.clone(), limits(1, 5_000_000));
    assert_eq!(full.line, None);
    assert_eq!(full.depth, 1, "depth 1 searched completely");
    let real = VctSearcher::new().search(&mut b.clone(), limits(1, 5_000_000));
    assert_eq!(real.line, None);
}
