//! Integration tests of the `gomoku` binary, one module per area.

mod common;

use common::{gomoku, spawn, stderr, stdout};

// `gomoku position`
mod position {
    use super::*;

    #[test]
    fn text_board_with_last_move_and_side() {
        let o = gomoku(&["position", "--rule", "freestyle", "h8", "i9"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("    a b c d e f g h i j k l m n o"), "{out}");
        assert!(out.contains("[O]"), "last move marked: {out}");
        assert!(out.contains("to move: black"), "{out}");
        assert!(out.contains("result: none"), "{out}");
    }

    #[test]
    fn json_renju_forbidden_points() {
        let o = gomoku(&[
            "position", "--json", "--rule", "renju", "--diagram", "a10 e10 b3 -- b4 -- b11 -- c12 -- d2 -- d3 -- \
             d8 -- e8 -- e11 -- e12 -- e13 -- g8 -- h8 -- i8 -- j5 -- j12 -- k3 -- k4 -- k11 -- k13 -- k14 -- \
             k15 -- l12 -- m5 -- m12 -- n12 -- o12",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["size"], 15);
        assert_eq!(v["rule"], "renju");
        assert_eq!(v["result"], serde_json::Value::Null);
        let f = v["forbidden"].as_array().unwrap();
        let got: Vec<(String, String)> = f
            .iter()
            .map(|x| {
                (
                    x["point"].as_str().unwrap().to_string(),
                    x["kind"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert!(
            got.contains(&("k5".into(), "double-three".into())),
            "{got:?}"
        );
        assert!(
            got.contains(&("e14".into(), "double-four".into())),
            "{got:?}"
        );
        assert!(got.contains(&("f8".into(), "overline".into())), "{got:?}");
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn the_renju_opening_is_named_in_text_and_json() {
        // (first three moves, the name shown): any orientation; a start that is not one of the
        // 26 openings has none
        for (moves, name) in [
            ("h8 h9 i9", Some("Kagetsu 花月 (4D)")),
            ("h8 g7 i10", Some("Meigetsu 名月 (12I)")),
            ("h8 i8 g6", Some("Shingetsu 新月 (10D)")),
            ("h8 g9 f10 a1", Some("Chōsei 长星 (1I)")),
            ("h8 h9 h11", None),
            ("a1 b2 c3", None),
            ("h8 h9", None),
        ] {
            let mut args = vec!["position", "--rule", "renju"];
            args.extend(moves.split(' '));
            let o = gomoku(&args);
            assert!(o.status.success(), "{}", stderr(&o));
            let line = stdout(&o)
                .lines()
                .find_map(|l| l.strip_prefix("opening: ").map(str::to_string));
            assert_eq!(line.as_deref(), name, "{moves}");
            args.insert(1, "--json");
            let v: serde_json::Value = serde_json::from_str(&stdout(&gomoku(&args))).unwrap();
            match name {
                Some(n) => {
                    let code = n.split('(').nth(1).unwrap().trim_end_matches(')');
                    assert_eq!(v["opening"]["code"], code, "{moves}");
                    assert_eq!(v["opening"]["name"], n.split(' ').next().unwrap());
                }
                None => assert_eq!(v["opening"], serde_json::Value::Null, "{moves}"),
            }
        }
    }

    #[test]
    fn json_win_and_draw_results() {
        let o = gomoku(&["position", "--json", "h8i8h9i9h10i10h11i11h12"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["result"]["winner"], "black");
        assert_eq!(
            v["result"]["line"],
            serde_json::json!(["h12", "h11", "h10", "h9", "h8"])
        );
        let draw = "j15 k8 m11 g7 a1 d4 n15 o5 k12 n4 j8 i2 n7 b9 n13 f14 d8 i10 m1 g5 g11 n14 i14 e7 i1 a5 h13 k5 k11 \
             k10 a9 d12 a6 d11 d10 e15 f13 h3 k14 j11 f15 d1 g1 b3 g9 l12 l13 f9 b15 m13 l7 a2 c12 e8 j2 o15 d7 j14 g14 \
             g13 k3 f1 c4 k15 m4 l6 h10 b6 l2 e5 d5 d14 f7 g15 i12 a13 k6 n3 f10 n6 i6 l9 a11 h14 e12 l4 e11 d3 n8 i15 \
             n5 j3 h5 i5 b10 b12 l5 j6 f2 b11 o14 l14 o3 d9 h7 n9 e1 e2 c6 m10 b2 c15 n10 f3 c9 j12 k9 e10 m14 m15 e3 \
             c13 g12 o7 g4 k2 o4 h6 i4 m2 j5 i13 d13 o13 o11 f4 i3 f6 n2 m8 a14 f11 m12 n12 h15 m7 a4 c10 a12 a8 a3 f12 \
             m9 b4 l10 o8 c3 b1 k4 g2 o1 o2 g6 h11 e9 j4 g3 a10 e6 k7 c14 i8 h2 n11 e4 g10 j7 c2 o12 i7 m6 l3 b13 g8 \
             e14 b14 d2 h4 d15 j9 c1 d6 i9 a15 f5 j1 k1 o10 b8 m5 j13 c5 c11 a7 l8 h9 o9 k13 b5 l11 b7 e13 o6 c7 f8 c8 \
             l15 h12 j10 n1 h8 l1 i11 h1 m3";
        let o = gomoku(&["position", "--json", "--rule", "renju", draw]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["result"], "draw");
        assert_eq!(v["moves"], 225);
    }

    #[test]
    fn the_position_line_is_printed_and_reads_back() {
        let o = gomoku(&[
            "position", "--json", "--rule", "renju", "--size", "13", "g7 h8",
        ]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["line"], "13 renju g7 h8");
        // a diagram's stones, with the pass that gives White the move
        let o = gomoku(&["position", "--diagram", "h8 -- i9"]);
        let out = stdout(&o);
        assert!(out.contains("\nline: 15 freestyle h8 -- i9\n"), "{out}");
        let o = gomoku(&["position", "--json", "--rule", "standard", "--size", "9"]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["line"], "9 standard");
    }

    #[test]
    fn renju_foul_loses() {
        // black's k5 is a double three here: white wins by the foul
        let o = gomoku(&[
            "position",
            "--json",
            "--rule",
            "renju",
            "k4 a15 l4 c15 j3 e15 l3 g15 l5",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["result"]["winner"], "white", "{v}");
        assert_eq!(v["result"]["foul"], "double-three", "{v}");
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        for (args, needle) in [
            (
                vec!["position", "h8", "h8"],
                "move 2 'h8': the point is already occupied",
            ),
            (vec!["position", "h8", "z9"], "'z9': off the 15x15 board"),
            (vec!["position", "h8", "8h"], "'8h'"),
            (vec!["position", "--size", "4"], "out of range"),
            (vec!["position", "--size", "x"], "must be a number"),
            (
                vec!["position", "--rule", "gobang"],
                "'gobang': unknown rule",
            ),
            (
                vec!["position", "a1 b1 a2 b2 a3 b3 a4 b4 a5 b5"],
                "the game is already over",
            ),
            (
                vec!["position", "--size", "9", "j9"],
                "'j9': off the 9x9 board",
            ),
        ] {
            let o = gomoku(&args);
            assert!(!o.status.success(), "{args:?} should fail");
            assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
            assert!(stdout(&o).is_empty(), "{args:?} printed to stdout");
        }
    }
}

// `gomoku think` and `gomoku analyze`: limits out of range
mod limits {
    use super::*;

    #[test]
    fn out_of_range_tables_threads_and_depths_are_clear_errors() {
        for cmd in ["think", "analyze"] {
            for (args, needle) in [
                (vec!["--hash-mb", "100000"], "at most 4096 MB"),
                (vec!["--hash-mb", "18446744073709551615"], "at most 4096 MB"),
                (vec!["--threads", "10000"], "at most 256 threads"),
                (vec!["--depth", "0"], "--depth must be at least 1"),
            ] {
                let mut all = vec![cmd, "--time-ms", "100"];
                all.extend(&args);
                all.push("h8");
                let o = gomoku(&all);
                assert!(!o.status.success(), "{all:?} should fail");
                assert!(stderr(&o).contains(needle), "{all:?}: {}", stderr(&o));
                assert!(!stderr(&o).contains("panicked"), "{all:?}: {}", stderr(&o));
            }
        }
    }

    #[test]
    fn the_server_refuses_out_of_range_settings_before_it_starts() {
        for (args, needle) in [
            (vec!["--hash-mb", "100000"], "at most 4096 MB"),
            (vec!["--threads", "0"], "between 1 and 256"),
            (vec!["--threads", "100000"], "between 1 and 256"),
            (
                vec!["--idle-minutes", "0"],
                "--idle-minutes must be between 1",
            ),
            (
                vec!["--idle-minutes", "18446744073709551615"],
                "--idle-minutes must be between 1",
            ),
        ] {
            let mut all = vec!["serve", "--port", "0"];
            all.extend(&args);
            let o = gomoku(&all);
            assert!(!o.status.success(), "{all:?} should fail");
            assert!(stderr(&o).contains(needle), "{all:?}: {}", stderr(&o));
            assert!(!stderr(&o).contains("panicked"), "{all:?}: {}", stderr(&o));
        }
    }

    #[test]
    fn a_huge_time_limit_is_no_limit() {
        // once overflowed the time manager: a panic in debug builds, a 1 ms search in release
        for ms in ["200000000000000000", "18446744073709551615"] {
            let o = gomoku(&[
                "think",
                "--time-ms",
                ms,
                "--depth",
                "4",
                "--json",
                "h8",
                "i9",
            ]);
            assert!(o.status.success(), "{ms}: {}", stderr(&o));
            let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
            assert_eq!(v["depth"], 4, "{ms}: {v}");
        }
    }
}

// `--set NAME=VALUE` of `think`, `analyze` and `bench`: search parameter overrides
mod set {
    use super::*;

    /// `analyze --json` at depth 4 with these extra arguments: the search's node count.
    fn analyze_nodes(extra: &[&str]) -> u64 {
        let mut args = vec!["analyze", "--json", "--depth", "4"];
        args.extend(extra);
        args.extend(["h8", "i9", "h9"]);
        let o = gomoku(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        assert_eq!(v["depth"], 4, "{v}");
        v["stats"]["nodes"].as_u64().expect("a node count")
    }

    #[test]
    fn analyze_takes_overrides_and_refuses_unknown_ones() {
        // the override reaches the search: without late move reductions, another tree
        let plain = analyze_nodes(&[]);
        assert_eq!(analyze_nodes(&["--set", "killer_bonus=300"]), plain);
        assert_ne!(
            analyze_nodes(&["--set", "lmr_scale_pct=0", "--set", "near_last_bonus=60"]),
            plain
        );
        for (args, needle) in [
            (vec!["--set", "bogus=1"], "unknown parameter 'bogus'"),
            (vec!["--set", "lmr_scale_pct"], "expected --set NAME=VALUE"),
            (vec!["--set", "lmr_scale_pct=x"], "'x' is not a valid value"),
            (
                vec!["--search", "alphabeta", "--set", "lmr_scale_pct=90"],
                "only applies to the engine's search",
            ),
        ] {
            let mut all = vec!["analyze", "--depth", "2"];
            all.extend(&args);
            all.push("h8");
            let o = gomoku(&all);
            assert!(!o.status.success(), "{all:?} should fail");
            assert!(stderr(&o).contains(needle), "{all:?}: {}", stderr(&o));
            assert!(stdout(&o).is_empty(), "{all:?} printed to stdout");
        }
    }

    #[test]
    fn out_of_range_values_are_clear_errors_in_every_command() {
        for (set, needle) in [
            // these once panicked (and then hung the other thread), divided by zero, or
            // turned the move count limit into nonsense
            (
                "split_min_depth=999999999",
                "split_min_depth must be in 1..=100, got 999999999",
            ),
            ("history_divisor=0", "history_divisor must be in 1..=1024"),
            (
                "move_count_exp=NaN",
                "move_count_exp must be a finite number",
            ),
            ("aspiration_initial=0", "aspiration_initial must be in 1..="),
            (
                "ybwc_max_threads=99999999999999999999999",
                "for ybwc_max_threads (a whole number in 0..=256)",
            ),
        ] {
            for cmd in [
                vec!["think", "--depth", "4", "--threads", "2"],
                vec!["analyze", "--depth", "4", "--threads", "2"],
                vec!["bench", "--depth", "4", "--threads", "2"],
            ] {
                let mut all = cmd.clone();
                all.extend(["--set", set]);
                if cmd[0] != "bench" {
                    all.push("h8");
                }
                let o = gomoku(&all);
                let err = stderr(&o);
                assert!(!o.status.success(), "{all:?} should fail");
                assert!(err.contains(needle), "{all:?}: {err}");
                assert!(!err.contains("panicked"), "{all:?}: {err}");
                assert!(stdout(&o).is_empty(), "{all:?} printed to stdout");
            }
        }
    }
}

// `gomoku bench-board`
mod bench_board {
    use super::*;

    #[test]
    fn prints_a_rate_per_rule() {
        let o = gomoku(&[
            "bench-board",
            "--positions",
            "5",
            "--runs",
            "1",
            "--rule",
            "renju",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains("renju") && out.contains("M make+unmake/s"),
            "{out}"
        );
    }
}

// `gomoku bench`
mod bench {
    use super::*;

    fn bench_line(out: &str) -> String {
        out.lines()
            .find(|l| l.starts_with("Bench: "))
            .unwrap_or_else(|| panic!("no Bench line: {out}"))
            .to_string()
    }

    #[test]
    fn node_count_and_signature_are_deterministic() {
        let a = gomoku(&["bench", "--depth", "5", "--quiet"]);
        let b = gomoku(&["bench", "--depth", "5"]);
        assert!(a.status.success(), "{}", stderr(&a));
        assert!(b.status.success(), "{}", stderr(&b));
        let (oa, ob) = (stdout(&a), stdout(&b));
        assert_eq!(bench_line(&oa), bench_line(&ob));
        let sig = |o: &str| {
            o.lines()
                .find(|l| l.starts_with("Signature"))
                .map(str::to_string)
        };
        assert!(sig(&oa).is_some());
        assert_eq!(sig(&oa), sig(&ob));
        // the full listing has one line per position, every rule and both sizes
        for needle in [
            "freestyle",
            "standard",
            "renju",
            "15x15",
            "20x20",
            "Nodes/second",
        ] {
            assert!(ob.contains(needle), "{needle} missing: {ob}");
        }
    }

    #[test]
    fn threads_comparison_prints_the_ratio() {
        let o = gomoku(&["bench", "--depth", "5", "--threads", "2", "--runs", "2"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let total = out
            .lines()
            .find(|l| l.starts_with("Total ") && l.contains("threads reach"))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(
            total.contains("2 threads reach depth 5") && total.ends_with("x faster"),
            "{total}"
        );
        // the split of the ratio into speed and extra nodes multiplies back to it
        let split = out
            .lines()
            .find(|l| l.starts_with("Split "))
            .unwrap_or_else(|| panic!("{out}"));
        let figures: Vec<f64> = split
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|w| w.trim_end_matches('.').parse().ok())
            .collect();
        let ratio: f64 = total
            .rsplit(' ')
            .nth(1)
            .and_then(|w| w.trim_end_matches('x').parse().ok())
            .unwrap_or_else(|| panic!("{total}"));
        let [_, nodes, _, speed, _, _, product] = figures[..] else {
            panic!("{split}: {figures:?}")
        };
        assert!(nodes > 0.0 && speed > 0.0, "{split}");
        // (each figure is rounded to two decimals)
        assert!(
            (speed / nodes - product).abs() <= 0.02 * product + 0.006,
            "{split}"
        );
        assert!((product - ratio).abs() < 0.011, "{split} against {total}");
    }

    #[test]
    fn a_positions_file_replaces_the_bench_set() {
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/openings-freestyle15.txt"
        );
        let o = gomoku(&[
            "bench",
            "--positions",
            file,
            "--only",
            "2025",
            "--depth",
            "4",
            "--threads",
            "2",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        // the three 2025 openings, searched with one thread and then compared with two
        assert!(out.contains(" 3/3: freestyle 15x15"), "{out}");
        assert!(!out.contains(" 4/3:"), "{out}");
        assert!(
            out.contains("Total nodes") && out.contains("2 threads reach depth 4"),
            "{out}"
        );
        // the node count of another set is no `Bench:` figure
        assert!(!out.contains("Bench: "), "{out}");
    }

    #[test]
    fn bad_arguments_are_errors() {
        for args in [
            vec!["bench", "--depth", "0"],
            vec!["bench", "--threads", "1"],
            vec!["bench", "--set", "no_such_param=3"],
            vec!["bench", "--set", "lmr_scale_pct"],
            vec!["bench", "--only", "piskvork"],
            vec!["bench", "--positions", "no/such/file.txt"],
            vec!["bench", "--hash-mb", "100000000"],
            vec!["bench", "--runs", "0"],
        ] {
            let o = gomoku(&args);
            assert!(!o.status.success(), "{args:?} should fail");
            assert!(!stderr(&o).is_empty(), "{args:?}: no message");
            assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        }
    }
}

// `gomoku review`
mod review {
    use super::*;

    const GAME: &str = "h8 h9 i8 i9 j8 a1 k8 a2 l8";

    #[test]
    fn the_table_marks_the_blunder_and_counts_each_player() {
        let args: Vec<&str> = ["review", "--time-ms", "100"]
            .into_iter()
            .chain(GAME.split(' '))
            .collect();
        let o = gomoku(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains("result: black wins with h8 i8 j8 k8 l8"),
            "{out}"
        );
        let rows: Vec<&str> = out
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert_eq!(rows.len(), 9, "{out}");
        let a1 = rows[5].split_whitespace().collect::<Vec<_>>();
        assert_eq!(&a1[..3], ["6", "white", "a1??"], "{out}");
        assert!(rows[5].contains("blunder (better "), "{out}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("white: ") && l.ends_with(", 1 blunder")),
            "{out}"
        );
        assert!(out.lines().any(|l| l.starts_with("black: ")), "{out}");
    }

    #[test]
    fn a_renju_game_is_reviewed_with_its_opening_named() {
        let o = gomoku(&[
            "review", "--rule", "renju", "--depth", "2", "h8", "h9", "i8", "i9",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).contains("\nopening: Ugetsu 雨月 (6D)\n"),
            "{}",
            stdout(&o)
        );
        let o = gomoku(&[
            "review", "--json", "--rule", "renju", "--depth", "2", "h8", "h9", "i8",
        ]);
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v["opening"]["code"], "6D", "{v}");
        assert_eq!(v["opening"]["japanese"], "雨月");
        // freestyle has no named openings
        let o = gomoku(&["review", "--json", "--depth", "2", "h8", "h9", "i8"]);
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert!(v["opening"].is_null(), "{v}");
    }

    #[test]
    fn json_and_psq_give_the_same_verdicts() {
        let dir = tempfile::tempdir().unwrap();
        let psq = dir.path().join("game.psq");
        // the same game in Piskvork's 1-based x,y from the top
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,7,0\n9,8,0\n9,7,0\n10,8,0\n1,15,0\n11,8,0\n1,14,0\n12,8,0\nblack\nwhite\n-1\n";
        std::fs::write(&psq, text).unwrap();
        let verdicts = |args: &[&str]| {
            let o = gomoku(args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
            assert_eq!(v["complete"], true);
            assert_eq!(v["size"], 15);
            v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["move"].as_str().unwrap().to_string(),
                        m["mark"].as_str().unwrap().to_string(),
                    )
                })
                .collect::<Vec<_>>()
        };
        let mut args = vec!["review", "--json", "--depth", "4"];
        args.extend(GAME.split(' '));
        let from_moves = verdicts(&args);
        let from_psq = verdicts(&[
            "review",
            "--json",
            "--depth",
            "4",
            "--psq",
            psq.to_str().unwrap(),
        ]);
        assert_eq!(from_moves.len(), 9);
        assert_eq!(from_moves[5], ("a1".to_string(), "??".to_string()));
        assert_eq!(from_moves, from_psq);
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.psq");
        std::fs::write(&bad, "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n").unwrap();
        let bad = bad.to_str().unwrap();
        for args in [
            vec!["review"],
            vec!["review", "--", "--"],
            vec!["review", "h8", "h8"],
            vec!["review", "h8", "z99"],
            vec!["review", "--time-ms", "0", "h8"],
            vec!["review", "--threads", "0", "h8"],
            vec!["review", "--hash-mb", "100000000", "h8"],
            vec!["review", "--depth", "0", "h8"],
            vec!["review", "--psq", "no/such/file.psq"],
            vec!["review", "--psq", bad],
            vec!["review", "--psq", bad, "h8"],
        ] {
            let o = gomoku(&args);
            assert!(!o.status.success(), "{args:?} should fail");
            assert!(!stderr(&o).is_empty(), "{args:?}: no message");
            assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        }
    }
}

// Output into a pipe whose reader goes away (`gomoku think h8 | head -1`)
#[cfg(unix)]
mod closed_pipe {
    use super::*;
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;

    /// SIGPIPE's number on Linux and the BSDs.
    const SIGPIPE: i32 = 13;

    #[test]
    fn a_command_ends_quietly_when_its_reader_goes() {
        for args in [
            vec!["think", "--time-ms", "3000", "h8"],
            vec!["solve", "--time-ms", "3000", "-"],
        ] {
            let mut child = spawn(&args);
            let mut stdin = child.stdin.take().expect("stdin");
            // many positions for solve, so that it goes on writing
            let line = "15 freestyle h8 i9 h9 i10 h10 i11 | task=vcf side=black\n";
            std::io::Write::write_all(&mut stdin, line.repeat(200).as_bytes()).expect("input");
            drop(stdin);
            let mut out = BufReader::new(child.stdout.take().expect("stdout"));
            let mut first = String::new();
            out.read_line(&mut first).expect("a first line");
            assert!(!first.is_empty(), "{args:?}");
            // the reader goes away; the command's next writes end it, with no message
            drop(out);
            let o = child.wait_with_output().expect("binary ends");
            assert_eq!(o.status.signal(), Some(SIGPIPE), "{args:?}: {:?}", o.status);
            assert_eq!(stderr(&o), "", "{args:?}: no panic, no error message");
        }
    }
}

// `pbrain-gomoku` and `gomoku pbrain`: the Gomocup protocol (scripted sessions, self-play)
mod pbrain;
