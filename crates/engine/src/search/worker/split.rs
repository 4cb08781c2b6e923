//! Young Brothers Wait: a node whose first move is searched shares the rest of its list with
//! idle threads through a [`SplitPoint`]; helper threads wait for split points and work at
//! them, and the owner waits for its helpers (helping at split points below its own).

use super::root::record_root;
use super::{line_fits, Frame, History, NodeCtx, Worker, FRAME_OFFSET};
use crate::pattern::Pattern4;
use crate::search::params::PLY;
use crate::search::score::{is_decisive, Score, WIN_MIN};
use crate::types::Pos;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A node whose remaining moves the threads share (Young Brothers Wait): its owner searched
/// the first move alone, then published the rest; each thread takes the next move, searches it
/// on its own board and reports the value here.
pub(crate) struct SplitPoint {
    /// The moves (and passes) from the search's root to the node.
    path: Vec<Pos>,
    /// The owner's frames up to the node's own and its killers for the node's children, so
    /// that the helpers order moves as it would.
    frames: Vec<Frame>,
    child_killers: [Pos; 2],
    node: NodeCtx,
    pv: bool,
    /// A split point at the root, whose moves are root moves.
    root: bool,
    /// The rest of the node's list, in order; `moves[j]` is the node's move number
    /// `count0 + j + 1`.
    moves: Vec<Pos>,
    count0: usize,
    next: AtomicUsize,
    /// Copies of the state's alpha, best value and depth (in sixteenths of a ply; at the root
    /// split point, the iteration's depth in plies), read without the lock.
    alpha: AtomicI32,
    best: AtomicI32,
    depth: AtomicI32,
    /// Set on a beta cut-off (or when the owner stops): the threads drop their moves.
    pub(super) abort: AtomicBool,
    /// Helper threads working here.
    workers: AtomicUsize,
    state: Mutex<SplitState>,
    /// The owner's history, which a thread with a table of its own copies when it joins.
    owner_history: Arc<History>,
}

/// Leaves a split point when dropped, also when the thread unwinds from a panic, so that the
/// point's owner never waits for a thread that is gone.
struct Leave<'s>(&'s SplitPoint);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.0.workers.fetch_sub(1, Ordering::Release);
    }
}

/// The result of a split point so far.
pub(super) struct SplitState {
    pub(super) best: Score,
    pub(super) best_move: Pos,
    alpha: Score,
    pub(super) depth: i32,
    /// Moves searched here (for the history update at the node).
    pub(super) tried: Vec<Pos>,
    /// The best move's line at a PV node, when a move here improved alpha.
    pub(super) line: Vec<Pos>,
    /// At the root: (root move number, value, the alpha it was searched with, its line).
    root_results: Vec<(usize, Score, Score, Vec<Pos>)>,
}

