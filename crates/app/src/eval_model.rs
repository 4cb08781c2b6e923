//! Choosing the evaluation models at start: the compiled-in ones, or model files named by the
//! `GOMOKU_EVAL_MODEL` (the tables) and `GOMOKU_NNUE_MODEL` (the network) environment
//! variables, for comparing freshly trained models with the compiled-in ones in matches
//! before they are compiled in.

use anyhow::{Context, Result};
use gomoku_engine::eval::{EvalModel, EvalParams};

/// The environment variable naming a model file to use instead of the compiled-in model.
pub const MODEL_VAR: &str = "GOMOKU_EVAL_MODEL";

/// The environment variable naming a network file to use instead of the compiled-in one.
pub const NNUE_VAR: &str = "GOMOKU_NNUE_MODEL";

/// Installs the model files named by [`MODEL_VAR`] and [`NNUE_VAR`], where set (and not
/// empty). Must run before the first board is made.
///
/// # Errors
/// A file that cannot be read or is not a model.
pub fn install_from_env() -> Result<()> {
    install_nnue_from_env()?;
    install_tables_from_env()
}

fn install_nnue_from_env() -> Result<()> {
    let Some(path) = std::env::var_os(NNUE_VAR).filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    let shown = std::path::Path::new(&path).display().to_string();
    let bytes = std::fs::read(&path).with_context(|| format!("{NNUE_VAR}: reading {shown}"))?;
    let model = gomoku_engine::nnue::NnueModel::from_bytes(&bytes)
        .with_context(|| format!("{NNUE_VAR}: {shown}"))?;
    gomoku_engine::nnue::NnueModel::install(model)
        .map_err(|_| anyhow::anyhow!("{NNUE_VAR}: the network is already in use"))
}

fn install_tables_from_env() -> Result<()> {
    let Some(path) = std::env::var_os(MODEL_VAR).filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    let shown = std::path::Path::new(&path).display().to_string();
    let bytes = std::fs::read(&path).with_context(|| format!("{MODEL_VAR}: reading {shown}"))?;
    let model = EvalModel::from_bytes(&bytes, &EvalParams::default())
        .with_context(|| format!("{MODEL_VAR}: {shown}"))?;
    EvalModel::install(model)
        .map_err(|_| anyhow::anyhow!("{MODEL_VAR}: the evaluation model is already in use"))
}
