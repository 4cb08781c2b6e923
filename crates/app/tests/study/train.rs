//! `gomoku selfplay` and `gomoku train`: the evaluation's training pipeline end to end.

use super::*;

fn sample() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games-sample.txt").to_string()
}

/// A small corpus: `games` self-play games of `rule` at a tiny node budget.
fn corpus(dir: &std::path::Path, rule: &str, games: &str) -> String {
    let out = dir.join(format!("{rule}.txt"));
    let path = out.to_str().expect("utf-8").to_string();
    let o = gomoku(&[
        "selfplay",
        "--rule",
        rule,
        "--games",
        games,
        "--nodes",
        "1500",
        "--seed",
        "3",
        "--out",
        &path,
        "--no-progress",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

#[test]
fn selfplay_writes_games_with_results_and_values_and_is_repeatable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = corpus(dir.path(), "renju", "3");
    let text = std::fs::read_to_string(&a).expect("corpus");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for line in &lines {
        assert!(line.starts_with("15 renju "), "{line}");
        let keys = line.split('|').nth(1).expect("keys");
        assert!(keys.contains(" result="), "{line}");
        let opening: usize = keys
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix("opening_plies="))
            .expect("opening_plies=")
            .parse()
            .expect("number");
        // 3 to 7 stones near the centre, after up to 10 scattered along the edges
        assert!((3..=17).contains(&opening), "{line}");
        let values = keys
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix("values="))
            .expect("values=");
        let moves = line
            .split('|')
            .next()
            .expect("moves")
            .split_whitespace()
            .count()
            - 2;
        assert_eq!(values.split(',').count(), moves - opening, "{line}");
    }
    // the same seed and game numbers play the same games
    let again = tempfile::tempdir().expect("temp dir");
    let b = corpus(again.path(), "renju", "3");
    assert_eq!(std::fs::read_to_string(b).expect("corpus"), text);
}

/// The games against Rapfi that the committed model trains on: every line is a game
/// `gomoku train` reads, under the rule of its file.
#[test]
fn every_game_against_the_anchor_reads_as_a_corpus_game() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/weights/anchor-games"
    );
    for rule in ["freestyle", "standard", "renju"] {
        let path = format!("{dir}/{rule}.txt");
        let text = std::fs::read_to_string(&path).expect("anchor games");
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        assert!(lines >= 90, "{path}: {lines} games");
        for line in text.lines() {
            assert!(line.starts_with(&format!("15 {rule} ")), "{path}: {line}");
            assert!(line.contains(" opponent=rapfi-classical "), "{line}");
        }
        let v = json(&gomoku(&[
            "train",
            &path,
            "--iterations",
            "1",
            "--policy-iterations",
            "0",
            "--valid-every",
            "0",
            "--json",
        ]));
        assert_eq!(v["skipped_lines"], 0, "{path}: {v}");
        assert_eq!(v["rules"][0]["rule"], rule, "{v}");
        assert_eq!(
            v["rules"][0]["games"].as_u64(),
            Some(lines as u64),
            "{path}: {v}"
        );
    }
}

