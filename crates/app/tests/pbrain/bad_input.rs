//! Unknown and malformed lines get a reason, and the command loop goes on unchanged.

use super::*;

#[test]
fn unknown_and_malformed_lines_get_a_reason_and_the_loop_goes_on() {
    let mut b = Brain::start();
    assert!(b.ask("TURN 7,7").starts_with("ERROR"), "TURN before START");
    assert!(b.ask("BEGIN").starts_with("ERROR"), "BEGIN before START");
    b.send_all(&["BOARD", "7,7,1"]);
    assert!(b.ask("DONE").contains("START"), "BOARD before START");
    assert!(b.ask("YXSHOWFORBID").starts_with("ERROR"));
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    let unknown = b.ask("FLY 3");
    assert!(
        unknown.starts_with("UNKNOWN") && unknown.contains("FLY"),
        "{unknown}"
    );
    for (line, needle) in [
        ("TURN", "x,y"),
        ("TURN 7", "x,y"),
        ("TURN a,b", "integers"),
        ("TURN 15,3", "off the"),
        ("TURN -1,3", "off the"),
        ("TAKEBACK 1", "x,y"),
        ("PLAY 99,99", "off the"),
        ("INFO timeout_turn soon", "soon"),
        ("INFO max_memory -5", "negative"),
        ("INFO rule 99", "rule"),
        ("YXNBEST many", "many"),
        ("DONE", "without BOARD"),
        ("BEGIN now", "no arguments"),
    ] {
        let a = b.ask(line);
        assert!(a.starts_with("ERROR") && a.contains(needle), "{line}: {a}");
    }
    // blank lines and unknown INFO keys are ignored silently
    b.send("");
    b.send("INFO evaluate 7,7");
    b.send("INFO some_future_key 12");
    assert!(b.ask("ABOUT").starts_with("name="));
    // bytes that are not UTF-8 are a line like any other
    b.send_bytes(b"\xff\xfe\r\n");
    assert!(b.answer().starts_with("UNKNOWN"));
    // after all that, the game works
    b.send("INFO timeout_turn 100");
    assert_eq!(b.ask("BEGIN"), "7,7");
    b.end();
}

#[test]
fn a_bad_turn_changes_nothing() {
    let mut b = started(&["INFO timeout_turn 100"], 15);
    assert_eq!(b.ask("BEGIN"), "7,7");
    // occupied (our own stone), off the board: errors, and no stone is placed
    assert!(b.ask("TURN 7,7").contains("occupied"));
    assert!(b.ask("TURN 15,15").starts_with("ERROR"));
    let reply = xy(&b.ask("TURN 8,8"));
    assert!(reply != (7, 7) && reply != (8, 8));
    // still White's turn to answer after another bad TURN: the next good one works
    assert!(b
        .ask(&format!("TURN {},{}", reply.0, reply.1))
        .contains("occupied"));
    let next = xy(&b.ask("TURN 0,0"));
    assert!(![(7, 7), (8, 8), reply, (0, 0)].contains(&next));
    b.end();
}
