//! Integration tests of the study commands, a module each: `analyze`, the component flags of
//! `think`, `--exclude`, `match` (with fake pbrain engines in `tests/fake-pbrain.sh`), `play`,
//! `--board FILE`, and `selfplay` with `train`.

#[path = "../common/mod.rs"]
mod common;

use common::{gomoku, gomoku_env, gomoku_with_bytes, gomoku_with_input, spawn, stderr, stdout};
use std::io::Write;
use std::path::PathBuf;
use std::process::Output;

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_str(&stdout(o)).expect("one JSON object")
}

/// A failure with a clear message on stderr and nothing on stdout that looks like a result.
fn assert_fails_with(o: &Output, needle: &str) {
    assert!(!o.status.success(), "should fail: {}", stdout(o));
    let e = stderr(o);
    assert!(e.contains(needle), "expected '{needle}' in: {e}");
}

fn fake_engine(mode: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake-pbrain.sh");
    format!("cmd:sh '{}' {mode}", script.display())
}

/// Writes `content` to `name` in a fresh temporary directory, removed when the returned guard
/// is dropped.
fn openings_file(name: &str, content: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path().join(name);
    std::fs::write(&p, content).expect("write");
    (dir, p)
}

const OPENINGS: &str = "# two small openings\n\
    15 freestyle h8 h9 i10 | set=test idx=0\n\
    15 renju h8 i9 | set=other idx=0\n\
    9 freestyle e5 e6 f5 | set=test idx=1\n";

mod analyze;
mod board_file;
mod exclude;
mod match_cmd;
mod play;
mod think_components;
mod train;
