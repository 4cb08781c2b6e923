//! Tuning aid: plays the engine against itself with two sets of search parameters at a fixed
//! node budget (or time) per move, from the shared openings, both colours, on 2 threads.
//!
//! cargo run --release --example selfplay -- NODES GAMES [a:name=value ...] [b:name=value ...]
//! (NODES may be written `t100` for 100 ms per move.) RULES=freestyle,renju picks openings.

use gomoku_engine::record::Record;
use gomoku_engine::search::SearchParams;
use gomoku_engine::{Color, Engine, EngineConfig, Game, GameResult, Limits, SearchOptions};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let budget = args.first().cloned().unwrap_or_else(|| "20000".into());
    let limits = if let Some(ms) = budget.strip_prefix('t') {
        Limits {
            move_time_ms: Some(ms.parse().unwrap()),
            ..Limits::default()
        }
    } else {
        Limits {
            nodes: Some(budget.parse().unwrap()),
            ..Limits::default()
        }
    };
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let filter = std::env::var("RULES").unwrap_or_else(|_| "freestyle".into());
    let mut pa = SearchParams::default();
    let mut pb = SearchParams::default();
    for a in &args[2.min(args.len())..] {
        let (side, kv) = a.split_at(2);
        let (k, v) = kv.split_once('=').expect("name=value");
        match side {
            "a:" => pa.set(k, v).unwrap(),
            "b:" => pb.set(k, v).unwrap(),
            _ => panic!("a:name=value or b:name=value"),
        }
    }
    let path = format!(
        "{}/../../../shared/data/openings/openings.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let openings: Vec<Record> = text
        .lines()
        .filter_map(|l| Record::parse(l).ok())
        .filter(|r| filter.split(',').any(|f| f == r.rule.name()) && r.size == 15)
        .collect();
    let next = AtomicUsize::new(0);
    let tally = Mutex::new((0usize, 0usize, 0usize));
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let mut ea = Engine::new(EngineConfig {
                    hash_mb: 16,
                    threads: 1,
                });
                let mut eb = Engine::new(EngineConfig {
                    hash_mb: 16,
                    threads: 1,
                });
                ea.set_params(pa.clone());
                eb.set_params(pb.clone());
                let stop = AtomicBool::new(false);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let op = &openings[(g / 2) % openings.len()];
                    let a_black = g % 2 == 0;
                    let text = gomoku_engine::notation::format_moves(&op.moves, op.size);
                    let Ok(mut game) = Game::from_position(op.size, op.rule, &text) else {
                        continue;
                    };
                    ea.clear_hash();
                    eb.clear_hash();
                    let result = loop {
                        if let Some(r) = game.result() {
                            break Some(r.clone());
                        }
                        if game.board().is_full() {
                            break None;
                        }
                        let black = game.board().to_move() == Color::Black;
                        let e = if black == a_black { &mut ea } else { &mut eb };
                        let res = e.search(
                            game.board(),
                            &limits,
                            &SearchOptions::default(),
                            &stop,
                            &mut |_| {},
                        );
                        game.play(res.best_move).expect("legal move");
                    };
                    let mut t = tally.lock().unwrap();
                    match result {
                        Some(GameResult::Win { winner, .. }) => {
                            if (winner == Color::Black) == a_black {
                                t.0 += 1
                            } else {
                                t.1 += 1
                            }
                        }
                        _ => t.2 += 1,
                    }
                    eprint!(
                        "\r{} games: A {} B {} D {}   ",
                        t.0 + t.1 + t.2,
                        t.0,
                        t.1,
                        t.2
                    );
                }
            });
        }
    });
    let (wa, wb, d) = *tally.lock().unwrap();
    let n = (wa + wb + d) as f64;
    let score = (wa as f64 + 0.5 * d as f64) / n;
    let elo = if score > 0.0 && score < 1.0 {
        -400.0 * (1.0 / score - 1.0).log10()
    } else {
        f64::NAN
    };
    let se = (score * (1.0 - score) / n).sqrt();
    let lo = -400.0 * (1.0 / (score - 1.96 * se).clamp(0.001, 0.999) - 1.0).log10();
    let hi = -400.0 * (1.0 / (score + 1.96 * se).clamp(0.001, 0.999) - 1.0).log10();
    println!("\nA {wa} B {wb} D {d}  score {score:.3}  elo(A-B) {elo:+.0} [{lo:+.0}, {hi:+.0}]");
}
