//! No move after a five or on a full board.

use super::*;

#[test]
fn no_move_after_five_or_on_a_full_board() {
    let mut b = started(&["INFO timeout_turn 100"], 15);
    // a five already on the board
    let a = board(
        &mut b,
        &fields("0,0,2 1,0,2 2,0,2 3,0,2 4,0,2 0,5,1 1,5,1 2,5,1 3,5,1"),
    );
    assert!(a.starts_with("ERROR") && a.contains("over"), "{a}");
    // the opponent completes five with TURN: the stone stays, we cannot answer
    b.send("YXBOARD");
    for l in [
        "0,0,2", "1,0,2", "2,0,2", "3,0,2", "0,5,1", "1,5,1", "2,5,1", "14,14,1",
    ] {
        b.send(l);
    }
    b.send("DONE");
    assert_eq!(b.ask("PLAY 10,10"), "10,10");
    let a = b.ask("TURN 4,0");
    assert!(a.starts_with("ERROR") && a.contains("over"), "{a}");
    // a decided game takes no more stones
    assert!(b.ask("TURN 9,9").contains("over"));
    assert!(b.ask("TAKEBACK 9,9").contains("no stone"));
    assert_eq!(b.ask("TAKEBACK 4,0"), "OK");
    assert_eq!(b.ask("TURN 9,9"), "4,0", "we block the four");

    // a full 5x5 board without a five
    assert_eq!(b.ask("START 5"), "OK");
    let pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
    let mut fields = Vec::new();
    for (y, row) in pattern.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            // 13 X and 12 O: X is the side that moved last, so O is "us" (1)
            fields.push((x, y, if c == 'O' { 1 } else { 2 }));
        }
    }
    let a = board(&mut b, &fields);
    assert!(a.starts_with("ERROR") && a.contains("full"), "{a}");
    assert!(b.ask("PLAY 0,0").starts_with("ERROR"));
    b.end();
}
