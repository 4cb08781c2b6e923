//! Command-line definitions shared by the binaries.

use clap::{Parser, Subcommand};

/// Gomoku and Renju: an engine, a board in the browser, and tools to study how it thinks.
#[derive(Debug, Parser)]
#[command(name = "gomoku", version, about, long_about = None)]
pub struct Cli {
    /// What to do (without one, the web board is served).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a position: the board, side to move, result and renju forbidden points.
    Position(crate::commands::position::Args),
    /// Search a position and print the progress and the chosen move.
    Think(crate::commands::think::Args),
    /// Search fixed positions to a fixed depth: node count, speed, signature (`Bench: N`).
    Bench(crate::commands::bench::Args),
    /// Measure make+unmake throughput of the board (moves per second).
    BenchBoard(crate::commands::bench_board::Args),
    /// Timed analyses of a few standard positions: every iteration with its time, best move
    /// and value, the depth reached and the table's fill (does a long analysis keep going?).
    BenchAnalysis(crate::commands::bench_analysis::Args),
    /// How the engines of a match spent their clocks (a `match.sh` folder: games.sgf and
    /// msg.txt): per game and over the match, ours against the opponent's.
    ClockReport(crate::commands::clock_report::Args),
    /// How each opening's two games of a match went (a `match.sh` folder's games.sgf): the
    /// openings the colour decided, those ours or the opponent won both, and the score.
    OpeningReport(crate::commands::opening_report::Args),
    /// Speak the Gomocup pbrain protocol on standard input and output (as `pbrain-gomoku`).
    Pbrain(crate::commands::pbrain::Args),
    /// Serve the board in the browser (the default without a subcommand).
    Serve(crate::commands::serve::Args),
    /// Search a position and print every candidate move with its value, then the search
    /// statistics (nodes, table use, cut-offs, branching factor, pruning against minimax).
    Analyze(crate::commands::analyze::Args),
    /// Play games between two players (internal configurations or pbrain engines) and report
    /// the score, the Elo difference and optionally an SPRT verdict.
    Match(Box<crate::commands::match_cmd::Args>),
    /// Play against the engine in the terminal.
    Play(crate::commands::play::Args),
    /// Prove forced wins (VCF / VCT) over a file of positions and check the answers against
    /// the file's keys; prints each line found, then solved counts and times.
    Solve(crate::commands::solve::Args),
    /// Judge every move of a game with the engine (best, good, inaccuracy, mistake, blunder)
    /// and count each player's.
    Review(crate::commands::review::Args),
    /// Train the learned evaluation on self-play corpora (`selfplay`): the loss before and
    /// after on training and held-out games, and the model file the engine compiles in.
    Train(crate::commands::train::Args),
    /// Play the engine against itself at a fixed node budget from random balanced openings
    /// and save every game with its result and the search's values (the training corpus).
    Selfplay(crate::commands::selfplay::Args),
    /// The binary self-play corpora (`selfplay --format bin`): figures, the games as text,
    /// several joined into one.
    Corpus(crate::commands::corpus::Args),
    /// The neural evaluation: train a rule's network on corpora (`nnue train`).
    Nnue(crate::commands::nnue::Args),
    /// The library of games and analyses: import collections (SGF, PSQ, RenLib), list, show,
    /// explore a position, export as SGF.
    Library(crate::commands::library::Args),
}
