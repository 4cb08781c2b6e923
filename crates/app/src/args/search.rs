//! The flags that choose the search and the evaluator ([`ComponentArgs`]), the search
//! parameter overrides of `--set NAME=VALUE`, and the limits on the table and the threads.

use anyhow::{anyhow, bail, Result};
use gomoku_engine::search::SearchParams;
use gomoku_engine::study::{EvalKind, SearchKind, Searcher, SearcherSpec};
use gomoku_engine::EngineConfig;

/// Flags that choose the search and the evaluator. Add them to a command with
/// `#[command(flatten)]`.
#[derive(Clone, Debug, clap::Args)]
pub struct ComponentArgs {
    /// Search: pvs (the engine), alphabeta (plain, no table), minimax or greedy (one ply).
    #[arg(long, default_value = "pvs", value_parser = parse_search)]
    pub search: SearchKind,
    /// Evaluation at the horizon of alphabeta, minimax and greedy: pattern (the engine's) or
    /// tuple (five-tuple table).
    #[arg(long, default_value = "pattern", value_parser = parse_eval)]
    pub eval: EvalKind,
    /// Alpha-beta without move ordering: candidates in board order (row by row).
    #[arg(long)]
    pub no_ordering: bool,
}

/// The threads and the transposition table of a search. Add them to a command with
/// `#[command(flatten)]`.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct TableArgs {
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
}

/// The flags of a search of one position (`think`, `analyze`): the searcher, its threads and
/// table, a node limit, parameter overrides and points left out. Add them to a command with
/// `#[command(flatten)]`.
#[derive(Clone, Debug, clap::Args)]
pub struct SearchArgs {
    /// Search and evaluator (the engine by default).
    #[command(flatten)]
    pub components: ComponentArgs,
    /// Threads and table.
    #[command(flatten)]
    pub table: TableArgs,
    /// Stop after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Override a search parameter (`name=value`, repeatable; pvs only; for tuning
    /// experiments).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Leave these points out of the search: the best move among the others (`g8,l8`;
    /// repeatable).
    #[arg(long, value_name = "POINTS")]
    pub exclude: Vec<String>,
}

impl SearchArgs {
    /// Builds the searcher of these flags, for a search to `depth` if one is given.
    ///
    /// # Errors
    /// No thread, a depth below 1; see [`ComponentArgs::spec`].
    pub fn build(&self, depth: Option<i32>) -> Result<(SearcherSpec, Box<dyn Searcher>)> {
        if self.table.threads == 0 {
            bail!("--threads must be at least 1");
        }
        if depth.is_some_and(|d| d < 1) {
            bail!("--depth must be at least 1");
        }
        self.components
            .build(self.table.hash_mb, self.table.threads, &self.set)
    }

    /// The points of `--exclude` for a search of `game`: see [`super::excluded_points`].
    ///
    /// # Errors
    /// See [`super::excluded_points`].
    pub fn excluded(&self, game: &gomoku_engine::Game) -> Result<Vec<gomoku_engine::Pos>> {
        super::excluded_points(game, &self.exclude)
    }
}

/// The largest table the commands accept, as the pbrain protocol's clamp.
pub const MAX_HASH_MB: usize = crate::pbrain::settings::MAX_HASH_MB;

/// Most search threads the commands accept (a typo guard: every thread is a real thread).
pub const MAX_THREADS: usize = 256;

/// Refuses a `--hash-mb` beyond [`MAX_HASH_MB`].
///
/// # Errors
/// The table is too large.
pub fn check_hash_mb(hash_mb: usize) -> Result<()> {
    if hash_mb > MAX_HASH_MB {
        bail!("--hash-mb {hash_mb}: the table is at most {MAX_HASH_MB} MB");
    }
    Ok(())
}

