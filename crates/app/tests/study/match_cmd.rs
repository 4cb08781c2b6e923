//! `gomoku match`.

use super::*;

fn run_json(p2: &str, extra: &[&str]) -> serde_json::Value {
    let (_dir, file) = openings_file("basic.txt", OPENINGS);
    let mut args = vec![
        "match",
        "--json",
        "--no-progress",
        "--p1",
        "search=greedy",
        "--p2",
        p2,
        "--openings",
        file.to_str().expect("utf-8 path"),
        "--time-ms",
        "100",
        "--margin-ms",
        "300",
    ];
    args.extend_from_slice(extra);
    json(&gomoku(&args))
}

#[test]
fn plays_both_colours_against_a_legal_pbrain_engine_and_saves_games() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("psq");
    let lines = dir.join("games.txt");
    let v = run_json(
        &fake_engine("legal"),
        &[
            "--psq-dir",
            dir.to_str().expect("utf-8"),
            "--positions",
            lines.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(v["games"], 2, "one 15x15 freestyle opening, both colours");
    assert_eq!(v["wins"], 2, "greedy beats a first-empty-point player: {v}");
    assert_eq!(v["forfeits"].as_array().expect("list").len(), 0);
    let recs = v["records"].as_array().expect("records");
    assert_eq!(recs[0]["black"], "greedy/pattern");
    assert_eq!(recs[1]["white"], "greedy/pattern");
    for r in recs {
        assert_eq!(r["reason"], "five");
        assert!(r["position"]
            .as_str()
            .expect("text")
            .starts_with("h8 h9 i10"));
    }
    let psq = std::fs::read_to_string(dir.join("game-001.psq")).expect("psq saved");
    assert!(psq.starts_with("Piskvorky 15x15"), "{psq}");
    assert!(psq.contains("\n8,8,0\n"), "h8 is 8,8 1-based: {psq}");
    let saved = std::fs::read_to_string(&lines).expect("positions saved");
    assert_eq!(saved.lines().count(), 2);
    assert!(saved
        .lines()
        .all(|l| l.starts_with("15 freestyle h8 h9 i10 ")
            && l.contains("result=")
            && l.contains("reason=five")));
}

#[test]
fn a_match_cut_short_keeps_the_games_it_finished() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (_odir, openings) = openings_file("basic.txt", OPENINGS);
    let dir = tmp.path().join("psq");
    let lines = tmp.path().join("games.txt");
    let mut child = spawn(&[
        "match",
        "--no-progress",
        "--p1",
        "pvs depth=2",
        "--p2",
        "pvs depth=3",
        "--openings",
        openings.to_str().expect("utf-8"),
        "--games",
        "1000",
        "--psq-dir",
        dir.to_str().expect("utf-8"),
        "--positions",
        lines.to_str().expect("utf-8"),
    ]);
    let out = child.stdout.take().expect("stdout");
    let mut reader = std::io::BufReader::new(out);
    let mut line = String::new();
    // the header, then the first game's line: that game is saved by now
    while std::io::BufRead::read_line(&mut reader, &mut line).expect("reads") > 0
        && !line.starts_with("game ")
    {
        line.clear();
    }
    child.kill().expect("kill");
    child.wait().expect("ends");
    assert!(line.starts_with("game "), "no game ended: {line}");
    let saved = std::fs::read_to_string(&lines).expect("positions saved");
    assert!(saved.lines().count() >= 1, "{saved}");
    assert!(saved.lines().all(|l| l.contains("result=")), "{saved}");
    let psq = std::fs::read_dir(&dir).expect("psq dir").count();
    assert!(psq >= 1, "no .psq saved");
}

