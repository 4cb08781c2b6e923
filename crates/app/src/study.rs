//! Shared pieces of the study commands (`analyze`, `think`, `match`, `play`, and later `solve`):
//! choosing the search and evaluator by flags, and reading a position from the command line.

use crate::cli::BoardArgs;
use anyhow::{anyhow, bail, Context, Result};
use gomoku_engine::notation::{format_pos, parse_diagram, parse_moves};
use gomoku_engine::record::Record;
use gomoku_engine::search::SearchParams;
use gomoku_engine::study::{EvalKind, SearchKind, Searcher, SearcherSpec};
use gomoku_engine::{EngineConfig, Game, GameResult, Pos};
use std::path::PathBuf;

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

/// The `--board FILE` flag of the commands that take a position. Add it with
/// `#[command(flatten)]` beside [`crate::cli::BoardArgs`].
#[derive(Clone, Debug, Default, clap::Args)]
pub struct BoardFile {
    /// Start from the board in FILE (`-` for standard input): a diagram as `gomoku position`
    /// prints it, a position line (`15 renju h8 i9`) or a Piskvork `.psq` record.
    ///
    /// A diagram is a row of points per line, X for Black, O for White and . for empty, with
    /// an optional line `to move: white` (else Black moves when the counts are equal); its
    /// stones are a set-up position, which cannot be undone. A position line is the datasets'
    /// common format, as `gomoku position` prints it after `line:`: a game when its moves
    /// play as one, else a set-up position; it gives the rule too. A `.psq` record is its
    /// game, under `--rule`. Each gives the board size; the moves given are played from its
    /// position.
    #[arg(long = "board", value_name = "FILE", conflicts_with = "size")]
    pub path: Option<PathBuf>,
}

/// The position a command starts from: the board file's position, if any (a diagram or a
/// position line: see [`BoardFile`]), then the moves given on the command line as a game (game rules apply: a
/// five ends it) or, with `diagram`, as stones placed without rules.
///
/// # Errors
/// An unreadable or malformed diagram file, or one with a five already on the board; a
/// malformed point, an occupied point, a move after the end of the game; `diagram` with a
/// file.
pub fn load_position(
    board: BoardArgs,
    file: &BoardFile,
    moves: &[String],
    diagram: bool,
) -> Result<Game> {
    let text = moves.join(" ");
    let Some(path) = &file.path else {
        let (size, rule) = (board.size, board.rule());
        let game = if diagram {
            let moves = gomoku_engine::notation::parse_moves(&text, size)
                .with_context(|| format!("reading the position '{text}'"))?;
            Game::setup(size, rule, &moves)
        } else {
            Game::from_position(size, rule, &text)
        };
        return game.with_context(|| format!("reading the position '{text}'"));
    };
    if diagram {
        bail!("--diagram reads the moves as a whole position: it cannot follow --board");
    }
    let (contents, from) = if path.as_os_str() == "-" {
        let text = std::io::read_to_string(std::io::stdin())
            .context("reading the board from standard input")?;
        (text, "the board on standard input".to_string())
    } else {
        let from = format!("the board file {}", path.display());
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {from}"))?;
        (text, from)
    };
    // a Piskvork record, a line of the common format (size, rule, moves), or else a diagram
    let first = contents
        .lines()
        .find(|l| !Record::is_blank(l))
        .unwrap_or("");
    let mut game = if first
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("piskvorky")
    {
        let rec = crate::web::psq::parse(&contents).map_err(|e| anyhow!("{from}: {e}"))?;
        let list: Vec<Pos> = rec.moves.iter().map(|&(p, _)| p).collect();
        Game::from_moves(rec.size, board.rule(), &list).with_context(|| from.clone())?
    } else if let Ok(rec) = Record::parse(first) {
        if board.rule.is_some_and(|r| r != rec.rule) {
            bail!(
                "--rule {} differs from the rule of {from}'s position line ({})",
                board.rule(),
                rec.rule
            );
        }
        rec.start().with_context(|| from.clone())?
    } else {
        let d = parse_diagram(&contents).with_context(|| from.clone())?;
        Game::from_diagram(board.rule(), &d).with_context(|| from.clone())?
    };
    let list = parse_moves(&text, game.board().size())
        .with_context(|| format!("reading the moves '{text}' after {from}"))?;
    for (n, &p) in list.iter().enumerate() {
        game.play(p)
            .with_context(|| format!("move {} after {from}", n + 1))?;
    }
    Ok(game)
}

/// Like [`load_position`], and refuses positions with nothing to search (game over, full board).
///
/// # Errors
/// See [`load_position`]; a finished game; a full board.
pub fn searchable_position(
    board: BoardArgs,
    file: &BoardFile,
    moves: &[String],
    diagram: bool,
) -> Result<Game> {
    let game = load_position(board, file, moves, diagram)?;
    if game.is_over() {
        bail!("the game is already over: nothing to search");
    }
    if game.board().is_full() {
        bail!("the board is full");
    }
    Ok(game)
}

/// The points of `--exclude` (each value one point or several, separated by commas or blanks)
/// for a search of `game`: empty points, without repeats, that leave a legal move.
///
/// # Errors
/// A malformed or occupied point; a list that leaves no legal move.
pub fn excluded_points(game: &Game, values: &[String]) -> Result<Vec<Pos>> {
    let mut board = game.board().clone();
    let size = board.size();
    let mut out = Vec::new();
    for token in values
        .iter()
        .flat_map(|v| v.split(|c: char| c == ',' || c.is_whitespace()))
        .filter(|t| !t.is_empty())
    {
        let p = gomoku_engine::notation::parse_pos(token, size)
            .map_err(|e| anyhow!("--exclude: {e}"))?;
        if !board.is_empty(p) {
            bail!("--exclude: {token} is not an empty point");
        }
        if !out.contains(&p) {
            out.push(p);
        }
    }
    if !board.has_move_outside(&out) {
        bail!("--exclude leaves no legal move to search");
    }
    Ok(out)
}

/// A finished game's result in words (`none` while it goes on): the winner and the five, a
/// renju foul, or a draw.
#[must_use]
pub fn result_text(game: &Game) -> String {
    let size = game.board().size();
    match game.result() {
        None => "none".to_string(),
        Some(GameResult::Draw) => "draw (the board is full)".to_string(),
        Some(GameResult::Win {
            winner,
            foul: Some(k),
            ..
        }) => {
            let last = game
                .board()
                .last_move()
                .map_or(String::new(), |p| format_pos(p, size));
            format!("{winner} wins: black played the forbidden point {last} ({k})")
        }
        Some(GameResult::Win { winner, line, .. }) => {
            let line: Vec<String> = line.iter().map(|&p| format_pos(p, size)).collect();
            format!("{winner} wins with {}", line.join(" "))
        }
    }
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
