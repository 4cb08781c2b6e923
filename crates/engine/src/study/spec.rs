//! Choosing a searcher and an evaluator by name, as the command line and match configurations do.

use super::{AlphaBeta, AnyEval, Greedy, Minimax, Searcher};
use crate::search::{Engine, EngineConfig, SearchParams};
use std::fmt;
use std::str::FromStr;

/// The evaluators by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The engine's pattern evaluation ([`PatternEval`](super::PatternEval)).
    #[default]
    Pattern,
    /// The five-tuple table ([`TupleEval`](super::TupleEval)).
    Tuple,
}

impl EvalKind {
    /// Every evaluator.
    pub const ALL: [EvalKind; 2] = [EvalKind::Pattern, EvalKind::Tuple];

    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EvalKind::Pattern => "pattern",
            EvalKind::Tuple => "tuple",
        }
    }

    /// The evaluator itself.
    #[must_use]
    pub const fn evaluator(self) -> AnyEval {
        match self {
            EvalKind::Pattern => AnyEval::Pattern,
            EvalKind::Tuple => AnyEval::Tuple,
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EvalKind {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "pattern" | "patterns" | "engine" => Ok(EvalKind::Pattern),
            "tuple" | "tuples" | "five-tuple" => Ok(EvalKind::Tuple),
            _ => Err(SpecError::UnknownEval(s.to_string())),
        }
    }
}

/// The searches by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearchKind {
    /// The engine ([`Engine`]): PVS with a transposition table, threat search and pruning.
    #[default]
    Pvs,
    /// Plain alpha-beta ([`AlphaBeta`]).
    AlphaBeta,
    /// Plain minimax ([`Minimax`]).
    Minimax,
    /// One ply ([`Greedy`]).
    Greedy,
}

impl SearchKind {
    /// Every search.
    pub const ALL: [SearchKind; 4] = [
        SearchKind::Pvs,
        SearchKind::AlphaBeta,
        SearchKind::Minimax,
        SearchKind::Greedy,
    ];

    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SearchKind::Pvs => "pvs",
            SearchKind::AlphaBeta => "alphabeta",
            SearchKind::Minimax => "minimax",
            SearchKind::Greedy => "greedy",
        }
    }
}

impl fmt::Display for SearchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SearchKind {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "pvs" | "engine" | "negascout" => Ok(SearchKind::Pvs),
            "alphabeta" | "alpha-beta" | "ab" => Ok(SearchKind::AlphaBeta),
            "minimax" | "negamax" => Ok(SearchKind::Minimax),
            "greedy" | "one-ply" => Ok(SearchKind::Greedy),
            _ => Err(SpecError::UnknownSearch(s.to_string())),
        }
    }
}

