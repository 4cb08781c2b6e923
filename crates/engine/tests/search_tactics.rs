//! Table-driven search tests: wins in one are played, fives are blocked, renju Black never plays
//! a forbidden point, the stop flag is obeyed, and a legal move always comes back.
//!
//! The cases are the copies in `tests/data/` always, and the shared originals in
//! `../shared/data/rules/` and `../shared/data/tactics/` too when that folder is beside the
//! repository; without it, a line on standard error says that they are skipped.

use gomoku_engine::record::Record;
use gomoku_engine::rng::{Rng, XorShift64};
use gomoku_engine::search::{is_decisive, Score, ValueBound};
use gomoku_engine::{
    Board, Color, Engine, EngineConfig, Game, Limits, Pattern4, Pos, Rule, SearchOptions,
};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

mod shared_data;
use shared_data::shared_data;

fn data(name: &str) -> Vec<(String, Record)> {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![here.join("tests/data").join(name)];
    if let Some(shared) = shared_data("", &format!("the shared cases of {name}")) {
        // a dataset is in one of the two folders
        for sub in ["rules", "tactics"] {
            files.extend(Some(shared.join(sub).join(name)).filter(|p| p.exists()));
        }
    }
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for line in text.lines().filter(|l| !Record::is_blank(l)) {
            let r = Record::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            out.push((line.to_string(), r));
        }
    }
    out
}

fn search(board: &Board, limits: Limits) -> gomoku_engine::SearchResult {
    search_with(board, limits, None)
}

/// [`search`] with the search parameters `params` instead of the defaults.
fn search_with(
    board: &Board,
    limits: Limits,
    params: Option<gomoku_engine::search::params::SearchParams>,
) -> gomoku_engine::SearchResult {
    let mut e = Engine::new(EngineConfig {
        hash_mb: 4,
        threads: 1,
    });
    if let Some(params) = params {
        e.set_params(params);
    }
    let stop = AtomicBool::new(false);
    e.search(
        board,
        &limits,
        &SearchOptions::default(),
        &stop,
        &mut |_| {},
    )
}

fn points_of(board: &Board, color: Color, class: Pattern4) -> Vec<Pos> {
    board
        .points()
        .filter(|&p| board.is_empty(p) && board.threat(p, color) == class)
        .collect()
}

