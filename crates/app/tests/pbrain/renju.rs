//! Renju: no forbidden point answered, `SHOWFORBID`, an opponent's foul, and the rule flags.

use super::*;

/// Black on 2,3,4 and 6,7 of row 7: 5,7 would be six in a row, forbidden for Black.
const OVERLINE: [(usize, usize); 5] = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)];

#[test]
fn the_engine_never_answers_a_forbidden_point() {
    let mut b = started(&["INFO timeout_turn 300", "INFO rule 4"], 15);
    // White (opponent) has a four down column 5 whose only free end is 5,7: Black cannot
    // block it there, it is an overline point; any other legal point will do
    let mut fields: Vec<(usize, usize, u8)> = OVERLINE.iter().map(|&(x, y)| (x, y, 1)).collect();
    fields.push((5, 2, 1));
    for (x, y) in [(5, 3), (5, 4), (5, 5), (5, 6), (12, 12), (12, 0)] {
        fields.push((x, y, 2));
    }
    let a = xy(&board(&mut b, &fields));
    assert_ne!(a, (5, 7), "5,7 is forbidden for Black");
    assert!(!fields.iter().any(|&(x, y, _)| (x, y) == a));
    b.end();
}

#[test]
fn showforbid_and_an_opponent_foul_taken_as_given() {
    let mut b = started(&["INFO timeout_turn 300", "INFO rule 4"], 15);
    // we are White; Black has the overline shape and a four down column 10 that we must
    // block at 10,4
    let mut fields: Vec<(usize, usize, u8)> = OVERLINE.iter().map(|&(x, y)| (x, y, 2)).collect();
    for y in 0..4 {
        fields.push((10, y, 2));
    }
    for (x, y) in [
        (0, 3),
        (0, 5),
        (0, 9),
        (0, 11),
        (0, 13),
        (14, 3),
        (14, 5),
        (14, 9),
    ] {
        fields.push((x, y, 1));
    }
    assert_eq!(board(&mut b, &fields), "10,4");
    // Black to move now: 5,7 is forbidden
    let forbid = b.ask("YXSHOWFORBID");
    assert!(
        forbid.starts_with("FORBID ") && forbid.ends_with('.'),
        "{forbid}"
    );
    assert!(forbid.contains("0507"), "{forbid}");
    // the manager judges the opponent: a stone on a forbidden point is taken as given
    let a = b.ask("TURN 5,7");
    assert!(!a.starts_with("ERROR"), "{a}");
    let a = xy(&a);
    assert!(!fields.iter().any(|&(x, y, _)| (x, y) == a) && a != (5, 7) && a != (10, 4));
    // White to move: no forbidden points to show
    b.send("YXBOARD");
    for (x, y, f) in &fields {
        b.send(&format!("{x},{y},{f}"));
    }
    b.send("DONE");
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .");
    // the same stones with Black to move (our 10,4 added): 5,7 is forbidden again
    b.send("YXBOARD");
    for (x, y, f) in &fields {
        b.send(&format!("{x},{y},{}", 3 - f));
    }
    b.send("10,4,2");
    b.send("DONE");
    let forbid = b.ask("YXSHOWFORBID");
    assert!(forbid.contains("0507") && forbid.ends_with('.'), "{forbid}");
    b.end();
}

#[test]
fn the_rule_flags_decide_what_is_forbidden() {
    // exactly-five and freestyle have no forbidden points; 4 and Yixin-Board's 2 are renju
    for (rule, forbidden) in [
        ("0", false),
        ("1", false),
        ("4", true),
        ("5", true),
        ("2", true),
    ] {
        let mut b = started(&[&format!("INFO rule {rule}")], 15);
        b.send("YXBOARD");
        for (i, (x, y)) in OVERLINE.iter().enumerate() {
            b.send(&format!("{x},{y},1"));
            b.send(&format!("0,{},2", 1 + 2 * i));
        }
        b.send("DONE");
        let line = b.ask("YXSHOWFORBID");
        assert_eq!(line == "FORBID 0507.", forbidden, "rule {rule}: {line}");
        b.end();
    }
}
