//! `gomoku`: the command-line entry point.

use clap::Parser;
use gomoku_app::cli::{Cli, Command};
use gomoku_app::commands;
use std::process::ExitCode;

/// Lets a command that writes its results to standard output end quietly when the reader
/// goes away (`gomoku think h8 | head -1`), as other command-line tools do: the default action
/// of SIGPIPE, which Rust's runtime sets to "ignore" (after which a write to the closed pipe
/// is an error, and `println!` panics on it). The web server keeps the runtime's setting: a
/// browser that closes a connection must not end it.
#[cfg(unix)]
fn end_quietly_when_the_reader_goes() {
    // SAFETY: restores the default disposition of one signal, first thing in `main`, before
    // any other thread exists; no handler of ours is involved.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn end_quietly_when_the_reader_goes() {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    gomoku_app::system::configure_engine();
    if let Err(e) = gomoku_app::eval_model::install_from_env() {
        eprintln!("error: {e:#}");
        return ExitCode::FAILURE;
    }
    // not `serve` (above) nor `match`, which writes to engines it runs as child processes:
    // one that exits early must lose its game, not end the match
    if !matches!(
        cli.command,
        None | Some(Command::Serve(_) | Command::Match(_))
    ) {
        end_quietly_when_the_reader_goes();
    }
    let result = match &cli.command {
        Some(Command::Position(a)) => commands::position::run(a),
        Some(Command::BenchBoard(a)) => commands::bench_board::run(a),
        Some(Command::BenchAnalysis(a)) => commands::bench_analysis::run(a),
        Some(Command::ClockReport(a)) => commands::clock_report::run(a),
        Some(Command::OpeningReport(a)) => commands::opening_report::run(a),
        Some(Command::Think(a)) => commands::think::run(a),
        Some(Command::Analyze(a)) => commands::analyze::run(a),
        Some(Command::Match(a)) => commands::match_cmd::run(a),
        Some(Command::Play(a)) => commands::play::run(a),
        Some(Command::Bench(a)) => commands::bench::run(a),
        Some(Command::Pbrain(a)) => commands::pbrain::run(a),
        Some(Command::Serve(a)) => commands::serve::run(a),
        Some(Command::Solve(a)) => commands::solve::run(a),
        Some(Command::Review(a)) => commands::review::run(a),
        Some(Command::Train(a)) => commands::train::run(a),
        Some(Command::Selfplay(a)) => commands::selfplay::run(a),
        Some(Command::Corpus(a)) => commands::corpus::run(a),
        Some(Command::Library(a)) => commands::library::run(a),
        Some(Command::Nnue(a)) => commands::nnue::run(a),
        None => commands::serve::run(&commands::serve::Args::default()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
