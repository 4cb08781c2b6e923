//! Integration tests of the study commands: `analyze`, the component flags of `think`,
//! `match` (with fake pbrain engines in `tests/fake-pbrain.sh`) and `play`.

mod common;

use common::{gomoku, gomoku_env, gomoku_with_bytes, gomoku_with_input, spawn, stderr, stdout};
use std::io::Write;
use std::path::PathBuf;
use std::process::Output;

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_str(&stdout(o)).expect("one JSON object")
}

/// A failure with a clear message on stderr and nothing on stdout that looks like a result.
fn assert_fails_with(o: &Output, needle: &str) {
    assert!(!o.status.success(), "should fail: {}", stdout(o));
    let e = stderr(o);
    assert!(e.contains(needle), "expected '{needle}' in: {e}");
}

fn fake_engine(mode: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake-pbrain.sh");
    format!("cmd:sh '{}' {mode}", script.display())
}

/// Writes `content` to `name` in a fresh temporary directory, removed when the returned guard
/// is dropped.
fn openings_file(name: &str, content: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path().join(name);
    std::fs::write(&p, content).expect("write");
    (dir, p)
}

const OPENINGS: &str = "# two small openings\n\
    15 freestyle h8 h9 i10 | set=test idx=0\n\
    15 renju h8 i9 | set=other idx=0\n\
    9 freestyle e5 e6 f5 | set=test idx=1\n";

// `gomoku analyze`
mod analyze {
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
}

// the component flags of `gomoku think`
mod think_components {
    use super::*;

    #[test]
    fn think_with_another_search_and_evaluator() {
        let o = gomoku(&[
            "think", "--size", "9", "--depth", "2", "--search", "minimax", "--eval", "tuple", "e5",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("search: minimax/tuple"), "{out}");
        assert!(out.contains("depth  2"), "{out}");
        assert!(out.contains("bestmove "), "{out}");
        assert_fails_with(
            &gomoku(&["think", "--eval", "tuple", "h8"]),
            "pvs search uses the engine's own pattern evaluation",
        );
    }
}

// `--exclude` of `think` and `analyze`: the best move among the others
mod exclude {
    use super::*;

    /// Black's straight four: g8 and l8 each make five.
    const FOUR: [&str; 8] = ["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"];

    fn with(args: &[&str]) -> Vec<String> {
        args.iter()
            .chain(FOUR.iter())
            .map(|s| s.to_string())
            .collect()
    }

    fn run(args: &[String]) -> std::process::Output {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        gomoku(&refs)
    }

    #[test]
    fn the_search_plays_none_of_the_points_left_out() {
        // (arguments, the move expected or "" for any but g8 and l8)
        for search in ["pvs", "alphabeta", "minimax"] {
            for (exclude, want) in [
                (vec!["--exclude", "g8"], "l8"),
                (vec!["--exclude", "l8"], "g8"),
            ] {
                let mut a = vec!["think", "--depth", "2", "--search", search];
                a.extend(&exclude);
                let o = run(&with(&a));
                assert!(o.status.success(), "{}", stderr(&o));
                let out = stdout(&o);
                assert!(
                    out.contains(&format!("bestmove {want} ")),
                    "{search} {exclude:?}: {out}"
                );
            }
        }
        for exclude in [
            vec!["--exclude", "g8,l8"],
            vec!["--exclude", "g8", "--exclude", "l8"],
        ] {
            let mut a = vec!["analyze", "--depth", "3", "--json"];
            a.extend(&exclude);
            let v = json(&run(&with(&a)));
            let moves: Vec<&str> = v["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m["move"].as_str().expect("a point"))
                .collect();
            assert!(moves.len() >= 3, "{v}");
            assert!(
                !moves.contains(&"g8") && !moves.contains(&"l8"),
                "{moves:?}"
            );
        }
    }

    #[test]
    fn bad_points_are_refused() {
        for (arg, says) in [
            ("h8", "h8 is not an empty point"),
            ("z99", "off the 15x15 board"),
            ("g8,,x", "--exclude"),
        ] {
            assert_fails_with(
                &run(&with(&["think", "--depth", "2", "--exclude", arg])),
                says,
            );
            assert_fails_with(
                &run(&with(&["analyze", "--depth", "2", "--exclude", arg])),
                says,
            );
        }
        let every: Vec<String> = "abcde"
            .chars()
            .flat_map(|c| (1..=5).map(move |r| format!("{c}{r}")))
            .filter(|p| p != "c3")
            .collect();
        let o = gomoku(&["think", "--size", "5", "--exclude", &every.join(","), "c3"]);
        assert_fails_with(&o, "leaves no legal move");
    }
}

// `gomoku match`
mod match_cmd {
    use super::*;

    fn run_json(p2: &str, extra: &[&str]) -> serde_json::Value {
        let (_dir, file) = openings_file("basic.txt", OPENINGS);
        let mut args = vec![
            "match",
            "--json",
            "--no-progress",
            "--p1",
            "search=greedy",
            "--p2",
            p2,
            "--openings",
            file.to_str().expect("utf-8 path"),
            "--time-ms",
            "100",
            "--margin-ms",
            "300",
        ];
        args.extend_from_slice(extra);
        json(&gomoku(&args))
    }

    #[test]
    fn plays_both_colours_against_a_legal_pbrain_engine_and_saves_games() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("psq");
        let lines = dir.join("games.txt");
        let v = run_json(
            &fake_engine("legal"),
            &[
                "--psq-dir",
                dir.to_str().expect("utf-8"),
                "--positions",
                lines.to_str().expect("utf-8"),
            ],
        );
        assert_eq!(v["games"], 2, "one 15x15 freestyle opening, both colours");
        assert_eq!(v["wins"], 2, "greedy beats a first-empty-point player: {v}");
        assert_eq!(v["forfeits"].as_array().expect("list").len(), 0);
        let recs = v["records"].as_array().expect("records");
        assert_eq!(recs[0]["black"], "greedy/pattern");
        assert_eq!(recs[1]["white"], "greedy/pattern");
        for r in recs {
            assert_eq!(r["reason"], "five");
            assert!(r["position"]
                .as_str()
                .expect("text")
                .starts_with("h8 h9 i10"));
        }
        let psq = std::fs::read_to_string(dir.join("game-001.psq")).expect("psq saved");
        assert!(psq.starts_with("Piskvorky 15x15"), "{psq}");
        assert!(psq.contains("\n8,8,0\n"), "h8 is 8,8 1-based: {psq}");
        let saved = std::fs::read_to_string(&lines).expect("positions saved");
        assert_eq!(saved.lines().count(), 2);
        assert!(saved
            .lines()
            .all(|l| l.starts_with("15 freestyle h8 h9 i10 ")
                && l.contains("result=")
                && l.contains("reason=five")));
    }

