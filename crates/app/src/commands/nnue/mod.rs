//! `gomoku nnue`: the neural evaluation's tools. `train` trains a rule's network on self-play
//! corpora ([`train`]), reading the games as a stream ([`data`]), and reports its held-out
//! losses next to the tables' ([`report`]).

pub mod data;
pub mod report;
pub mod train;

use anyhow::Result;

/// Arguments of `gomoku nnue`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: NnueCommand,
}

/// The subcommands of `gomoku nnue`.
#[derive(Debug, clap::Subcommand)]
pub enum NnueCommand {
    /// Train a rule's network on corpora; report its held-out losses next to the tables'.
    Train(Box<train::TrainArgs>),
}

/// Runs `gomoku nnue`.
///
/// # Errors
/// See the subcommands.
pub fn run(args: &Args) -> Result<()> {
    match &args.command {
        NnueCommand::Train(a) => train::run(a),
    }
}
