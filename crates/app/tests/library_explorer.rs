//! The opening explorer and the stored analyses: a position reached by two move orders and
//! as a mirror image is one position; the moves played from it come back in the orientation
//! asked about, with how the games went and the stored engine values; deleted games leave it.

use gomoku_app::library::analyses::{Analysis, Candidate};
use gomoku_app::library::symmetry::SymHash;
use gomoku_app::library::{Filter, Library};
use gomoku_engine::notation::parse_pos;
use gomoku_engine::{Pos, Rule};
use std::path::Path;

fn library(dir: &Path) -> Library {
    let lib = Library::open(&dir.join("lib.sqlite")).unwrap();
    let sgf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/library/collection.sgf");
    let r = lib.import_paths(&[sgf], Rule::Freestyle).unwrap();
    assert_eq!(r.added, 3);
    lib
}

fn p(s: &str) -> Pos {
    parse_pos(s, 15).unwrap()
}

fn at(moves: &str) -> SymHash {
    let mut h = SymHash::new(15, Rule::Renju);
    for m in moves.split_whitespace() {
        h.play(p(m));
    }
    h
}

#[test]
fn a_position_reached_by_two_move_orders_and_a_mirror_image_is_one_position() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let e = lib.explore(&at("h8 h9 i8 i9"), 10, 0).unwrap();
    assert_eq!(e.games, 3);
    assert_eq!((e.results.black, e.results.white), (2, 1));
    let moves: Vec<(&str, i64)> = e
        .moves
        .iter()
        .map(|m| (m.point.as_str(), m.games))
        .collect();
    assert_eq!(moves, [("j8", 2), ("g8", 1)]);
    assert_eq!(e.list.len(), 3);
    // asked from the mirror image's side, the moves come mirrored
    let e = lib.explore(&at("h8 h9 g8 g9"), 10, 0).unwrap();
    let moves: Vec<(&str, i64)> = e
        .moves
        .iter()
        .map(|m| (m.point.as_str(), m.games))
        .collect();
    assert_eq!(moves, [("f8", 2), ("i8", 1)]);
    // the games listed say where the position is in their trees
    for g in &e.list {
        let game = lib.load(g.game.id).unwrap().unwrap().game;
        assert_eq!(game.tree.path(g.node).len(), 4, "{}", g.game.id);
    }
    // another rule is another position
    let mut free = SymHash::new(15, Rule::Freestyle);
    for m in ["h8", "h9", "i8", "i9"] {
        free.play(p(m));
    }
    assert_eq!(lib.explore(&free, 10, 0).unwrap().games, 0);
    // a side line counts: after game B's g8 two moves were tried
    let e = lib.explore(&at("h8 h9 i8 i9 g8"), 10, 0).unwrap();
    let moves: Vec<&str> = e.moves.iter().map(|m| m.point.as_str()).collect();
    assert_eq!(moves, ["f8", "k8"]);
    assert_eq!(e.games, 1);
}

#[test]
fn stored_values_come_with_the_moves_played() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    // an analysis of the position after j8, stored from the mirror image's side (f8)
    let after = Analysis {
        depth: 10,
        score: -40,
        nodes: 5000,
        time_ms: 120,
        best: vec![Candidate {
            point: p("e8"),
            score: -40,
            depth: 10,
            pv: vec![p("e8")],
        }],
        engine: "pvs".into(),
        created: 0,
    };
    assert!(lib.put_analysis(&at("h8 h9 g8 g9 f8"), &after).unwrap());
    // and one of the position itself, that values g8
    let here = Analysis {
        depth: 12,
        score: 55,
        nodes: 9000,
        time_ms: 300,
        best: vec![Candidate {
            point: p("g8"),
            score: 30,
            depth: 12,
            pv: vec![p("g8"), p("f8")],
        }],
        engine: "pvs".into(),
        created: 0,
    };
    assert!(lib.put_analysis(&at("i8 i9 h8 h9"), &here).unwrap());
    let e = lib.explore(&at("h8 h9 i8 i9"), 10, 0).unwrap();
    let value = |m: &str| {
        e.moves
            .iter()
            .find(|x| x.point == m)
            .and_then(|x| x.value.clone())
            .map(|v| (v.score, v.depth))
    };
    // j8 from the position after it (for the side that played it), g8 from the analysis
    assert_eq!(value("j8"), Some((40, 10)));
    assert_eq!(value("g8"), Some((30, 12)));
    let a = e.analysis.expect("the position's analysis");
    assert_eq!((a.depth, a.best[0].point.as_str()), (12, "g8"));
    // the analysis is found from the mirror image too, mirrored
    let found = lib.analysis(&at("g8 g9 h8 h9")).unwrap().expect("found");
    assert_eq!(found.best[0].point, p("i8"));
    assert_eq!(found.best[0].pv, [p("i8"), p("j8")]);
}

