//! The root of the search: which moves it considers, the search of each root move (a full
//! window for the first, a reduced null window first for the others) and their values in
//! the root list.

use super::symmetry::keep_one_per_image;
use super::{RootEntry, Worker, FRAME_OFFSET};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::search::movegen::{gen_all, gen_defence, sort_moves, ScoredMove};
use crate::search::params::PLY;
use crate::search::score::{win_in, Score, INFINITE};
use crate::search::ValueBound;
use crate::types::{Color, Pos};
use std::sync::atomic::{AtomicI32, Ordering};

impl Worker<'_> {
    /// The root moves: the threat situation decides, as in the tree.
    pub(super) fn root_candidates(&mut self) -> Vec<ScoredMove> {
        let b = &mut self.board;
        let us = b.to_move();
        let them = us.opponent();
        let excluded = &self.sh.options.exclude;
        let points = |b: &Board, color: Color, class: Pattern4| -> Vec<ScoredMove> {
            let mut pts = Vec::new();
            crate::search::movegen::find_class(b, color, class, &mut pts);
            pts.into_iter()
                .filter(|p| !excluded.contains(p))
                .map(|p| ScoredMove { pos: p, score: 0 })
                .collect()
        };
        let mut list = Vec::new();
        if b.stone_count() == 0 {
            list.push(ScoredMove {
                pos: b.centre(),
                score: 0,
            });
        } else if b.threat_count(us, Pattern4::Five) > 0
            && !points(b, us, Pattern4::Five).is_empty()
        {
            list = points(b, us, Pattern4::Five);
        } else if b.threat_count(them, Pattern4::Five) > 0 {
            list = points(b, them, Pattern4::Five);
            list.retain(|m| !(us == Color::Black && b.is_forbidden(m.pos)));
            if list.is_empty() {
                // lost anyway: any legal move
                gen_all(b, us, &mut list);
            }
        } else if b.threat_count(us, Pattern4::Flex4) > 0
            && !points(b, us, Pattern4::Flex4).is_empty()
        {
            list = points(b, us, Pattern4::Flex4);
        } else if b.threat_count(them, Pattern4::Flex4) > 0 {
            gen_defence(b, us, &mut list);
            if list.is_empty() {
                gen_all(b, us, &mut list);
            }
        } else {
            gen_all(b, us, &mut list);
        }
        list.retain(|m| !self.sh.options.exclude.contains(&m.pos));
        if list.is_empty() {
            // every candidate excluded or forbidden: any legal empty point; on an empty board
            // (its centre excluded) the ones nearest to the centre
            let c = b.centre();
            let ring = |p: &Pos| p.x().abs_diff(c.x()).max(p.y().abs_diff(c.y()));
            let pts: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            for p in pts {
                let excluded = self.sh.options.exclude.contains(&p);
                let forbidden = us == Color::Black && b.is_forbidden(p);
                if !excluded && !forbidden {
                    list.push(ScoredMove { pos: p, score: 0 });
                }
            }
            if b.stone_count() == 0 {
                if let Some(nearest) = list.iter().map(|m| ring(&m.pos)).min() {
                    list.retain(|m| ring(&m.pos) == nearest);
                }
            }
        }
        sort_moves(&mut list);
        let opts = &self.sh.options;
        if !opts.all_root_values && !opts.report_root_moves {
            // A symmetric position (the first moves of a game) has moves that are images of
            // each other, with the same value: only the first of each is searched.
            keep_one_per_image(b, &mut list, Pos::NONE);
        }
        list
    }

    /// Searches root move `i` (a full window for the first move or for every move when all
    /// root values are wanted; a reduced null window first for the others).
    pub(super) fn root_move(
        &mut self,
        i: usize,
        m: Pos,
        alpha_used: &mut Score,
        beta: Score,
        depth_plies: i32,
        shared_alpha: Option<&AtomicI32>,
        floor: Option<Score>,
    ) -> Score {
        let mut alpha = *alpha_used;
        let all = self.sh.options.all_root_values;
        let depth = depth_plies * PLY;
        let us = self.board.to_move();
        self.frames[FRAME_OFFSET].current = Some(m);
        self.frames[FRAME_OFFSET].move_class = (
            self.board.threat(m, us),
            self.board.threat(m, us.opponent()),
        );
        let makes_five = self.board.threat(m, us) == Pattern4::Five;
        self.play(m);
        self.stats.nodes += 1;
        let nd = depth - PLY;
        // no line after the move unless a full-window search gives one (a null-window fail-high
        // would otherwise take an older search's line)
        self.pv_len[1] = 1;
        let v = if makes_five {
            // the game ends here; the child position is never searched
            win_in(1)
        } else if let (true, Some(f)) = (all, floor) {
            // beyond the moves with exact values: an exact value only for one that beats the
            // worst of them
            let v0 = -self.search::<false>(-f - 1, -f, nd, 1, true);
            if v0 > f && !self.stopped {
                -self.search::<true>(-INFINITE, INFINITE, nd, 1, false)
            } else {
                v0
            }
        } else if all {
            -self.search::<true>(-INFINITE, INFINITE, nd, 1, false)
        } else if i == 0 {
            -self.search::<true>(-beta, -alpha, nd, 1, false)
        } else {
            // late root moves: reduced null-window first
            let r = if depth_plies >= 3 && i >= 3 {
                (self.lmr[(depth_plies as usize).min(255)]
                    * self.lmr[(i + 1).min(255)]
                    * PLY as f32) as i32
                    / 2
            } else {
                0
            };
            let mut v0 = -self.search::<false>(-alpha - 1, -alpha, (nd - r).max(PLY), 1, true);
            if v0 > alpha && r > 0 {
                v0 = -self.search::<false>(-alpha - 1, -alpha, nd, 1, true);
            }
            if let Some(shared) = shared_alpha {
                // another thread may have raised alpha meanwhile: test against that first
                let a = shared.load(Ordering::Relaxed);
                if v0 > alpha && a > alpha && !self.stopped {
                    *alpha_used = a;
                    alpha = a;
                    v0 = -self.search::<false>(-alpha - 1, -alpha, nd, 1, true);
                }
            }
            if v0 > alpha && v0 < beta {
                -self.search::<true>(-beta, -alpha, nd, 1, false)
            } else {
                v0
            }
        };
        self.unplay();
        v
    }

    pub(super) fn root_search(&mut self, mut alpha: Score, beta: Score, depth_plies: i32) -> Score {
        let all = self.sh.options.all_root_values;
        let mut best = -INFINITE;
        self.root_delta = (beta - alpha).max(1);
        for e in &mut self.root {
            e.sort_score = -INFINITE;
        }
        self.frames[FRAME_OFFSET].static_eval = self.evaluate();
        self.frames[FRAME_OFFSET].tt_pv = true;
        // with `exact_moves`, the exact values of this iteration, best first
        let exact_n = self.sh.options.exact_moves;
        let mut exact: Vec<Score> = Vec::new();
        for i in 0..self.root.len() {
            if i > 0 && !all && self.may_split_root(depth_plies) {
                // Young Brothers Wait at the root: the helpers share the later root moves
                best = self.root_split(i, alpha, beta, depth_plies, best);
                break;
            }
            let m = self.root[i].rm.pos;
            let mut a = alpha;
            let floor = (all && exact_n > 0 && exact.len() >= exact_n).then(|| exact[exact_n - 1]);
            let v = self.root_move(i, m, &mut a, beta, depth_plies, None, floor);
            if self.stopped {
                break;
            }
            let child = &self.pv[1][1..self.pv_len[1].max(1)];
            let (lo, got_exact) = match floor {
                Some(f) => (f, v > f),
                None => (alpha, all),
            };
            record_root(
                &mut self.root[i],
                v,
                lo,
                if floor.is_some() { INFINITE } else { beta },
                depth_plies,
                got_exact || i == 0,
                got_exact,
                child,
            );
            if got_exact && exact_n > 0 {
                let at = exact.partition_point(|&x| x >= v);
                exact.insert(at, v);
            }
            if v > best {
                best = v;
            }
            if !all && v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        // best first; moves without a value this iteration keep their old order at the back
        self.root.sort_by_key(|e| std::cmp::Reverse(e.sort_score));
        best
    }
}

/// Records root move `e`'s value `v` from a search with the window (`alpha`, `beta`) (`full`:
/// a full window, so the value is exact; `child`: the line after the move).
pub(super) fn record_root(
    e: &mut RootEntry,
    v: Score,
    alpha: Score,
    beta: Score,
    depth_plies: i32,
    full: bool,
    all: bool,
    child: &[Pos],
) {
    let m = e.rm.pos;
    let exact = full || v > alpha;
    e.rm.score = v;
    e.rm.depth = depth_plies;
    e.rm.bound = if all {
        ValueBound::Exact
    } else if v <= alpha {
        ValueBound::Upper
    } else if v >= beta {
        ValueBound::Lower
    } else {
        ValueBound::Exact
    };
    if exact {
        let mut pv = Vec::with_capacity(child.len() + 1);
        pv.push(m);
        pv.extend_from_slice(child);
        e.rm.pv = pv;
        e.sort_score = v;
    } else {
        e.rm.pv.truncate(1);
    }
}