impl ComponentArgs {
    /// The searcher these flags choose, with the engine settings used by pvs and the search
    /// parameter overrides of `--set NAME=VALUE` (see [`parse_overrides`]).
    ///
    /// # Errors
    /// An impossible combination (pvs with another evaluator than pattern), a table or a
    /// thread count beyond [`MAX_HASH_MB`] or [`MAX_THREADS`], overrides for another search
    /// than pvs, and overrides that are malformed, unknown or out of range.
    pub fn spec(&self, hash_mb: usize, threads: usize, set: &[String]) -> Result<SearcherSpec> {
        check_hash_mb(hash_mb)?;
        if threads > MAX_THREADS {
            bail!("--threads {threads}: at most {MAX_THREADS} threads");
        }
        if !set.is_empty() && self.search != SearchKind::Pvs {
            bail!("--set only applies to the engine's search (pvs)");
        }
        let spec = SearcherSpec {
            search: self.search,
            eval: self.eval,
            ordering: !self.no_ordering,
            engine: EngineConfig {
                hash_mb: hash_mb.max(1),
                threads: threads.max(1),
            },
            params: parse_overrides(set)?,
        };
        spec.validate()?;
        Ok(spec)
    }

    /// Builds the searcher.
    ///
    /// # Errors
    /// See [`ComponentArgs::spec`].
    pub fn build(
        &self,
        hash_mb: usize,
        threads: usize,
        set: &[String],
    ) -> Result<(SearcherSpec, Box<dyn Searcher>)> {
        let spec = self.spec(hash_mb, threads, set)?;
        let s = spec.build()?;
        Ok((spec, s))
    }
}

/// Splits the search parameter overrides of `--set NAME=VALUE` (`think`, `analyze`, `bench`)
/// into names and values; [`SearchParams::set`] checks them.
///
/// # Errors
/// An override without `=`.
pub fn parse_overrides(overrides: &[String]) -> Result<Vec<(String, String)>> {
    overrides
        .iter()
        .map(|o| {
            let (name, value) = o
                .split_once('=')
                .ok_or_else(|| anyhow!("--set '{o}': expected --set NAME=VALUE"))?;
            Ok((name.trim().to_string(), value.trim().to_string()))
        })
        .collect()
}

/// The default search parameters with the overrides of `--set NAME=VALUE` applied.
///
/// # Errors
/// Malformed overrides, unknown names, values that do not parse or are out of range.
pub fn params_with(overrides: &[String]) -> Result<SearchParams> {
    let mut p = SearchParams::default();
    for (name, value) in parse_overrides(overrides)? {
        p.set(&name, &value)
            .map_err(|e| anyhow!("search parameter: {e}"))?;
    }
    Ok(p)
}

/// The environment variable of search parameter overrides for `pbrain-gomoku` and `gomoku pbrain`, as
/// `NAME=VALUE` pairs separated by commas or spaces (`GOMOKU_SEARCH_SET="lmr_scale_pct=80"`):
/// the `--set` of the commands, for a brain started by a manager that passes no arguments.
pub const SEARCH_SET_VAR: &str = "GOMOKU_SEARCH_SET";

static ENV_PARAMS: std::sync::OnceLock<SearchParams> = std::sync::OnceLock::new();

/// Reads the overrides of [`SEARCH_SET_VAR`], if set, for [`session_params`]. Call once at
/// start.
///
/// # Errors
/// Malformed overrides, unknown names, values that do not parse or are out of range.
pub fn install_params_from_env() -> Result<()> {
    let Some(text) = std::env::var_os(SEARCH_SET_VAR) else {
        return Ok(());
    };
    let text = text
        .into_string()
        .map_err(|_| anyhow!("{SEARCH_SET_VAR}: not valid text"))?;
    let params = params_from_list(&text).map_err(|e| anyhow!("{SEARCH_SET_VAR}: {e:#}"))?;
    // a second call keeps the first reading
    let _ = ENV_PARAMS.set(params);
    Ok(())
}

/// The parameters of a list of `NAME=VALUE` pairs separated by commas or spaces.
///
/// # Errors
/// As [`params_with`].
pub fn params_from_list(text: &str) -> Result<SearchParams> {
    let overrides: Vec<String> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    params_with(&overrides)
}

/// The search parameters of the engine's sessions: the defaults with the overrides read by
/// [`install_params_from_env`].
#[must_use]
pub fn session_params() -> SearchParams {
    ENV_PARAMS.get().cloned().unwrap_or_default()
}