#[test]
fn deleted_games_leave_the_explorer_and_restored_ones_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let ids = lib.ids(&Filter::default()).unwrap();
    assert!(lib.delete(ids[0]).unwrap());
    let e = lib.explore(&at("h8 h9 i8 i9"), 10, 0).unwrap();
    assert_eq!(e.games, 2);
    let deleted = Filter {
        deleted: true,
        ..Filter::default()
    };
    assert_eq!(lib.list(&deleted).unwrap().1, 1);
    assert!(lib.restore(ids[0]).unwrap());
    assert_eq!(lib.explore(&at("h8 h9 i8 i9"), 10, 0).unwrap().games, 3);
    // gone for good after a purge of what was deleted
    assert!(lib.delete(ids[1]).unwrap());
    assert_eq!(lib.purge(0).unwrap(), 1);
    assert!(lib.load(ids[1]).unwrap().is_none());
    assert_eq!(lib.explore(&at("h8 h9 i8 i9"), 10, 0).unwrap().games, 2);
}

#[test]
fn busy_positions_keep_their_counts_through_imports_deletes_and_restores() {
    use gomoku_app::library::bench::random_games;
    use gomoku_engine::record::Record;
    use std::collections::HashMap;
    let dir = tempfile::tempdir().unwrap();
    let lib = Library::open(&dir.path().join("lib.sqlite")).unwrap();
    let lines = random_games(1_500, 9);
    // two imports: the first makes the busy positions counted, the second adds to them
    lib.import_bytes(
        "a.txt",
        lines[..1_200].join("\n").as_bytes(),
        Rule::Freestyle,
    )
    .unwrap();
    assert!(lib.stats().unwrap().hot > 0);
    lib.import_bytes(
        "b.txt",
        lines[1_200..].join("\n").as_bytes(),
        Rule::Freestyle,
    )
    .unwrap();
    let ids = lib.ids(&Filter::default()).unwrap();
    for &id in ids.iter().step_by(7) {
        lib.delete(id).unwrap();
    }
    lib.restore(ids[7]).unwrap();
    let live: Vec<usize> = (0..lines.len()).filter(|i| i % 7 != 0 || *i == 7).collect();
    // the first moves of the games still there, each as its class under the board's symmetry
    let empty = SymHash::new(15, Rule::Freestyle);
    let keyed = empty.keyed();
    let mut want: HashMap<String, i64> = HashMap::new();
    for &i in &live {
        let rec = Record::parse(&lines[i]).unwrap();
        let shown = keyed.shown(keyed.canonical(rec.moves[0])).unwrap();
        *want
            .entry(gomoku_engine::notation::format_pos(shown, 15))
            .or_default() += 1;
    }
    let e = lib.explore(&empty, 5, 0).unwrap();
    assert_eq!(e.games, live.len() as i64);
    let got: HashMap<String, i64> = e.moves.iter().map(|m| (m.point.clone(), m.games)).collect();
    assert_eq!(got, want);
    let r = e.results;
    assert_eq!(r.black + r.white + r.draw + r.unknown, live.len() as i64);
}
