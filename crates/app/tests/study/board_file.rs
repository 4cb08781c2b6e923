//! `--board FILE`: a board diagram as the start of `position`, `think`, `analyze` and `play`.

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
