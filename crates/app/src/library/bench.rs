//! The library's benchmark (`gomoku library bench`): many games imported into a new library,
//! the time it takes, explorer queries on positions of every depth, and the file's size per
//! game.
//!
//! The games are lines of the common position format: a self-play corpus (`gomoku selfplay`
//! writes one), or games made up by [`random_games`]: from a seed, each move a random empty
//! point next to the stones already there, until a five or a random length (15 to 70 moves),
//! so that they share their first moves as played games do and part soon after.

use super::symmetry::SymHash;
use super::Library;
use gomoku_engine::notation::format_moves;
use gomoku_engine::rng::{Rng, SplitMix64};
use gomoku_engine::{Game, Pos, Rule};
use serde::Serialize;
use std::time::Instant;

/// `count` made-up games of freestyle on 15x15 from `seed`, as position lines (`15 freestyle
/// h8 i9 ... | game=N result=black`).
#[must_use]
pub fn random_games(count: usize, seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    let size = 15;
    (0..count)
        .map(|n| {
            let mut g = Game::new(size, Rule::Freestyle).expect("a board");
            let length = 15 + rng.below(56);
            // the first move near the centre, the next ones beside a stone
            let mut moves: Vec<Pos> = Vec::new();
            while moves.len() < length && !g.is_over() {
                let p = if moves.is_empty() {
                    Pos::new(5 + rng.below(5), 5 + rng.below(5))
                } else {
                    let near = moves[rng.below(moves.len())];
                    let (dx, dy) = (rng.below(5) as isize - 2, rng.below(5) as isize - 2);
                    let (x, y) = (near.x() as isize + dx, near.y() as isize + dy);
                    if x < 0 || y < 0 || x >= size as isize || y >= size as isize {
                        continue;
                    }
                    Pos::new(x as usize, y as usize)
                };
                if g.board().is_empty(p) && g.play(p).is_ok() {
                    moves.push(p);
                }
            }
            let result = match g.result() {
                Some(gomoku_engine::GameResult::Win { winner, .. }) => winner.name(),
                Some(gomoku_engine::GameResult::Draw) => "draw",
                None => "none",
            };
            format!(
                "15 freestyle {} | game={} result={result}",
                format_moves(&moves, size),
                n + 1
            )
        })
        .collect()
}

/// The figures of a benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Games read.
    pub games: usize,
    /// Games added (the others were found to be there already).
    pub added: usize,
    /// Seconds the import took.
    pub import_s: f64,
    /// Explorer queries made.
    pub queries: usize,
    /// The slowest query, in milliseconds.
    pub query_max_ms: f64,
    /// The median query.
    pub query_median_ms: f64,
    /// The 99th percentile of the queries.
    pub query_p99_ms: f64,
    /// The query of the empty board (every game goes through it).
    pub query_start_ms: f64,
    /// The file's size with its log.
    pub bytes: u64,
    /// Bytes per game.
    pub bytes_per_game: u64,
}

/// Imports `lines` into `lib` (one transaction), then explores the empty board and the
/// positions after 1 to 60 moves of every 500th game.
///
/// # Errors
/// A library error.
pub fn run(lib: &Library, lines: &str, games: usize) -> super::Result<BenchReport> {
    lib.set_bulk(true)?;
    let started = Instant::now();
    let report = lib.import_bytes("bench.txt", lines.as_bytes(), Rule::Freestyle)?;
    lib.set_bulk(false)?;
    lib.checkpoint()?;
    let import_s = started.elapsed().as_secs_f64();
    if let Some(f) = report.failed.first() {
        return Err(super::LibraryError(format!("{}: {}", f.file, f.error)));
    }
    let mut times = Vec::new();
    let mut time = |at: &SymHash| -> super::Result<f64> {
        let t = Instant::now();
        lib.explore(at, 20, 0)?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        times.push(ms);
        Ok(ms)
    };
    let start_ms = time(&SymHash::new(15, Rule::Freestyle))?;
    for line in lines.lines().step_by(500) {
        let Ok(rec) = gomoku_engine::record::Record::parse(line) else {
            continue;
        };
        let mut at = SymHash::new(rec.size, rec.rule);
        for &p in rec.moves.iter().take(60) {
            at.play(p);
            time(&at)?;
        }
    }
    times.sort_by(f64::total_cmp);
    let stats = lib.stats()?;
    Ok(BenchReport {
        games,
        added: report.added,
        import_s,
        queries: times.len(),
        query_max_ms: times.last().copied().unwrap_or(0.0),
        query_median_ms: times.get(times.len() / 2).copied().unwrap_or(0.0),
        query_p99_ms: times.get(times.len() * 99 / 100).copied().unwrap_or(0.0),
        query_start_ms: start_ms,
        bytes: stats.bytes,
        bytes_per_game: stats.bytes / (stats.games.max(1) as u64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_games_are_the_same_for_a_seed_and_import() {
        let a = random_games(20, 3);
        assert_eq!(a, random_games(20, 3));
        assert_ne!(a, random_games(20, 4));
        let dir = tempfile::tempdir().unwrap();
        let lib = Library::open(&dir.path().join("b.sqlite")).unwrap();
        let r = run(&lib, &a.join("\n"), 20).unwrap();
        assert_eq!((r.games, r.added), (20, 20));
        assert!(r.queries > 15 && r.bytes_per_game > 0, "{r:?}");
    }
}
