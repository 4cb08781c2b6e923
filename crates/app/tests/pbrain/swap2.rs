//! Gomocup's swap2 opening (`SWAP2BOARD`), as a manager runs it.

use super::*;

/// Sends `SWAP2BOARD` with `stones`; returns the answer and how long it took.
fn ask_swap2(b: &mut Brain, stones: &[(usize, usize)]) -> (String, Duration) {
    b.send("SWAP2BOARD");
    for (x, y) in stones {
        b.send(&format!("{x},{y}"));
    }
    b.ask_timed("DONE")
}

/// The points of an answer that is not `SWAP`.
fn points(answer: &str) -> Vec<(usize, usize)> {
    answer.split(' ').map(xy).collect()
}

#[test]
fn a_whole_swap2_opening_then_the_game() {
    let mut b = started(&["INFO timeout_turn 400", "INFO rule 1"], 15);
    // the first player's three stones
    let (a, took) = ask_swap2(&mut b, &[]);
    let mut stones = points(&a);
    assert_eq!(stones.len(), 3, "{a}");
    assert!(took < Duration::from_millis(400 + 1_500), "{took:?}");
    // the second player's choice
    let (a, took) = ask_swap2(&mut b, &stones);
    assert!(took < Duration::from_millis(400 + 1_500), "{took:?}");
    if a != "SWAP" {
        let more = points(&a);
        assert!((1..=2).contains(&more.len()), "{a}");
        stones.extend(more);
    }
    if stones.len() == 5 {
        // the first player's choice
        let (a, took) = ask_swap2(&mut b, &stones);
        assert!(took < Duration::from_millis(400 + 1_500), "{took:?}");
        if a != "SWAP" {
            let sixth = points(&a);
            assert_eq!(sixth.len(), 1, "{a}");
            stones.extend(sixth);
        }
    }
    let mut seen = stones.clone();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(
        seen.len(),
        stones.len(),
        "every stone on its own point: {stones:?}"
    );
    assert!(stones.iter().all(|&(x, y)| x < 15 && y < 15), "{stones:?}");
    // then the game goes on from the position, as BOARD sends it
    let to_move = stones.len() % 2;
    let fields: Vec<(usize, usize, u8)> = stones
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| (x, y, if i % 2 == to_move { 1 } else { 2 }))
        .collect();
    let m = xy(&board(&mut b, &fields));
    assert!(!stones.contains(&m), "{m:?} is taken: {stones:?}");
    b.end();
}

#[test]
fn bad_swap2_input_is_refused_and_the_brain_goes_on() {
    let mut b = started(&["INFO timeout_turn 200"], 15);
    for (lines, needle) in [
        (&["7,7", "8,8"][..], "2 stones"),
        (&["7,7", "7,7", "9,9"][..], "occupied"),
        (&["7,7,1", "8,8", "9,9"][..], "7,7,1"),
    ] {
        b.send("SWAP2BOARD");
        b.send_all(lines);
        let a = b.ask("DONE");
        assert!(
            a.starts_with("ERROR SWAP2BOARD:") && a.contains(needle),
            "{lines:?}: {a}"
        );
    }
    assert_eq!(xy(&b.ask("BEGIN")), (7, 7));
    b.end();
}
