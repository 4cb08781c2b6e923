//! The principal variation search of one node (steps 1-11, numbered in the code) and of one
//! move of its loop (steps 11b-13), with the checks every node starts with.

use super::ordering::{chebyshev, MoveOrdering, HIST_BONUS_MAX, HIST_MAX};
use super::symmetry::drop_images;
use super::{NodeCtx, Worker, FRAME_OFFSET, POLL_INTERVAL};
use crate::pattern::Pattern4;
use crate::search::movegen::{gen_all, gen_defence, order_score, own_class, pick_best, ScoredMove};
use crate::search::params::PLY;
use crate::search::score::{
    from_tt, is_decisive, loss_in, to_tt, win_in, Score, DRAW, INFINITE, WIN_MIN,
};
use crate::search::tt::{Bound, TtHit};
use crate::search::MAX_PLY;
use crate::types::{Color, Pos, Rule};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

/// Empty points up to which a node looks whether renju Black has any move left.
const FEW_EMPTIES: usize = 6;

impl Worker<'_> {
    /// The point where `color` makes five (the only one, or the first of several) and how many
    /// there are (0, 1 or 2 meaning "two or more").
    pub(super) fn five_points(&self, color: Color) -> (Pos, usize) {
        let last = self.board.last_move_of(color);
        if self.board.threat_count(color, Pattern4::Five) == 1 {
            if let Some(m) = last {
                if let Some(q) = crate::search::movegen::five_point_near(&self.board, m, color) {
                    return (q, 1);
                }
            }
        }
        // the scan stops at two points, or once it has found every point the board counts
        let enough = (self.board.threat_count(color, Pattern4::Five) as usize).min(2);
        let mut pts = [Pos::NONE; 2];
        let mut n = 0;
        if enough > 0 {
            let _: ControlFlow<()> = self.board.try_for_each_candidate(|q| {
                if self.board.threat(q, color) == Pattern4::Five {
                    pts[n] = q;
                    n += 1;
                    if n == enough {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            });
        }
        (pts[0], n)
    }

    /// Whether the board is nearly full (at most [`FEW_EMPTIES`] empty points) and every empty
    /// point is forbidden for renju Black.
    fn only_forbidden_left(&mut self) -> bool {
        let size = self.board.size();
        let empties = size * size - self.board.stone_count();
        if empties > FEW_EMPTIES {
            return false;
        }
        for i in 0..size * size {
            let q = Pos::new(i % size, i / size);
            if self.board.is_empty(q) && !self.board.is_forbidden(q) {
                return false;
            }
        }
        true
    }

    /// Immediate results common to every node: our five, the opponent's five threat (returns
    /// the forced block), our straight four. `Err(score)` ends the node.
    #[inline]
    pub(super) fn quick_checks(&mut self, ply: usize) -> Result<Option<Pos>, Score> {
        let p = ply as i32;
        let us = self.board.to_move();
        let them = us.opponent();
        if self.board.threat_count(us, Pattern4::Five) > 0 {
            return Err(win_in(p + 1));
        }
        if self.board.is_full() {
            return Err(DRAW);
        }
        if us == Color::Black && self.board.rule() == Rule::Renju && self.only_forbidden_left() {
            // Black must play a forbidden point: a loss (a referee rules it so when the last
            // empty point of a board, which is Black's to fill, is forbidden)
            return Err(loss_in(p + 1));
        }
        if self.board.threat_count(them, Pattern4::Five) > 0 {
            let (blk, n) = self.five_points(them);
            if n >= 2 || blk == Pos::NONE {
                return Err(loss_in(p + 2));
            }
            if us == Color::Black
                && self.board.rule() == Rule::Renju
                && self.board.is_forbidden(blk)
            {
                return Err(loss_in(p + 2));
            }
            return Ok(Some(blk));
        }
        if self.board.threat_count(us, Pattern4::Flex4) > 0 {
            return Err(win_in(p + 3));
        }
        Ok(None)
    }

    /// Steps 1-2 of every node at `ply`, of the full and of the quiescence search: counts it
    /// ([`Worker::enter_node`]), looks for an immediate result ([`Worker::quick_checks`]) and
    /// for the ply limit, and narrows (`alpha`, `beta`) to the mate distances. The window and
    /// the forced block, or `Err(value)` when the node ends there (0 when the search stops).
    #[inline(always)]
    pub(super) fn open_node<const PV: bool>(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Result<(Score, Score, Option<Pos>), Score> {
        if !self.enter_node::<PV>(ply) {
            return Err(0);
        }
        let p = ply as i32;
        // Step 1. Immediate results: our five, the opponent's five threat, our straight four.
        let forced = self.quick_checks(ply)?;
        if ply >= MAX_PLY - 4 {
            return Err(self.evaluate());
        }
        // Step 2. Mate distance pruning.
        let alpha = alpha.max(loss_in(p));
        let beta = beta.min(win_in(p + 1));
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta, forced))
    }

    /// Counts a node at `ply` (starting its line at a PV node), polls the stop conditions now
    /// and then and tracks the selective depth; false when the search is stopping.
    #[inline(always)]
    pub(super) fn enter_node<const PV: bool>(&mut self, ply: usize) -> bool {
        if PV {
            self.pv_len[ply] = ply;
        }
        self.stats.nodes += 1;
        if self.stats.nodes % POLL_INTERVAL == 0 {
            self.poll();
        }
        if self.stopped {
            return false;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        true
    }

    /// Searches one move of a node's loop (steps 11b-13: shallow pruning, extensions, late
    /// move reductions and re-searches) and returns its value, or `None` when it is pruned.
    /// The caller looks at `self.stopped` before using the value. Shared by the node's own
    /// loop and the threads working on a split point.
    #[inline(always)]
    pub(super) fn search_move<const PV: bool>(
        &mut self,
        node: &NodeCtx,
        m: Pos,
        count: usize,
        depth: i32,
        alpha: Score,
        best: Score,
    ) -> Option<Score> {
        let NodeCtx {
            beta,
            ply,
            cut_node,
            own_last,
            their_last,
            ..
        } = *node;
        let us = self.board.to_move();
        let them = us.opponent();
        let classes = (self.board.threat(m, us), self.board.threat(m, them));
        let dist = |o: Option<Pos>| o.map_or(99, |q: Pos| chebyshev(q, m));
        let dists = (dist(own_last), dist(their_last));
        // Step 11b. Shallow pruning, once a non-losing move is known.
        if best > -WIN_MIN && self.prunes_shallow(node, depth, classes, dists) {
            return None;
        }
        // Step 12. Extensions.
        let ext = match self.extension::<PV>(node, m, count, depth, classes.0) {
            Ok(ext) => ext,
            Err(v) => return Some(v),
        };
        let new_depth = depth - PLY + ext;
        {
            let f = self.frame(ply);
            f.current = Some(m);
            f.move_class = classes;
        }
        if PV {
            // No line after the move unless a full-window search gives one: a null-window
            // search that fails high past beta leaves the child's row as an earlier search
            // (of another move, or in a helper of another node) left it.
            self.pv_len[ply + 1] = ply + 1;
        }
        // the child's key is known before the move is made: its bucket loads while the
        // board updates its patterns
        self.sh.tt.prefetch(self.board.key_after(m));
        let policy_r = if count == 1 {
            0
        } else {
            self.policy_reduction(node, m)
        };
        self.play(m);
        let v = if count == 1 {
            -self.search::<PV>(-beta, -alpha, new_depth, ply + 1, !PV && !cut_node)
        } else {
            self.search_reduced::<PV>(
                node, us, m, count, depth, new_depth, alpha, classes, dists, policy_r,
            )
        };
        self.unplay();
        Some(v)
    }

    /// Step 11b. Whether a move with the threat classes `(ours, theirs)` at the distances
    /// `(dist_self, dist_oppo)` from our and their last moves is pruned at a node of `depth`
    /// (once a non-losing move is known): a quiet move at a shallow node, or, against a
    /// straight four, a shallow move far from both last moves that makes no four.
    #[inline(always)]
    fn prunes_shallow(
        &self,
        node: &NodeCtx,
        depth: i32,
        (our_class, their_class): (Pattern4, Pattern4),
        (dist_self, dist_oppo): (i32, i32),
    ) -> bool {
        if depth >= self.params.trivial_prune_depth {
            return false;
        }
        let trivial = our_class == Pattern4::None && their_class == Pattern4::None;
        let distract = dist_self > 4 && dist_oppo > 4;
        trivial
            || (node.oppo4
                && their_class < Pattern4::Block4
                && our_class < Pattern4::Block4
                && distract)
    }

    /// Step 12. The extension (in sixteenths of a ply) of move number `count`, `m` (with our
    /// threat class `our_class` there), at `node` of `depth`: the hash move's (after its
    /// singular test, where the node allows one), less the fail-high reduction.
    /// `Err(value)` when the singular test finds a multi-cut: the node's value.
    #[inline(always)]
    fn extension<const PV: bool>(
        &mut self,
        node: &NodeCtx,
        m: Pos,
        count: usize,
        depth: i32,
        our_class: Pattern4,
    ) -> Result<i32, Score> {
        let mut ext = 0;
        if m == node.tt_move {
            match node.singular.filter(|_| count == 1) {
                Some(tt_value) => match self.singular_test::<PV>(node, m, depth, tt_value) {
                    Singular::Extend => ext = PLY,
                    Singular::MultiCut(v) => return Err(v),
                    Singular::LikelyFailHigh => ext = -self.params.singular_fail_high_reduction,
                    Singular::No => {}
                },
                None => {
                    ext = if PV {
                        self.params.tt_move_ext_pv
                    } else {
                        self.params.tt_move_ext_nonpv
                    };
                }
            }
        }
        if node.likely_fail_high && our_class < Pattern4::Block4 {
            ext -= self.fail_high_reduction;
        }
        Ok(ext)
    }

    /// Step 13. Searches move number `count` of side `us` (`m`, already made, with its threat
    /// classes, its distances to our and their last moves and its policy reduction) at `node`
    /// of `depth`: a null-window search at the reduced depth, re-searched up to `new_depth`
    /// (a ply short when it only just failed high) when it beats `alpha`, and with the full
    /// window at a PV node when the value falls inside it. The value for `us`.
    #[inline(always)]
    fn search_reduced<const PV: bool>(
        &mut self,
        node: &NodeCtx,
        us: Color,
        m: Pos,
        count: usize,
        depth: i32,
        new_depth: i32,
        alpha: Score,
        classes: (Pattern4, Pattern4),
        dists: (i32, i32),
        policy_r: i32,
    ) -> Score {
        let NodeCtx {
            beta,
            ply,
            cut_node,
            ..
        } = *node;
        let r = self.late_move_reduction::<PV>(node, us, m, count, depth, classes, dists, policy_r);
        let d = (new_depth - r).min(new_depth).max(PLY.min(new_depth));
        let mut v = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, true);
        // A reduced search that fails high only just is weak evidence: its re-search
        // goes a ply short of the full depth (and no re-search is left when that is the
        // reduced depth), like Stockfish's "shallower search". With a margin of 5, to
        // depth 18 from nine openings (`h8`, `h8 i9` and `h8 h7 j6 i7 f7` in each rule):
        // 3.06M nodes instead of 5.18M (standard `h8` 352k instead of 884k, `h8 i9` 342k
        // instead of 1006k); self-play at 100 ms per move against the full re-search:
        // 163/296 (55.1%; 43/72 in standard). A margin of 10: 366.5/750 (48.9%).
        // `lmr_shallower_min_depth` keeps the full re-search at nodes with fewer plies
        // left. At 6, 2 threads reach the bench depth 1.48-1.84x faster than one (nine
        // medians of 5 runs) against 1.27-1.49x, but only because one thread gets slower
        // on the bench positions (15% more nodes) while two threads do not; self-play at
        // 100 ms 151.5/296 with one thread and 32/72 with two (freestyle). Not the
        // default.
        let mut full = new_depth;
        if v > alpha && d < new_depth {
            // (alpha is already the best value so far where that is higher)
            if v < alpha + self.params.lmr_shallower_margin
                && !is_decisive(v)
                && depth >= self.params.lmr_shallower_min_depth * PLY
            {
                full -= PLY;
            }
            if full > d {
                v = -self.search::<false>(-alpha - 1, -alpha, full, ply + 1, !cut_node);
            }
        }
        if PV && v > alpha && v < beta {
            v = -self.search::<true>(-beta, -alpha, full, ply + 1, false);
        }
        v
    }

    /// Step 12. The singular test of the hash move `m` at `node` (of `depth`, with the hash
    /// value `tt_value`, a lower bound): the node searched without `m`, shallower, against a
    /// bound a margin under the hash value. When every other move fails low there, `m` is
    /// singular: the only move that holds, and worth a ply more. When the others reach the
    /// bound too and it is at least beta, two moves refute the parent's move (a multi-cut,
    /// not at PV nodes); when only the hash value reaches beta, `m` is searched a little
    /// shallower. A stop is seen by the caller.
    ///
    /// Not the default (`singular_min_depth` past every depth). From 6.6 plies, against
    /// Rapfi at 1 s a move (`match.sh`, the same tables): freestyle 48.9% over 144 games
    /// (52.8% and 45.1%; 42.6% without Rapfi's start-up forfeits) against 47.0% over 288
    /// (40.6%) without the test, 41.0% of them in a run the hour after the 45.1%; renju
    /// 41.7% over 48 (no forfeits) against 45.8% over 72 (42.6%). Self-play at 200 ms a move: 57.5/120 against the search without it. It
    /// costs a ply of median depth in the matches (18 against 19-20) and half as many nodes
    /// again at a fixed depth (the bench: 4.61M instead of 3.07M).
    fn singular_test<const PV: bool>(
        &mut self,
        node: &NodeCtx,
        m: Pos,
        depth: i32,
        tt_value: Score,
    ) -> Singular {
        let ply = node.ply;
        let (margin, test_depth) = self.params.singular_test(depth, !PV && node.tt_pv);
        let bound = (tt_value - margin).max(-WIN_MIN + 1);
        self.frame(ply).excluded = m;
        let v = self.search::<false>(bound - 1, bound, test_depth, ply, node.cut_node);
        self.frame(ply).excluded = Pos::NONE;
        self.stats.singular_tests += 1;
        if v < bound {
            self.stats.singular_extensions += 1;
            Singular::Extend
        } else if !PV && bound >= node.beta {
            Singular::MultiCut(bound)
        } else if tt_value >= node.beta {
            Singular::LikelyFailHigh
        } else {
            Singular::No
        }
    }

    /// Step 13. The late move reduction of move number `count` of side `us` (`m`, with its
    /// threat classes for us and for the opponent, and its distances to our and their last
    /// moves) at a node of `depth`, in sixteenths of a ply.
    #[inline(always)]
    fn late_move_reduction<const PV: bool>(
        &self,
        node: &NodeCtx,
        us: Color,
        m: Pos,
        count: usize,
        depth: i32,
        (our_class, their_class): (Pattern4, Pattern4),
        (dist_self, dist_oppo): (i32, i32),
        policy_r: i32,
    ) -> i32 {
        let NodeCtx {
            tt_pv,
            cut_node,
            improving,
            oppo4,
            prev_own_class,
            ..
        } = *node;
        let mut r = 0;
        if depth >= 2 * PLY {
            let mut rf = self.lmr[((depth / PLY) as usize).min(255)] * self.lmr[count.min(255)];
            if !PV && !improving && rf > 1.0 {
                rf += 1.0;
            }
            r = (rf * PLY as f32) as i32;
            if tt_pv {
                r -= self.params.ttpv_reduction;
            }
            if cut_node && !node.killers.contains(&m) {
                r += self.params.cutnode_reduction;
            }
            if oppo4 && their_class < Pattern4::Block4 {
                r += PLY * (i32::from(dist_oppo > 4) * 2 + i32::from(dist_self > 4));
            }
            if !oppo4
                && prev_own_class >= Pattern4::Flex3
                && (our_class >= Pattern4::Flex3
                    || (dist_self <= 4 && our_class >= Pattern4::Flex2x2))
            {
                r -= PLY / 2;
            }
            if our_class >= Pattern4::Block4 {
                r -= PLY;
            }
            if node.policy_top > i32::MIN && self.params.policy_lmr_max > 0 {
                let p = order_score(&self.board, m, us, our_class);
                r += self
                    .params
                    .policy_reduction(node.policy_top.saturating_sub(p));
            }
            r += policy_r;
            let mut h = self.history.0[us.index()][m.index()].load(Ordering::Relaxed);
            let counter_pct = self.params.counter_history_lmr_pct;
            if counter_pct > 0 {
                h += self.counter.get(us, node.their_last, m) * counter_pct / 100;
            }
            // up to a ply less for moves with a good history, more for a bad one
            r -= (h / (HIST_MAX / PLY)).clamp(-PLY, PLY);
        }
        // Whole plies, rounded up: a reduced child's depth then keeps its parent's
        // fraction of a ply, whatever the history (which moves the reduction by up to a
        // ply either way) said at the time, so that a position met again (through a
        // transposition, in the next iteration or in another thread) finds its table
        // entry deep enough. Against fractional reductions: 2 threads reached the bench
        // depth 1.64x faster than 1 thread against 1.35x (medians of 6 commands of 3
        // runs, interleaved), 9% fewer bench nodes, and 151.5/296 in self-play at 100 ms.
        // (The solver keeps fractional reductions, which prove more wins.)
        if self.params.lmr_whole_plies {
            r = whole_plies_up(r);
        }
        r
    }

    /// The principal variation search of a node at `ply` with `depth` (in sixteenths of a
    /// ply) left: the value of the position for the side to move, within (`alpha`, `beta`).
    pub(super) fn search<const PV: bool>(
        &mut self,
        alpha: Score,
        beta: Score,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        if depth < PLY {
            return self.qsearch::<PV>(alpha, beta, ply, 0);
        }
        // Steps 1-2.
        let (alpha, beta, forced) = match self.open_node::<PV>(alpha, beta, ply) {
            Ok(opened) => opened,
            Err(v) => return v,
        };
        let prev_eval = self.frames[ply + FRAME_OFFSET - 1].static_eval;
        // Step 3. The opponent threatens five: the block is forced, and searched deeper.
        if let Some(blk) = forced {
            return self.forced_block::<PV>(blk, alpha, beta, depth, ply, cut_node, prev_eval);
        }
        // Steps 4-5.
        let key = self.board.key();
        let ne = match self.probe_and_evaluate::<PV>(key, alpha, beta, depth, ply, prev_eval) {
            Ok(ne) => ne,
            Err(v) => return v,
        };
        self.killers[ply + 1] = [Pos::NONE; 2];

        // Steps 6-8.
        if !PV && !ne.oppo4 {
            if let Some(v) = self.prune_early(
                alpha,
                beta,
                depth,
                ply,
                cut_node,
                ne.eval,
                ne.static_eval,
                ne.improving,
                ne.excluded == Pos::NONE,
            ) {
                return v;
            }
        }
        // Step 9. Internal iterative reductions.
        if ne.excluded == Pos::NONE {
            if PV && ne.tt_move == Pos::NONE {
                depth -= self.params.iir_pv;
            }
            if depth >= self.params.iir_deep_depth && ne.tt_move == Pos::NONE {
                depth -= self.params.iir_deep;
            }
        }
        if depth < PLY {
            return self.qsearch::<PV>(alpha, beta, ply, 0);
        }

        // Steps 10-11. The moves.
        let (node, ordering) = self.node_ctx::<PV>(&ne, beta, depth, ply, cut_node);
        match self.search_moves::<PV>(&node, &ordering, alpha, depth, ne.eval) {
            Ok(searched) => self.finish_node::<PV>(&node, &ne, key, alpha, searched),
            Err(v) => v,
        }
    }

    /// Steps 4-5 of the node at `ply` (its position's key `key`, `depth` left, within
    /// (`alpha`, `beta`), the parent's static evaluation `prev_eval`): the table probe (not
    /// in a singular test, which leaves out a move: its node keeps the frame the full node
    /// set up, and its results are not stored) and the static evaluation, noted in the
    /// node's frame. `Err(value)` when the table decides the node's value.
    #[inline(always)]
    fn probe_and_evaluate<const PV: bool>(
        &mut self,
        key: u64,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        prev_eval: Score,
    ) -> Result<NodeEval, Score> {
        let them = self.board.to_move().opponent();
        // Step 4. Transposition table.
        let excluded = self.frame(ply).excluded;
        let (tt_move, tt_hit) = if excluded == Pos::NONE {
            self.probe_tt::<PV>(key, ply as i32, depth, alpha, beta)?
        } else {
            (Pos::NONE, None)
        };
        let tt_pv = if excluded == Pos::NONE {
            PV || tt_hit.is_some_and(|(h, _)| h.pv)
        } else {
            self.frame(ply).tt_pv
        };
        let oppo4 = self.board.threat_count(them, Pattern4::Flex4) > 0;

        // Step 5. Static evaluation.
        let (static_eval, eval) = if oppo4 {
            (-prev_eval, -prev_eval)
        } else if excluded != Pos::NONE {
            let e = self.frame(ply).static_eval;
            (e, e)
        } else {
            self.static_eval(tt_hit)
        };
        {
            let f = self.frame(ply);
            f.static_eval = static_eval;
            f.tt_pv = tt_pv;
        }
        let improving = !oppo4 && static_eval > self.frames[ply + FRAME_OFFSET - 2].static_eval;
        Ok(NodeEval {
            excluded,
            tt_move,
            tt_hit,
            tt_pv,
            oppo4,
            static_eval,
            eval,
            improving,
        })
    }

    /// Step 10. What the moves of the node at `ply` (with `depth` left, under `beta`, after
    /// its steps 4-5 `ne`) share, and the facts their ordering looks at.
    #[inline(always)]
    fn node_ctx<const PV: bool>(
        &self,
        ne: &NodeEval,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> (NodeCtx, MoveOrdering) {
        let own_last = self.frames[ply + FRAME_OFFSET - 2].current;
        let their_last = self.frames[ply + FRAME_OFFSET - 1].current;
        let ordering = MoveOrdering {
            tt_move: ne.tt_move,
            killers: self.killers[ply],
            own_last,
            their_last,
        };
        let improving = ne.improving;
        let move_count_limit = match self.move_count_limits.get((depth / PLY).max(0) as usize) {
            Some(l) => l[usize::from(improving)],
            None => self.params.move_count_limit(depth, improving),
        };
        let node = NodeCtx {
            beta,
            ply,
            cut_node,
            tt_pv: ne.tt_pv,
            improving,
            oppo4: ne.oppo4,
            prev_own_class: self.frames[ply + FRAME_OFFSET - 2].move_class.0,
            own_last,
            their_last,
            killers: ordering.killers,
            tt_move: ne.tt_move,
            singular: ne
                .tt_hit
                .filter(|&(h, s)| {
                    ne.excluded == Pos::NONE
                        && depth >= self.params.singular_min_depth
                        && matches!(h.bound, Bound::Lower | Bound::Exact)
                        && !is_decisive(s)
                        && h.depth * PLY >= depth - self.params.singular_tt_depth
                })
                .map(|(_, s)| s),
            excluded: ne.excluded,
            move_count_limit,
            likely_fail_high: !PV
                && cut_node
                && self.fail_high_reduction > 0
                && !is_decisive(beta)
                && ne.eval >= beta + self.params.fail_high_margin(depth, ne.oppo4),
            policy_top: i32::MIN,
            nn_query: [0; crate::nnue::FEAT],
            nn_policy_top: i32::MIN,
        };
        (node, ordering)
    }

    /// The end of a node (after steps 4-5 `ne`, its key `key`, searched from `alpha`) whose
    /// moves found `searched`: the best move's reward, and the value stored in the table
    /// (not in a singular test). The node's value.
    #[inline(always)]
    fn finish_node<const PV: bool>(
        &mut self,
        node: &NodeCtx,
        ne: &NodeEval,
        key: u64,
        alpha: Score,
        searched: Searched,
    ) -> Score {
        let Searched {
            mut best,
            best_move,
            depth,
            tried,
            ntried,
        } = searched;
        let NodeCtx { beta, ply, .. } = *node;
        if best_move != Pos::NONE {
            self.reward(ply, best_move, depth, &tried[..ntried]);
        }
        if best == -INFINITE {
            // every move pruned: a fail-low
            best = alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if ne.excluded != Pos::NONE {
            return best;
        }
        self.stats.tt_stores += 1;
        self.sh.tt.store(
            key,
            best_move,
            to_tt(best, ply as i32),
            ne.static_eval,
            depth / PLY,
            bound,
            ne.tt_pv,
        );
        best
    }

    /// Step 3. Plays the forced block `blk` of the opponent's five threat, searched deeper
    /// (the node's frame takes the parent's evaluation, negated).
    #[inline(always)]
    fn forced_block<const PV: bool>(
        &mut self,
        blk: Pos,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
        prev_eval: Score,
    ) -> Score {
        let class = self.board.threat(blk, self.board.to_move());
        let f = self.frame(ply);
        f.static_eval = -prev_eval;
        f.current = Some(blk);
        f.move_class = (class, Pattern4::Five);
        let depth = depth + self.params.forced_block_ext;
        self.search_block::<PV>(blk, alpha, ply, |w| {
            w.search::<PV>(-beta, -alpha, depth, ply + 1, !cut_node)
        })
    }

    /// Plays the forced block `blk` of the node at `ply` (of the full or the quiescence
    /// search), searches it with `child` (the child's value, for its side to move) and takes
    /// it back; at a PV node, a value above `alpha` extends the line. The block's value.
    #[inline(always)]
    pub(super) fn search_block<const PV: bool>(
        &mut self,
        blk: Pos,
        alpha: Score,
        ply: usize,
        child: impl FnOnce(&mut Self) -> Score,
    ) -> Score {
        self.sh.tt.prefetch(self.board.key_after(blk));
        self.play(blk);
        let v = -child(self);
        self.unplay();
        if PV && !self.stopped && v > alpha {
            self.update_pv(ply, blk);
        }
        v
    }

    /// Step 4. Looks the position (`key`) up in the transposition table: the TT move (a
    /// playable point, or none) and the entry with its value at `ply` (`p`); `Err(value)`
    /// when the entry decides a non-PV node's value at `depth` in (`alpha`, `beta`).
    #[inline(always)]
    fn probe_tt<const PV: bool>(
        &mut self,
        key: u64,
        p: i32,
        depth: i32,
        alpha: Score,
        beta: Score,
    ) -> Result<(Pos, Option<(TtHit, Score)>), Score> {
        let Some(h) = self.sh.tt.probe(key) else {
            return Ok((Pos::NONE, None));
        };
        self.stats.tt_hits += 1;
        let mut tt_move = Pos::NONE;
        if h.mv.is_point() && self.board.contains(h.mv) && self.board.is_empty(h.mv) {
            tt_move = h.mv;
        }
        let s = from_tt(h.score, p);
        if !PV
            && h.depth * PLY >= depth
            && (h.bound == Bound::Exact
                || (h.bound == Bound::Lower && s >= beta)
                || (h.bound == Bound::Upper && s <= alpha))
        {
            return Err(s);
        }
        Ok((tt_move, Some((h, s))))
    }

    /// Step 5. The static evaluation of the position (the table's, if it has the position)
    /// and the evaluation the pruning uses: the table's value instead where its bound says
    /// it is closer to the truth.
    #[inline(always)]
    fn static_eval(&self, tt_hit: Option<(TtHit, Score)>) -> (Score, Score) {
        let static_eval = tt_hit.map_or_else(|| self.evaluate(), |(h, _)| h.eval);
        let mut eval = static_eval;
        if let Some((h, s)) = tt_hit {
            let fits = if s > eval {
                h.bound == Bound::Lower || h.bound == Bound::Exact
            } else {
                h.bound == Bound::Upper || h.bound == Bound::Exact
            };
            if fits && !is_decisive(s) {
                eval = s;
            }
        }
        (static_eval, eval)
    }

    /// Steps 6-8, at a non-PV node with no straight four against it: razoring, reverse
    /// futility pruning and null move pruning (when `null_move`: not in a singular test). The
    /// node's value when one of them ends it.
    #[inline(always)]
    fn prune_early(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
        eval: Score,
        static_eval: Score,
        improving: bool,
        null_move: bool,
    ) -> Option<Score> {
        // Step 6. Razoring: hopeless shallow nodes drop into the threat search.
        if depth < self.params.razor_max_depth
            && eval + self.params.razor_margin(depth) < alpha
            && !is_decisive(alpha)
        {
            return Some(self.qsearch::<false>(alpha, alpha + 1, ply, 0));
        }
        // Step 7. Reverse futility pruning.
        if eval < WIN_MIN
            && beta > -WIN_MIN
            && eval - self.params.futility_margin(depth - PLY, improving) >= beta
        {
            return Some(eval);
        }
        // Step 8. Null move pruning (never twice in a row).
        if null_move
            && depth >= self.params.null_move_min_depth
            && eval >= beta
            && static_eval >= beta + self.params.null_move_margin(depth)
            && self.board.move_back(0).is_some_and(|m| m.is_point())
            && !is_decisive(beta)
        {
            let r = self.params.null_move_reduction(depth);
            self.frame(ply).current = None;
            self.board.pass();
            let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
            self.unplay();
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= WIN_MIN { beta } else { v });
            }
        }
        None
    }

    /// Steps 10-11. Generates the node's moves and searches them in order until one cuts off
    /// (or the rest are pruned, or shared with helper threads at a split point). `Err(value)`
    /// ends the node: no move at all (`eval`, or a loss against a straight four), or a stop.
    #[inline(always)]
    fn search_moves<const PV: bool>(
        &mut self,
        node: &NodeCtx,
        ordering: &MoveOrdering,
        alpha: Score,
        depth: i32,
        eval: Score,
    ) -> Result<Searched, Score> {
        let mut node = *node;
        let mut list = std::mem::take(&mut self.lists[node.ply]);
        list.clear();
        let searched = self.move_loop::<PV>(&mut node, ordering, &mut list, alpha, depth, eval);
        self.lists[node.ply] = list;
        searched
    }

    /// Steps 10-11 with the node's (empty) move list `list`: see [`Worker::search_moves`].
    #[inline(always)]
    fn move_loop<const PV: bool>(
        &mut self,
        node: &mut NodeCtx,
        ordering: &MoveOrdering,
        list: &mut Vec<ScoredMove>,
        mut alpha: Score,
        mut depth: i32,
        eval: Score,
    ) -> Result<Searched, Score> {
        let NodeCtx {
            beta,
            ply,
            move_count_limit,
            ..
        } = *node;
        let mut generated = self.first_moves(node, ordering, list, eval)?;
        let mut s = Searched {
            best: -INFINITE,
            best_move: Pos::NONE,
            depth,
            tried: [Pos::NONE; 64],
            ntried: 0,
        };
        let mut count = 0usize;
        let mut next = 0;
        loop {
            let i = next;
            // Step 11a. Move count pruning: past the limit, with a non-losing move known, the
            // rest of the (ordered) list is skipped.
            if s.best > -WIN_MIN && count >= move_count_limit {
                break;
            }
            if i == list.len() {
                if generated {
                    break;
                }
                generated = true;
                self.moves_after_tt_move(node, ordering, list);
                if i == list.len() {
                    break;
                }
            }
            // Step 11c. Young brothers wait: once the first move is searched (and did not cut
            // off), an idle helper thread may share the rest of the list.
            if count > 0 && list.len() - i >= 2 && self.may_split(depth) {
                self.split_rest::<PV>(node, &mut list[i..], count, depth, alpha, &mut s);
                return if self.stopped { Err(0) } else { Ok(s) };
            }
            pick_best(list, i);
            next = i + 1;
            let m = list[i].pos;
            if m == node.excluded {
                continue;
            }
            count += 1;
            let Some(v) = self.search_move::<PV>(node, m, count, depth, alpha, s.best) else {
                continue;
            };
            if self.stopped {
                return Err(0);
            }
            s.try_move(m);
            if v > s.best {
                s.best = v;
                if v > alpha {
                    s.best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        self.stats.cutoffs += 1;
                        if count == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        break;
                    }
                    alpha = v;
                    // later moves at a PV node with an improved alpha get less depth
                    if depth > 2 * PLY && depth < 12 * PLY && !is_decisive(v) {
                        depth -= PLY;
                    }
                }
            }
        }
        s.depth = depth;
        Ok(s)
    }

    /// Step 10. The node's first moves into `list`: the defence list when the opponent
    /// threatens a straight four, else every candidate, ordered. A TT move that the full list
    /// would hold is searched before the list is made (it is ordered first anyway, and when
    /// it cuts off no list is needed): then it is the list, and the result is false (the
    /// list is not yet generated). `Err(value)` when there is no move: `eval`, or a loss
    /// against a straight four.
    #[inline(always)]
    fn first_moves(
        &mut self,
        node: &mut NodeCtx,
        ordering: &MoveOrdering,
        list: &mut Vec<ScoredMove>,
        eval: Score,
    ) -> Result<bool, Score> {
        let NodeCtx {
            ply,
            oppo4,
            tt_move,
            ..
        } = *node;
        let us = self.board.to_move();
        let staged = !oppo4
            && tt_move != Pos::NONE
            && self.board.is_candidate(tt_move)
            && own_class(&mut self.board, tt_move, us) != Pattern4::Forbid;
        if staged {
            list.push(ScoredMove {
                pos: tt_move,
                score: i32::MAX,
            });
            return Ok(false);
        }
        if oppo4 {
            gen_defence(&mut self.board, us, list);
        } else {
            gen_all(&mut self.board, us, list);
            drop_images(&self.board, list, Pos::NONE);
        }
        if list.is_empty() {
            return Err(if oppo4 { loss_in(ply as i32 + 4) } else { eval });
        }
        self.score_moves(node, ordering, list);
        Ok(true)
    }

    /// Step 10, once the staged TT move is searched: the full list, ordered with the history
    /// as the TT move's subtree left it, with the TT move first.
    #[inline(always)]
    fn moves_after_tt_move(
        &mut self,
        node: &mut NodeCtx,
        ordering: &MoveOrdering,
        list: &mut Vec<ScoredMove>,
    ) {
        let us = self.board.to_move();
        gen_all(&mut self.board, us, list);
        drop_images(&self.board, list, node.tt_move);
        self.score_moves(node, ordering, list);
        pick_best(list, 0);
        debug_assert_eq!(list[0].pos, node.tt_move);
    }

    /// Adds the search's own terms to the scores of a node's generated `list` (the policy's,
    /// noting its best score first where the reductions use it, and the ordering's).
    #[inline(always)]
    fn score_moves(&self, node: &mut NodeCtx, ordering: &MoveOrdering, list: &mut [ScoredMove]) {
        let us = self.board.to_move();
        if self.params.policy_lmr_max > 0 {
            node.policy_top = policy_top(list);
        }
        self.apply_policy(node, list, us);
        self.order(list, ordering, us);
    }

    /// Step 11c. Shares the rest of a node's list (`rest`, after move number `count`) with
    /// idle helper threads at a split point, and takes what the threads found into `s`
    /// (only the moves tried when the search stops).
    #[inline(always)]
    fn split_rest<const PV: bool>(
        &mut self,
        node: &NodeCtx,
        rest: &mut [ScoredMove],
        count: usize,
        depth: i32,
        alpha: Score,
        s: &mut Searched,
    ) {
        rest.sort_by_key(|m| std::cmp::Reverse(m.score));
        let moves = rest
            .iter()
            .map(|m| m.pos)
            .filter(|&m| m != node.excluded)
            .collect();
        let st = self.open_split(
            node,
            moves,
            count,
            depth,
            alpha,
            s.best,
            s.best_move,
            PV,
            false,
        );
        for &t in &st.tried {
            s.try_move(t);
        }
        if self.stopped {
            return;
        }
        if PV && !st.line.is_empty() {
            let ply = node.ply;
            let n = st.line.len();
            self.pv[ply][ply..ply + n].copy_from_slice(&st.line);
            self.pv_len[ply] = ply + n;
        }
        s.best = st.best;
        s.best_move = st.best_move;
        s.depth = st.depth;
    }

    /// The best move of a node at `ply` searched with `depth` left, among the moves `tried`:
    /// a killer when it is quiet, and a history bonus, with a malus for the others.
    #[inline(always)]
    fn reward(&mut self, ply: usize, best_move: Pos, depth: i32, tried: &[Pos]) {
        let us = self.board.to_move();
        let tactical = self.board.threat(best_move, us) >= Pattern4::Flex3;
        if !tactical {
            let k = &mut self.killers[ply];
            if k[0] != best_move {
                k[1] = k[0];
                k[0] = best_move;
            }
        }
        // History: a bonus for the best move, a malus for the moves searched with it that
        // were not best, each pulling the value towards +-HIST_MAX ("gravity", so that
        // values stay bounded and old ones fade). Against a bonus-only history (values up
        // to 2^20, which outweigh every pattern score in the ordering) this scores +110 Elo
        // in freestyle, +74 in standard and +63 in renju (72 games each at 100 ms per move)
        // and halves the first-move failures at cut nodes.
        let dp = depth / PLY;
        let bonus = (dp * dp * 16 + 32).min(HIST_BONUS_MAX);
        let hist = &self.history.0[us.index()];
        for &t in tried {
            let b = if t == best_move { bonus } else { -bonus };
            let h = &hist[t.index()];
            let v = h.load(Ordering::Relaxed);
            h.store(v + b - v * b.abs() / HIST_MAX, Ordering::Relaxed);
        }
        // the same for the answers to the opponent's last move
        if let Some(prev) = self.frames[ply + FRAME_OFFSET - 1].current {
            if self.counter.used() {
                for &t in tried {
                    let b = if t == best_move { bonus } else { -bonus };
                    self.counter.update(us, prev, t, b);
                }
            }
        }
    }
}