    #[test]
    fn a_match_cut_short_keeps_the_games_it_finished() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let (_odir, openings) = openings_file("basic.txt", OPENINGS);
        let dir = tmp.path().join("psq");
        let lines = tmp.path().join("games.txt");
        let mut child = spawn(&[
            "match",
            "--no-progress",
            "--p1",
            "pvs depth=2",
            "--p2",
            "pvs depth=3",
            "--openings",
            openings.to_str().expect("utf-8"),
            "--games",
            "1000",
            "--psq-dir",
            dir.to_str().expect("utf-8"),
            "--positions",
            lines.to_str().expect("utf-8"),
        ]);
        let out = child.stdout.take().expect("stdout");
        let mut reader = std::io::BufReader::new(out);
        let mut line = String::new();
        // the header, then the first game's line: that game is saved by now
        while std::io::BufRead::read_line(&mut reader, &mut line).expect("reads") > 0
            && !line.starts_with("game ")
        {
            line.clear();
        }
        child.kill().expect("kill");
        child.wait().expect("ends");
        assert!(line.starts_with("game "), "no game ended: {line}");
        let saved = std::fs::read_to_string(&lines).expect("positions saved");
        assert!(saved.lines().count() >= 1, "{saved}");
        assert!(saved.lines().all(|l| l.contains("result=")), "{saved}");
        let psq = std::fs::read_dir(&dir).expect("psq dir").count();
        assert!(psq >= 1, "no .psq saved");
    }

    #[test]
    fn swap2_games_over_the_protocol_and_against_an_engine_without_it() {
        let swap2 = |p2: &str| {
            json(&gomoku(&[
                "match",
                "--json",
                "--no-progress",
                "--swap2",
                "--rule",
                "standard",
                "--p1",
                "pvs depth=3",
                "--p2",
                p2,
                "--time-ms",
                "100",
                "--margin-ms",
                "500",
            ]))
        };
        // our own brain: the whole swap2 exchange through SWAP2BOARD
        let v = swap2(&format!("cmd:{}", env!("CARGO_BIN_EXE_pbrain-gomoku")));
        assert_eq!(v["games"], 2, "{v}");
        assert_eq!(v["forfeits"].as_array().expect("list").len(), 0, "{v}");
        for r in v["records"].as_array().expect("records") {
            assert_eq!(r["opening"], "swap2", "{r}");
            let moves = r["position"].as_str().expect("text").split(' ').count();
            assert!(moves >= 9, "at least the opening and a five: {r}");
        }
        // a first-empty-point engine answers one point: enough to stay White after three
        // stones, not the three stones it owes when it opens (the second game)
        let v = swap2(&fake_engine("legal"));
        assert_eq!(v["wins"], 2, "{v}");
        let f = v["forfeits"].as_array().expect("list");
        assert_eq!(f.len(), 1, "{v}");
        assert!(
            f[0].as_str().expect("text").contains("swap2: 1 stone"),
            "{f:?}"
        );
        // and swap2 opens from the empty board only
        let (_dir, file) = openings_file("o.txt", OPENINGS);
        assert_fails_with(
            &gomoku(&[
                "match",
                "--swap2",
                "--p1",
                "pvs",
                "--p2",
                "greedy",
                "--openings",
                file.to_str().expect("utf-8"),
            ]),
            "--swap2 opens every game from the empty board",
        );
    }

    #[test]
    fn misbehaving_engines_lose_with_the_reason() {
        for (mode, reason) in [
            ("illegal", "illegal move"),
            ("timeout", "time forfeit"),
            ("crash", "crash"),
            ("garbage", "protocol error"),
            ("flood", "protocol error"),
        ] {
            let started = std::time::Instant::now();
            let v = run_json(&fake_engine(mode), &[]);
            assert!(started.elapsed().as_secs() < 20, "{mode} must not hang");
            assert_eq!(v["wins"], 2, "{mode}: {v}");
            let f = v["forfeits"].as_array().expect("list");
            assert_eq!(f.len(), 2, "{mode}: {v}");
            assert!(
                f.iter().all(|x| x.as_str().expect("text").contains(reason)),
                "{mode}: {f:?}"
            );
            // an engine's answer is quoted cut short, never in full
            assert!(
                f.iter().all(|x| x.as_str().expect("text").len() < 400),
                "{mode}: a forfeit reason of {} bytes",
                f[0].as_str().map_or(0, str::len)
            );
        }
    }