#[test]
fn swap2_games_over_the_protocol_and_against_an_engine_without_it() {
    let swap2 = |p2: &str| {
        json(&gomoku(&[
            "match",
            "--json",
            "--no-progress",
            "--swap2",
            "--rule",
            "standard",
            "--p1",
            "pvs depth=3",
            "--p2",
            p2,
            "--time-ms",
            "100",
            "--margin-ms",
            "500",
        ]))
    };
    // our own brain: the whole swap2 exchange through SWAP2BOARD
    let v = swap2(&format!("cmd:{}", env!("CARGO_BIN_EXE_pbrain-gomoku")));
    assert_eq!(v["games"], 2, "{v}");
    assert_eq!(v["forfeits"].as_array().expect("list").len(), 0, "{v}");
    for r in v["records"].as_array().expect("records") {
        assert_eq!(r["opening"], "swap2", "{r}");
        let moves = r["position"].as_str().expect("text").split(' ').count();
        assert!(moves >= 9, "at least the opening and a five: {r}");
    }
    // a first-empty-point engine answers one point: enough to stay White after three
    // stones, not the three stones it owes when it opens (the second game)
    let v = swap2(&fake_engine("legal"));
    assert_eq!(v["wins"], 2, "{v}");
    let f = v["forfeits"].as_array().expect("list");
    assert_eq!(f.len(), 1, "{v}");
    assert!(
        f[0].as_str().expect("text").contains("swap2: 1 stone"),
        "{f:?}"
    );
    // and swap2 opens from the empty board only
    let (_dir, file) = openings_file("o.txt", OPENINGS);
    assert_fails_with(
        &gomoku(&[
            "match",
            "--swap2",
            "--p1",
            "pvs",
            "--p2",
            "greedy",
            "--openings",
            file.to_str().expect("utf-8"),
        ]),
        "--swap2 opens every game from the empty board",
    );
}

#[test]
fn misbehaving_engines_lose_with_the_reason() {
    for (mode, reason) in [
        ("illegal", "illegal move"),
        ("timeout", "time forfeit"),
        ("crash", "crash"),
        ("garbage", "protocol error"),
        ("flood", "protocol error"),
    ] {
        let started = std::time::Instant::now();
        let v = run_json(&fake_engine(mode), &[]);
        assert!(started.elapsed().as_secs() < 20, "{mode} must not hang");
        assert_eq!(v["wins"], 2, "{mode}: {v}");
        let f = v["forfeits"].as_array().expect("list");
        assert_eq!(f.len(), 2, "{mode}: {v}");
        assert!(
            f.iter().all(|x| x.as_str().expect("text").contains(reason)),
            "{mode}: {f:?}"
        );
        // an engine's answer is quoted cut short, never in full
        assert!(
            f.iter().all(|x| x.as_str().expect("text").len() < 400),
            "{mode}: a forfeit reason of {} bytes",
            f[0].as_str().map_or(0, str::len)
        );
    }
}

