//! `--exclude` of `think` and `analyze`: the best move among the others.

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
