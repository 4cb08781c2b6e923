//! Integration tests of `gomoku bench-analysis` with a tiny time: every position analysed,
//! each iteration reported with its time, and the summary with the table's fill.

mod common;

use common::{gomoku, stderr, stdout};
use serde_json::Value;

#[test]
fn a_short_analysis_of_every_position_in_text() {
    let o = gomoku(&["bench-analysis", "--time-ms", "300", "--hash-mb", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for n in 1..=4 {
        assert!(out.contains(&format!("position {n}/4: ")), "{n}: {out}");
    }
    assert_eq!(out.matches("  reached depth ").count(), 4, "{out}");
    assert_eq!(out.matches("; TT fill ").count(), 4, "{out}");
    assert!(out.contains("15 renju h8 h9 i9"), "{out}");
}

#[test]
fn the_json_has_each_iteration_with_its_time() {
    let o = gomoku(&[
        "bench-analysis",
        "--time-ms",
        "300",
        "--hash-mb",
        "8",
        "--only",
        "1",
        "--only",
        "3",
        "--candidates",
        "4",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let all = v.as_array().expect("one object per position");
    assert_eq!(all.len(), 2);
    for a in all {
        let its = a["iterations"].as_array().expect("iterations");
        assert!(!its.is_empty(), "{a}");
        assert!(a["depth"].as_i64().unwrap() >= 1, "{a}");
        assert!(a["time_ms"].as_u64().unwrap() < 5_000, "{a}");
        // times never go back, and each iteration's own time adds up to them
        let mut at = 0;
        for it in its {
            let e = it["elapsed_ms"].as_u64().unwrap();
            assert!(e >= at, "{a}");
            assert_eq!(it["took_ms"].as_u64().unwrap(), e - at, "{a}");
            at = e;
        }
        assert!(a["tt_fill_permille"].as_u64().unwrap() <= 1000);
    }
    assert_eq!(
        all[1]["position"],
        "15 renju h8 h7 h10 i6 i10 i7 g7 g8 j5 i9"
    );
}

#[test]
fn a_position_that_does_not_exist_is_refused() {
    let o = gomoku(&["bench-analysis", "--time-ms", "10", "--only", "5"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--only 5: the positions are numbered 1 to 4"),
        "{}",
        stderr(&o)
    );
}