#[test]
fn renju_opening_rules_open_every_game_and_the_result_is_reported() {
    for rule in ["soosorv8", "taraguchi10"] {
        let o = gomoku(&[
            "match",
            "--json",
            "--no-progress",
            "--p1",
            "pvs nodes=1500",
            "--p2",
            "pvs nodes=1000 name=small",
            "--opening",
            rule,
            "--games",
            "2",
        ]);
        let v = json(&o);
        assert_eq!(v["rule"], "renju", "the rule a renju opening implies: {v}");
        assert_eq!(v["games"], 2, "{v}");
        let (w, l, d) = (&v["wins"], &v["losses"], &v["draws"]);
        assert_eq!(
            w.as_u64().unwrap() + l.as_u64().unwrap() + d.as_u64().unwrap(),
            2
        );
        for r in v["records"].as_array().expect("records") {
            let opening = r["opening"].as_str().expect("label");
            assert!(opening.starts_with(&format!("{rule}:")), "{r}");
            // the games go on from the rule's sixth move
            let moves = r["position"].as_str().expect("moves").split(' ').count();
            assert!(moves > 5, "{r}");
            assert!(
                ["five", "board full"].contains(&r["reason"].as_str().unwrap()),
                "{r}"
            );
        }
    }
    // the text report names the opening rule and gives the result
    let o = gomoku(&[
        "match",
        "--no-progress",
        "--p1",
        "pvs nodes=800",
        "--p2",
        "greedy",
        "--opening",
        "soosorv8",
        "--games",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("opened with Soosõrv-8"), "{out}");
    assert!(out.contains("[soosorv8:"), "{out}");
    assert!(out.contains("\nresult: "), "{out}");
    // pbrain engines have no commands for it; an openings file does not go with it
    assert_fails_with(
        &gomoku(&[
            "match",
            "--p1",
            "pvs",
            "--p2",
            &fake_engine("legal"),
            "--opening",
            "soosorv8",
        ]),
        "pbrain engines cannot play it",
    );
    let (_dir, file) = openings_file("x.txt", OPENINGS);
    assert_fails_with(
        &gomoku(&[
            "match",
            "--p1",
            "pvs",
            "--p2",
            "greedy",
            "--opening",
            "taraguchi10",
            "--openings",
            file.to_str().expect("utf-8"),
        ]),
        "does not take --openings",
    );
}

#[test]
fn internal_players_text_summary_with_elo_and_sprt() {
    let (_dir, file) = openings_file("text.txt", OPENINGS);
    let o = gomoku(&[
        "match",
        "--no-progress",
        "--size",
        "9",
        "--p1",
        "search=alphabeta,depth=2",
        "--p2",
        "greedy eval=tuple",
        "--openings",
        file.to_str().expect("utf-8"),
        "--sprt",
        "0,50",
        "--concurrency",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "match: alphabeta/pattern (depth 2) vs greedy/tuple (500 ms), freestyle 9x9, 2 games",
        "game   1 [test#1] alphabeta/pattern (black) vs greedy/tuple (white)",
        "game   2 [test#1] greedy/tuple (black) vs alphabeta/pattern (white)",
        "result: alphabeta/pattern ",
        "score: ",
        "elo: ",
        "95% interval",
        "time per move: alphabeta/pattern ",
        "sprt: elo0 0 elo1 50 alpha 0.05 beta 0.05: llr ",
    ] {
        assert!(out.contains(needle), "missing '{needle}' in:\n{out}");
    }
}

#[test]
fn bad_input_fails_clearly() {
    let (_dir, file) = openings_file("ok.txt", OPENINGS);
    let f = file.to_str().expect("utf-8");
    assert_fails_with(&gomoku(&["match", "--p1", "pvs"]), "--p2");
    assert_fails_with(
        &gomoku(&[
            "match",
            "--p1",
            "pvs",
            "--p2",
            "greedy",
            "--openings",
            "/nonexistent/o.txt",
        ]),
        "reading the openings file /nonexistent/o.txt",
    );
    let (_bad_dir, bad) = openings_file("bad.txt", "15 freestyle h8 zz9\n");
    assert_fails_with(
        &gomoku(&[
            "match",
            "--p1",
            "pvs",
            "--p2",
            "greedy",
            "--openings",
            bad.to_str().expect("utf-8"),
        ]),
        "line 1",
    );
    assert_fails_with(
        &gomoku(&[
            "match",
            "--p1",
            "pvs",
            "--p2",
            "greedy",
            "--size",
            "19",
            "--openings",
            f,
        ]),
        "no opening for freestyle 19x19",
    );
    assert_fails_with(
        &gomoku(&["match", "--p1", "colour=red", "--p2", "greedy"]),
        "unknown key 'colour'",
    );
    assert_fails_with(
        &gomoku(&["match", "--p1", "pvs", "--p2", "greedy", "--sprt", "5"]),
        "ELO0,ELO1",
    );
    assert_fails_with(
        &gomoku(&[
            "match",
            "--p1",
            "pvs",
            "--p2",
            "greedy",
            "--concurrency",
            "0",
        ]),
        "--concurrency",
    );
    assert_fails_with(
        &gomoku(&["match", "--p1", "pvs", "--p2", "greedy", "--bogus"]),
        "--bogus",
    );
}