#[test]
fn plays_win_in_one_and_blocks_fives() {
    let mut seen = std::collections::HashSet::new();
    let (mut wins, mut blocks) = (0, 0);
    let mut failures = Vec::new();
    for (line, r) in data("rule-queries-alphagomoku.txt") {
        let pos_key = line.split('|').next().unwrap().trim().to_string();
        if !seen.insert(pos_key) {
            continue;
        }
        let game = r.game().unwrap();
        let board = game.board();
        let us = board.to_move();
        let fives = points_of(board, us, Pattern4::Five);
        let threats = points_of(board, us.opponent(), Pattern4::Five);
        if fives.is_empty() && threats.is_empty() {
            continue;
        }
        for limits in [
            Limits {
                depth: Some(1),
                ..Limits::default()
            },
            Limits {
                depth: Some(6),
                ..Limits::default()
            },
        ] {
            let res = search(board, limits);
            let mv = res.best_move;
            if !fives.is_empty() {
                if !fives.contains(&mv) {
                    failures.push(format!(
                        "{line}\n   should win with one of {fives:?}, played {mv:?}"
                    ));
                }
            } else if threats.len() == 1
                && !threats.contains(&mv)
                && !(us == Color::Black
                    && board.rule() == Rule::Renju
                    && board.clone().is_forbidden(threats[0]))
            {
                failures.push(format!(
                    "{line}\n   should block {threats:?}, played {mv:?}"
                ));
            }
            assert!(board.is_empty(mv), "{line}: occupied move");
        }
        if !fives.is_empty() {
            wins += 1;
        } else {
            blocks += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        wins >= 10 && blocks >= 1,
        "too few cases: {wins} wins, {blocks} blocks"
    );
}

#[test]
fn freestyle_tactics_outcomes() {
    for (line, r) in data("freestyle-tactics.txt") {
        let game = r.game().unwrap();
        let res = search(
            game.board(),
            Limits {
                nodes: Some(300_000),
                depth: Some(20),
                ..Limits::default()
            },
        );
        let win: Score = res.score;
        match r.get("outcome") {
            Some("win") => {
                assert!(
                    is_decisive(win) && win > 0,
                    "{line}: expected a proven win, got {}",
                    win
                );
                if let Some(best) = r.get("best").filter(|b| *b != "any") {
                    let allowed = r.points(best).unwrap();
                    assert!(
                        allowed.contains(&res.best_move),
                        "{line}: played {:?}",
                        res.best_move
                    );
                }
            }
            Some("not-win") => {
                // "not-win" labels and their `best=` defences come from depth-limited searches of
                // the source (minimax to depth 6 here); the engine looks deeper and may prefer
                // another defence. What it must never do is allow a win by fours: whatever it
                // plays, the opponent has no VCF afterwards when some move prevents one.
                let mut b = game.board().clone();
                let mut vcf = gomoku_engine::vcf::VcfSearcher::new();
                let refutes = |b: &mut Board, vcf: &mut gomoku_engine::vcf::VcfSearcher, m: Pos| {
                    b.play(m);
                    let ok = vcf.search(b, 250, 200_000).is_none();
                    b.undo();
                    ok
                };
                let any_refutes = r
                    .get("best")
                    .filter(|b| *b != "any")
                    .map(|best| r.points(best).unwrap())
                    .unwrap_or_default()
                    .into_iter()
                    .any(|m| refutes(&mut b, &mut vcf, m));
                if any_refutes {
                    assert!(
                        refutes(&mut b, &mut vcf, res.best_move),
                        "{line}: {:?} allows a VCF",
                        res.best_move
                    );
                }
            }
            other => panic!("{line}: unknown outcome {other:?}"),
        }
    }
}

#[test]
fn renju_black_never_plays_forbidden() {
    let mut rng = XorShift64::new(0xC0FFEE);
    let mut positions_with_forbidden = 0;
    for _ in 0..60 {
        let mut b = Board::new(15, Rule::Renju).unwrap();
        // dense black clusters make forbidden points likely
        for _ in 0..30 {
            let x = 4 + rng.below(7);
            let y = 4 + rng.below(7);
            let p = Pos::new(x, y);
            if !b.is_empty(p) {
                continue;
            }
            let want_black = rng.below(3) != 0;
            if (b.to_move() == Color::Black) != want_black {
                b.pass();
            }
            if b.threat(p, b.to_move()) == Pattern4::Five || b.is_forbidden(p) {
                continue;
            }
            b.play(p);
        }
        if b.to_move() != Color::Black {
            b.pass();
        }
        let forbidden = b.forbidden_points();
        if forbidden.is_empty() {
            continue;
        }
        positions_with_forbidden += 1;
        let res = search(
            &b,
            Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
        );
        let mut b2 = b.clone();
        assert!(b2.is_empty(res.best_move), "occupied");
        assert!(
            !b2.is_forbidden(res.best_move),
            "black played forbidden {:?} in {}",
            res.best_move,
            b.position_string()
        );
    }
    assert!(
        positions_with_forbidden >= 10,
        "only {positions_with_forbidden} positions had forbidden points"
    );
}

#[test]
fn stop_flag_ends_the_search_with_a_legal_move() {
    let mut b = Board::new(15, Rule::Freestyle).unwrap();
    for m in ["h8", "i9", "h9", "h10", "g8"] {
        b.play(gomoku_engine::notation::parse_pos(m, 15).unwrap());
    }
    let stop = AtomicBool::new(false);
    let mut e = Engine::new(EngineConfig {
        hash_mb: 4,
        threads: 2,
    });
    let res = std::thread::scope(|s| {
        let h = s.spawn(|| {
            e.search(
                &b,
                &Limits::default(),
                &SearchOptions::default(),
                &stop,
                &mut |_| {},
            )
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        stop.store(true, Ordering::Relaxed);
        h.join().unwrap()
    });
    assert!(b.is_empty(res.best_move));
    assert!(res.depth >= 1);
}

#[test]
fn always_a_legal_move() {
    // empty board: the centre
    let b = Board::new(15, Rule::Freestyle).unwrap();
    assert_eq!(
        search(
            &b,
            Limits {
                depth: Some(1),
                ..Limits::default()
            }
        )
        .best_move,
        b.centre()
    );
    // tiny node budget still gives a move
    let mut b = Board::new(9, Rule::Standard).unwrap();
    b.play(Pos::new(4, 4));
    let res = search(
        &b,
        Limits {
            nodes: Some(1),
            ..Limits::default()
        },
    );
    assert!(b.is_empty(res.best_move));
    // a nearly full board: the last empty point
    let mut b = Board::new(5, Rule::Freestyle).unwrap();
    let order = [
        0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 5, 6, 7, 8, 9, 15, 16, 17, 18, 19,
    ];
    for i in order {
        b.play(Pos::new(i % 5, i / 5));
    }
    let res = search(
        &b,
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    assert_eq!(res.best_move, Pos::new(4, 4));
}

#[test]
fn defends_against_the_opponents_vcf_when_possible() {
    // The VCF puzzles with the attacker's move passed: the engine defends, and must leave the
    // attacker without a VCF whenever some move can.
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(here.join("tests/data/renju-vcf-with-solutions.txt")).unwrap();
    let mut vcf = gomoku_engine::vcf::VcfSearcher::new();
    let (mut defended, mut hopeless) = (0, 0);
    for line in text.lines().filter(|l| !Record::is_blank(l)).take(40) {
        let r = Record::parse(line).unwrap();
        let mut b = r.game().unwrap().board().clone();
        b.pass();
        let us = b.to_move();
        let mut cands = Vec::new();
        b.for_each_candidate(|p| cands.push(p));
        let refuting: Vec<Pos> = cands
            .into_iter()
            .filter(|&m| {
                if us == Color::Black && b.is_forbidden(m) {
                    return false;
                }
                b.play(m);
                let ok = vcf.search(&mut b, 250, 100_000).is_none();
                b.undo();
                ok
            })
            .collect();
        let res = search(
            &b,
            Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
        );
        if refuting.is_empty() {
            hopeless += 1;
            continue;
        }
        assert!(
            refuting.contains(&res.best_move),
            "{line}\n  played {:?}, which allows a VCF; refutations: {refuting:?}",
            res.best_move
        );
        defended += 1;
    }
    assert!(
        defended >= 10,
        "only {defended} positions had a defence ({hopeless} hopeless)"
    );
}

#[test]
fn two_threads_reach_the_depth_limit_and_report_every_iteration_in_order() {
    // each thread with its own history (copied on joining a shared node) and with one shared
    for (rule, moves, shared_history) in [
        (Rule::Freestyle, "h8 g9 f10 g8 g7", "0"),
        (Rule::Renju, "h8 h7 j6 i7 f7", "0"),
        (Rule::Freestyle, "h8 g9 f10 g8 g7", "1"),
    ] {
        let mut b = Board::new(15, rule).unwrap();
        for m in moves.split_whitespace() {
            b.play(gomoku_engine::notation::parse_pos(m, 15).unwrap());
        }
        let mut e = Engine::new(EngineConfig {
            hash_mb: 8,
            threads: 2,
        });
        let mut params = gomoku_engine::search::SearchParams::default();
        params
            .set("shared_history", shared_history)
            .expect("a valid switch");
        e.set_params(params);
        let stop = AtomicBool::new(false);
        let mut depths = Vec::new();
        let res = e.search(
            &b,
            &Limits {
                depth: Some(9),
                ..Limits::default()
            },
            &SearchOptions::default(),
            &stop,
            &mut |ev| {
                if let gomoku_engine::search::SearchEvent::Iteration(info) = ev {
                    depths.push(info.depth);
                }
            },
        );
        assert_eq!(res.depth, 9, "{moves}");
        assert!(b.is_empty(res.best_move), "{moves}");
        assert_eq!(res.pv.first(), Some(&res.best_move), "{moves}");
        assert!(!depths.is_empty(), "{moves}: no progress reported");
        assert!(
            depths.windows(2).all(|w| w[0] < w[1]),
            "{moves}: iterations reported out of order: {depths:?}"
        );
    }
}

#[test]
fn symmetric_positions_search_one_root_move_of_each_image_class() {
    // White's candidates around a lone centre stone (the 5x5 square and the points three
    // steps away on its lines) fall into seven classes under the eight board symmetries
    let b = opening("h8");
    let r = search(&b, depth(3));
    assert_eq!(r.root_moves.len(), 7, "{:?}", r.root_moves);
    // a mirror image of each other under the diagonal: one of each pair
    let b = opening("h8 i9");
    let r = search(&b, depth(3));
    let sym = b.symmetries();
    assert_eq!(sym.len(), 2, "{sym:?}");
    let moves: Vec<Pos> = r.root_moves.iter().map(|m| m.pos).collect();
    for &m in &moves {
        let image = b.transform(m, sym[1]);
        assert!(image == m || !moves.contains(&image), "{m:?} and {image:?}");
    }
    // the moves on the mirror line and one of each pair off it
    let all = all_root_moves(&b);
    let on_line = all.iter().filter(|&&m| b.transform(m, sym[1]) == m).count();
    assert_eq!(
        moves.len(),
        on_line + (all.len() - on_line) / 2,
        "{moves:?}"
    );
    // when every root value is asked for, every move is searched
    let b = opening("h8");
    assert_eq!(all_root_moves(&b).len(), 32);
}

/// The root moves of a search asked for every root value.
fn all_root_moves(b: &Board) -> Vec<Pos> {
    let mut e = Engine::new(EngineConfig {
        hash_mb: 4,
        threads: 1,
    });
    let r = e.search(
        b,
        &depth(2),
        &SearchOptions {
            all_root_values: true,
            ..SearchOptions::default()
        },
        &AtomicBool::new(false),
        &mut |_| {},
    );
    r.root_moves.iter().map(|m| m.pos).collect()
}

/// A freestyle 15x15 position.
fn opening(moves: &str) -> Board {
    position(Rule::Freestyle, moves)
}

/// A 15x15 position under `rule`.
fn position(rule: Rule, moves: &str) -> Board {
    Game::from_position(15, rule, moves)
        .expect("valid")
        .board()
        .clone()
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn answers_a_threat_with_a_move_after_which_the_opponent_has_no_vct() {
    // From a game of the strength check lost at 100 ms per move. White threatens to make an
    // open four (h9 i10 j11), so Black must block at g8 or k12; a depth-9 search prefers g8,
    // after which White wins by continuous threats (i12 i13 k12 ...). With a time limit, the
    // engine spends part of it looking for the opponent's VCT after its best answers. The
    // tables evaluate (the network's depth-9 search already prefers k12), so that the check
    // is what changes the move.
    let game = Game::from_position(15, Rule::Freestyle, "h8 h9 h11 i11 j9 i10 j10 j11")
        .expect("valid position");
    let b = game.board();
    let g8 = gomoku_engine::notation::parse_pos("g8", 15).expect("a point");
    let tables = gomoku_engine::search::params::SearchParams {
        nnue: false,
        ..Default::default()
    };
    let search = |b: &Board, limits| search_with(b, limits, Some(tables.clone()));
    let untimed = search(b, depth(9));
    assert_eq!(
        untimed.best_move, g8,
        "without a time limit there is no VCT check"
    );
    let timed = search(
        b,
        Limits {
            depth: Some(9),
            move_time_ms: Some(5_000),
            ..Limits::default()
        },
    );
    assert_ne!(timed.best_move, g8);
    assert_ne!(
        search_with(b, depth(9), None).best_move,
        g8,
        "the network's choice"
    );
    let solve = |after: &Board, ms| {
        gomoku_engine::solver::Solver::new().solve(
            after,
            gomoku_engine::solver::SolveTask::Vct,
            gomoku_engine::solver::SolveLimits {
                time_ms: Some(ms),
                ..gomoku_engine::solver::SolveLimits::default()
            },
        )
    };
    // the move played leaves White without a VCT that the solver finds in a second, and g8
    // does not
    let mut after = b.clone();
    after.play(timed.best_move);
    let r = solve(&after, 1_000);
    assert!(!r.solved(), "{:?} lets White win: {r:?}", timed.best_move);
    let mut after = b.clone();
    after.play(g8);
    let r = solve(&after, 5_000);
    assert!(r.solved(), "{r:?}");
}

#[test]
fn a_quiet_root_gets_no_vct_check_and_keeps_its_time() {
    // Without a threat to answer, the chosen move is the search's own: the same with and
    // without a time limit that the depth limit makes irrelevant.
    let game = Game::from_position(15, Rule::Freestyle, "h8 i9 j8").expect("valid position");
    let b = game.board();
    let untimed = search(b, depth(8));
    let timed = search(
        b,
        Limits {
            depth: Some(8),
            move_time_ms: Some(60_000),
            ..Limits::default()
        },
    );
    assert_eq!(untimed.best_move, timed.best_move);
    assert_eq!(untimed.stats.nodes, timed.stats.nodes);
}

/// Plays `line` on a copy of `board`: every move must be on an empty point of the board.
fn assert_playable(board: &Board, line: &[Pos], what: &str) {
    let mut b = board.clone();
    for &m in line {
        assert!(b.contains(m) && b.is_empty(m), "{what}: {m:?} in {line:?}");
        b.play(m);
    }
}

#[test]
fn both_thread_schemes_give_sound_results() {
    let wins: Vec<(String, Record)> = data("freestyle-tactics.txt")
        .into_iter()
        .filter(|(_, r)| r.get("outcome") == Some("win"))
        .collect();
    assert!(!wins.is_empty());
    // Young Brothers Wait (the default on 2 threads; 3 threads for the paths where several
    // helpers meet at a node) and Lazy SMP
    for (threads, ybwc) in [(2, true), (3, true), (2, false)] {
        let params = gomoku_engine::search::SearchParams {
            ybwc_max_threads: if ybwc { 3 } else { 0 },
            ..Default::default()
        };
        let engine = || {
            let mut e = Engine::new(EngineConfig {
                hash_mb: 8,
                threads,
            });
            e.set_params(params.clone());
            e
        };
        for (rule, moves) in [
            (Rule::Freestyle, "h8 g9 f10 g8 g7"),
            (Rule::Standard, "f10 i7 h8"),
            (Rule::Renju, "h8 h7 h10 i6 i10 i7 g7 g8 j5 i9"),
        ] {
            let mut b = Board::new(15, rule).unwrap();
            for m in moves.split_whitespace() {
                b.play(gomoku_engine::notation::parse_pos(m, 15).unwrap());
            }
            let what = format!("{rule:?} {moves} ({threads} threads, ybwc {ybwc})");
            let opts = SearchOptions {
                report_root_moves: true,
                ..SearchOptions::default()
            };
            let stop = AtomicBool::new(false);
            let res = engine().search(&b, &depth(12), &opts, &stop, &mut |_| {});
            assert_eq!(res.depth, 12, "{what}");
            assert_eq!(res.pv.first(), Some(&res.best_move), "{what}");
            assert_playable(&b, &res.pv, &what);
            assert!(!is_decisive(res.score), "{what}: {}", res.score);
            if rule == Rule::Renju && b.to_move() == Color::Black {
                assert!(!b.clone().is_forbidden(res.best_move), "{what}");
            }
            // every root move once, each with its own line
            let mut seen: Vec<Pos> = res.root_moves.iter().map(|m| m.pos).collect();
            seen.sort_by_key(|p| p.index());
            seen.dedup();
            assert_eq!(seen.len(), res.root_moves.len(), "{what}");
            for rm in &res.root_moves {
                assert_eq!(rm.pv.first(), Some(&rm.pos), "{what}");
                assert_playable(&b, &rm.pv, &what);
            }
            // the threads of Young Brothers Wait shared nodes of the tree
            assert_eq!(
                res.stats.splits > 0,
                ybwc,
                "{what}: {} splits",
                res.stats.splits
            );
        }
        for (line, r) in &wins {
            let game = r.game().unwrap();
            let stop = AtomicBool::new(false);
            let limits = Limits {
                nodes: Some(600_000),
                depth: Some(20),
                ..Limits::default()
            };
            let res = engine().search(
                game.board(),
                &limits,
                &SearchOptions::default(),
                &stop,
                &mut |_| {},
            );
            assert!(
                is_decisive(res.score) && res.score > 0,
                "{line} (ybwc {ybwc}): expected a proven win, got {}",
                res.score
            );
            if let Some(best) = r.get("best").filter(|b| *b != "any") {
                assert!(
                    r.points(best).unwrap().contains(&res.best_move),
                    "{line} (ybwc {ybwc}): played {:?}",
                    res.best_move
                );
            }
        }
    }
}

/// With `exact_moves`, the best few root moves get exact values and every other one an upper
/// bound no higher than the worst of them; the move chosen is the best exact one. In every
/// rule, from a few openings and at a few depths.
#[test]
fn exact_values_for_the_best_moves_and_bounds_for_the_rest() {
    for (rule, moves) in [
        (Rule::Freestyle, "h8 i9"),
        (Rule::Standard, "h8 h7 j6 i7 f7"),
        (Rule::Renju, "h8 i9 j8"),
    ] {
        let b = position(rule, moves);
        for (k, d) in [(1, 4), (3, 6), (5, 8)] {
            let mut e = Engine::new(EngineConfig {
                hash_mb: 4,
                threads: 1,
            });
            let r = e.search(
                &b,
                &depth(d),
                &SearchOptions {
                    all_root_values: true,
                    exact_moves: k,
                    ..SearchOptions::default()
                },
                &AtomicBool::new(false),
                &mut |_| {},
            );
            let what = format!("{rule:?} {moves} k={k} depth {d}");
            let exact: Vec<_> = r
                .root_moves
                .iter()
                .filter(|m| m.bound == ValueBound::Exact)
                .collect();
            assert!(exact.len() >= k, "{what}: {} exact", exact.len());
            assert!(
                r.root_moves.len() > exact.len(),
                "{what}: some moves get bounds"
            );
            // the exact ones come first, best first, and the best of them is the move chosen
            let n = exact.len();
            assert!(
                r.root_moves[..n]
                    .iter()
                    .all(|m| m.bound == ValueBound::Exact),
                "{what}"
            );
            assert!(exact.windows(2).all(|w| w[0].score >= w[1].score), "{what}");
            assert_eq!(r.best_move, exact[0].pos, "{what}");
            assert_eq!(r.score, exact[0].score, "{what}");
            let kth = exact[k - 1].score;
            for m in &r.root_moves[n..] {
                assert_eq!(m.bound, ValueBound::Upper, "{what}: {:?}", m.pos);
                assert!(
                    m.score <= kth,
                    "{what}: {:?} {} above {kth}",
                    m.pos,
                    m.score
                );
                assert_eq!(m.pv.len(), 1, "{what}: no line for a bound");
            }
            // every exact value has its line, starting with its move
            for m in &exact {
                assert_eq!(m.pv.first(), Some(&m.pos), "{what}");
            }
        }
    }
}

#[test]
fn excluded_points_are_never_played() {
    let pts = |t: &str| gomoku_engine::notation::parse_moves(t, 15).expect("points");
    let search_without = |b: &Board, exclude: &str, limits: Limits| {
        let mut e = Engine::new(EngineConfig {
            hash_mb: 4,
            threads: 1,
        });
        let options = SearchOptions {
            exclude: pts(exclude),
            ..SearchOptions::default()
        };
        e.search(b, &limits, &options, &AtomicBool::new(false), &mut |_| {})
            .best_move
    };
    let timed = Limits {
        move_time_ms: Some(300),
        ..Limits::default()
    };
    // (position, excluded points, the moves allowed as the answer; empty: any but those)
    let cases = [
        // Black's straight four: either end wins, the other is taken
        ("h8 a1 i8 a3 j8 a5 k8 a7", "g8", "l8"),
        ("h8 a1 i8 a3 j8 a5 k8 a7", "l8", "g8"),
        // both ends excluded: no five, and neither end
        ("h8 a1 i8 a3 j8 a5 k8 a7", "g8 l8", ""),
        // White must block Black's four at l8; with it excluded, any other point
        ("h8 a1 i8 a3 j8 a5 k8", "l8", ""),
        // the empty board without its centre: a point next to it
        ("", "h8", "g7 g8 g9 h7 h9 i7 i8 i9"),
    ];
    for (moves, exclude, allowed) in cases {
        let b = opening(moves);
        for limits in [depth(4), timed.clone()] {
            let m = search_without(&b, exclude, limits);
            assert!(m.is_point() && b.is_empty(m), "{moves}: {m:?}");
            assert!(
                !pts(exclude).contains(&m),
                "{moves} without {exclude}: {m:?}"
            );
            if !allowed.is_empty() {
                assert!(
                    pts(allowed).contains(&m),
                    "{moves} without {exclude}: {m:?}"
                );
            }
        }
    }
}

/// The singular test of hash moves (a parameter, off by default): from its depth on, hash
/// moves are tested (each test a search of the node without the move) and the singular ones
/// extended; with the depth past any search's, no test runs. Either way the search ends with
/// a legal move and its line.
#[test]
fn singular_tests_run_from_their_depth_and_switch_off() {
    for (rule, moves) in [
        (Rule::Freestyle, "h8 g9 f10 g8 g7"),
        (Rule::Standard, "f10 i7 h8"),
        (Rule::Renju, "h8 h7 h10 i6 i10 i7 g7 g8 j5 i9"),
    ] {
        let b = position(rule, moves);
        for on in [true, false] {
            let mut params = gomoku_engine::search::SearchParams::default();
            let from = if on { "106" } else { "1600" };
            params.set("singular_min_depth", from).expect("in range");
            let mut e = Engine::new(EngineConfig {
                hash_mb: 4,
                threads: 1,
            });
            e.set_params(params);
            let stop = AtomicBool::new(false);
            let res = e.search(
                &b,
                &depth(12),
                &SearchOptions::default(),
                &stop,
                &mut |_| {},
            );
            assert!(res.best_move.is_point() && b.is_empty(res.best_move));
            assert_playable(&b, &res.pv, moves);
            let s = &res.stats;
            assert!(
                s.singular_extensions <= s.singular_tests,
                "{rule:?} {moves}"
            );
            if on {
                assert!(s.singular_extensions > 0, "{rule:?} {moves}: {s:?}");
            } else {
                assert_eq!(s.singular_tests, 0, "{rule:?} {moves}");
            }
        }
    }
}

#[test]
fn the_fail_high_reduction_applies_under_its_own_rule() {
    // The nodes of a fixed-depth search with the parameters `set`; the search is deterministic
    // on one thread.
    let nodes = |rule, moves: &str, set: &[(&str, &str)]| {
        let b = position(rule, moves);
        let mut params = gomoku_engine::search::SearchParams::default();
        for (name, value) in set {
            params.set(name, value).expect("in range");
        }
        let mut e = Engine::new(EngineConfig {
            hash_mb: 4,
            threads: 1,
        });
        e.set_params(params);
        let res = e.search(
            &b,
            &depth(10),
            &SearchOptions::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(res.best_move.is_point() && b.is_empty(res.best_move));
        assert_playable(&b, &res.pv, moves);
        res.stats.nodes
    };
    let renju = "h8 h7 h10 i6 i10 i7 g7 g8 j5 i9";
    let free = "h8 g9 f10 g8 g7";
    // off by default; renju's parameter changes renju's search and leaves freestyle alone
    let renju_on = [("fail_high_reduction_renju", "16")];
    assert_ne!(
        nodes(Rule::Renju, renju, &[]),
        nodes(Rule::Renju, renju, &renju_on)
    );
    assert_eq!(
        nodes(Rule::Freestyle, free, &[]),
        nodes(Rule::Freestyle, free, &renju_on)
    );
    // and the other rules' parameter the other way round
    let on = [("fail_high_reduction", "16")];
    assert_eq!(
        nodes(Rule::Renju, renju, &[]),
        nodes(Rule::Renju, renju, &on)
    );
    assert_ne!(
        nodes(Rule::Freestyle, free, &[]),
        nodes(Rule::Freestyle, free, &on)
    );
}

/// The first 223 moves of a renju game against Rapfi that filled the board: two points are left,
/// o1 and b10, and b10 is an overline point of Black.
const NEARLY_FULL_RENJU: [&str; 9] = [
    "d14 e15 o12 o3 j9 j11 i10 h11 k10 i8 l10 j10 k11 k9 l11 l8 i11 j12 k12 l13 m12 n13 k13 k14 ",
    "i12 i13 m10 j13 j14 m11 m7 n10 k7 l7 l5 k4 k6 m4 l4 i6 j5 i5 i7 h8 j8 l6 g7 e7 j2 k3 h5 j4 ",
    "l2 g5 k2 i2 i4 g6 f6 h3 f8 e9 f9 f7 e10 d11 j3 l1 g11 h10 h9 e12 c10 d10 d9 c8 m2 n2 e4 e11 ",
    "f12 g4 f11 f10 f5 e3 g3 g9 d12 c7 b6 c11 j6 j7 b7 d5 b11 c4 e6 d6 c6 b5 k5 m3 g13 h13 e13 ",
    "c15 n5 m5 d3 l3 n3 h12 h14 e5 b8 c5 a5 g14 c2 b1 n12 l12 f13 f15 d15 e1 d4 c13 a3 e8 c14 a4 ",
    "a10 b14 b12 n8 o11 k1 d2 b2 k8 n9 n7 o6 m1 i15 h15 e2 m9 f2 h2 o10 b3 n6 o2 n11 n4 o7 o8 n14 ",
    "c3 d8 o5 d1 a1 f1 c1 h1 g1 i9 o14 l15 c9 j1 i1 m6 k15 m13 g8 o13 b9 c12 a8 d13 h4 a9 h6 b15 ",
    "f4 a13 j15 m15 l14 n15 a6 o9 g15 a15 a11 l9 a14 m8 g10 o15 f14 h7 i3 b13 e14 d7 i14 g12 m14 ",
    "o4 g2 a2 a7 b4 a12 n1 f3 ",
];

#[test]
fn white_leaves_renju_black_only_a_forbidden_point() {
    // the referee ends a game on the 225th move, Black's, and a forbidden last point loses it
    let moves: String = NEARLY_FULL_RENJU.concat();
    let b = position(Rule::Renju, moves.trim());
    assert_eq!(b.stone_count(), 223);
    assert_eq!(b.to_move(), Color::White);
    let b10 = Pos::new(1, 5);
    let o1 = Pos::new(14, 14);
    assert!(b.is_empty(b10) && b.is_empty(o1));
    let mut after = b.clone();
    after.play(o1);
    assert!(after.is_forbidden(b10), "b10 is forbidden for Black");
    let r = search(&b, depth(4));
    assert_eq!(r.best_move, o1);
    assert!(
        is_decisive(r.score) && r.score > 0,
        "a win for White: {}",
        r.score
    );
}
