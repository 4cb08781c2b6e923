//! Tuning aid: plays the engine against itself with two sets of search parameters at a fixed
//! node budget per move (machine-independent), from the shared openings, both colours.
//!
//! cargo run --release --example selfplay -- NODES GAMES [a:name=value ...] [b:name=value ...]

use gomoku_engine::record::Record;
use gomoku_engine::search::SearchParams;
use gomoku_engine::{Engine, EngineConfig, Game, GameResult, Limits, SearchOptions};
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(20_000);
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
    let (mut wa, mut wb, mut draws) = (0, 0, 0);
    let mut ea = Engine::new(EngineConfig {
        hash_mb: 16,
        threads: 1,
    });
    let mut eb = Engine::new(EngineConfig {
        hash_mb: 16,
        threads: 1,
    });
    ea.set_params(pa);
    eb.set_params(pb);
    let stop = AtomicBool::new(false);
    for g in 0..games {
        let op = &openings[(g / 2) % openings.len()];
        let a_black_first = g % 2 == 0;
        let mut game = op.game().unwrap();
        let mut game2 = Game::from_position(
            op.size,
            op.rule,
            &gomoku_engine::notation::format_moves(&op.moves, op.size),
        );
        if let Ok(g2) = game2.as_mut() {
            game = g2.clone();
        }
        let result = loop {
            if let Some(r) = game.result() {
                break Some(r.clone());
            }
            if game.board().is_full() {
                break None;
            }
            let black = game.board().to_move() == gomoku_engine::Color::Black;
            let a_to_move = black == a_black_first;
            let e = if a_to_move { &mut ea } else { &mut eb };
            let res = e.search(
                game.board(),
                &Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                },
                &SearchOptions::default(),
                &stop,
                &mut |_| {},
            );
            if game.play(res.best_move).is_err() {
                panic!("illegal move {:?}", res.best_move);
            }
        };
        match result {
            Some(GameResult::Win { winner, .. }) => {
                let a_won = (winner == gomoku_engine::Color::Black) == a_black_first;
                if a_won {
                    wa += 1
                } else {
                    wb += 1
                }
            }
            _ => draws += 1,
        }
        eprint!("\rgame {}/{games}: A {wa} B {wb} D {draws}   ", g + 1);
    }
    let score = (wa as f64 + 0.5 * draws as f64) / games as f64;
    let elo = if score > 0.0 && score < 1.0 {
        -400.0 * (1.0 / score - 1.0).log10()
    } else {
        f64::NAN
    };
    println!(
        "\nA {wa} B {wb} D {draws}  score {:.3}  elo(A-B) {:+.0}",
        score, elo
    );
}
