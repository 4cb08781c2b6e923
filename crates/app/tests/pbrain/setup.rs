//! `ABOUT`, `START`, `RECTSTART`, `RESTART`, line endings, arguments, the environment's search
//! parameters, and leaving with `END` or the end of the input.

use super::*;

#[test]
fn about_start_rectstart_restart() {
    let mut b = Brain::start();
    let about = b.ask("ABOUT");
    for key in ["name=\"gomoku\"", "version=\"", "author=\"", "country=\""] {
        assert!(about.contains(key), "{about}");
    }
    assert!(
        b.ask("RESTART").starts_with("ERROR"),
        "RESTART before START"
    );
    assert!(b.ask("START 4").starts_with("ERROR"));
    assert!(b.ask("START 23").starts_with("ERROR"));
    assert!(b.ask("START twenty").starts_with("ERROR"));
    assert_eq!(b.ask("START 20"), "OK");
    assert_eq!(b.ask("START 5"), "OK");
    assert!(b.ask("RECTSTART 20,15").starts_with("ERROR"));
    assert!(b.ask("RECTSTART 30,30").starts_with("ERROR"));
    assert_eq!(b.ask("RECTSTART 15,15"), "OK");
    assert_eq!(b.ask("BEGIN"), "7,7");
    assert_eq!(b.ask("RESTART"), "OK");
    // the board is empty again: BEGIN plays the centre once more
    assert_eq!(b.ask("BEGIN"), "7,7");
    b.end();
}

#[test]
fn lower_case_line_endings_and_the_subcommand() {
    let mut b = Brain::start_subcommand();
    // Yixin-Board writes commands in lower case; lines may end in LF only, or CR LF
    b.send_raw("start 15\n");
    assert_eq!(b.answer(), "OK");
    b.send_raw("info timeout_turn 100\r\n\r\nbegin\n");
    assert_eq!(b.answer(), "7,7");
    assert_eq!(b.ask("yxshowforbid"), "FORBID .");
    b.end();
}

#[test]
fn yixin_boards_engine_argument_is_accepted() {
    // Yixin-Board runs its engine as `engine.exe --force-utf8`
    let mut b = Brain::start_with(&["--force-utf8"]);
    assert_eq!(b.ask("START 15"), "OK");
    b.end();
}

#[test]
fn search_parameters_from_the_environment() {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pbrain-gomoku"));
    c.env("GOMOKU_SEARCH_SET", "lmr_scale_pct=80,move_count_base=5");
    let mut b = Brain::spawn(c);
    assert_eq!(b.ask("START 15"), "OK");
    assert_eq!(
        b.messages,
        ["MESSAGE search parameters: lmr_scale_pct=80 move_count_base=5"]
    );
    b.send("INFO timeout_turn 100");
    let (x, y) = xy(&b.ask("TURN 7,7"));
    assert!(x < 15 && y < 15 && (x, y) != (7, 7));
    b.end();

    // a bad list stops the brain with the reason, before it reads a line
    for (bin, list) in [
        (env!("CARGO_BIN_EXE_pbrain-gomoku"), "lmr_scale_pct=lots"),
        (env!("CARGO_BIN_EXE_pbrain-gomoku"), "no_such_parameter=1"),
        (env!("CARGO_BIN_EXE_gomoku"), "lmr_scale_pct"),
    ] {
        let mut c = Command::new(bin);
        if bin == env!("CARGO_BIN_EXE_gomoku") {
            c.arg("pbrain");
        }
        let o = c
            .env("GOMOKU_SEARCH_SET", list)
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert!(!o.status.success(), "{list}");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(text.contains("GOMOKU_SEARCH_SET"), "{list}: {text}");
    }
}

#[test]
fn end_and_end_of_input_exit_cleanly() {
    let mut b = started(&[], 15);
    b.send("END");
    assert!(b.wait_exit().success());
    assert!(b.silent_for(100), "nothing is written after END");

    let mut b = started(&[], 15);
    b.close_input();
    assert!(b.wait_exit().success());
}
