//! `TAKEBACK` and `PLAY`: a stone taken back, and a move imposed on the brain.

use super::*;

#[test]
fn takeback_removes_the_named_stone() {
    let mut b = started(&["INFO timeout_turn 100"], 15);
    assert_eq!(b.ask("BEGIN"), "7,7");
    let ours = xy(&b.ask("TURN 8,8"));
    assert_eq!(b.ask(&format!("TAKEBACK {},{}", ours.0, ours.1)), "OK");
    assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
    assert!(b.ask("TAKEBACK 8,8").contains("no stone"));
    assert!(b.ask("TAKEBACK 3,x").starts_with("ERROR"));
    // only 7,7 is left and White is to move: the same TURN again gets an answer
    let again = xy(&b.ask("TURN 8,8"));
    assert!(again != (7, 7) && again != (8, 8));
    for (x, y) in [again, (8, 8), (7, 7)] {
        assert_eq!(b.ask(&format!("TAKEBACK {x},{y}")), "OK");
    }
    assert_eq!(b.ask("PLAY 7,7"), "7,7");
    b.end();
}

#[test]
fn a_takeback_out_of_order_is_refused_and_changes_nothing() {
    let mut b = started(&["INFO timeout_turn 100"], 15);
    assert_eq!(b.ask("BEGIN"), "7,7");
    let ours = xy(&b.ask("TURN 8,8"));
    // 7,7 and 8,8 are on the board but not the last stone
    for earlier in ["7,7", "8,8"] {
        let a = b.ask(&format!("TAKEBACK {earlier}"));
        assert!(
            a.starts_with("ERROR TAKEBACK: ")
                && a.contains("not the last stone played")
                && a.contains(&format!("({},{} is)", ours.0, ours.1)),
            "{a}"
        );
    }
    // nothing changed: all three stones are still there, in their order
    assert!(b.ask("PLAY 7,7").contains("occupied"));
    assert!(b.ask("TURN 8,8").contains("occupied"));
    assert_eq!(b.ask(&format!("TAKEBACK {},{}", ours.0, ours.1)), "OK");
    assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
    assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
    // after BOARD, the last stone is the last line of the side that moved last
    b.send("YXBOARD");
    b.send_all(&["3,3,1", "4,4,2", "5,5,1", "6,6,2", "DONE"]);
    assert!(b.ask("TAKEBACK 5,5").contains("not the last"));
    assert_eq!(b.ask("TAKEBACK 6,6"), "OK");
    assert_eq!(b.ask("TAKEBACK 5,5"), "OK");
    b.end();
}

#[test]
fn play_imposes_our_move() {
    let mut b = started(&["INFO timeout_turn 100"], 15);
    assert_eq!(b.ask("PLAY 3,4"), "3,4");
    assert!(b.ask("PLAY 3,4").contains("occupied"));
    let a = xy(&b.ask("TURN 10,10"));
    assert!(a != (3, 4) && a != (10, 10));
    b.end();
}
