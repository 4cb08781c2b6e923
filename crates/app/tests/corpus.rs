//! `gomoku selfplay --format bin` and `gomoku corpus`: the binary corpus end to end, on a
//! 9x9 board at a few hundred nodes a move.

mod common;

use common::{gomoku, stderr, stdout};
use std::path::{Path, PathBuf};

/// `gomoku selfplay` on 9x9 (every opening kept) with `extra` arguments, into `out`: 6
/// games unless `extra` says how many.
fn selfplay(out: &Path, extra: &[&str]) {
    let out = out.to_str().expect("utf-8");
    let mut args = vec![
        "selfplay",
        "--rule",
        "renju",
        "--size",
        "9",
        "--nodes",
        "300",
        "--seed",
        "4",
        "--balance",
        "100000",
        "--opening-radius",
        "0,3",
        "--no-progress",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    if !extra.contains(&"--games") {
        args.extend(["--games", "6"]);
    }
    let o = gomoku(&args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

fn bin(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let mut args = vec!["--format", "bin"];
    args.extend_from_slice(extra);
    selfplay(&path, &args);
    path
}

fn dump(path: &Path) -> Vec<String> {
    let o = gomoku(&["corpus", "dump", path.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(str::to_string).collect()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("corpus")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8")
}

#[test]
fn the_same_arguments_give_the_same_bytes_whatever_the_concurrency() {
    let dir = tempfile::tempdir().expect("temp dir");
    let one = bin(dir.path(), "one.bin", &["--concurrency", "1"]);
    let two = bin(dir.path(), "two.bin", &["--concurrency", "2"]);
    assert_eq!(&read(&one)[..8], b"GMKCORP1");
    assert_eq!(read(&one), read(&two));
    let text = dir.path().join("two.txt");
    selfplay(&text, &["--concurrency", "2"]);
    let text_one = dir.path().join("one.txt");
    selfplay(&text_one, &[]);
    assert_eq!(read(&text), read(&text_one));
}

#[test]
fn a_dump_is_the_text_corpus_without_its_game_keys() {
    let dir = tempfile::tempdir().expect("temp dir");
    let corpus = bin(dir.path(), "c.bin", &[]);
    let text = dir.path().join("c.txt");
    selfplay(&text, &[]);
    let lines = std::fs::read_to_string(&text).expect("text corpus");
    let expected: Vec<String> = lines
        .lines()
        .map(|l| {
            let (moves, keys) = l.split_once(" | ").expect("keys");
            let keys: Vec<&str> = keys
                .split(' ')
                .filter(|k| {
                    !["game=", "seed=", "nodes="]
                        .iter()
                        .any(|p| k.starts_with(p))
                })
                .collect();
            format!("{moves} | {}", keys.join(" "))
        })
        .collect();
    assert_eq!(expected.len(), 6);
    assert_eq!(dump(&corpus), expected);
}

#[test]
fn shards_and_appends_make_the_same_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let all = dump(&bin(dir.path(), "all.bin", &[]));
    let first = bin(dir.path(), "s1.bin", &["--shard", "1/2"]);
    let second = bin(dir.path(), "s2.bin", &["--shard", "2/2"]);
    let joined = dir.path().join("joined.bin");
    let o = gomoku(&["corpus", "cat", s(&joined), s(&first), s(&second)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("6 games from 2 files"),
        "{}",
        stderr(&o)
    );
    let order = [0, 2, 4, 1, 3, 5];
    let by_shard: Vec<String> = order.iter().map(|&i| all[i].clone()).collect();
    assert_eq!(dump(&joined), by_shard);
    // a third shard of 3 holds games 3 and 6
    let third = dump(&bin(dir.path(), "s3.bin", &["--shard", "3/3"]));
    assert_eq!(third, vec![all[2].clone(), all[5].clone()]);
    // games 1-3, then 4-6 appended, are the six games
    let appended = dir.path().join("appended.bin");
    selfplay(&appended, &["--format", "bin", "--games", "3"]);
    selfplay(
        &appended,
        &["--format", "bin", "--games", "3", "--first-game", "4"],
    );
    assert_eq!(read(&appended), read(&dir.path().join("all.bin")));
}

#[test]
fn stats_count_games_positions_and_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let corpus = bin(dir.path(), "c.bin", &[]);
    let o = gomoku(&["corpus", "stats", s(&corpus), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let positions: u64 = dump(&corpus)
        .iter()
        .map(|l| {
            let values = l.split("values=").nth(1).expect("values");
            values.split(',').filter(|v| !v.is_empty()).count() as u64
        })
        .sum();
    assert_eq!(v["games"], 6);
    assert_eq!(v["positions"], positions);
    assert_eq!(v["bytes"], read(&corpus).len() as u64);
    assert_eq!(v["groups"][0]["rule"], "renju");
    assert_eq!(v["groups"][0]["size"], 9);
    let results = ["black", "white", "draw"].map(|k| v[k].as_u64().expect("count"));
    assert_eq!(results.iter().sum::<u64>(), 6);
    let o = gomoku(&["corpus", "stats", s(&corpus), s(&corpus)]);
    let text = stdout(&o);
    assert!(text.contains("games: 12\n"), "{text}");
    assert!(text.contains("renju 9x9: 12 games"), "{text}");
    assert!(text.contains("bytes per position: "), "{text}");
}

#[test]
fn search_parameters_are_set_as_think_sets_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    bin(dir.path(), "set.bin", &["--set", "lmr_scale_pct=80"]);
    let o = gomoku(&[
        "selfplay",
        "--games",
        "1",
        "--set",
        "no_such_parameter=1",
        "--out",
        s(&dir.path().join("x.bin")),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no_such_parameter"), "{}", stderr(&o));
}

#[test]
fn bad_files_and_arguments_fail_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = read(&bin(dir.path(), "good.bin", &[]));
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).expect("write");
        p
    };
    let text = write("text.bin", b"9 renju e5 d4 | result=draw\n");
    let cut = write("cut.bin", &good[..good.len() - 1]);
    let mut off = good.clone();
    off[14..16].copy_from_slice(&81u16.to_le_bytes());
    let off = write("off.bin", &off);
    let missing = dir.path().join("missing.bin");
    for (args, says) in [
        (vec!["corpus", "stats", s(&text)], "not a corpus"),
        (
            vec!["corpus", "dump", s(&cut)],
            "the file ends inside the record",
        ),
        (vec!["corpus", "stats", s(&cut)], "record 6 (at byte"),
        (
            vec!["corpus", "dump", s(&off)],
            "record 1 (at byte 8): move 1: 81 is off the 9x9 board",
        ),
        (vec!["corpus", "stats", s(&missing)], "missing.bin"),
        (
            vec!["corpus", "cat", s(&text), s(&text)],
            "one of the inputs",
        ),
        (
            vec!["selfplay", "--format", "bin", "--out", s(&text)],
            "cannot append to it",
        ),
        (
            vec![
                "selfplay", "--format", "bin", "--rule", "caro", "--out", "x",
            ],
            "a corpus holds freestyle, standard or renju",
        ),
        (
            vec!["selfplay", "--shard", "0/2", "--out", "x"],
            "1 <= K <= N",
        ),
        (
            vec!["selfplay", "--shard", "3/2", "--out", "x"],
            "1 <= K <= N",
        ),
        (vec!["selfplay", "--shard", "2", "--out", "x"], "K/N"),
    ] {
        let o = gomoku(&args);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    // a bad input leaves no output
    let out = dir.path().join("out.bin");
    let o = gomoku(&[
        "corpus",
        "cat",
        s(&out),
        s(&dir.path().join("good.bin")),
        s(&cut),
    ]);
    assert!(!o.status.success());
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 4);
}