/// Why a component choice is not possible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// No evaluator of this name.
    UnknownEval(String),
    /// No search of this name.
    UnknownSearch(String),
    /// The engine's search only runs with its own incremental evaluation.
    PvsNeedsPattern(EvalKind),
    /// A search parameter override that does not apply (unknown name, bad value or a value out
    /// of range).
    BadParam(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnknownEval(s) => {
                write!(f, "'{s}': unknown evaluator (expected pattern or tuple)")
            }
            SpecError::UnknownSearch(s) => write!(
                f,
                "'{s}': unknown search (expected pvs, alphabeta, minimax or greedy)"
            ),
            SpecError::PvsNeedsPattern(e) => write!(
                f,
                "the pvs search uses the engine's own pattern evaluation, not '{e}'; \
                 choose --search alphabeta, minimax or greedy to try another evaluator"
            ),
            SpecError::BadParam(e) => write!(f, "search parameter: {e}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// A searcher chosen by name: the search, its evaluator, move ordering (alpha-beta only) and
/// the engine's settings (pvs only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearcherSpec {
    /// The search.
    pub search: SearchKind,
    /// The evaluation at the horizon.
    pub eval: EvalKind,
    /// Move ordering for alpha-beta (the others ignore it).
    pub ordering: bool,
    /// Table size and threads of the engine (pvs only).
    pub engine: EngineConfig,
    /// Search parameter overrides `(name, value)` of the engine (pvs only), applied in order
    /// over the defaults (see [`crate::search::SearchParams::set`]).
    pub params: Vec<(String, String)>,
}

impl Default for SearcherSpec {
    fn default() -> Self {
        SearcherSpec {
            search: SearchKind::Pvs,
            eval: EvalKind::Pattern,
            ordering: true,
            engine: EngineConfig::default(),
            params: Vec::new(),
        }
    }
}

impl SearcherSpec {
    /// Checks that the combination exists.
    ///
    /// # Errors
    /// [`SpecError::PvsNeedsPattern`] for the engine with another evaluator.
    pub fn validate(&self) -> Result<(), SpecError> {
        if self.search == SearchKind::Pvs && self.eval != EvalKind::Pattern {
            return Err(SpecError::PvsNeedsPattern(self.eval));
        }
        self.search_params()?;
        Ok(())
    }

    /// The engine's search parameters: the defaults with the overrides applied.
    ///
    /// # Errors
    /// [`SpecError::BadParam`] for an unknown name or a value that does not parse or is out of
    /// range.
    pub fn search_params(&self) -> Result<SearchParams, SpecError> {
        let mut p = SearchParams::default();
        for (name, value) in &self.params {
            p.set(name, value).map_err(SpecError::BadParam)?;
        }
        Ok(p)
    }

    /// A short label: `pvs`, `alphabeta/tuple`, `alphabeta-noorder/pattern`, ...
    #[must_use]
    pub fn label(&self) -> String {
        match self.search {
            SearchKind::Pvs => "pvs".to_string(),
            SearchKind::AlphaBeta if !self.ordering => {
                format!("alphabeta-noorder/{}", self.eval)
            }
            s => format!("{s}/{}", self.eval),
        }
    }

    /// Makes the searcher (for pvs, allocates the engine's table now).
    ///
    /// # Errors
    /// See [`SearcherSpec::validate`].
    pub fn build(&self) -> Result<Box<dyn Searcher>, SpecError> {
        self.validate()?;
        let eval = self.eval.evaluator();
        Ok(match self.search {
            SearchKind::Pvs => {
                let mut engine = Engine::new(self.engine.clone());
                engine.set_params(self.search_params()?);
                Box::new(engine)
            }
            SearchKind::AlphaBeta => Box::new(AlphaBeta {
                eval,
                ordering: self.ordering,
            }),
            SearchKind::Minimax => Box::new(Minimax { eval }),
            SearchKind::Greedy => Box::new(Greedy { eval }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in EvalKind::ALL {
            assert_eq!(e.name().parse::<EvalKind>(), Ok(e));
        }
        for s in SearchKind::ALL {
            assert_eq!(s.name().parse::<SearchKind>(), Ok(s));
        }
        assert_eq!(
            "Alpha-Beta".parse::<SearchKind>(),
            Ok(SearchKind::AlphaBeta)
        );
        let e = "mcts".parse::<SearchKind>().unwrap_err();
        assert!(e.to_string().contains("'mcts'"), "{e}");
        assert!("x".parse::<EvalKind>().is_err());
    }

    #[test]
    fn builds_every_valid_combination_and_refuses_pvs_with_tuple() {
        for s in SearchKind::ALL {
            for e in EvalKind::ALL {
                let spec = SearcherSpec {
                    search: s,
                    eval: e,
                    ordering: false,
                    engine: EngineConfig {
                        hash_mb: 1,
                        threads: 1,
                    },
                    params: Vec::new(),
                };
                match spec.build() {
                    Ok(b) => assert_eq!(b.name(), spec.label()),
                    Err(err) => {
                        assert_eq!((s, e), (SearchKind::Pvs, EvalKind::Tuple));
                        assert!(err.to_string().contains("pattern"));
                    }
                }
            }
        }
    }
}