/// The parameters of `params` that differ from the defaults, as `NAME=VALUE` pairs separated
/// by spaces (empty when none does).
#[must_use]
pub fn changed_params(params: &SearchParams) -> String {
    let defaults = SearchParams::default();
    gomoku_engine::search::params::PARAMS
        .iter()
        .filter(|p| p.get(params) != p.get(&defaults))
        .map(|p| format!("{}={}", p.name, p.get(params)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses a search name for clap.
pub fn parse_search(s: &str) -> Result<SearchKind, String> {
    s.parse()
        .map_err(|e: gomoku_engine::study::SpecError| e.to_string())
}

/// Parses an evaluator name for clap.
pub fn parse_eval(s: &str) -> Result<EvalKind, String> {
    s.parse()
        .map_err(|e: gomoku_engine::study::SpecError| e.to_string())
}

/// Property tests of the `--set NAME=VALUE` overrides ([`parse_overrides`], [`params_with`]):
/// any list, random or valid with one entry broken, gives trimmed pairs (one per entry) or an
/// error quoting the entry without `=` (never a panic); parameters built from accepted
/// overrides are within their ranges; and pairs written as `NAME=VALUE` read back equal.
#[cfg(test)]
mod props {
    use super::*;
    use crate::prop_support::{config, near_valid, noise, number};
    use gomoku_engine::search::params::PARAMS;
    use proptest::prelude::*;

    /// One `--set` value: a parameter with a value that may be out of range, or anything.
    fn override_text() -> impl Strategy<Value = String> {
        let param = prop::sample::select(PARAMS.iter().map(|p| p.name).collect::<Vec<_>>());
        prop_oneof![
            3 => near_valid(
                (param, number()).prop_map(|(p, v)| vec![p.to_string(), v]),
                "=",
            ),
            1 => noise(),
        ]
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn overrides_read_or_fail_cleanly(list in prop::collection::vec(override_text(), 0..4)) {
            match parse_overrides(&list) {
                Ok(pairs) => {
                    prop_assert_eq!(pairs.len(), list.len());
                    for (o, (name, value)) in list.iter().zip(&pairs) {
                        prop_assert!(o.contains('='));
                        prop_assert_eq!(name.trim(), name.as_str());
                        prop_assert_eq!(value.trim(), value.as_str());
                        prop_assert!(!name.contains('='));
                    }
                    match params_with(&list) {
                        Ok(p) => prop_assert!(p.validate().is_ok()),
                        Err(e) => prop_assert!(e.to_string().starts_with("search parameter: ")),
                    }
                }
                Err(e) => {
                    let bad = list.iter().find(|o| !o.contains('=')).expect("an entry without =");
                    prop_assert!(e.to_string().contains(&format!("--set '{bad}'")), "{}", e);
                    prop_assert!(params_with(&list).is_err());
                }
            }
        }

        #[test]
        fn overrides_round_trip(pairs in prop::collection::vec(
            ("[a-z_]{0,12}", "([!-~]([ -~]{0,8}[!-~])?)?"),
            0..4,
        )) {
            let list: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}={v}")).collect();
            prop_assert_eq!(parse_overrides(&list).map_err(|e| e.to_string()), Ok(pairs));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_overrides_reads_with_commas_or_spaces() {
        let p = params_from_list(" lmr_scale_pct=80, move_count_base=4.5 killer_bonus=200 ")
            .expect("list");
        assert_eq!(p.lmr_scale_pct, 80);
        assert!((p.move_count_base - 4.5).abs() < 1e-6);
        assert_eq!(p.killer_bonus, 200);
        assert_eq!(
            params_from_list("").expect("empty"),
            SearchParams::default()
        );
        assert_eq!(
            changed_params(&p),
            "lmr_scale_pct=80 move_count_base=4.5 killer_bonus=200"
        );
        assert_eq!(changed_params(&SearchParams::default()), "");
    }

    #[test]
    fn a_bad_list_is_refused_with_the_reason() {
        for (text, reason) in [
            ("lmr_scale_pct", "expected --set NAME=VALUE"),
            ("no_such_parameter=1", "no_such_parameter"),
            ("lmr_scale_pct=many", "lmr_scale_pct"),
        ] {
            let e = params_from_list(text).expect_err(text).to_string();
            assert!(e.contains(reason), "{text}: {e}");
        }
    }
}
