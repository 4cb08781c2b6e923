//! `gomoku`: the command-line entry point.

use clap::Parser;
use gomoku_app::cli::{Cli, Command};
use gomoku_app::commands;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Position(a)) => commands::position::run(a),
        Some(Command::BenchBoard(a)) => commands::bench_board::run(a),
        Some(Command::Think(a)) => commands::think::run(a),
        Some(Command::Analyze(a)) => commands::analyze::run(a),
        Some(Command::Match(a)) => commands::match_cmd::run(a),
        Some(Command::Play(a)) => commands::play::run(a),
        Some(Command::Bench(a)) => commands::bench::run(a),
        Some(Command::Pbrain(a)) => commands::pbrain::run(a),
        Some(Command::Serve(a)) => commands::serve::run(a),
        Some(Command::Solve(a)) => commands::solve::run(a),
        Some(Command::Review(a)) => commands::review::run(a),
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
