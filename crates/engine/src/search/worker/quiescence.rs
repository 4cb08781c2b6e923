//! The threat quiescence search at the horizon: stand pat on the static evaluation, or play
//! a four near our last move, answered by its forced block, looking for a VCF or a better
//! position.

use super::Worker;
use crate::pattern::Pattern4;
use crate::search::score::{from_tt, loss_in, to_tt, win_in, Score};
use crate::search::tt::Bound;
use crate::types::{Color, Pos, Rule};

impl Worker<'_> {
    /// Threat quiescence search: stand pat on the static evaluation, or play fours near our
    /// last move (each answered by the forced block) looking for a VCF or a better position.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
        qdepth: i32,
    ) -> Score {
        let (mut alpha, beta, forced) = match self.open_node::<PV>(alpha, beta, ply) {
            Ok(opened) => opened,
            Err(v) => return v,
        };
        let p = ply as i32;
        if let Some(blk) = forced {
            // the opponent's four must be blocked, whatever we hoped to do
            return self.search_block::<PV>(blk, alpha, ply, |w| {
                w.qsearch::<PV>(-beta, -alpha, ply + 1, qdepth)
            });
        }
        let key = self.board.key();
        let (tt_move, stand) = match self.qprobe::<PV>(key, p, alpha, beta) {
            Ok(probe) => probe,
            Err(v) => return v,
        };
        let stand = stand.unwrap_or_else(|| self.evaluate());
        if stand >= beta {
            return stand;
        }
        let orig_alpha = alpha;
        if stand > alpha {
            alpha = stand;
        }
        if qdepth <= self.params.qvcf_max_depth {
            return stand;
        }
        let us = self.board.to_move();
        let Some(last) = self.board.last_move_of(us) else {
            return stand;
        };
        let mut list = std::mem::take(&mut self.qlists[ply]);
        self.qmoves(&mut list, last, tt_move, qdepth);
        let mut best = stand;
        let mut best_move = Pos::NONE;
        for i in 0..list.len() {
            let m = list[i];
            let class = crate::search::movegen::own_class(&mut self.board, m, us);
            if !(Pattern4::Block4..Pattern4::Five).contains(&class) {
                continue;
            }
            self.play(m);
            let v = -self.qdefend::<PV>(-beta, -alpha, ply + 1, qdepth - 1, m);
            self.unplay();
            if self.stopped {
                self.qlists[ply] = list;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.qlists[ply] = list;
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.sh
            .tt
            .store(key, best_move, to_tt(best, p), stand, -1, bound, PV);
        best
    }

    /// Looks the position (`key`) of a threat quiescence node up in the transposition table:
    /// the TT move (a playable point, or none) and the entry's static evaluation;
    /// `Err(value)` when the entry's value at `ply` (`p`) decides a non-PV node in (`alpha`,
    /// `beta`).
    #[inline(always)]
    fn qprobe<const PV: bool>(
        &mut self,
        key: u64,
        p: i32,
        alpha: Score,
        beta: Score,
    ) -> Result<(Pos, Option<Score>), Score> {
        let Some(h) = self.sh.tt.probe(key) else {
            return Ok((Pos::NONE, None));
        };
        self.stats.tt_hits += 1;
        let s = from_tt(h.score, p);
        if !PV
            && h.bound != Bound::None
            && ((h.bound as u8 & Bound::Lower as u8 != 0 && s >= beta)
                || (h.bound as u8 & Bound::Upper as u8 != 0 && s <= alpha))
        {
            return Err(s);
        }
        let mut tt_move = Pos::NONE;
        if h.mv.is_point() && self.board.contains(h.mv) && self.board.is_empty(h.mv) {
            tt_move = h.mv;
        }
        Ok((tt_move, Some(h.eval)))
    }

    /// The candidate fours of a threat quiescence node at `qdepth` into `list`: the TT move
    /// when it makes a four (or a double three), then the points near our `last` move that
    /// make one (only fours that also make a three once `qdepth` is below the plain fours'
    /// level) or a double three.
    #[inline(always)]
    fn qmoves(&mut self, list: &mut Vec<Pos>, last: Pos, tt_move: Pos, qdepth: i32) {
        let us = self.board.to_move();
        let allow_plain = qdepth >= self.params.qvcf_plain_depth;
        list.clear();
        if tt_move != Pos::NONE {
            let c = self.board.threat(tt_move, us);
            if (Pattern4::Block4..Pattern4::Five).contains(&c) || c == Pattern4::Flex3x2 {
                list.push(tt_move);
            }
        }
        for &o in QVCF_RANGE.iter() {
            let q = Pos::from_index((last.index() as i32 + o) as usize);
            if !self.board.is_empty(q) || q == tt_move {
                continue;
            }
            let c = self.board.threat(q, us);
            let ok = if allow_plain {
                c >= Pattern4::Block4
            } else {
                c >= Pattern4::Block4Plus
            };
            if (ok && c < Pattern4::Five) || c == Pattern4::Flex3x2 {
                list.push(q);
            }
        }
    }

    /// The defender's forced block in the threat quiescence search.
    fn qdefend<const PV: bool>(
        &mut self,
        alpha: Score,
        beta: Score,
        ply: usize,
        qdepth: i32,
        four: Pos,
    ) -> Score {
        if PV {
            self.pv_len[ply] = ply;
        }
        self.stats.nodes += 1;
        let p = ply as i32;
        let us = self.board.to_move();
        let them = us.opponent();
        if self.board.threat_count(us, Pattern4::Five) > 0 {
            return win_in(p + 1);
        }
        let blk = match crate::search::movegen::five_point_near(&self.board, four, them) {
            Some(b) => b,
            None => return self.evaluate(),
        };
        self.sh.tt.prefetch(self.board.key_after(blk));
        if self.board.threat_count(them, Pattern4::Five) >= 2 {
            // the four made two five points (possible through a second line)
            let (_, n) = self.five_points(them);
            if n >= 2 {
                return loss_in(p + 2);
            }
        }
        if us == Color::Black && self.board.rule() == Rule::Renju && self.board.is_forbidden(blk) {
            return loss_in(p + 2);
        }
        self.play(blk);
        let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, qdepth);
        self.unplay();
        if PV && !self.stopped {
            self.update_pv(ply, blk);
        }
        v
    }
}

/// Offsets around a point where the threat quiescence looks for fours: the 5x5 square and the
/// four lines up to four steps.
const QVCF_RANGE: [i32; 40] = {
    let mut t = [0i32; 40];
    let mut n = 0;
    let s = crate::types::STRIDE as i32;
    let mut dy = -4i32;
    while dy <= 4 {
        let mut dx = -4i32;
        while dx <= 4 {
            let ax = if dx < 0 { -dx } else { dx };
            let ay = if dy < 0 { -dy } else { dy };
            let square = ax <= 2 && ay <= 2;
            let line = ax == 0 || ay == 0 || ax == ay;
            if (square || line) && !(dx == 0 && dy == 0) {
                t[n] = dy * s + dx;
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    t
};
