//! `YXBALANCEONE`, `YXBALANCETWO`: balanced moves for making openings.

use super::*;

fn yxboard(b: &mut Brain, fields: &[&str]) {
    b.send("YXBOARD");
    for f in fields {
        b.send(f);
    }
    b.send("DONE");
}

#[test]
fn one_balanced_move_is_played_and_answered() {
    let mut b = started(&["INFO timeout_turn 400"], 15);
    yxboard(&mut b, &["7,7,2", "8,8,1"]);
    b.messages.clear();
    let m = xy(&b.ask("YXBALANCEONE 0"));
    assert!(
        b.messages
            .iter()
            .any(|l| l.contains("balance: ") && l.contains("(target +0)")),
        "{:?}",
        b.messages
    );
    // the move is on the board now
    assert!(b.ask(&format!("TURN {},{}", m.0, m.1)).contains("occupied"));
    b.end();
}

#[test]
fn two_moves_ours_then_the_opponents() {
    let mut b = started(&["INFO timeout_turn 600"], 15);
    yxboard(&mut b, &["7,7,2", "8,8,1", "8,7,2"]);
    let a = b.ask("YXBALANCETWO 0");
    let stones: Vec<(usize, usize)> = a.split(' ').map(xy).collect();
    assert_eq!(stones.len(), 2, "{a}");
    assert_ne!(stones[0], stones[1]);
    for (x, y) in &stones {
        assert!(![(7, 7), (8, 8), (8, 7)].contains(&(*x, *y)), "{a}");
        assert!(b.ask(&format!("TURN {x},{y}")).contains("occupied"));
    }
    b.end();
}

#[test]
fn a_bad_target_is_an_error_and_a_blocked_point_is_never_played() {
    let mut b = started(&["INFO timeout_turn 300"], 15);
    assert!(b
        .ask("YXBALANCEONE even")
        .starts_with("ERROR YXBALANCEONE takes a value to aim at"));
    // a five to make, blocked: the balance never plays it, whatever it aims at
    b.send("YXBLOCK");
    b.send("2,7");
    b.send("7,7");
    b.send("DONE");
    yxboard(
        &mut b,
        &[
            "3,7,1", "0,0,2", "4,7,1", "0,2,2", "5,7,1", "0,4,2", "6,7,1", "0,6,2",
        ],
    );
    let m = xy(&b.ask("YXBALANCEONE 30000"));
    assert!(![(2, 7), (7, 7)].contains(&m), "{m:?}");
    b.end();
}