    #[test]
    fn renju_opening_rules_open_every_game_and_the_result_is_reported() {
        for rule in ["soosorv8", "taraguchi10"] {
            let o = gomoku(&[
                "match",
                "--json",
                "--no-progress",
                "--p1",
                "pvs nodes=1500",
                "--p2",
                "pvs nodes=1000 name=small",
                "--opening",
                rule,
                "--games",
                "2",
            ]);
            let v = json(&o);
            assert_eq!(v["rule"], "renju", "the rule a renju opening implies: {v}");
            assert_eq!(v["games"], 2, "{v}");
            let (w, l, d) = (&v["wins"], &v["losses"], &v["draws"]);
            assert_eq!(
                w.as_u64().unwrap() + l.as_u64().unwrap() + d.as_u64().unwrap(),
                2
            );
            for r in v["records"].as_array().expect("records") {
                let opening = r["opening"].as_str().expect("label");
                assert!(opening.starts_with(&format!("{rule}:")), "{r}");
                // the games go on from the rule's sixth move
                let moves = r["position"].as_str().expect("moves").split(' ').count();
                assert!(moves > 5, "{r}");
                assert!(
                    ["five", "board full"].contains(&r["reason"].as_str().unwrap()),
                    "{r}"
                );
            }
        }
        // the text report names the opening rule and gives the result
        let o = gomoku(&[
            "match",
            "--no-progress",
            "--p1",
            "pvs nodes=800",
            "--p2",
            "greedy",
            "--opening",
            "soosorv8",
            "--games",
            "2",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("opened with Soosõrv-8"), "{out}");
        assert!(out.contains("[soosorv8:"), "{out}");
        assert!(out.contains("\nresult: "), "{out}");
        // pbrain engines have no commands for it; an openings file does not go with it
        assert_fails_with(
            &gomoku(&[
                "match",
                "--p1",
                "pvs",
                "--p2",
                &fake_engine("legal"),
                "--opening",
                "soosorv8",
            ]),
            "pbrain engines cannot play it",
        );
        let (_dir, file) = openings_file("x.txt", OPENINGS);
        assert_fails_with(
            &gomoku(&[
                "match",
                "--p1",
                "pvs",
                "--p2",
                "greedy",
                "--opening",
                "taraguchi10",
                "--openings",
                file.to_str().expect("utf-8"),
            ]),
            "does not take --openings",
        );
    }

    #[test]
    fn internal_players_text_summary_with_elo_and_sprt() {
        let (_dir, file) = openings_file("text.txt", OPENINGS);
        let o = gomoku(&[
            "match",
            "--no-progress",
            "--size",
            "9",
            "--p1",
            "search=alphabeta,depth=2",
            "--p2",
            "greedy eval=tuple",
            "--openings",
            file.to_str().expect("utf-8"),
            "--sprt",
            "0,50",
            "--concurrency",
            "2",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        for needle in [
            "match: alphabeta/pattern (depth 2) vs greedy/tuple (500 ms), freestyle 9x9, 2 games",
            "game   1 [test#1] alphabeta/pattern (black) vs greedy/tuple (white)",
            "game   2 [test#1] greedy/tuple (black) vs alphabeta/pattern (white)",
            "result: alphabeta/pattern ",
            "score: ",
            "elo: ",
            "95% interval",
            "time per move: alphabeta/pattern ",
            "sprt: elo0 0 elo1 50 alpha 0.05 beta 0.05: llr ",
        ] {
            assert!(out.contains(needle), "missing '{needle}' in:\n{out}");
        }
    }

    #[test]
    fn bad_input_fails_clearly() {
        let (_dir, file) = openings_file("ok.txt", OPENINGS);
        let f = file.to_str().expect("utf-8");
        assert_fails_with(&gomoku(&["match", "--p1", "pvs"]), "--p2");
        assert_fails_with(
            &gomoku(&[
                "match",
                "--p1",
                "pvs",
                "--p2",
                "greedy",
                "--openings",
                "/nonexistent/o.txt",
            ]),
            "reading the openings file /nonexistent/o.txt",
        );
        let (_bad_dir, bad) = openings_file("bad.txt", "15 freestyle h8 zz9\n");
        assert_fails_with(
            &gomoku(&[
                "match",
                "--p1",
                "pvs",
                "--p2",
                "greedy",
                "--openings",
                bad.to_str().expect("utf-8"),
            ]),
            "line 1",
        );
        assert_fails_with(
            &gomoku(&[
                "match",
                "--p1",
                "pvs",
                "--p2",
                "greedy",
                "--size",
                "19",
                "--openings",
                f,
            ]),
            "no opening for freestyle 19x19",
        );
        assert_fails_with(
            &gomoku(&["match", "--p1", "colour=red", "--p2", "greedy"]),
            "unknown key 'colour'",
        );
        assert_fails_with(
            &gomoku(&["match", "--p1", "pvs", "--p2", "greedy", "--sprt", "5"]),
            "ELO0,ELO1",
        );
        assert_fails_with(
            &gomoku(&[
                "match",
                "--p1",
                "pvs",
                "--p2",
                "greedy",
                "--concurrency",
                "0",
            ]),
            "--concurrency",
        );
        assert_fails_with(
            &gomoku(&["match", "--p1", "pvs", "--p2", "greedy", "--bogus"]),
            "--bogus",
        );
    }
}

// `gomoku play`
mod play {
    use super::*;

    const FAST: [&str; 6] = ["play", "--search", "greedy", "--time-ms", "50", "--depth"];

    fn play(extra: &[&str], input: &str) -> String {
        let mut args: Vec<&str> = FAST.to_vec();
        args.push("1");
        args.extend_from_slice(extra);
        let o = gomoku_with_input(&args, input);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    }

    #[test]
    fn moves_hint_result_undo_and_quit_from_piped_input() {
        let out = play(&[], "h8\nresult\nhint\nzz\nundo\nquit\n");
        assert!(out.contains("you are black"), "{out}");
        assert!(out.contains("your move> "), "{out}");
        // the board after h8 with the last move in brackets, then the engine's answer
        assert!(out.contains("[X]"), "{out}");
        assert!(out.contains("engine plays "), "{out}");
        // the engine's move with its figures: value, depth, time, nodes, table hits
        let figures = out
            .lines()
            .find_map(|l| l.strip_prefix("engine plays "))
            .expect("the engine's move");
        for word in ["(value ", ", depth ", " ms, ", " nodes, ", " table hits)"] {
            assert!(figures.contains(word), "{figures}");
        }
        assert!(out.contains("no result yet, black to move"), "{out}");
        assert!(out.contains("hint: "), "{out}");
        assert!(out.contains("'zz'"), "bad input named: {out}");
        assert!(out.trim_end().ends_with("bye"), "{out}");
        // after undo the board is empty again: the last board drawn has no stone
        let last_board = out
            .rsplit("    a b c d e f g h i j k l m n o")
            .nth(1)
            .expect("board");
        assert!(
            !last_board.contains('X') && !last_board.contains('O'),
            "{last_board}"
        );
    }

    #[test]
    fn a_five_ends_the_game_and_end_of_input_says_bye() {
        // you (black) have a straight four: l8 wins
        let out = play(
            &["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"],
            "l8\nm8\n",
        );
        assert!(out.contains("game over: black wins with five: "), "{out}");
        assert!(
            out.contains("the game is over"),
            "moves after the end refused: {out}"
        );
        assert!(out.trim_end().ends_with("bye"), "{out}");
    }

    #[test]
    fn review_judges_the_game_in_the_terminal() {
        // the game from a five: white's a1 a3 a5 a7 ignored black's row (l8 makes five)
        let out = play(
            &["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"],
            "l8\nreview\nquit\n",
        );
        let table = out
            .split("reviewing: 50 ms per position...")
            .nth(1)
            .expect("the review");
        let rows: Vec<&str> = table
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert_eq!(rows.len(), 9, "{out}");
        assert!(
            rows[8].contains("l8") && rows[8].contains("win in 1"),
            "{out}"
        );
        assert!(
            table.contains("\nblack: ") && table.contains("\nwhite: "),
            "{out}"
        );
        assert!(
            rows.iter().any(|r| r.contains("white") && r.contains("??")),
            "one of White's moves let the four through: {out}"
        );
        // with no moves there is nothing to review
        let out = play(&[], "review\nquit\n");
        assert!(out.contains("no moves to review yet"), "{out}");
    }

    #[test]
    fn a_line_that_is_not_text_is_refused_and_the_game_goes_on() {
        let mut args: Vec<&str> = FAST.to_vec();
        args.push("1");
        let o = gomoku_with_bytes(&args, b"h8\n\xff\xfe h9\nresult\nquit\n");
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("that line is not text (UTF-8)"), "{out}");
        assert!(out.contains("no result yet, black to move"), "{out}");
        assert!(out.trim_end().ends_with("bye"), "{out}");
    }

    #[test]
    fn the_engine_moves_first_when_you_are_white_and_occupied_points_are_refused() {
        let out = play(&["--color", "white"], "h8\nquit\n");
        assert!(out.contains("engine plays h8"), "{out}");
        assert!(out.contains("cannot play there"), "{out}");
    }

    #[test]
    fn bad_flags_fail_clearly() {
        assert_fails_with(&gomoku(&["play", "--color", "green"]), "green");
        assert_fails_with(&gomoku(&["play", "h8", "q99"]), "q99");
        assert_fails_with(
            &gomoku(&["play", "--clock-ms", "10"]),
            "a clock of 10 ms a side is out of range",
        );
        assert_fails_with(
            &gomoku(&["play", "--clock-ms", "60000", "--increment-ms", "60001"]),
            "an increment of 60001 ms is out of range",
        );
        assert_fails_with(
            &gomoku(&["play", "--increment-ms", "500"]),
            "--increment-ms needs a game clock (--clock-ms)",
        );
    }

    /// The stones of the last board drawn: (black, white).
    fn last_stones(out: &str) -> (usize, usize) {
        let board = out
            .rsplit("    a b c d e f g h i j k l m n o")
            .nth(1)
            .expect("a board");
        (board.matches('X').count(), board.matches('O').count())
    }

    #[test]
    fn swap2_you_choose_white_after_the_engine_three_and_undo_stops_at_the_opening() {
        let out = play(
            &["--swap2", "--color", "white"],
            "hint\nwhite\na1\nundo\nundo\nquit\n",
        );
        assert!(
            out.contains("a swap2 opening: the engine puts down the first three stones"),
            "{out}"
        );
        let three = out
            .lines()
            .find_map(|l| l.strip_prefix("engine puts down "))
            .expect("the engine's three stones");
        assert_eq!(three.split(' ').count(), 3, "{out}");
        assert!(out.contains("swap2: black, white or more> "), "{out}");
        assert!(out.contains("no hints in the swap2 opening"), "{out}");
        assert!(
            out.contains("swap2: you took white: you play white"),
            "{out}"
        );
        // a1 and the engine's answer are taken back; the opening's stones stay
        assert!(out.contains("engine plays "), "{out}");
        assert_eq!(out.matches("nothing to undo").count(), 1, "{out}");
        assert_eq!(last_stones(&out), (2, 1), "{out}");
    }

    #[test]
    fn swap2_you_put_down_two_more_and_the_engine_chooses() {
        let out = play(&["--swap2", "--color", "white"], "more\na1\na2\nquit\n");
        assert!(
            out.contains("swap2: you will put down two more stones"),
            "{out}"
        );
        assert!(out.contains("swap2: stone 4 (white)> "), "{out}");
        assert!(out.contains("swap2: stone 5 (black)> "), "{out}");
        // the engine takes Black (you play White's 6th stone) or stays White and plays it
        let took_black = out.contains("swap2: the engine took black: you play white");
        let took_white = out.contains("swap2: the engine took white: you play black");
        assert!(took_black != took_white, "{out}");
        assert!(out.contains("your move> "), "{out}");
        assert_eq!(
            last_stones(&out),
            if took_black { (3, 2) } else { (3, 3) },
            "{out}"
        );
    }

    #[test]
    fn swap2_you_put_down_three_and_undo_takes_back_a_stone_of_the_stage() {
        let out = play(
            &["--swap2"],
            "undo\nh8\nundo\nh8\nh8\nblack\nh9\nj7\nquit\n",
        );
        assert!(
            out.contains("a swap2 opening: you put down the first three stones"),
            "{out}"
        );
        assert!(
            out.contains("nothing to undo in this stage of the opening"),
            "{out}"
        );
        assert!(out.contains("cannot put a stone there"), "h8 twice: {out}");
        assert!(
            out.contains("there is no choice to make now"),
            "black while stones go down: {out}"
        );
        assert!(
            out.contains("swap2: stone 3 (black)> "),
            "the stones went down in turn: {out}"
        );
        // the engine then takes a colour (and moves if it stays White) or adds two stones
        assert!(
            out.contains("swap2: the engine took ")
                || out.contains("swap2: the engine put down two more stones"),
            "{out}"
        );
        let (b, w) = last_stones(&out);
        assert!(b + w >= 3, "{out}");
        for bad in [
            vec!["play", "--swap2", "h8"],
            vec!["play", "--swap2", "--board", "x"],
        ] {
            assert_fails_with(&gomoku(&bad), "a swap2 opening starts from the empty board");
        }
    }

    /// Plays `gomoku play ARGS` with a renju opening rule, answering each prompt as it comes:
    /// the free points nearest the centre for stones and offers (a refused point is followed
    /// by the next), `keep` (or `swap` at the first swap step with `swap_once`), 3 offers
    /// (after a refused 9), `ten` at Taraguchi-10's 5th, the first offer listed; a point off
    /// the centre first, to see it refused; `quit` at the first move of the game. Returns
    /// everything the program wrote.
    fn renju_dialogue(extra: &[&str], swap_once: bool) -> String {
        use std::io::Read;
        let mut args: Vec<&str> = FAST.to_vec();
        args.push("1");
        args.extend_from_slice(extra);
        let mut child = spawn(&args);
        let mut input = child.stdin.take().expect("stdin");
        let mut output = child.stdout.take().expect("stdout");
        let mut out = String::new();
        let mut points = Vec::new();
        for ring in 0..8usize {
            for x in 0..15usize {
                for y in 0..15usize {
                    if x.abs_diff(7).max(y.abs_diff(7)) == ring {
                        points.push(format!("{}{}", (b'a' + x as u8) as char, y + 1));
                    }
                }
            }
        }
        let (mut next_point, mut swapped, mut declared, mut off_centre) = (0, false, false, false);
        let mut buf = [0u8; 4096];
        for _ in 0..400 {
            // up to the next prompt (the only output that does not end a line)
            while !out.ends_with("> ") {
                let n = output.read(&mut buf).expect("read");
                if n == 0 {
                    break;
                }
                out.push_str(&String::from_utf8_lossy(&buf[..n]));
            }
            let Some(prompt) = out.lines().last().map(str::to_string) else {
                break;
            };
            if !prompt.ends_with("> ") {
                break; // the program ended
            }
            let answer = if prompt.contains("your move>") || prompt.contains("game over") {
                "quit".to_string()
            } else if prompt.contains("stone 1>") && !off_centre {
                off_centre = true;
                "a1".to_string()
            } else if prompt.contains("swap or keep>") {
                let swap = swap_once && !swapped;
                swapped |= swap;
                if swap { "swap" } else { "keep" }.to_string()
            } else if prompt.contains("offers (1 to 8)>") {
                let first = !declared;
                declared = true;
                if first { "9" } else { "3" }.to_string()
            } else if prompt.contains("5th stone or ten>") {
                "ten".to_string()
            } else if let Some(list) = prompt.split("choose one of ").nth(1) {
                list.split_whitespace()
                    .next()
                    .expect("an offer")
                    .to_string()
            } else {
                next_point += 1;
                points[next_point - 1].clone()
            };
            writeln!(input, "{answer}").expect("write");
            out.push('\n');
            if answer == "quit" {
                break;
            }
        }
        drop(input);
        output.read_to_string(&mut out).expect("read the rest");
        assert!(child.wait().expect("ends").success(), "{out}");
        out
    }

    #[test]
    fn renju_opening_rules_to_the_sixth_move_in_the_terminal() {
        for rule in ["soosorv8", "taraguchi10"] {
            for (color, swap_once) in [("black", false), ("white", true), ("black", true)] {
                let out = renju_dialogue(&["--opening", rule, "--color", color], swap_once);
                let title = if rule == "soosorv8" {
                    "Soosõrv-8"
                } else {
                    "Taraguchi-10"
                };
                assert!(
                    out.contains(&format!("renju 15x15, a {title} opening")),
                    "{out}"
                );
                if color == "black" {
                    assert!(
                        out.contains(&format!(
                            "a1: under {title} the 1st stone goes on the centre"
                        )),
                        "{out}"
                    );
                }
                assert!(out.contains("opening: "), "the opening's name: {out}");
                assert!(
                    out.contains(&format!("{rule}: the opening is over: ")),
                    "{rule} {color}: {out}"
                );
                assert!(out.contains("you play "), "{out}");
                assert!(
                    out.contains("your move> ") || out.contains("engine plays "),
                    "{out}"
                );
                // five stones when the game starts, the sixth White's
                let (b, w) = last_stones(&out);
                assert!(b == 3 && (w == 2 || w == 3), "{rule} {color}: {out}");
                if rule == "soosorv8" && out.contains("you declared") {
                    assert!(
                        out.contains("Soosõrv-8: White declares 1 to 8 fifth-move offers, not 9"),
                        "{out}"
                    );
                }
            }
        }
        assert_fails_with(
            &gomoku(&["play", "--opening", "soosorv8", "h8"]),
            "a Soosõrv-8 opening starts from the empty board",
        );
        assert_fails_with(
            &gomoku(&["play", "--opening", "taraguchi10", "--size", "7"]),
            "at least 9x9",
        );
        assert_fails_with(&gomoku(&["play", "--opening", "yamaguchi"]), "soosorv8");
    }

    #[test]
    fn save_writes_a_line_or_a_psq_record_and_the_line_resumes_the_game() {
        let dir = tempfile::tempdir().expect("temp dir");
        let line = dir.path().join("game.txt");
        let psq = dir.path().join("game.PSQ");
        let input = format!(
            "h8\nsave {}\nsave {}\nsave\nsave {}\nquit\n",
            line.display(),
            psq.display(),
            dir.path().join("no/such/dir.txt").display()
        );
        let out = play(&["--rule", "renju"], &input);
        assert_eq!(out.matches("saved to ").count(), 2, "{out}");
        assert!(out.contains("save needs a file name"), "{out}");
        assert!(out.contains("cannot save to "), "{out}");
        let text = std::fs::read_to_string(&line).expect("the line");
        let answer = out
            .lines()
            .find_map(|l| l.strip_prefix("engine plays "))
            .and_then(|l| l.split(' ').next())
            .expect("the engine's answer");
        assert_eq!(
            text,
            format!("15 renju h8 {answer} | black=person white=engine\n")
        );
        let record = std::fs::read_to_string(&psq).expect("the record");
        assert!(
            record.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n"),
            "{record}"
        );
        assert!(record.contains("\nperson\nengine\n"), "{record}");
        // the line is a board to start from: the same game, with its rule
        let path = line.to_str().expect("utf-8 path");
        let v = json(&gomoku(&["position", "--json", "--board", path]));
        assert_eq!(v["line"], format!("15 renju h8 {answer}"));
        // and so is the .psq record, under the rule given
        let v = json(&gomoku(&[
            "position",
            "--json",
            "--rule",
            "renju",
            "--board",
            psq.to_str().expect("utf-8 path"),
        ]));
        assert_eq!(v["line"], format!("15 renju h8 {answer}"));
        assert_eq!(v["setup_plies"], 0, "a record is a game");
        let out = play(&["--board", path], "result\nquit\n");
        assert!(
            out.contains("gomoku play: renju 15x15, you are black"),
            "{out}"
        );
        assert!(out.contains("no result yet, black to move"), "{out}");
    }

    /// The clock lines (`clock: black 0:59.9  white 1:00.0`) as (black, white) pairs.
    fn clock_lines(out: &str) -> Vec<(String, String)> {
        out.lines()
            .filter_map(|l| l.strip_prefix("clock: black "))
            .map(|rest| {
                let (b, w) = rest.split_once("  white ").expect("both sides");
                (b.to_string(), w.to_string())
            })
            .collect()
    }

    #[test]
    fn the_clock_takes_each_move_its_time_and_gives_the_increment() {
        let out = play(
            &["--clock-ms", "60000", "--increment-ms", "5000"],
            "h8\nresult\nquit\n",
        );
        assert!(
            out.contains("a clock of 1:00.0 a side + 0:05.0 a move"),
            "{out}"
        );
        let lines = clock_lines(&out);
        let ms = |t: &str| -> u64 {
            let (m, s) = t.split_once(':').expect("m:ss.t");
            let (s, tenths) = s.split_once('.').expect("tenths");
            let num = |x: &str| x.parse::<u64>().expect("a number");
            num(m) * 60_000 + num(s) * 1000 + num(tenths) * 100
        };
        // Black's clock runs from the start (a loaded machine may take a moment to show it),
        // White's waits
        let (b, w) = &lines[0];
        assert!((59_000..=60_000).contains(&ms(b)), "{b}: {out}");
        assert_eq!(w, "1:00.0", "{out}");
        // after h8 and the engine's answer: each side took a moment (under 5 s) and got 5 s
        let (b, w) = &lines[1];
        for t in [b, w] {
            assert!((60_100..=65_000).contains(&ms(t)), "{t}: {out}");
        }
        assert!(out.contains("no result yet, black to move"), "{out}");
        assert_eq!(lines.len(), 3, "the result shows the clock too: {out}");
    }

    #[test]
    fn a_move_after_the_time_ran_out_loses_on_time() {
        let mut child = spawn(&[
            "play",
            "--search",
            "greedy",
            "--depth",
            "1",
            "--clock-ms",
            "1000",
        ]);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(b"h8\n").expect("write");
        stdin.flush().expect("flush");
        // two seconds to think over the next move: more than the clock had left
        std::thread::sleep(std::time::Duration::from_millis(2000));
        stdin
            .write_all(b"i9\nundo\nresult\nnew\nquit\n")
            .expect("write");
        drop(stdin);
        let o = child.wait_with_output().expect("binary ends");
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let lost = "white wins on time: black's time ran out";
        assert!(out.contains(&format!("game over: {lost}")), "{out}");
        assert!(
            out.contains("the game was lost on time: it cannot be taken back"),
            "{out}"
        );
        assert_eq!(
            out.matches(lost).count(),
            2,
            "and the result says so: {out}"
        );
        let lines = clock_lines(&out);
        assert_eq!(lines[lines.len() - 2].0, "0:00.0", "{out}");
        // a new game starts with the whole clock again
        assert_eq!(
            lines.last(),
            Some(&("0:01.0".to_string(), "0:01.0".to_string())),
            "{out}"
        );
        // i9 was not played: the last board before the new game holds h8 and the answer only
        let before_new = out.split("new game").next().expect("text");
        let last_board = before_new
            .rsplit("    a b c d e f g h i j k l m n o")
            .nth(1)
            .expect("a board");
        assert_eq!(last_board.matches('X').count(), 1, "{last_board}");
    }
}

// `--board FILE`: a board diagram as the start of `position`, `think`, `analyze` and `play`
mod board_file {
    use super::*;

    /// The board part of `gomoku position`'s text (up to the second line of column letters),
    /// without the last-move brackets.
    fn board_of(out: &str) -> String {
        let lines: Vec<&str> = out.lines().collect();
        let end = lines[1..]
            .iter()
            .position(|l| l.trim_start().starts_with("a b c"))
            .expect("two lines of column letters")
            + 2;
        lines[..end].join("\n").replace(['[', ']'], " ")
    }

    #[test]
    fn what_position_prints_reads_back_in_every_rule_and_size() {
        for (rule, size, moves, to_move) in [
            ("freestyle", "15", "h8 i9 h9 i10 h10", "white"),
            ("standard", "15", "h8 i9 h9 i10", "black"),
            ("renju", "15", "h8 h9 i8 i9 j7 g10", "black"),
            ("freestyle", "20", "a1 t20 a20 t1 k10", "white"),
            ("renju", "9", "e5 d4 e4", "white"),
        ] {
            let first = gomoku(&["position", "--rule", rule, "--size", size, moves]);
            assert!(first.status.success(), "{}", stderr(&first));
            let (_dir, path) = openings_file("board.txt", &stdout(&first));
            let path = path.to_str().expect("utf-8 path");
            let again = gomoku(&["position", "--rule", rule, "--board", path]);
            assert!(again.status.success(), "{rule} {moves}: {}", stderr(&again));
            let (a, b) = (stdout(&first), stdout(&again));
            assert_eq!(board_of(&a), board_of(&b), "{rule} {size} {moves}");
            assert!(b.contains(&format!("to move: {to_move}")), "{b}");
            let stones = moves.split(' ').count();
            assert!(
                b.contains(&format!(
                    "moves: 0 (after a set-up position of {stones} stones)"
                )),
                "{b}"
            );
            let v = json(&gomoku(&[
                "position", "--json", "--rule", rule, "--board", path,
            ]));
            assert_eq!(v["size"], size.parse::<u64>().expect("a number"));
            assert_eq!(v["rule"], rule);
            assert_eq!(v["to_move"], to_move);
            assert!(
                v["setup_plies"].as_u64().expect("a count") >= stones as u64,
                "{v}"
            );
        }
    }

    #[test]
    fn moves_after_the_diagram_are_played_and_the_side_to_move_is_kept() {
        // White to move, as the diagram says, although the stones are even
        let diagram = ". . . . .\n. X O . .\n. . . . .\n. . . . .\n. . . . .\nto move: white\n";
        let (_dir, path) = openings_file("w.txt", diagram);
        let path = path.to_str().expect("utf-8 path");
        let v = json(&gomoku(&["position", "--json", "--board", path]));
        assert_eq!(
            (v["size"].as_u64(), v["to_move"].as_str()),
            (Some(5), Some("white"))
        );
        let v = json(&gomoku(&[
            "position", "--json", "--board", path, "c3", "d4",
        ]));
        assert_eq!(v["to_move"], "white");
        assert_eq!(
            v["moves"].as_u64().expect("a count") - v["setup_plies"].as_u64().expect("a count"),
            2,
            "{v}"
        );
        let o = gomoku(&["position", "--board", path, "c3", "d4"]);
        let out = stdout(&o);
        assert!(out.contains("[X]"), "the last move marked: {out}");
        assert!(out.contains(" 3  . . O . . "), "White's c3: {out}");
    }

    #[test]
    fn think_and_analyze_search_the_diagram_from_a_file_or_standard_input() {
        // Black has an open three on row 8 of a 9x9 board and is to move; White has stones
        // of its own, so it is not the opening
        let diagram = "\
. . . . . . . . .
. . . . . . . . .
. . . O . . . . .
. . . . O . . . .
. . . . . . . . .
. . . X X X X . .
. . . . . . O . .
. . . . . . . . .
. . . . . . . . .
to move: black
";
        let o = gomoku_with_input(
            &["think", "--json", "--time-ms", "200", "--board", "-"],
            diagram,
        );
        let v = json(&o);
        let mv = v["best_move"].as_str().expect("a move");
        assert!(mv == "c4" || mv == "h4", "the four made five: {v}");
        let (_dir, path) = openings_file("four.txt", diagram);
        let path = path.to_str().expect("utf-8 path");
        let v = json(&gomoku(&[
            "analyze", "--json", "--depth", "3", "--board", path,
        ]));
        let best = v["moves"][0]["move"].as_str().expect("a move");
        assert!(best == "c4" || best == "h4", "{v}");
        // the moves after the diagram count: Black plays a1, White blocks at h4, and Black
        // takes the other end
        let v = json(&gomoku(&[
            "think",
            "--json",
            "--time-ms",
            "200",
            "--board",
            path,
            "a1",
            "h4",
        ]));
        assert_eq!(v["best_move"], "c4", "{v}");
    }

    #[test]
    fn play_starts_from_the_diagram_and_undo_stops_there() {
        let diagram = ". . . . . . .\n. . . . . . .\n. . X . . . .\n. . . O . . .\n\
                       . . . . . . .\n. . . . . . .\n. . . . . . .\n";
        let (_dir, path) = openings_file("p.txt", diagram);
        let path = path.to_str().expect("utf-8 path");
        let o = gomoku_with_input(
            &[
                "play", "--search", "greedy", "--depth", "1", "--board", path,
            ],
            "undo\nb6\nundo\nundo\nquit\n",
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("you are black"), "{out}");
        assert!(out.contains("engine plays "), "{out}");
        assert!(
            !out.contains("cannot play there"),
            "b6 is on the 7x7 board: {out}"
        );
        assert_eq!(out.matches("nothing to undo").count(), 2, "{out}");
        // the last board drawn is the diagram's again
        let last = out.rsplit("    a b c d e f g\n").nth(1).expect("a board");
        assert_eq!(last.matches('X').count(), 1, "{last}");
        assert_eq!(last.matches('O').count(), 1, "{last}");
    }

    #[test]
    fn review_judges_the_moves_after_the_diagram() {
        let first = gomoku(&["position", "h8", "i9", "h9", "i10", "h10"]);
        let (_dir, path) = openings_file("board.txt", &stdout(&first));
        let path = path.to_str().expect("utf-8 path");
        // White ignores Black's three; Black makes an open four, White blocks one end
        let v = json(&gomoku(&[
            "review", "--json", "--depth", "4", "--board", path, "a1", "h11", "h12", "h7",
        ]));
        let moves = v["moves"].as_array().expect("the judged moves");
        let got: Vec<(u64, &str)> = moves
            .iter()
            .map(|m| {
                (
                    m["number"].as_u64().expect("a number"),
                    m["move"].as_str().expect("a move"),
                )
            })
            .collect();
        // the set-up's five stones (and no pass) are not judged; the game's moves are
        // numbered on from them
        assert_eq!(got, [(6, "a1"), (7, "h11"), (8, "h12"), (9, "h7")], "{v}");
        assert_eq!(
            moves[0]["verdict"], "blunder",
            "a1 lets the three through: {v}"
        );
        let o = gomoku(&["review", "--board", path, "--psq", path]);
        assert_fails_with(&o, "give either --psq or --board, not both");
    }

    #[test]
    fn a_position_line_is_a_board_too_with_its_rule_and_size() {
        // a puzzle's line (Black to move: a game in no game's order, so a set-up position)
        let line = "9 renju e5 -- d4 -- | task=x side=black\n";
        let v = json(&gomoku_with_input(
            &["position", "--json", "--board", "-"],
            line,
        ));
        assert_eq!(
            (v["size"].as_u64(), v["rule"].as_str()),
            (Some(9), Some("renju"))
        );
        assert_eq!(v["to_move"], "black");
        assert_eq!(v["setup_plies"], 4);
        assert_eq!(v["line"], "9 renju e5 -- d4 --");
        // a game's line is a game; the moves given go on from it (Black's e7 makes a four)
        let game = "9 standard e5 a1 e4 a9 e6 i1\n";
        let v = json(&gomoku_with_input(
            &["position", "--json", "--board", "-"],
            game,
        ));
        assert_eq!(
            (v["setup_plies"].as_u64(), v["moves"].as_u64()),
            (Some(0), Some(6))
        );
        let o = gomoku_with_input(
            &[
                "think", "--json", "--depth", "2", "--board", "-", "e7", "i9",
            ],
            game,
        );
        let v = json(&o);
        let best = v["best_move"].as_str().expect("a move");
        assert!(best == "e3" || best == "e8", "Black makes five: {v}");
        let v = json(&gomoku_with_input(
            &["analyze", "--json", "--depth", "2", "--board", "-"],
            "# a comment first\n\n9 renju e5 -- d4 --\n",
        ));
        assert_eq!(
            (v["rule"].as_str(), v["size"].as_u64()),
            (Some("renju"), Some(9))
        );
    }

    #[test]
    fn bad_diagrams_and_flags_fail_clearly() {
        let (_dir, ragged) = openings_file("ragged.txt", "X . .\n. O\n. . .\n");
        let ragged = ragged.to_str().expect("utf-8 path");
        let (_dir2, five) = openings_file(
            "five.txt",
            &format!("X X X X X\n{}", ". . . . .\n".repeat(4)),
        );
        let five = five.to_str().expect("utf-8 path");
        let (_dir3, small) = openings_file(
            "small.txt",
            "X . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n",
        );
        let small = small.to_str().expect("utf-8 path");
        for (args, needle) in [
            (
                vec!["position", "--board", "/nonexistent/board.txt"],
                "reading the board file /nonexistent/board.txt",
            ),
            (
                vec!["position", "--board", ragged],
                "line 2: a row of 2 points, where the first row has 3",
            ),
            (vec!["think", "--board", five], "winning line"),
            (
                vec!["position", "--board", small, "--size", "15"],
                "cannot be used with",
            ),
            (
                vec!["position", "--board", small, "a5"],
                "move 1 after the board file",
            ),
            (
                vec!["position", "--board", small, "f9"],
                "off the 5x5 board",
            ),
            (
                vec!["analyze", "--board", small, "--diagram", "b2"],
                "cannot follow --board",
            ),
            (vec!["play", "--board", "-"], "give --board a file"),
        ] {
            let o = gomoku(&args);
            assert_fails_with(&o, needle);
            assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        }
        let o = gomoku_with_input(&["position", "--board", "-"], "no board here\n");
        assert_fails_with(&o, "the board on standard input");
        // a position line's rule is the rule: another one given is refused
        let o = gomoku_with_input(
            &["position", "--rule", "standard", "--board", "-"],
            "15 renju h8\n",
        );
        assert_fails_with(&o, "--rule standard differs from the rule of the board on standard input's position line (renju)");
        let o = gomoku_with_input(&["position", "--board", "-"], "15 renju h8 -- h8\n");
        assert_fails_with(&o, "the board on standard input");
        let o = gomoku_with_input(
            &["position", "--board", "-"],
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n99,1,0\n",
        );
        assert_fails_with(
            &o,
            "the board on standard input: move 2 '99,1,0': off the 15x15 board",
        );
        let o = gomoku_with_input(
            &["position", "--board", "-"],
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n",
        );
        assert_fails_with(&o, "the board on standard input");
    }
}

// `gomoku selfplay` and `gomoku train`: the evaluation's training pipeline end to end
mod train {
    use super::*;

    fn sample() -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games-sample.txt").to_string()
    }

    /// A small corpus: `games` self-play games of `rule` at a tiny node budget.
    fn corpus(dir: &std::path::Path, rule: &str, games: &str) -> String {
        let out = dir.join(format!("{rule}.txt"));
        let path = out.to_str().expect("utf-8").to_string();
        let o = gomoku(&[
            "selfplay",
            "--rule",
            rule,
            "--games",
            games,
            "--nodes",
            "1500",
            "--seed",
            "3",
            "--out",
            &path,
            "--no-progress",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        path
    }

    #[test]
    fn selfplay_writes_games_with_results_and_values_and_is_repeatable() {
        let dir = tempfile::tempdir().expect("temp dir");
        let a = corpus(dir.path(), "renju", "3");
        let text = std::fs::read_to_string(&a).expect("corpus");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        for line in &lines {
            assert!(line.starts_with("15 renju "), "{line}");
            let keys = line.split('|').nth(1).expect("keys");
            assert!(keys.contains(" result="), "{line}");
            let opening: usize = keys
                .split_whitespace()
                .find_map(|kv| kv.strip_prefix("opening_plies="))
                .expect("opening_plies=")
                .parse()
                .expect("number");
            // 3 to 7 stones near the centre, after up to 10 scattered along the edges
            assert!((3..=17).contains(&opening), "{line}");
            let values = keys
                .split_whitespace()
                .find_map(|kv| kv.strip_prefix("values="))
                .expect("values=");
            let moves = line
                .split('|')
                .next()
                .expect("moves")
                .split_whitespace()
                .count()
                - 2;
            assert_eq!(values.split(',').count(), moves - opening, "{line}");
        }
        // the same seed and game numbers play the same games
        let again = tempfile::tempdir().expect("temp dir");
        let b = corpus(again.path(), "renju", "3");
        assert_eq!(std::fs::read_to_string(b).expect("corpus"), text);
    }

    /// The games against Rapfi that the committed model trains on: every line is a game
    /// `gomoku train` reads, under the rule of its file.
    #[test]
    fn every_game_against_the_anchor_reads_as_a_corpus_game() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../engine/weights/anchor-games"
        );
        for rule in ["freestyle", "standard", "renju"] {
            let path = format!("{dir}/{rule}.txt");
            let text = std::fs::read_to_string(&path).expect("anchor games");
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            assert!(lines >= 90, "{path}: {lines} games");
            for line in text.lines() {
                assert!(line.starts_with(&format!("15 {rule} ")), "{path}: {line}");
                assert!(line.contains(" opponent=rapfi-classical "), "{line}");
            }
            let v = json(&gomoku(&[
                "train",
                &path,
                "--iterations",
                "1",
                "--policy-iterations",
                "0",
                "--valid-every",
                "0",
                "--json",
            ]));
            assert_eq!(v["skipped_lines"], 0, "{path}: {v}");
            assert_eq!(v["rules"][0]["rule"], rule, "{v}");
            assert_eq!(
                v["rules"][0]["games"].as_u64(),
                Some(lines as u64),
                "{path}: {v}"
            );
        }
    }

    #[test]
    fn training_on_a_small_corpus_lowers_the_loss_and_writes_a_model_the_engine_reads() {
        let dir = tempfile::tempdir().expect("temp dir");
        let games = corpus(dir.path(), "freestyle", "8");
        let model = dir.path().join("eval.bin");
        let model_s = model.to_str().expect("utf-8");
        let run = || {
            json(&gomoku(&[
                "train",
                &games,
                "--iterations",
                "60",
                "--policy-iterations",
                "30",
                "--valid-every",
                "4",
                "--out",
                model_s,
                "--json",
            ]))
        };
        let v = run();
        let r = &v["rules"][0];
        assert_eq!(r["rule"], "freestyle", "{v}");
        assert_eq!(r["games"], 8);
        assert!(r["training_positions"].as_u64().expect("count") > 50, "{v}");
        let [before, after] = [0, 1].map(|i| r["training_loss"][i].as_f64().expect("loss"));
        assert!(after < before, "{before} -> {after}");
        let [ce0, ce1] = [0, 1].map(|i| {
            r["policy"]["validation_cross_entropy"][i]
                .as_f64()
                .expect("ce")
        });
        assert!(ce0.is_finite() && ce1.is_finite(), "{v}");
        let bytes = std::fs::read(&model).expect("model written");
        // deterministic: the same corpus and options write the same model
        run();
        assert_eq!(std::fs::read(&model).expect("model"), bytes);
        // a rule without games can train on another rule's, replayed under its own rule
        let borrowed = dir.path().join("borrowed.bin");
        let v = json(&gomoku(&[
            "train",
            &games,
            "--iterations",
            "20",
            "--policy-iterations",
            "0",
            "--borrow",
            "standard=freestyle",
            "--out",
            borrowed.to_str().expect("utf-8"),
            "--json",
        ]));
        let rules: Vec<(&str, &str)> = v["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .map(|r| {
                let name = |k: &str| r[k].as_str().expect("name");
                (name("rule"), name("games_of"))
            })
            .collect();
        assert_eq!(
            rules,
            [("freestyle", "freestyle"), ("standard", "freestyle")],
            "{v}"
        );
        let r = &v["rules"][1];
        let [before, after] = [0, 1].map(|i| r["training_loss"][i].as_f64().expect("loss"));
        assert!(after < before, "standard: {before} -> {after}");
        // a rule with games of its own adds the borrowed ones, in both directions
        let text = std::fs::read_to_string(&games).expect("corpus");
        let own: String = text
            .lines()
            .take(3)
            .map(|l| format!("{}\n", l.replacen(" freestyle ", " standard ", 1)))
            .collect();
        let own_path = dir.path().join("standard.txt");
        std::fs::write(&own_path, own).expect("write");
        let v = json(&gomoku(&[
            "train",
            &games,
            own_path.to_str().expect("utf-8"),
            "--iterations",
            "5",
            "--policy-iterations",
            "0",
            "--borrow",
            "standard=freestyle",
            "--borrow",
            "freestyle=standard",
            "--json",
        ]));
        let rules: Vec<(&str, &str, u64)> = v["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .map(|r| {
                let name = |k: &str| r[k].as_str().expect("name");
                (
                    name("rule"),
                    name("games_of"),
                    r["games"].as_u64().expect("n"),
                )
            })
            .collect();
        assert_eq!(
            rules,
            [
                ("freestyle", "freestyle+standard", 11),
                ("standard", "freestyle+standard", 11)
            ],
            "{v}"
        );
        // the engine searches with it (and refuses a file that is not a model)
        let o = gomoku_env(
            &["think", "--depth", "4", "h8"],
            &[("GOMOKU_EVAL_MODEL", model_s)],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let o = gomoku_env(
            &["think", "--depth", "4", "h8"],
            &[("GOMOKU_EVAL_MODEL", &games)],
        );
        assert!(!o.status.success());
        assert!(
            stderr(&o).contains("not an evaluation model"),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn scoring_a_model_reports_its_losses_without_training() {
        let dir = tempfile::tempdir().expect("temp dir");
        let games = corpus(dir.path(), "freestyle", "8");
        let model = dir.path().join("eval.bin");
        let model_s = model.to_str().expect("utf-8");
        let score = |from: &[&str]| {
            let mut a = vec!["train", games.as_str(), "--score", "--json"];
            a.extend_from_slice(from);
            json(&gomoku(&a))
        };
        let before = score(&["--from-formula"]);
        let r = &before["rules"][0];
        assert_eq!(r["rule"], "freestyle", "{before}");
        assert_eq!(r["games"], 8, "{before}");
        assert!(r["positions"].as_u64().expect("count") > 50, "{before}");
        let [loss, result_loss] = ["loss", "result_loss"].map(|k| r[k].as_f64().expect("loss"));
        assert!(loss > 0.0 && loss < 1.0 && result_loss > 0.0 && result_loss < 1.0);
        assert!(!model.exists());
        // a model trained on these games scores better on them than the formula it started from
        let o = gomoku(&[
            "train",
            &games,
            "--from-formula",
            "--iterations",
            "60",
            "--policy-iterations",
            "0",
            "--valid-every",
            "0",
            "--out",
            model_s,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let after = score(&["--from", model_s]);
        let trained = after["rules"][0]["loss"].as_f64().expect("loss");
        assert!(trained < loss, "{loss} -> {trained}");
        assert_eq!(score(&["--from", model_s]), after, "deterministic");
        // scoring writes nothing
        let o = gomoku(&["train", &games, "--score", "--out", model_s]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains("--out"), "{}", stderr(&o));
    }

    #[test]
    fn results_only_files_train_on_their_results_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let games = corpus(dir.path(), "freestyle", "6");
        let text = std::fs::read_to_string(&games).expect("corpus");
        assert!(
            text.contains(" values=") && !text.contains(" values=?"),
            "{text}"
        );
        // the same games with every value unknown
        let stripped = dir.path().join("stripped.txt");
        let unknown: String = text
            .lines()
            .map(|l| {
                let (head, values) = l.split_once(" values=").expect("values");
                let n = values.split(',').count();
                format!("{head} values={}\n", vec!["?"; n].join(","))
            })
            .collect();
        std::fs::write(&stripped, unknown).expect("write");
        let score = |args: &[&str]| {
            let mut a = vec!["train", "--score", "--json", "--from-formula"];
            a.extend_from_slice(args);
            let v = json(&gomoku(&a));
            let r = &v["rules"][0];
            assert_eq!(r["games"], 6, "{v}");
            ["loss", "result_loss"].map(|k| r[k].as_f64().expect("loss"))
        };
        let mixed = score(&[&games]);
        assert!((mixed[0] - mixed[1]).abs() > 1e-6, "{mixed:?}");
        let results = score(&["--results-only", &games]);
        assert!((results[0] - results[1]).abs() < 1e-12, "{results:?}");
        assert_eq!(results, score(&[stripped.to_str().expect("utf-8")]));
        // a missing file is named
        let o = gomoku(&["train", "--results-only", "/nonexistent/games.txt"]);
        assert!(!o.status.success());
        assert!(
            stderr(&o).contains("/nonexistent/games.txt"),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn lines_without_a_result_are_skipped_and_bad_input_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let games = std::fs::read_to_string(sample()).expect("sample");
        let mixed = dir.path().join("mixed.txt");
        let text = format!(
            "15 freestyle h8 i9 | set=x\n\
             15 freestyle h8 h8 | result=black\n\
             15 freestyle h8 i9 | result=maybe\n\
             15 freestyle h8 i9 i8 | result=black values=1,x\n\
             15 freestyle h8 i9 i8 j8 | result=black opening=2 values=1,2\n{}",
            games.lines().take(20).collect::<Vec<_>>().join("\n")
        );
        std::fs::write(&mixed, text).expect("write");
        let o = gomoku(&[
            "train",
            mixed.to_str().expect("utf-8"),
            "--iterations",
            "10",
            "--policy-iterations",
            "5",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("mixed.txt:1: skipped: no result="), "{err}");
        assert!(err.contains("mixed.txt:2: skipped:"), "{err}");
        assert!(
            err.contains("result=maybe is not black, white or draw"),
            "{err}"
        );
        assert!(err.contains("values: 'x' is not a number"), "{err}");
        assert!(
            err.contains("2 values for the 0 moves after an opening of 6 plies"),
            "{err}"
        );
        assert!(stdout(&o).contains("5 lines skipped"), "{}", stdout(&o));

        let none = dir.path().join("none.txt");
        std::fs::write(&none, "15 freestyle h8 i9 | result=black\n").expect("write");
        let cases: Vec<(Vec<String>, &str)> = vec![
            (
                vec![none.display().to_string()],
                "no freestyle position to train on",
            ),
            (vec!["no/such/file.txt".into()], "reading the corpus"),
            (
                vec![sample(), "--learning-rate".into(), "0".into()],
                "--learning-rate 0",
            ),
            (
                vec![sample(), "--regularization".into(), "NaN".into()],
                "--regularization NaN",
            ),
            (
                vec![sample(), "--result-weight".into(), "2".into()],
                "--result-weight 2",
            ),
            (
                vec![sample(), "--iterations".into(), "0".into()],
                "iterations",
            ),
            (
                vec![sample(), "--valid-every".into(), "1".into()],
                "--valid-every 1",
            ),
            (
                vec![sample(), "--from".into(), sample()],
                "not an evaluation model",
            ),
            (
                vec![sample(), "--borrow".into(), "standard".into()],
                "expected RULE=FROM",
            ),
            (
                vec![sample(), "--borrow".into(), "renju=renju".into()],
                "cannot borrow its own games",
            ),
            (
                vec![sample(), "--borrow".into(), "caro=freestyle".into()],
                "'caro' is not a rule",
            ),
        ];
        for (args, says) in cases {
            let mut all = vec!["train"];
            all.extend(args.iter().map(String::as_str));
            let o = gomoku(&all);
            assert!(!o.status.success(), "{all:?} succeeded");
            assert!(stderr(&o).contains(says), "{all:?}: {}", stderr(&o));
        }
        let o = gomoku(&["selfplay", "--games", "0", "--out", "x.txt"]);
        assert!(!o.status.success());
        let o = gomoku(&["selfplay", "--opening-stones", "5,2", "--out", "x.txt"]);
        assert!(
            stderr(&o).contains("need 1 <= MIN <= MAX"),
            "{}",
            stderr(&o)
        );
    }
}