/// The best ordering score of a list as generated (before the search's own terms are added).
fn policy_top(list: &[ScoredMove]) -> i32 {
    list.iter().map(|m| m.score).max().unwrap_or(i32::MIN)
}

/// What the singular test of a hash move says (see `Worker::singular_test`).
enum Singular {
    /// The only move that holds: searched a ply deeper.
    Extend,
    /// Another move reaches beta too: the node's value (a lower bound).
    MultiCut(Score),
    /// Not singular, and its hash value reaches beta: searched a little shallower.
    LikelyFailHigh,
    /// Not singular.
    No,
}

/// What a node knows after its table probe and static evaluation (steps 4-5).
#[derive(Clone, Copy)]
struct NodeEval {
    /// The move a singular test leaves out of the node, or none.
    excluded: Pos,
    /// The table's move (a playable point), or none.
    tt_move: Pos,
    /// The table's entry, with its value at the node's ply.
    tt_hit: Option<(TtHit, Score)>,
    tt_pv: bool,
    /// The opponent has a straight four.
    oppo4: bool,
    static_eval: Score,
    /// The evaluation the pruning uses (the table's value where its bound allows).
    eval: Score,
    /// The static evaluation is above ours two plies ago.
    improving: bool,
}

/// What the loop over a node's moves found.
struct Searched {
    best: Score,
    best_move: Pos,
    /// The node's depth at the end (later moves of a PV node may get less).
    depth: i32,
    /// The moves searched (the first 64), for the history.
    tried: [Pos; 64],
    ntried: usize,
}

impl Searched {
    /// Notes move `m` as searched (beyond 64 moves, it is not).
    #[inline(always)]
    fn try_move(&mut self, m: Pos) {
        if self.ntried < self.tried.len() {
            self.tried[self.ntried] = m;
            self.ntried += 1;
        }
    }
}

/// `r` (in 1/16 ply) rounded up to whole plies.
const fn whole_plies_up(r: i32) -> i32 {
    (r + PLY - 1).div_euclid(PLY) * PLY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_round_up_to_whole_plies() {
        for (r, want) in [
            (0, 0),
            (1, PLY),
            (PLY, PLY),
            (PLY + 1, 2 * PLY),
            (-1, 0),
            (-PLY, -PLY),
            (-PLY - 1, -PLY),
            (-PLY + 1, 0),
        ] {
            assert_eq!(whole_plies_up(r), want, "r = {r}");
        }
    }
}
