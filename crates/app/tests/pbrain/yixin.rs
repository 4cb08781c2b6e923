//! Yixin-Board's `YXSHOWINFO`, `YXHASHCLEAR` and `YXNBEST`.

use super::*;

#[test]
fn showinfo_hashclear_and_nbest() {
    let mut b = started(&["INFO timeout_turn 300", "INFO hash_size 4096"], 15);
    b.send("YXSHOWINFO");
    let threads = b.raw(PATIENCE).expect("a line");
    let n: usize = threads
        .strip_prefix("MESSAGE INFO MAX_THREAD_NUM ")
        .unwrap_or_else(|| panic!("{threads}"))
        .parse()
        .expect("a number");
    assert!(n >= 1);
    assert_eq!(
        b.raw(PATIENCE).as_deref(),
        Some("MESSAGE INFO MAX_HASH_SIZE 22")
    );
    b.send("YXHASHCLEAR");
    assert_eq!(
        b.raw(PATIENCE).as_deref(),
        Some("MESSAGE hash table cleared")
    );

    b.send("YXBOARD");
    for l in ["7,7,2", "8,8,1", "8,7,2"] {
        b.send(l);
    }
    b.send("DONE");
    b.messages.clear();
    let best = xy(&b.ask("YXNBEST 3"));
    let ranked: Vec<&String> = b
        .messages
        .iter()
        .filter(|m| m.starts_with("MESSAGE ("))
        .collect();
    for i in 1..=3 {
        assert!(
            ranked
                .iter()
                .any(|m| m.starts_with(&format!("MESSAGE ({i}) eval "))),
            "{:?}",
            b.messages
        );
    }
    // the answer is the first of the list, and it was played
    let first = ranked
        .iter()
        .rev()
        .find(|m| m.starts_with("MESSAGE (1)"))
        .expect("a first line");
    let pv_head = first
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split_whitespace().next())
        .expect("a pv");
    assert_eq!(xy(pv_head), best, "{first}");
    assert!(b
        .ask(&format!("TURN {},{}", best.0, best.1))
        .contains("occupied"));
    b.end();
}
