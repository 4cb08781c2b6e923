//! `gomoku analyze`.

use super::*;

#[test]
fn text_lists_every_move_then_the_statistics() {
    let o = gomoku(&[
        "analyze",
        "--size",
        "9",
        "--depth",
        "2",
        "--search",
        "alphabeta",
        "--minimax",
        "e5",
        "e6",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "to move: black",
        "search: alphabeta/pattern depth 2 (exact value for every move)",
        "candidate moves)",
        "bestmove ",
        "nodes: ",
        "tt: 0 hits, 0 stores",
        "cutoffs: ",
        "branching: ",
        "time: ",
        "minimax: ",
        "pruning: alphabeta/pattern visits ",
    ] {
        assert!(out.contains(needle), "missing '{needle}' in:\n{out}");
    }
    // one line per candidate between the header and the count
    let n: usize = out
        .lines()
        .find_map(|l| l.strip_prefix('(')?.split(' ').next()?.parse().ok())
        .expect("count line");
    let rows = out
        .lines()
        .skip_while(|l| !l.starts_with("move"))
        .skip(1)
        .take_while(|l| !l.starts_with('('))
        .count();
    assert_eq!(rows, n);
    assert!(n > 10);
}

#[test]
fn json_values_are_exact_sorted_and_match_minimax() {
    let o = gomoku(&[
        "analyze",
        "--json",
        "--size",
        "9",
        "--depth",
        "3",
        "--search",
        "alphabeta",
        "--eval",
        "tuple",
        "--minimax",
        "e5",
        "e6",
        "f5",
    ]);
    let v = json(&o);
    assert_eq!(v["search"], "alphabeta/tuple");
    assert_eq!(v["depth"], 3);
    assert_eq!(v["to_move"], "white");
    let moves = v["moves"].as_array().expect("moves");
    assert!(moves.len() > 5);
    let scores: Vec<i64> = moves
        .iter()
        .map(|m| m["score"].as_i64().expect("score"))
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "sorted: {scores:?}"
    );
    assert!(moves.iter().all(|m| m["bound"] == "exact"));
    assert_eq!(moves[0]["move"], v["best_move"]);
    assert_eq!(moves[0]["pv"][0], v["best_move"]);
    let stats = &v["stats"];
    let last = stats["last_iteration_nodes"].as_u64().expect("nodes");
    assert!(stats["nodes"].as_u64().expect("nodes") >= last);
    assert!(stats["cutoffs"].as_u64().expect("cutoffs") > 0);
    let mm = &v["minimax"];
    assert_eq!(mm["complete"], true);
    assert_eq!(mm["score"], v["score"], "pruning does not change the value");
    assert!(mm["nodes"].as_u64().expect("nodes") > last);
    assert!(mm["pruning_ratio"].as_f64().expect("ratio") > 1.0);
    let iters = v["iterations"].as_array().expect("iterations");
    assert_eq!(iters.len(), 3);
    assert!(iters[1]["branching"].as_f64().expect("branching") > 1.0);
}

#[test]
fn engine_reports_table_use_and_bounds_mode_shows_bounds() {
    let v = json(&gomoku(&[
        "analyze",
        "--json",
        "--depth",
        "3",
        "--hash-mb",
        "4",
        "h8",
        "i9",
        "h9",
    ]));
    assert_eq!(v["search"], "pvs");
    assert!(v["stats"]["tt_stores"].as_u64().expect("stores") > 0);
    let o = gomoku(&[
        "analyze",
        "--size",
        "9",
        "--depth",
        "2",
        "--search",
        "alphabeta",
        "--bounds",
        "e5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("<= "), "{}", stdout(&o));
}

#[test]
fn greedy_and_minimax_without_ordering_flags() {
    let v = json(&gomoku(&[
        "analyze", "--json", "--size", "9", "--search", "greedy", "e5", "e6",
    ]));
    assert_eq!(v["depth"], 1);
    assert_eq!(v["search"], "greedy/pattern");
    let v = json(&gomoku(&[
        "analyze",
        "--json",
        "--size",
        "9",
        "--depth",
        "2",
        "--search",
        "alphabeta",
        "--no-ordering",
        "e5",
        "e6",
    ]));
    assert_eq!(v["search"], "alphabeta-noorder/pattern");
}

#[test]
fn bad_input_fails_clearly() {
    assert_fails_with(&gomoku(&["analyze", "--frobnicate"]), "--frobnicate");
    assert_fails_with(&gomoku(&["analyze", "h8", "z99"]), "z99");
    assert_fails_with(&gomoku(&["analyze", "h8", "h8"]), "h8");
    assert_fails_with(
        &gomoku(&["analyze", "--search", "pvs", "--eval", "tuple", "h8"]),
        "pattern",
    );
    assert_fails_with(&gomoku(&["analyze", "--search", "mcts", "h8"]), "mcts");
    assert_fails_with(&gomoku(&["analyze", "--eval", "nn", "h8"]), "nn");
    assert_fails_with(
        &gomoku(&["analyze", "--minimax", "--depth", "7", "h8"]),
        "--minimax",
    );
    assert_fails_with(
        &gomoku(&[
            "analyze", "h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8",
        ]),
        "over",
    );
    assert_fails_with(&gomoku(&["analyze", "--depth", "0", "h8"]), "--depth");
}