#[test]
fn training_on_a_small_corpus_lowers_the_loss_and_writes_a_model_the_engine_reads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = corpus(dir.path(), "freestyle", "8");
    let model = dir.path().join("eval.bin");
    let model_s = model.to_str().expect("utf-8");
    let run = || {
        json(&gomoku(&[
            "train",
            &games,
            "--iterations",
            "60",
            "--policy-iterations",
            "30",
            "--valid-every",
            "4",
            "--out",
            model_s,
            "--json",
        ]))
    };
    let v = run();
    let r = &v["rules"][0];
    assert_eq!(r["rule"], "freestyle", "{v}");
    assert_eq!(r["games"], 8);
    assert!(r["training_positions"].as_u64().expect("count") > 50, "{v}");
    let [before, after] = [0, 1].map(|i| r["training_loss"][i].as_f64().expect("loss"));
    assert!(after < before, "{before} -> {after}");
    let [ce0, ce1] = [0, 1].map(|i| {
        r["policy"]["validation_cross_entropy"][i]
            .as_f64()
            .expect("ce")
    });
    assert!(ce0.is_finite() && ce1.is_finite(), "{v}");
    let bytes = std::fs::read(&model).expect("model written");
    // deterministic: the same corpus and options write the same model
    run();
    assert_eq!(std::fs::read(&model).expect("model"), bytes);
    // a rule without games can train on another rule's, replayed under its own rule
    let borrowed = dir.path().join("borrowed.bin");
    let v = json(&gomoku(&[
        "train",
        &games,
        "--iterations",
        "20",
        "--policy-iterations",
        "0",
        "--borrow",
        "standard=freestyle",
        "--out",
        borrowed.to_str().expect("utf-8"),
        "--json",
    ]));
    let rules: Vec<(&str, &str)> = v["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| {
            let name = |k: &str| r[k].as_str().expect("name");
            (name("rule"), name("games_of"))
        })
        .collect();
    assert_eq!(
        rules,
        [("freestyle", "freestyle"), ("standard", "freestyle")],
        "{v}"
    );
    let r = &v["rules"][1];
    let [before, after] = [0, 1].map(|i| r["training_loss"][i].as_f64().expect("loss"));
    assert!(after < before, "standard: {before} -> {after}");
    // a rule with games of its own adds the borrowed ones, in both directions
    let text = std::fs::read_to_string(&games).expect("corpus");
    let own: String = text
        .lines()
        .take(3)
        .map(|l| format!("{}\n", l.replacen(" freestyle ", " standard ", 1)))
        .collect();
    let own_path = dir.path().join("standard.txt");
    std::fs::write(&own_path, own).expect("write");
    let v = json(&gomoku(&[
        "train",
        &games,
        own_path.to_str().expect("utf-8"),
        "--iterations",
        "5",
        "--policy-iterations",
        "0",
        "--borrow",
        "standard=freestyle",
        "--borrow",
        "freestyle=standard",
        "--json",
    ]));
    let rules: Vec<(&str, &str, u64)> = v["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| {
            let name = |k: &str| r[k].as_str().expect("name");
            (
                name("rule"),
                name("games_of"),
                r["games"].as_u64().expect("n"),
            )
        })
        .collect();
    assert_eq!(
        rules,
        [
            ("freestyle", "freestyle+standard", 11),
            ("standard", "freestyle+standard", 11)
        ],
        "{v}"
    );
    // the engine searches with it (and refuses a file that is not a model)
    let o = gomoku_env(
        &["think", "--depth", "4", "h8"],
        &[("GOMOKU_EVAL_MODEL", model_s)],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = gomoku_env(
        &["think", "--depth", "4", "h8"],
        &[("GOMOKU_EVAL_MODEL", &games)],
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("not an evaluation model"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn scoring_a_model_reports_its_losses_without_training() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = corpus(dir.path(), "freestyle", "8");
    let model = dir.path().join("eval.bin");
    let model_s = model.to_str().expect("utf-8");
    let score = |from: &[&str]| {
        let mut a = vec!["train", games.as_str(), "--score", "--json"];
        a.extend_from_slice(from);
        json(&gomoku(&a))
    };
    let before = score(&["--from-formula"]);
    let r = &before["rules"][0];
    assert_eq!(r["rule"], "freestyle", "{before}");
    assert_eq!(r["games"], 8, "{before}");
    assert!(r["positions"].as_u64().expect("count") > 50, "{before}");
    let [loss, result_loss] = ["loss", "result_loss"].map(|k| r[k].as_f64().expect("loss"));
    assert!(loss > 0.0 && loss < 1.0 && result_loss > 0.0 && result_loss < 1.0);
    assert!(!model.exists());
    // a model trained on these games scores better on them than the formula it started from
    let o = gomoku(&[
        "train",
        &games,
        "--from-formula",
        "--iterations",
        "60",
        "--policy-iterations",
        "0",
        "--valid-every",
        "0",
        "--out",
        model_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let after = score(&["--from", model_s]);
    let trained = after["rules"][0]["loss"].as_f64().expect("loss");
    assert!(trained < loss, "{loss} -> {trained}");
    assert_eq!(score(&["--from", model_s]), after, "deterministic");
    // scoring writes nothing
    let o = gomoku(&["train", &games, "--score", "--out", model_s]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--out"), "{}", stderr(&o));
}

#[test]
fn results_only_files_train_on_their_results_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = corpus(dir.path(), "freestyle", "6");
    let text = std::fs::read_to_string(&games).expect("corpus");
    assert!(
        text.contains(" values=") && !text.contains(" values=?"),
        "{text}"
    );
    // the same games with every value unknown
    let stripped = dir.path().join("stripped.txt");
    let unknown: String = text
        .lines()
        .map(|l| {
            let (head, values) = l.split_once(" values=").expect("values");
            let n = values.split(',').count();
            format!("{head} values={}\n", vec!["?"; n].join(","))
        })
        .collect();
    std::fs::write(&stripped, unknown).expect("write");
    let score = |args: &[&str]| {
        let mut a = vec!["train", "--score", "--json", "--from-formula"];
        a.extend_from_slice(args);
        let v = json(&gomoku(&a));
        let r = &v["rules"][0];
        assert_eq!(r["games"], 6, "{v}");
        ["loss", "result_loss"].map(|k| r[k].as_f64().expect("loss"))
    };
    let mixed = score(&[&games]);
    assert!((mixed[0] - mixed[1]).abs() > 1e-6, "{mixed:?}");
    let results = score(&["--results-only", &games]);
    assert!((results[0] - results[1]).abs() < 1e-12, "{results:?}");
    assert_eq!(results, score(&[stripped.to_str().expect("utf-8")]));
    // a missing file is named
    let o = gomoku(&["train", "--results-only", "/nonexistent/games.txt"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("/nonexistent/games.txt"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn lines_without_a_result_are_skipped_and_bad_input_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = std::fs::read_to_string(sample()).expect("sample");
    let mixed = dir.path().join("mixed.txt");
    let text = format!(
        "15 freestyle h8 i9 | set=x\n\
         15 freestyle h8 h8 | result=black\n\
         15 freestyle h8 i9 | result=maybe\n\
         15 freestyle h8 i9 i8 | result=black values=1,x\n\
         15 freestyle h8 i9 i8 j8 | result=black opening=2 values=1,2\n{}",
        games.lines().take(20).collect::<Vec<_>>().join("\n")
    );
    std::fs::write(&mixed, text).expect("write");
    let o = gomoku(&[
        "train",
        mixed.to_str().expect("utf-8"),
        "--iterations",
        "10",
        "--policy-iterations",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("mixed.txt:1: skipped: no result="), "{err}");
    assert!(err.contains("mixed.txt:2: skipped:"), "{err}");
    assert!(
        err.contains("result=maybe is not black, white or draw"),
        "{err}"
    );
    assert!(err.contains("values: 'x' is not a number"), "{err}");
    assert!(
        err.contains("2 values for the 0 moves after an opening of 6 plies"),
        "{err}"
    );
    assert!(stdout(&o).contains("5 lines skipped"), "{}", stdout(&o));

    let none = dir.path().join("none.txt");
    std::fs::write(&none, "15 freestyle h8 i9 | result=black\n").expect("write");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![none.display().to_string()],
            "no freestyle position to train on",
        ),
        (vec!["no/such/file.txt".into()], "reading the corpus"),
        (
            vec![sample(), "--learning-rate".into(), "0".into()],
            "--learning-rate 0",
        ),
        (
            vec![sample(), "--regularization".into(), "NaN".into()],
            "--regularization NaN",
        ),
        (
            vec![sample(), "--result-weight".into(), "2".into()],
            "--result-weight 2",
        ),
        (
            vec![sample(), "--iterations".into(), "0".into()],
            "iterations",
        ),
        (
            vec![sample(), "--valid-every".into(), "1".into()],
            "--valid-every 1",
        ),
        (
            vec![sample(), "--from".into(), sample()],
            "not an evaluation model",
        ),
        (
            vec![sample(), "--borrow".into(), "standard".into()],
            "expected RULE=FROM",
        ),
        (
            vec![sample(), "--borrow".into(), "renju=renju".into()],
            "cannot borrow its own games",
        ),
        (
            vec![sample(), "--borrow".into(), "caro=freestyle".into()],
            "'caro' is not a rule",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["train"];
        all.extend(args.iter().map(String::as_str));
        let o = gomoku(&all);
        assert!(!o.status.success(), "{all:?} succeeded");
        assert!(stderr(&o).contains(says), "{all:?}: {}", stderr(&o));
    }
    let o = gomoku(&["selfplay", "--games", "0", "--out", "x.txt"]);
    assert!(!o.status.success());
    let o = gomoku(&["selfplay", "--opening-stones", "5,2", "--out", "x.txt"]);
    assert!(
        stderr(&o).contains("need 1 <= MIN <= MAX"),
        "{}",
        stderr(&o)
    );
}
