//! A search as it runs: progress lines, `STOP`, `YXSTOP`, `INFO` and `END` during it, and the
//! time, depth and node limits obeyed.

use super::*;

fn long_search() -> Brain {
    let mut b = started(&["INFO timeout_turn 600000", "INFO timeout_match 0"], 15);
    b.send("TURN 7,7");
    b
}

/// Waits for a progress line of the running search.
fn progress(b: &mut Brain) -> String {
    loop {
        let l = b.raw(PATIENCE).expect("progress while thinking");
        if l.starts_with("MESSAGE depth") {
            return l;
        }
        assert!(l.starts_with("MESSAGE"), "no answer expected yet: {l}");
    }
}

#[test]
fn progress_lines_then_stop_and_yxstop_answer_at_once() {
    for stop in ["STOP", "YXSTOP"] {
        let mut b = long_search();
        let line = progress(&mut b);
        for word in ["depth", "eval", "nodes", "speed", "pv"] {
            assert!(line.contains(word), "{line}");
        }
        let (a, took) = b.ask_timed(stop);
        let a = xy(&a);
        assert!(a != (7, 7) && a.0 < 15 && a.1 < 15);
        assert!(took < Duration::from_secs(5), "{stop} took {took:?}");
        b.end();
    }
}

#[test]
fn info_during_a_search_is_obeyed() {
    let mut b = long_search();
    progress(&mut b);
    let (a, took) = b.ask_timed("INFO timeout_turn 200");
    assert!(xy(&a) != (7, 7));
    assert!(took < Duration::from_secs(5), "took {took:?}");
    b.end();
}

#[test]
fn end_during_a_search_quits_without_a_move() {
    let mut b = long_search();
    progress(&mut b);
    b.send("END");
    assert!(b.wait_exit().success());
    while let Some(l) = b.raw(Duration::from_millis(100)) {
        assert!(l.starts_with("MESSAGE"), "no move after END: {l}");
    }
}

#[test]
fn time_limits_are_obeyed() {
    // generous bounds: the point is that the limits are used at all, on a busy machine
    let mut b = started(
        &[
            "INFO timeout_turn 300",
            "INFO timeout_match 600000",
            "INFO thread_num 2",
            "INFO max_memory 0",
        ],
        15,
    );
    let (a, took) = b.ask_timed("TURN 7,7");
    assert!(xy(&a) != (7, 7));
    assert!(
        took < Duration::from_millis(300 + 1_500),
        "turn limit: {took:?}"
    );
    // little match time left: a quick answer even with a long turn limit
    b.send("INFO timeout_turn 60000");
    b.send("INFO time_left 400");
    let (a, took) = b.ask_timed("TURN 0,14");
    assert!(xy(&a) != (0, 14));
    assert!(
        took < Duration::from_millis(400 + 1_500),
        "time_left: {took:?}"
    );
    // "as fast as possible"
    b.send("INFO time_left 2147483647");
    b.send("INFO timeout_turn 0");
    let (a, took) = b.ask_timed("TURN 14,0");
    assert!(xy(&a) != (14, 0));
    assert!(
        took < Duration::from_millis(1_500),
        "timeout_turn 0: {took:?}"
    );
    b.end();
}

#[test]
fn yixin_depth_and_node_limits() {
    let mut b = started(&["INFO timeout_turn 600000", "INFO max_depth 2"], 15);
    b.messages.clear();
    let (a, took) = b.ask_timed("TURN 7,7");
    assert!(xy(&a) != (7, 7));
    assert!(took < Duration::from_secs(5), "{took:?}");
    let last = b
        .messages
        .iter()
        .rev()
        .find(|m| m.starts_with("MESSAGE depth"));
    let last = last.expect("a summary line");
    assert!(
        last.starts_with("MESSAGE depth 1-") || last.starts_with("MESSAGE depth 2-"),
        "{last}"
    );
    b.send("INFO max_depth 0");
    b.send("INFO max_node 2000");
    let (a, took) = b.ask_timed("TURN 0,0");
    assert!(xy(&a) != (0, 0));
    assert!(took < Duration::from_secs(5), "{took:?}");
    b.end();
}

#[test]
fn the_first_move_after_start_is_in_time_with_a_big_table() {
    // 256 MB allowed: a 128 MB table, allocated at START, not on the first move
    let mut b = Brain::start();
    b.send_all(&["INFO max_memory 268435456", "INFO timeout_turn 200"]);
    assert_eq!(b.ask("START 15"), "OK");
    let (a, took) = b.ask_timed("TURN 7,7");
    assert!(xy(&a) != (7, 7));
    assert!(took < Duration::from_millis(200 + 1_500), "{took:?}");
    b.end();
}
