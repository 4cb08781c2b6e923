//! Choosing the evaluation model at start: the compiled-in one, or a model file named by the
//! `GOMOKU_EVAL_MODEL` environment variable (for comparing a freshly trained model with the
//! compiled-in one in matches before it is compiled in).

use anyhow::{Context, Result};
use gomoku_engine::eval::{EvalModel, EvalParams};

/// The environment variable naming a model file to use instead of the compiled-in model.
pub const MODEL_VAR: &str = "GOMOKU_EVAL_MODEL";

/// Installs the model file named by [`MODEL_VAR`], if set (and not empty). Must run before the
/// first board is made.
///
/// # Errors
/// A file that cannot be read or is not a model.
pub fn install_from_env() -> Result<()> {
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
