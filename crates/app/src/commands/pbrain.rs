//! `gomoku pbrain`: the Gomocup pbrain protocol on standard input and output, the same loop
//! as the `pbrain-gomoku` binary.

use anyhow::Result;

/// Arguments of `gomoku pbrain` (none: everything comes through the protocol).
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs the protocol until `END` or the end of input.
///
/// # Errors
/// Malformed search parameter overrides in `GOMOKU_SEARCH_SET`; protocol problems are
/// answered with `ERROR` lines, not returned.
pub fn run(_args: &Args) -> Result<()> {
    crate::args::search::install_params_from_env()?;
    crate::pbrain::run_stdio();
    Ok(())
}
