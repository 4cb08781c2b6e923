//! `BOARD`: stones in any order, an empty board, and bad or impossible boards refused whole.

use super::*;

#[test]
fn own_and_opponent_stones_in_any_order() {
    let mut b = started(&["INFO timeout_turn 300"], 15);
    // we are White (the opponent has one stone more); Black has four on row 7, blocked on
    // the left by our stone at 2,7: the only defence is 7,7
    let a = board(
        &mut b,
        &fields("5,7,2 10,10,1 3,7,2 2,7,1 6,7,2 11,11,1 4,7,2"),
    );
    assert_eq!(a, "7,7");
    // we are Black with an open four of our own (fields 1): we complete the five
    let a = board(
        &mut b,
        &fields("0,0,2 3,5,1 0,2,2 4,5,1 14,14,2 5,5,1 14,12,2 6,5,1"),
    );
    assert!(a == "2,5" || a == "7,5", "{a}");
    b.end();
}

#[test]
fn an_empty_board_means_we_open() {
    let mut b = started(&["INFO timeout_turn 100"], 15);
    assert_eq!(board(&mut b, &[]), "7,7");
    // YXBOARD sets the position without an answer
    b.send("YXBOARD");
    b.send("7,7,2");
    b.send("DONE");
    assert!(b.silent_for(200));
    assert!(b.ask("TURN 7,7").contains("occupied"));
    b.end();
}

#[test]
fn dead_stones_of_a_continuous_game_are_never_played() {
    // rule 3: exactly five, in a continuous game
    let mut b = started(&["INFO timeout_turn 300", "INFO rule 3"], 15);
    // our four on row 5; its left end 2,5 holds a dead stone (field 3): only 7,5 wins.
    // Field 3 does not count for the side to move: 4 own, 4 opponent, so we are Black.
    let a = board(
        &mut b,
        &fields("2,5,3 3,5,1 4,5,1 5,5,1 6,5,1 0,0,2 0,2,2 14,14,2 14,12,2"),
    );
    assert_eq!(a, "7,5");
    b.end();

    // dead stones occupy their point
    let mut b = started(&["INFO timeout_turn 100"], 15);
    let a = xy(&board(&mut b, &[(8, 8, 3), (9, 9, 3), (7, 7, 2)]));
    assert!(![(8, 8), (9, 9), (7, 7)].contains(&a));
    assert!(b.ask("TURN 8,8").contains("occupied"));
    b.end();
}

#[test]
fn a_bad_board_is_refused_whole() {
    let mut b = started(&["INFO timeout_turn 100"], 15);
    assert!(board(&mut b, &[(1, 1, 1), (1, 1, 2)]).contains("twice"));
    assert!(board(&mut b, &[(1, 1, 1), (2, 2, 7)]).contains("field"));
    assert!(board(&mut b, &[(1, 1, 1), (15, 2, 2)]).contains("off the"));
    b.send("BOARD");
    b.send("1,1");
    assert!(b.ask("DONE").contains("x,y,field"));
    // nothing of those boards stayed: the board is still empty
    assert_eq!(b.ask("BEGIN"), "7,7");
    b.end();
}

#[test]
fn an_impossible_board_is_refused_and_changes_nothing() {
    let mut b = started(&["INFO timeout_turn 100"], 15);
    // a position of the manager's: we (Black) and the opponent have a stone each
    b.send("YXBOARD");
    b.send_all(&["7,7,1", "8,8,2", "DONE"]);
    assert!(b.silent_for(200));
    // counts no game reaches with us to move: three of ours and none of the opponent's,
    // one of ours too many, two of the opponent's ahead
    for fields in [
        &[(1, 1, 1), (2, 2, 1), (3, 3, 1)][..],
        &[(1, 1, 1), (2, 2, 1), (3, 3, 2)],
        &[(1, 1, 2), (2, 2, 2), (3, 3, 2)],
        &[(1, 1, 2), (2, 2, 2)],
    ] {
        let a = board(&mut b, fields);
        assert!(
            a.starts_with("ERROR BOARD: ") && a.contains("no game reaches that"),
            "{fields:?}: {a}"
        );
    }
    // two stones on one point, a point off the board
    let a = board(&mut b, &[(1, 1, 1), (1, 1, 2)]);
    assert!(a.starts_with("ERROR BOARD: ") && a.contains("twice"), "{a}");
    let a = board(&mut b, &[(1, 1, 2), (15, 2, 1)]);
    assert!(
        a.starts_with("ERROR BOARD: ") && a.contains("off the"),
        "{a}"
    );
    // the position is still the one before: 7,7 and 8,8 taken, 1,1 free, Black to move
    assert!(b.ask("TURN 7,7").contains("occupied"));
    assert!(b.ask("TURN 8,8").contains("occupied"));
    assert_eq!(b.ask("PLAY 1,1"), "1,1");
    assert_eq!(b.ask("TAKEBACK 1,1"), "OK");
    assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
    b.end();
}
