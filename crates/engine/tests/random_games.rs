//! Random make/unmake sequences: after every step the incremental state (Zobrist key, line
//! words, per-point patterns and threat classes, value sums, candidate counts) must equal a
//! board rebuilt from the stones alone.

use gomoku_engine::rng::{Rng, XorShift64};
use gomoku_engine::{Board, Pos, Rule};

fn random_walk(rule: Rule, size: usize, steps: usize, seed: u64) {
    let mut rng = XorShift64::new(seed);
    let mut b = Board::new(size, rule).unwrap();
    let mut keys: Vec<u64> = vec![b.key()];
    for step in 0..steps {
        let r = rng.below(100);
        if r < 25 && b.ply() > 0 {
            b.undo();
            keys.pop();
            assert_eq!(
                b.key(),
                *keys.last().unwrap(),
                "key after undo, step {step}"
            );
        } else if r < 28 {
            b.pass();
            keys.push(b.key());
        } else {
            let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            if empties.is_empty() {
                b.undo();
                keys.pop();
                continue;
            }
            // mostly near the action, so that lines fill up and patterns get rich
            let mut cands = Vec::new();
            b.for_each_candidate(|p| cands.push(p));
            let p = if !cands.is_empty() && rng.below(4) != 0 {
                cands[rng.below(cands.len())]
            } else {
                empties[rng.below(empties.len())]
            };
            b.play_unchecked(p);
            keys.push(b.key());
        }
        if let Err(e) = b.validate() {
            panic!(
                "{rule} {size}x{size} seed {seed} step {step}: {e}\nmoves: {}",
                b.position_string()
            );
        }
    }
}

#[test]
fn random_make_unmake_all_rules() {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for rule in Rule::ALL {
        for size in [15, 20, 7, 22] {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            random_walk(rule, size, 1500, seed | 1);
        }
    }
}
