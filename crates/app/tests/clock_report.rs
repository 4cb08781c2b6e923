//! Integration tests of `gomoku clock-report`: the text and JSON reports of the fixture match
//! folder (`tests/data/clock-report/`, written by hand in c-gomoku-cli's formats), and the
//! errors for a missing or malformed file.

mod common;

use common::{gomoku, match_folder as folder, stderr, stdout};
use serde_json::Value;

#[test]
fn the_text_report_of_a_match_folder() {
    let o = gomoku(&["clock-report", &folder("renju-15-120-5000")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "3 games; game clock 120000 ms, time per move 5000 ms",
        "game 2: anchor (black) x ours (white), 12 stones, White win by five connection (W+1)",
        "  ours           5      12040     2408 4870 (#7)                  10.0%   10.0%      0   13.8",
        "  ours          10      25795     2580 4990 (game 2, #8)          10.7%   11.5%      0   15.4",
        "  ours against anchor: total time 1.96x, mean move 1.76x",
    ] {
        assert!(out.contains(want), "{want}\n{out}");
    }
}

#[test]
fn the_json_report_and_the_options() {
    // the other engine as ours, with the clocks given instead of read from the folder's name
    let o = gomoku(&[
        "clock-report",
        &folder("renju-15-120-5000"),
        "--ours",
        "anchor",
        "--match-s",
        "60",
        "--turn-ms",
        "3000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["clocks"]["match_ms"], 60_000);
    assert_eq!(v["clocks"]["turn_ms"], 3_000);
    assert_eq!(v["games"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["ours"]["name"], "anchor");
    assert_eq!(v["ours"]["moves"], 9);
    assert_eq!(v["ours"]["total_ms"], 13_169);
    assert_eq!(v["ours"]["over_turn"], 1);
    assert_eq!(v["opponent"]["name"], "ours");
    assert_eq!(v["opponent"]["longest_stone"], 8);
    assert_eq!(v["opponent"]["over_turn"], 4);
    let share = v["games"][0]["ours"]["clock_share"].as_f64().unwrap();
    assert!((share - 7_169.0 / 60_000.0).abs() < 1e-9, "{share}");
}

/// (folder, extra arguments, words the error must contain): each exits with a failure and
/// names the file.
#[test]
fn missing_and_malformed_files_are_named() {
    for (dir, args, want) in [
        ("missing-msg", &[][..], "cannot read"),
        ("no-such-folder", &[][..], "cannot read"),
        (
            "bad-time",
            &[][..],
            "games.sgf: line 3: comment 'fast' is neither 'opening move'",
        ),
        (
            "unclosed",
            &[][..],
            "games.sgf: the game starting on line 1 has no closing ')'",
        ),
        (
            "bad-msg",
            &[][..],
            "msg.txt: line 5: 'the engine crashed here' is not a",
        ),
        (
            "no-ours",
            &[][..],
            "games.sgf: no game of an engine named 'ours' (the engines: alpha, anchor)",
        ),
        (
            "renju-15-120-5000",
            &["--ours", "nobody"][..],
            "no game of an engine named 'nobody'",
        ),
    ] {
        let path = folder(dir);
        let mut a = vec!["clock-report", path.as_str()];
        a.extend_from_slice(args);
        let o = gomoku(&a);
        assert!(!o.status.success(), "{dir}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains(want), "{dir}: {err}");
        assert!(err.contains(dir), "{dir}: the file is named: {err}");
    }
    // the missing file itself is named
    let o = gomoku(&["clock-report", &folder("missing-msg")]);
    assert!(stderr(&o).contains("missing-msg/msg.txt"), "{}", stderr(&o));
}
