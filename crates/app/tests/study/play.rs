//! `gomoku play`.

use super::*;

const FAST: [&str; 6] = ["play", "--search", "greedy", "--time-ms", "50", "--depth"];

fn play(extra: &[&str], input: &str) -> String {
    let mut args: Vec<&str> = FAST.to_vec();
    args.push("1");
    args.extend_from_slice(extra);
    let o = gomoku_with_input(&args, input);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn moves_hint_result_undo_and_quit_from_piped_input() {
    let out = play(&[], "h8\nresult\nhint\nzz\nundo\nquit\n");
    assert!(out.contains("you are black"), "{out}");
    assert!(out.contains("your move> "), "{out}");
    // the board after h8 with the last move in brackets, then the engine's answer
    assert!(out.contains("[X]"), "{out}");
    assert!(out.contains("engine plays "), "{out}");
    // the engine's move with its figures: value, depth, time, nodes, table hits
    let figures = out
        .lines()
        .find_map(|l| l.strip_prefix("engine plays "))
        .expect("the engine's move");
    for word in ["(value ", ", depth ", " ms, ", " nodes, ", " table hits)"] {
        assert!(figures.contains(word), "{figures}");
    }
    assert!(out.contains("no result yet, black to move"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("'zz'"), "bad input named: {out}");
    assert!(out.trim_end().ends_with("bye"), "{out}");
    // after undo the board is empty again: the last board drawn has no stone
    let last_board = out
        .rsplit("    a b c d e f g h i j k l m n o")
        .nth(1)
        .expect("board");
    assert!(
        !last_board.contains('X') && !last_board.contains('O'),
        "{last_board}"
    );
}

#[test]
fn a_five_ends_the_game_and_end_of_input_says_bye() {
    // you (black) have a straight four: l8 wins
    let out = play(
        &["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"],
        "l8\nm8\n",
    );
    assert!(out.contains("game over: black wins with five: "), "{out}");
    assert!(
        out.contains("the game is over"),
        "moves after the end refused: {out}"
    );
    assert!(out.trim_end().ends_with("bye"), "{out}");
}

#[test]
fn review_judges_the_game_in_the_terminal() {
    // the game from a five: white's a1 a3 a5 a7 ignored black's row (l8 makes five)
    let out = play(
        &["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"],
        "l8\nreview\nquit\n",
    );
    let table = out
        .split("reviewing: 50 ms per position...")
        .nth(1)
        .expect("the review");
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 9, "{out}");
    assert!(
        rows[8].contains("l8") && rows[8].contains("win in 1"),
        "{out}"
    );
    assert!(
        table.contains("\nblack: ") && table.contains("\nwhite: "),
        "{out}"
    );
    assert!(
        rows.iter().any(|r| r.contains("white") && r.contains("??")),
        "one of White's moves let the four through: {out}"
    );
    // with no moves there is nothing to review
    let out = play(&[], "review\nquit\n");
    assert!(out.contains("no moves to review yet"), "{out}");
}

#[test]
fn a_line_that_is_not_text_is_refused_and_the_game_goes_on() {
    let mut args: Vec<&str> = FAST.to_vec();
    args.push("1");
    let o = gomoku_with_bytes(&args, b"h8\n\xff\xfe h9\nresult\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("that line is not text (UTF-8)"), "{out}");
    assert!(out.contains("no result yet, black to move"), "{out}");
    assert!(out.trim_end().ends_with("bye"), "{out}");
}

#[test]
fn the_engine_moves_first_when_you_are_white_and_occupied_points_are_refused() {
    let out = play(&["--color", "white"], "h8\nquit\n");
    assert!(out.contains("engine plays h8"), "{out}");
    assert!(out.contains("cannot play there"), "{out}");
}

#[test]
fn bad_flags_fail_clearly() {
    assert_fails_with(&gomoku(&["play", "--color", "green"]), "green");
    assert_fails_with(&gomoku(&["play", "h8", "q99"]), "q99");
    assert_fails_with(
        &gomoku(&["play", "--clock-ms", "10"]),
        "a clock of 10 ms a side is out of range",
    );
    assert_fails_with(
        &gomoku(&["play", "--clock-ms", "60000", "--increment-ms", "60001"]),
        "an increment of 60001 ms is out of range",
    );
    assert_fails_with(
        &gomoku(&["play", "--increment-ms", "500"]),
        "--increment-ms needs a game clock (--clock-ms)",
    );
}

/// The stones of the last board drawn: (black, white).
fn last_stones(out: &str) -> (usize, usize) {
    let board = out
        .rsplit("    a b c d e f g h i j k l m n o")
        .nth(1)
        .expect("a board");
    (board.matches('X').count(), board.matches('O').count())
}

#[test]
fn swap2_you_choose_white_after_the_engine_three_and_undo_stops_at_the_opening() {
    let out = play(
        &["--swap2", "--color", "white"],
        "hint\nwhite\na1\nundo\nundo\nquit\n",
    );
    assert!(
        out.contains("a swap2 opening: the engine puts down the first three stones"),
        "{out}"
    );
    let three = out
        .lines()
        .find_map(|l| l.strip_prefix("engine puts down "))
        .expect("the engine's three stones");
    assert_eq!(three.split(' ').count(), 3, "{out}");
    assert!(out.contains("swap2: black, white or more> "), "{out}");
    assert!(out.contains("no hints in the swap2 opening"), "{out}");
    assert!(
        out.contains("swap2: you took white: you play white"),
        "{out}"
    );
    // a1 and the engine's answer are taken back; the opening's stones stay
    assert!(out.contains("engine plays "), "{out}");
    assert_eq!(out.matches("nothing to undo").count(), 1, "{out}");
    assert_eq!(last_stones(&out), (2, 1), "{out}");
}

#[test]
fn swap2_you_put_down_two_more_and_the_engine_chooses() {
    let out = play(&["--swap2", "--color", "white"], "more\na1\na2\nquit\n");
    assert!(
        out.contains("swap2: you will put down two more stones"),
        "{out}"
    );
    assert!(out.contains("swap2: stone 4 (white)> "), "{out}");
    assert!(out.contains("swap2: stone 5 (black)> "), "{out}");
    // the engine takes Black (you play White's 6th stone) or stays White and plays it
    let took_black = out.contains("swap2: the engine took black: you play white");
    let took_white = out.contains("swap2: the engine took white: you play black");
    assert!(took_black != took_white, "{out}");
    assert!(out.contains("your move> "), "{out}");
    assert_eq!(
        last_stones(&out),
        if took_black { (3, 2) } else { (3, 3) },
        "{out}"
    );
}

#[test]
fn swap2_you_put_down_three_and_undo_takes_back_a_stone_of_the_stage() {
    let out = play(
        &["--swap2"],
        "undo\nh8\nundo\nh8\nh8\nblack\nh9\nj7\nquit\n",
    );
    assert!(
        out.contains("a swap2 opening: you put down the first three stones"),
        "{out}"
    );
    assert!(
        out.contains("nothing to undo in this stage of the opening"),
        "{out}"
    );
    assert!(out.contains("cannot put a stone there"), "h8 twice: {out}");
    assert!(
        out.contains("there is no choice to make now"),
        "black while stones go down: {out}"
    );
    assert!(
        out.contains("swap2: stone 3 (black)> "),
        "the stones went down in turn: {out}"
    );
    // the engine then takes a colour (and moves if it stays White) or adds two stones
    assert!(
        out.contains("swap2: the engine took ")
            || out.contains("swap2: the engine put down two more stones"),
        "{out}"
    );
    let (b, w) = last_stones(&out);
    assert!(b + w >= 3, "{out}");
    for bad in [
        vec!["play", "--swap2", "h8"],
        vec!["play", "--swap2", "--board", "x"],
    ] {
        assert_fails_with(&gomoku(&bad), "a swap2 opening starts from the empty board");
    }
}

/// Plays `gomoku play ARGS` with a renju opening rule, answering each prompt as it comes:
/// the free points nearest the centre for stones and offers (a refused point is followed
/// by the next), `keep` (or `swap` at the first swap step with `swap_once`), 3 offers
/// (after a refused 9), `ten` at Taraguchi-10's 5th, the first offer listed; a point off
/// the centre first, to see it refused; `quit` at the first move of the game. Returns
/// everything the program wrote.
fn renju_dialogue(extra: &[&str], swap_once: bool) -> String {
    use std::io::Read;
    let mut args: Vec<&str> = FAST.to_vec();
    args.push("1");
    args.extend_from_slice(extra);
    let mut child = spawn(&args);
    let mut input = child.stdin.take().expect("stdin");
    let mut output = child.stdout.take().expect("stdout");
    let mut out = String::new();
    let mut points = Vec::new();
    for ring in 0..8usize {
        for x in 0..15usize {
            for y in 0..15usize {
                if x.abs_diff(7).max(y.abs_diff(7)) == ring {
                    points.push(format!("{}{}", (b'a' + x as u8) as char, y + 1));
                }
            }
        }
    }
    let (mut next_point, mut swapped, mut declared, mut off_centre) = (0, false, false, false);
    let mut buf = [0u8; 4096];
    for _ in 0..400 {
        // up to the next prompt (the only output that does not end a line)
        while !out.ends_with("> ") {
            let n = output.read(&mut buf).expect("read");
            if n == 0 {
                break;
            }
            out.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        let Some(prompt) = out.lines().last().map(str::to_string) else {
            break;
        };
        if !prompt.ends_with("> ") {
            break; // the program ended
        }
        let answer = if prompt.contains("your move>") || prompt.contains("game over") {
            "quit".to_string()
        } else if prompt.contains("stone 1>") && !off_centre {
            off_centre = true;
            "a1".to_string()
        } else if prompt.contains("swap or keep>") {
            let swap = swap_once && !swapped;
            swapped |= swap;
            if swap { "swap" } else { "keep" }.to_string()
        } else if prompt.contains("offers (1 to 8)>") {
            let first = !declared;
            declared = true;
            if first { "9" } else { "3" }.to_string()
        } else if prompt.contains("5th stone or ten>") {
            "ten".to_string()
        } else if let Some(list) = prompt.split("choose one of ").nth(1) {
            list.split_whitespace()
                .next()
                .expect("an offer")
                .to_string()
        } else {
            next_point += 1;
            points[next_point - 1].clone()
        };
        writeln!(input, "{answer}").expect("write");
        out.push('\n');
        if answer == "quit" {
            break;
        }
    }
    drop(input);
    output.read_to_string(&mut out).expect("read the rest");
    assert!(child.wait().expect("ends").success(), "{out}");
    out
}

#[test]
fn renju_opening_rules_to_the_sixth_move_in_the_terminal() {
    for rule in ["soosorv8", "taraguchi10"] {
        for (color, swap_once) in [("black", false), ("white", true), ("black", true)] {
            let out = renju_dialogue(&["--opening", rule, "--color", color], swap_once);
            let title = if rule == "soosorv8" {
                "Soosõrv-8"
            } else {
                "Taraguchi-10"
            };
            assert!(
                out.contains(&format!("renju 15x15, a {title} opening")),
                "{out}"
            );
            if color == "black" {
                assert!(
                    out.contains(&format!(
                        "a1: under {title} the 1st stone goes on the centre"
                    )),
                    "{out}"
                );
            }
            assert!(out.contains("opening: "), "the opening's name: {out}");
            assert!(
                out.contains(&format!("{rule}: the opening is over: ")),
                "{rule} {color}: {out}"
            );
            assert!(out.contains("you play "), "{out}");
            assert!(
                out.contains("your move> ") || out.contains("engine plays "),
                "{out}"
            );
            // five stones when the game starts, the sixth White's
            let (b, w) = last_stones(&out);
            assert!(b == 3 && (w == 2 || w == 3), "{rule} {color}: {out}");
            if rule == "soosorv8" && out.contains("you declared") {
                assert!(
                    out.contains("Soosõrv-8: White declares 1 to 8 fifth-move offers, not 9"),
                    "{out}"
                );
            }
        }
    }
    assert_fails_with(
        &gomoku(&["play", "--opening", "soosorv8", "h8"]),
        "a Soosõrv-8 opening starts from the empty board",
    );
    assert_fails_with(
        &gomoku(&["play", "--opening", "taraguchi10", "--size", "7"]),
        "at least 9x9",
    );
    assert_fails_with(&gomoku(&["play", "--opening", "yamaguchi"]), "soosorv8");
}

#[test]
fn save_writes_a_line_or_a_psq_record_and_the_line_resumes_the_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let line = dir.path().join("game.txt");
    let psq = dir.path().join("game.PSQ");
    let input = format!(
        "h8\nsave {}\nsave {}\nsave\nsave {}\nquit\n",
        line.display(),
        psq.display(),
        dir.path().join("no/such/dir.txt").display()
    );
    let out = play(&["--rule", "renju"], &input);
    assert_eq!(out.matches("saved to ").count(), 2, "{out}");
    assert!(out.contains("save needs a file name"), "{out}");
    assert!(out.contains("cannot save to "), "{out}");
    let text = std::fs::read_to_string(&line).expect("the line");
    let answer = out
        .lines()
        .find_map(|l| l.strip_prefix("engine plays "))
        .and_then(|l| l.split(' ').next())
        .expect("the engine's answer");
    assert_eq!(
        text,
        format!("15 renju h8 {answer} | black=person white=engine\n")
    );
    let record = std::fs::read_to_string(&psq).expect("the record");
    assert!(
        record.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n"),
        "{record}"
    );
    assert!(record.contains("\nperson\nengine\n"), "{record}");
    // the line is a board to start from: the same game, with its rule
    let path = line.to_str().expect("utf-8 path");
    let v = json(&gomoku(&["position", "--json", "--board", path]));
    assert_eq!(v["line"], format!("15 renju h8 {answer}"));
    // and so is the .psq record, under the rule given
    let v = json(&gomoku(&[
        "position",
        "--json",
        "--rule",
        "renju",
        "--board",
        psq.to_str().expect("utf-8 path"),
    ]));
    assert_eq!(v["line"], format!("15 renju h8 {answer}"));
    assert_eq!(v["setup_plies"], 0, "a record is a game");
    let out = play(&["--board", path], "result\nquit\n");
    assert!(
        out.contains("gomoku play: renju 15x15, you are black"),
        "{out}"
    );
    assert!(out.contains("no result yet, black to move"), "{out}");
}

/// The clock lines (`clock: black 0:59.9  white 1:00.0`) as (black, white) pairs.
fn clock_lines(out: &str) -> Vec<(String, String)> {
    out.lines()
        .filter_map(|l| l.strip_prefix("clock: black "))
        .map(|rest| {
            let (b, w) = rest.split_once("  white ").expect("both sides");
            (b.to_string(), w.to_string())
        })
        .collect()
}

#[test]
fn the_clock_takes_each_move_its_time_and_gives_the_increment() {
    let out = play(
        &["--clock-ms", "60000", "--increment-ms", "5000"],
        "h8\nresult\nquit\n",
    );
    assert!(
        out.contains("a clock of 1:00.0 a side + 0:05.0 a move"),
        "{out}"
    );
    let lines = clock_lines(&out);
    let ms = |t: &str| -> u64 {
        let (m, s) = t.split_once(':').expect("m:ss.t");
        let (s, tenths) = s.split_once('.').expect("tenths");
        let num = |x: &str| x.parse::<u64>().expect("a number");
        num(m) * 60_000 + num(s) * 1000 + num(tenths) * 100
    };
    // Black's clock runs from the start (a loaded machine may take a moment to show it),
    // White's waits
    let (b, w) = &lines[0];
    assert!((59_000..=60_000).contains(&ms(b)), "{b}: {out}");
    assert_eq!(w, "1:00.0", "{out}");
    // after h8 and the engine's answer: each side took a moment (under 5 s) and got 5 s
    let (b, w) = &lines[1];
    for t in [b, w] {
        assert!((60_100..=65_000).contains(&ms(t)), "{t}: {out}");
    }
    assert!(out.contains("no result yet, black to move"), "{out}");
    assert_eq!(lines.len(), 3, "the result shows the clock too: {out}");
}

#[test]
fn a_move_after_the_time_ran_out_loses_on_time() {
    let mut child = spawn(&[
        "play",
        "--search",
        "greedy",
        "--depth",
        "1",
        "--clock-ms",
        "1000",
    ]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"h8\n").expect("write");
    stdin.flush().expect("flush");
    // two seconds to think over the next move: more than the clock had left
    std::thread::sleep(std::time::Duration::from_millis(2000));
    stdin
        .write_all(b"i9\nundo\nresult\nnew\nquit\n")
        .expect("write");
    drop(stdin);
    let o = child.wait_with_output().expect("binary ends");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lost = "white wins on time: black's time ran out";
    assert!(out.contains(&format!("game over: {lost}")), "{out}");
    assert!(
        out.contains("the game was lost on time: it cannot be taken back"),
        "{out}"
    );
    assert_eq!(
        out.matches(lost).count(),
        2,
        "and the result says so: {out}"
    );
    let lines = clock_lines(&out);
    assert_eq!(lines[lines.len() - 2].0, "0:00.0", "{out}");
    // a new game starts with the whole clock again
    assert_eq!(
        lines.last(),
        Some(&("0:01.0".to_string(), "0:01.0".to_string())),
        "{out}"
    );
    // i9 was not played: the last board before the new game holds h8 and the answer only
    let before_new = out.split("new game").next().expect("text");
    let last_board = before_new
        .rsplit("    a b c d e f g h i j k l m n o")
        .nth(1)
        .expect("a board");
    assert_eq!(last_board.matches('X').count(), 1, "{last_board}");
}
