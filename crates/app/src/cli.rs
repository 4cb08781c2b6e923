//! Command-line definitions shared by the binaries.

use clap::{Parser, Subcommand};
use gomoku_engine::Rule;

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
}

/// The rule and board size flags of the commands that take a position.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct BoardArgs {
    /// Rule: freestyle (the default), standard, renju, caro5 or caro6.
    #[arg(long, value_parser = parse_rule)]
    pub rule: Option<Rule>,
    /// Board size (5 to 22).
    #[arg(long, default_value_t = 15, value_parser = parse_size)]
    pub size: usize,
}

impl BoardArgs {
    /// The rule given, freestyle without one.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule.unwrap_or(Rule::Freestyle)
    }
}

/// Parses a rule name for clap.
pub fn parse_rule(s: &str) -> Result<Rule, String> {
    s.parse::<Rule>().map_err(|e| e.to_string())
}

/// Parses a board size for clap.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}': the board size must be a number"))?;
    gomoku_engine::notation::check_size(n).map_err(|e| e.to_string())
}

/// Property tests of the rule and size arguments ([`parse_rule`], [`parse_size`]) and of the
/// colour argument of `play` ([`crate::commands::play::parse_color`]): any text gives a value
/// in range or an error that quotes the text (never a panic), and every value's own spelling
/// reads back as itself.
#[cfg(test)]
mod props {
    use super::*;
    use crate::commands::play::parse_color;
    use crate::prop_support::{config, noise, weird_token};
    use gomoku_engine::{Color, MAX_SIZE, MIN_SIZE};
    use proptest::prelude::*;

    fn argument() -> impl Strategy<Value = String> {
        prop_oneof![
            2 => (0usize..40).prop_map(|n| n.to_string()),
            1 => (0usize..40).prop_map(|n| format!(" {n}\t")),
            2 => prop::sample::select(vec![
                "renju", "Freestyle", "caro", "4", "exact-five", "black", "W", " o ", "second",
            ])
            .prop_map(str::to_string),
            2 => weird_token(),
            1 => noise(),
        ]
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn arguments_read_or_fail_cleanly(s in argument()) {
            match parse_size(&s) {
                Ok(n) => {
                    prop_assert!((MIN_SIZE..=MAX_SIZE).contains(&n));
                    prop_assert_eq!(s.trim().parse::<usize>(), Ok(n));
                }
                Err(e) => prop_assert!(
                    e.contains(&format!("'{s}'")) || e.contains("out of range"),
                    "{}",
                    e
                ),
            }
            match parse_rule(&s) {
                Ok(r) => prop_assert_eq!(parse_rule(r.name()), Ok(r)),
                Err(e) => prop_assert!(e.contains(&format!("'{s}'")), "{}", e),
            }
            match parse_color(&s) {
                Ok(c) => prop_assert_eq!(parse_color(c.name()), Ok(c)),
                Err(e) => prop_assert!(e.contains(&format!("'{s}'")), "{}", e),
            }
        }

        #[test]
        fn values_round_trip(
            n in MIN_SIZE..=MAX_SIZE,
            rule in prop::sample::select(Rule::ALL.to_vec()),
            color in prop::sample::select(Color::BOTH.to_vec()),
            upper in any::<bool>(),
        ) {
            let case = |t: String| if upper { t.to_ascii_uppercase() } else { t };
            prop_assert_eq!(parse_size(&n.to_string()), Ok(n));
            prop_assert_eq!(parse_rule(&case(rule.name().to_string())), Ok(rule));
            prop_assert_eq!(parse_rule(&rule.to_string()), Ok(rule));
            prop_assert_eq!(parse_color(&case(color.to_string())), Ok(color));
        }
    }
}
