//! `gomoku nnue train` end to end: a tiny network trained on a tiny self-play corpus, the same
//! network again from a run stopped and resumed, and the engine playing with it.

mod common;

use common::{gomoku, gomoku_env, stderr, stdout};
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8")
}

/// A corpus of `games` freestyle games on 9x9 at a few hundred nodes a move.
fn corpus(dir: &Path, games: &str) -> PathBuf {
    let out = dir.join("tiny.bin");
    let o = gomoku(&[
        "selfplay",
        "--format",
        "bin",
        "--rule",
        "freestyle",
        "--size",
        "9",
        "--games",
        games,
        "--nodes",
        "300",
        "--seed",
        "5",
        "--balance",
        "100000",
        "--opening-radius",
        "0,3",
        "--no-progress",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

fn train(corpus: &Path, out: &Path, checkpoint: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "nnue",
        "train",
        s(corpus),
        "--rule",
        "freestyle",
        "--batch",
        "32",
        "--window",
        "128",
        "--valid-every",
        "4",
        "--threads",
        "2",
        "--no-progress",
        "--checkpoint",
        s(checkpoint),
        "--out",
        s(out),
    ];
    if !extra.contains(&"--epochs") {
        args.extend_from_slice(&["--epochs", "2"]);
    }
    args.extend_from_slice(extra);
    gomoku(&args)
}

#[test]
fn a_tiny_network_trains_resumes_and_plays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let corpus = corpus(dir.path(), "24");

    // one run from start to end
    let whole = dir.path().join("whole.nnue");
    let o = train(&corpus, &whole, &dir.path().join("whole.ck"), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    for needle in [
        "held-out positions",
        "value, against the results:  network",
        "tables",
        "integer against float expected score",
        "policy: cross-entropy",
        "wrote the freestyle network",
    ] {
        assert!(report.contains(needle), "{needle:?} in\n{report}");
    }

    // the same run stopped after two windows and resumed: the same network
    let sliced = dir.path().join("sliced.nnue");
    let ck = dir.path().join("sliced.ck");
    let o = train(&corpus, &sliced, &ck, &["--max-windows", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = train(&corpus, &sliced, &ck, &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (a, b) = (
        std::fs::read(&whole).expect("model"),
        std::fs::read(&sliced).expect("model"),
    );
    assert!(
        a == b,
        "a resumed run gives the network of an uninterrupted one"
    );

    // a checkpoint of other options is refused
    let o = train(&corpus, &sliced, &ck, &["--resume", "--lr", "0.01"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("other files or options"),
        "{}",
        stderr(&o)
    );

    // training goes on from a written network: with no step, the same network comes out
    let again = dir.path().join("again.nnue");
    let o = train(
        &corpus,
        &again,
        &dir.path().join("again.ck"),
        &["--init", s(&whole), "--epochs", "0"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::read(&again).expect("model") == a,
        "a network read back and written again is the same"
    );
    let o = train(
        &corpus,
        &again,
        &dir.path().join("init.ck"),
        &["--init", s(&whole)],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = train(
        &corpus,
        &again,
        &dir.path().join("bad.ck"),
        &["--init", s(&corpus)],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--init"), "{}", stderr(&o));

    // the engine loads the network and plays with it
    let vars = [("GOMOKU_NNUE_MODEL", s(&whole))];
    let o = gomoku_env(
        &[
            "think", "--size", "9", "--set", "nnue=1", "--depth", "4", "e5", "d4",
        ],
        &vars,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("bestmove"), "{}", stdout(&o));
    let o = gomoku_env(
        &[
            "match",
            "--size",
            "9",
            "--p1",
            "pvs set=nnue:1,nodes=300",
            "--p2",
            "pvs nodes=300",
            "--games",
            "2",
        ],
        &vars,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn bad_network_files_and_arguments_are_clear_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let junk = dir.path().join("junk.nnue");
    std::fs::write(&junk, b"GMKNNUE2 but not a network").expect("write");
    let o = gomoku_env(
        &["think", "--depth", "2", "h8"],
        &[("GOMOKU_NNUE_MODEL", s(&junk))],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("GOMOKU_NNUE_MODEL"), "{}", stderr(&o));

    let text = dir.path().join("games.txt");
    std::fs::write(
        &text,
        "15 freestyle h8 h8 | opening_plies=0 result=black values=1,2\n",
    )
    .expect("write");
    let o = gomoku(&[
        "nnue",
        "train",
        s(&text),
        "--rule",
        "freestyle",
        "--no-progress",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("games.txt:1"), "{}", stderr(&o));
    let o = gomoku(&[
        "nnue",
        "train",
        s(&text),
        "--rule",
        "caro5",
        "--no-progress",
    ]);
    assert!(!o.status.success());
}
