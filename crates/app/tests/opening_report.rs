//! Integration tests of `gomoku opening-report`: the text and JSON reports of the fixture match
//! folders (`tests/data/clock-report/`), several folders summed, and the errors for a missing
//! or malformed record.

mod common;

use common::{gomoku, match_folder as folder, stderr, stdout};
use serde_json::Value;

#[test]
fn the_text_report_lists_each_opening_and_sums_the_folders() {
    let dir = folder("renju-15-120-5000");
    let o = gomoku(&["opening-report", &dir, &dir, "--list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        // games 1 and 2 share the opening and ours won both; game 3 is alone on its opening
        "  games   1 (black)   2 (white): W W  ours both    hh ig jf\n",
        "openings the colour ours both theirs both split unpaired  score undecided points  folder\n",
        "       1     0 (0%)         1           0     0        1 100.0%    100.0%      2  ",
        "       2     0 (0%)         2           0     0        2 100.0%    100.0%      4  all\n",
    ] {
        assert!(out.contains(want), "{want}\n{out}");
    }
}

#[test]
fn the_json_report_from_the_other_side() {
    let o = gomoku(&[
        "opening-report",
        &folder("renju-15-120-5000"),
        "--ours",
        "anchor",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let pair = &v["folders"][0]["pairs"][0];
    assert_eq!(pair["class"], "theirs_both");
    assert_eq!(pair["as_black"], "loss");
    assert_eq!(pair["games"], serde_json::json!([2, 1]));
    assert_eq!(v["total"]["theirs_both"], 1);
    assert_eq!(v["total"]["unpaired"], 1);
    assert_eq!(v["total"]["score"], 0.0);
}

#[test]
fn bad_folders_are_clear_errors() {
    for (dir, want) in [
        (folder("no-such-folder"), "cannot read"),
        (folder("unclosed"), "has no closing ')'"),
        (folder("no-ours"), "no game of 'ours'"),
    ] {
        let o = gomoku(&["opening-report", &dir]);
        assert!(!o.status.success(), "{dir}");
        assert!(stderr(&o).contains(want), "{dir}: {}", stderr(&o));
    }
    let o = gomoku(&["opening-report"]);
    assert!(!o.status.success());
}
