//! `YXBLOCK`, `YXBLOCKUNDO`, `YXBLOCKRESET`: points the engine must not play.

use super::*;

/// Sends `word`, the points and `DONE`.
fn block(b: &mut Brain, word: &str, points: &[&str]) {
    b.send(word);
    for p in points {
        b.send(p);
    }
    b.send("DONE");
}

/// The brain's straight four on row 7 (3,7 to 6,7; either 2,7 or 7,7 makes five), with
/// the opponent's stones on the first column, the brain to move.
fn straight_four(b: &mut Brain) -> String {
    board(
        b,
        &[
            (3, 7, 1),
            (0, 0, 2),
            (4, 7, 1),
            (0, 2, 2),
            (5, 7, 1),
            (0, 4, 2),
            (6, 7, 1),
            (0, 6, 2),
        ],
    )
}

#[test]
fn a_blocked_point_is_not_played_until_it_is_unblocked() {
    let mut b = started(&["INFO timeout_turn 300"], 15);
    // no answer to the block itself
    block(&mut b, "YXBLOCK", &["2,7"]);
    assert!(b.silent_for(200));
    assert_eq!(straight_four(&mut b), "7,7");
    block(&mut b, "yxblock", &["7,7", "2,7"]);
    let m = straight_four(&mut b);
    assert!(!["2,7", "7,7"].contains(&m.as_str()), "{m}");
    // unblocked, the five again
    block(&mut b, "YXBLOCKUNDO", &["2,7"]);
    assert_eq!(straight_four(&mut b), "2,7");
    b.send("YXBLOCKRESET");
    b.send("RESTART");
    assert_eq!(b.answer(), "OK");
    assert_eq!(b.ask("BEGIN"), "7,7");
    b.end();
}

#[test]
fn the_empty_board_without_its_centre_starts_next_to_it() {
    let mut b = started(&["INFO timeout_turn 200"], 15);
    block(&mut b, "YXBLOCK", &["7,7"]);
    let (x, y) = xy(&b.ask("BEGIN"));
    assert!(
        x.abs_diff(7) <= 1 && y.abs_diff(7) <= 1 && (x, y) != (7, 7),
        "{x},{y}"
    );
    // START clears the block
    assert_eq!(b.ask("START 15"), "OK");
    assert_eq!(b.ask("BEGIN"), "7,7");
    b.end();
}

#[test]
fn a_bad_point_is_an_error_and_changes_nothing() {
    let mut b = started(&["INFO timeout_turn 200"], 15);
    block(&mut b, "YXBLOCK", &["7,7", "7,x"]);
    let e = b.answer();
    assert!(e.starts_with("ERROR YXBLOCK: ") && e.contains("7,x"), "{e}");
    block(&mut b, "YXBLOCK", &["15,3"]);
    let e = b.answer();
    assert!(e.starts_with("ERROR YXBLOCK: "), "{e}");
    assert!(b
        .ask("YXBLOCK 7,7")
        .starts_with("ERROR YXBLOCK takes no arguments"));
    // nothing was blocked: the centre is played
    assert_eq!(b.ask("BEGIN"), "7,7");
    b.end();
}

#[test]
fn a_block_of_every_point_is_set_aside() {
    let mut b = started(&["INFO timeout_turn 200"], 5);
    let all: Vec<String> = (0..5)
        .flat_map(|x| (0..5).map(move |y| format!("{x},{y}")))
        .collect();
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    block(&mut b, "YXBLOCK", &refs);
    b.messages.clear();
    let (x, y) = xy(&b.ask("BEGIN"));
    assert!(x < 5 && y < 5);
    assert!(
        b.messages.iter().any(|m| m.contains("set aside")),
        "{:?}",
        b.messages
    );
    b.end();
}
