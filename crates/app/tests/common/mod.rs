//! Running the `gomoku` binary from the integration tests: one helper for each way a test
//! feeds it (no input, a text, raw bytes, or pipes the test drives itself), and the project's
//! shared datasets when they are beside the repository ([`shared_data`]). Each test crate
//! uses only some of them.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

#[path = "../../../engine/tests/shared_data/mod.rs"]
pub mod shared_data;

/// Runs `gomoku ARGS` with no standard input and waits for it.
pub fn gomoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gomoku"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("binary runs")
}

/// Runs `gomoku ARGS` with no standard input and the environment variables `vars` set.
pub fn gomoku_env(args: &[&str], vars: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gomoku"))
        .args(args)
        .envs(vars.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("binary runs")
}

/// Runs `gomoku ARGS` with `input` as standard input and waits for it.
pub fn gomoku_with_input(args: &[&str], input: &str) -> Output {
    gomoku_with_bytes(args, input.as_bytes())
}

/// Runs `gomoku ARGS` with `input`, which need not be UTF-8, as standard input.
pub fn gomoku_with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = spawn(args);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write input");
    child.wait_with_output().expect("binary ends")
}

/// Starts `gomoku ARGS` with its three streams piped, for a test that talks to it as it runs.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gomoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs")
}

/// The standard output, lossily decoded.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard error, lossily decoded.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A match folder of the fixtures (`tests/data/clock-report/NAME`), as a path argument.
pub fn match_folder(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/clock-report")
        .join(name)
        .display()
        .to_string()
}