impl Worker<'_> {
    pub(super) fn may_split_root(&self, depth_plies: i32) -> bool {
        self.sh.ybwc
            && self.id == 0
            && depth_plies >= self.params.split_min_depth
            && self.sh.idle.load(Ordering::Relaxed) > 0
    }

    /// Shares the root moves from `first` on with the helpers; their values go into the root
    /// list. The best value of the iteration.
    pub(super) fn root_split(
        &mut self,
        first: usize,
        alpha: Score,
        beta: Score,
        depth_plies: i32,
        best: Score,
    ) -> Score {
        let node = NodeCtx {
            beta,
            ply: 0,
            cut_node: false,
            tt_pv: true,
            improving: false,
            oppo4: false,
            prev_own_class: Pattern4::None,
            own_last: None,
            their_last: None,
            killers: self.killers[0],
            tt_move: Pos::NONE,
            singular: None,
            excluded: Pos::NONE,
            move_count_limit: usize::MAX,
            likely_fail_high: false,
            policy_top: i32::MIN,
            nn_query: [0; crate::nnue::FEAT],
            nn_policy_top: i32::MIN,
        };
        let moves = self.root[first..].iter().map(|e| e.rm.pos).collect();
        let st = self.open_split(
            &node,
            moves,
            first,
            depth_plies,
            alpha,
            best,
            Pos::NONE,
            true,
            true,
        );
        let mut best = best;
        for (i, v, a, line) in &st.root_results {
            record_root(
                &mut self.root[*i],
                *v,
                *a,
                beta,
                depth_plies,
                false,
                false,
                line,
            );
            best = best.max(*v);
        }
        best
    }

    /// Takes root moves of a root split point until none are left or it is aborted.
    fn work_root(&mut self, sp: &SplitPoint) {
        let beta = sp.node.beta;
        let depth_plies = sp.depth.load(Ordering::Relaxed);
        loop {
            if self.stopped || sp.abort.load(Ordering::Relaxed) {
                break;
            }
            let j = sp.next.fetch_add(1, Ordering::Relaxed);
            if j >= sp.moves.len() {
                break;
            }
            let i = sp.count0 + j;
            let mut alpha = sp.alpha.load(Ordering::Relaxed);
            let v = self.root_move(
                i,
                sp.moves[j],
                &mut alpha,
                beta,
                depth_plies,
                Some(&sp.alpha),
                None,
            );
            if self.stopped {
                break;
            }
            let line = self.pv[1][1..self.pv_len[1].max(1)].to_vec();
            let mut st = sp.state.lock().unwrap_or_else(|e| e.into_inner());
            st.root_results.push((i, v, alpha, line));
            if v > st.best {
                st.best = v;
            }
            if v > st.alpha {
                st.alpha = v;
                sp.alpha.store(v, Ordering::Relaxed);
                if v >= beta {
                    sp.abort.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
    }

    /// Whether this thread should share the rest of a node's list with an idle thread.
    #[inline]
    pub(super) fn may_split(&self, depth: i32) -> bool {
        self.sh.ybwc
            && depth >= self.params.split_min_depth * PLY
            && self.sh.idle.load(Ordering::Relaxed) > 0
    }

    /// Opens a split point for the rest of a node's list (`moves`, after `count0` moves of
    /// the node), works on it beside the helpers, and returns its result once every thread
    /// has left it.
    pub(super) fn open_split(
        &mut self,
        node: &NodeCtx,
        moves: Vec<Pos>,
        count0: usize,
        depth: i32,
        alpha: Score,
        best: Score,
        best_move: Pos,
        pv: bool,
        root: bool,
    ) -> SplitState {
        let sh = self.sh;
        let sp = Arc::new(SplitPoint {
            path: self.board.moves()[self.root_len..].to_vec(),
            frames: self.frames[..=node.ply + FRAME_OFFSET].to_vec(),
            child_killers: self.killers[node.ply + 1],
            node: *node,
            pv,
            root,
            moves,
            count0,
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(alpha),
            best: AtomicI32::new(best),
            depth: AtomicI32::new(depth),
            abort: AtomicBool::new(false),
            workers: AtomicUsize::new(0),
            owner_history: Arc::clone(&self.history),
            state: Mutex::new(SplitState {
                best,
                best_move,
                alpha,
                depth,
                tried: Vec::new(),
                line: Vec::new(),
                root_results: Vec::new(),
            }),
        });
        *sh.split.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::clone(&sp));
        sh.split_seq.fetch_add(1, Ordering::Release);
        self.stats.splits += 1;
        self.splits.push(Arc::clone(&sp));
        self.work_at(&sp);
        {
            let mut open = sh.split.lock().unwrap_or_else(|e| e.into_inner());
            if open.as_ref().is_some_and(|o| Arc::ptr_eq(o, &sp)) {
                *open = None;
            }
        }
        if self.stopped {
            // the helpers drop their moves too
            sp.abort.store(true, Ordering::Relaxed);
        }
        // wait for the helpers still searching a move here, helping them at split points
        // they open below this one (and watching the clock)
        let mut seen = 0;
        let mut spins = 0u32;
        sh.idle.fetch_add(1, Ordering::Relaxed);
        while sp.workers.load(Ordering::Acquire) > 0 {
            if !self.stopped && self.try_join(&mut seen, Some(&sp)) {
                // back at this node
                self.sync_board(&sp.path);
                self.frames[..sp.frames.len()].copy_from_slice(&sp.frames);
            }
            std::hint::spin_loop();
            spins += 1;
            if spins % 64 == 0 {
                self.poll();
            }
            if self.stopped {
                sp.abort.store(true, Ordering::Relaxed);
            }
        }
        sh.idle.fetch_sub(1, Ordering::Relaxed);
        self.splits.pop();
        if self.stopped
            && !self.stopping()
            && !self.splits.iter().any(|o| o.abort.load(Ordering::Relaxed))
        {
            // stopped by this split point's own cut-off, which its state holds
            self.stopped = false;
        }
        let mut st = sp.state.lock().unwrap_or_else(|e| e.into_inner());
        SplitState {
            tried: std::mem::take(&mut st.tried),
            line: std::mem::take(&mut st.line),
            root_results: std::mem::take(&mut st.root_results),
            ..*st
        }
    }

    fn work_at(&mut self, sp: &SplitPoint) {
        if sp.root {
            self.work_root(sp);
        } else if sp.pv {
            self.work_split::<true>(sp);
        } else {
            self.work_split::<false>(sp);
        }
    }

    /// Takes moves of a split point until none are left or it is aborted.
    fn work_split<const PV: bool>(&mut self, sp: &SplitPoint) {
        let node = sp.node;
        let ply = node.ply;
        loop {
            if self.stopped || sp.abort.load(Ordering::Relaxed) {
                break;
            }
            let j = sp.next.fetch_add(1, Ordering::Relaxed);
            if j >= sp.moves.len() {
                break;
            }
            let count = sp.count0 + j + 1;
            let best = sp.best.load(Ordering::Relaxed);
            // move count pruning, as in the node's own loop
            if best > -WIN_MIN && count > node.move_count_limit {
                break;
            }
            let alpha = sp.alpha.load(Ordering::Relaxed);
            let depth = sp.depth.load(Ordering::Relaxed);
            let m = sp.moves[j];
            let Some(v) = self.search_move::<PV>(&node, m, count, depth, alpha, best) else {
                continue;
            };
            if self.stopped {
                break;
            }
            let mut st = sp.state.lock().unwrap_or_else(|e| e.into_inner());
            st.tried.push(m);
            if v > st.best {
                st.best = v;
                sp.best.store(v, Ordering::Relaxed);
                if v > st.alpha {
                    st.best_move = m;
                    if PV {
                        let child_len = self.pv_len[ply + 1].max(ply + 1);
                        st.line.clear();
                        st.line.push(m);
                        st.line
                            .extend_from_slice(&self.pv[ply + 1][ply + 1..child_len]);
                        debug_assert!(
                            line_fits(&self.board, &st.line),
                            "the line at shared ply {ply} is not playable: {:?}",
                            st.line
                        );
                    }
                    if v >= node.beta {
                        self.stats.cutoffs += 1;
                        sp.abort.store(true, Ordering::Relaxed);
                        break;
                    }
                    st.alpha = v;
                    sp.alpha.store(v, Ordering::Relaxed);
                    // later moves at a PV node with an improved alpha get less depth
                    if st.depth > 2 * PLY && st.depth < 12 * PLY && !is_decisive(v) {
                        st.depth -= PLY;
                        sp.depth.store(st.depth, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    /// A helper thread of Young Brothers Wait: waits for split points and works at them
    /// until the search ends.
    pub(crate) fn help(&mut self) {
        let sh = self.sh;
        let mut seen = 0u64;
        let mut spins = 0u32;
        sh.idle.fetch_add(1, Ordering::Relaxed);
        while !self.stopping() {
            if !self.try_join(&mut seen, None) {
                std::hint::spin_loop();
                spins += 1;
                if spins % 1024 == 0 {
                    std::thread::yield_now();
                }
            }
        }
        self.poll();
    }

    /// Joins the open split point, if there is a new one with moves left (and, for a thread
    /// waiting at split point `below`, only one under it), and works there. Whether it did.
    fn try_join(&mut self, seen: &mut u64, below: Option<&SplitPoint>) -> bool {
        let sh = self.sh;
        let seq = sh.split_seq.load(Ordering::Acquire);
        if seq == *seen {
            return false;
        }
        *seen = seq;
        let sp = {
            let open = sh.split.lock().unwrap_or_else(|e| e.into_inner());
            match open.as_ref() {
                Some(sp)
                    if !sp.abort.load(Ordering::Relaxed)
                        && sp.next.load(Ordering::Relaxed) < sp.moves.len()
                        && below.is_none_or(|b| {
                            sp.path.len() > b.path.len() && sp.path.starts_with(&b.path)
                        }) =>
                {
                    sp.workers.fetch_add(1, Ordering::Relaxed);
                    Some(Arc::clone(sp))
                }
                _ => None,
            }
        };
        let Some(sp) = sp else { return false };
        let _leave = Leave(&sp);
        sh.idle.fetch_sub(1, Ordering::Relaxed);
        self.sync_board(&sp.path);
        let ply = sp.node.ply;
        self.frames[..sp.frames.len()].copy_from_slice(&sp.frames);
        self.killers[ply] = sp.node.killers;
        self.killers[ply + 1] = sp.child_killers;
        if !Arc::ptr_eq(&self.history, &sp.owner_history) {
            // the board's points only: the padding around them never gets a value
            let last = self.board.size() - 1;
            let cells = Pos::new(0, 0).index()..Pos::new(last, last).index() + 1;
            self.history.copy_from(&sp.owner_history, cells);
        }

        self.splits.push(Arc::clone(&sp));
        self.work_at(&sp);
        self.splits.pop();
        if self.stopped
            && !self.stopping()
            && !self.splits.iter().any(|o| o.abort.load(Ordering::Relaxed))
        {
            // the split point was aborted: this thread is free again
            self.stopped = false;
        }
        sh.idle.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// Brings the board from the search's root to the end of `path`, keeping the moves it
    /// shares with the board's line.
    fn sync_board(&mut self, path: &[Pos]) {
        let common = self.board.moves()[self.root_len..]
            .iter()
            .zip(path)
            .take_while(|(a, b)| a == b)
            .count();
        while self.board.ply() > self.root_len + common {
            self.unplay();
        }
        for &m in &path[common..] {
            if m.is_pass() {
                self.board.pass();
            } else {
                self.play(m);
            }
        }
    }
}
