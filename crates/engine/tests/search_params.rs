//! Every search parameter at both ends of its range (`SearchParams::set` refuses values beyond
//! them), alone and all together: a short search on one thread and on two (Young Brothers Wait,
//! or Lazy SMP where the parameters turn it off) comes back with a legal move, without a panic,
//! an overflow (debug builds check) or a runaway tree.

use gomoku_engine::notation::format_moves;
use gomoku_engine::search::params::{Range, PARAMS};
use gomoku_engine::search::SearchParams;
use gomoku_engine::{Engine, EngineConfig, Game, Limits, Rule, SearchOptions};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Openings of the bench: threats on both sides (fours, forced blocks, VCF lines at the
/// horizon), and a renju position where Black has forbidden points to avoid.
const POSITIONS: &[(Rule, &str)] = &[
    (Rule::Freestyle, "h8 g9 f10 g8 g7"),
    (Rule::Standard, "f10 i7 h8"),
    (Rule::Renju, "h8 h7 h10 i6 i10 i7 g7 g8 j5 i9"),
];

/// Deep enough for the pruning, reductions, extensions and split points of the search to take
/// part (with their thresholds at either end), short enough for debug builds: the whole test
/// takes about two seconds, no search more than 17,000 nodes.
const DEPTH: i32 = 8;

/// Far above what any of these searches needs: one that gets there has run away.
const NODES: u64 = 1_000_000;

/// The two ends of a range, as text for [`SearchParams::set`].
fn ends(range: Range) -> [String; 2] {
    match range {
        Range::Int(lo, hi) => [lo.to_string(), hi.to_string()],
        Range::Float(lo, hi) => [lo.to_string(), hi.to_string()],
        Range::Switch => ["0".into(), "1".into()],
    }
}

#[test]
fn every_parameter_at_both_ends_of_its_range_gives_a_legal_move() {
    let games: Vec<Game> = POSITIONS
        .iter()
        .map(|&(rule, moves)| Game::from_position(15, rule, moves).expect("a valid position"))
        .collect();
    // every parameter at its minimum, then every one at its maximum, then each alone
    let mut cases: Vec<(String, SearchParams)> = Vec::new();
    for (end, label) in [(0, "all at the minimum"), (1, "all at the maximum")] {
        let mut params = SearchParams::default();
        for param in PARAMS {
            params
                .set(param.name, &ends(param.range)[end])
                .unwrap_or_else(|e| panic!("{param:?}: {e}"));
        }
        cases.push((label.to_string(), params));
    }
    for param in PARAMS {
        for value in ends(param.range) {
            let mut params = SearchParams::default();
            params
                .set(param.name, &value)
                .unwrap_or_else(|e| panic!("{param:?}: {e}"));
            cases.push((format!("{}={value}", param.name), params));
        }
    }
    let mut slowest = (0.0, String::new());
    for (label, params) in &cases {
        for threads in [1, 2] {
            for game in &games {
                let board = game.board();
                let what = format!(
                    "{label}, {threads} threads, {} {}",
                    board.rule(),
                    format_moves(board.moves(), board.size())
                );
                let mut engine = Engine::new(EngineConfig {
                    hash_mb: 1,
                    threads,
                });
                engine.set_params(params.clone());
                let stop = AtomicBool::new(false);
                let t = Instant::now();
                let res = engine.search(
                    board,
                    &Limits {
                        depth: Some(DEPTH),
                        nodes: Some(NODES),
                        ..Limits::default()
                    },
                    &SearchOptions::default(),
                    &stop,
                    &mut |_| {},
                );
                let secs = t.elapsed().as_secs_f64();
                if secs > slowest.0 {
                    slowest = (secs, what.clone());
                }
                assert_eq!(
                    res.depth, DEPTH,
                    "{what}: stopped by the node limit ({} nodes)",
                    res.stats.nodes
                );
                assert!(board.is_empty(res.best_move), "{what}: {:?}", res.best_move);
                assert_eq!(res.pv.first(), Some(&res.best_move), "{what}");
                if board.rule() == Rule::Renju {
                    assert!(
                        !board.clone().is_forbidden(res.best_move),
                        "{what}: {:?}",
                        res.best_move
                    );
                }
            }
        }
    }
    eprintln!(
        "{} searches; the slowest, {:.3} s: {}",
        cases.len() * 2 * games.len(),
        slowest.0,
        slowest.1
    );
}

#[test]
#[should_panic(expected = "history_divisor")]
fn the_engine_refuses_parameters_out_of_range_set_field_by_field() {
    // the fields are public, so a struct can skip `set`'s checks; a zero divisor would divide
    // by zero in the move ordering
    let params = SearchParams {
        history_divisor: 0,
        ..SearchParams::default()
    };
    assert!(params.validate().is_err());
    Engine::new(EngineConfig::default()).set_params(params);
}
