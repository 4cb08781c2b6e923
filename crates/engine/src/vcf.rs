//! Victory by Continuous Fours (VCF): the side to move wins by playing only fours, each answered
//! by the forced block, until a five, a straight four or a double four.
//!
//! Rule details: under renju a Black "four" on a forbidden point is no four (Black cannot play
//! it), Black cannot block on a forbidden point (so White wins by forcing Black there), and a
//! block that makes a four of the defender's own must be answered: the attacker's next four has
//! to be the block of that four.

use crate::board::Board;
use crate::pattern::Pattern4;
use crate::search::movegen::{gen_fours, own_class, ScoredMove};
use crate::types::{Color, Dir, Pos, Rule};
use std::sync::atomic::{AtomicBool, Ordering};

/// The stop flag of the searches that have none.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Outcome statistics of one VCF search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VcfStats {
    /// Attacker and defender nodes visited.
    pub nodes: u64,
}

const CACHE_BITS: u32 = 18;

/// Mixed into the cache keys of local searches ([`VcfSearcher::search_local`]).
const LOCAL_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

/// A reusable VCF searcher (keeps its allocations and a small table of failed positions).
#[derive(Debug)]
pub struct VcfSearcher {
    nodes: u64,
    node_limit: u64,
    deadline: Option<std::time::Instant>,
    aborted: bool,
    /// Failed positions: key and the depth at which no VCF was found.
    cache: Vec<(u64, i16)>,
    lists: Vec<Vec<ScoredMove>>,
    line: Vec<Pos>,
    /// In a local search ([`VcfSearcher::search_local`]), how far (in king steps) a four after the
    /// first may be from the attacker's previous four or the defender's block.
    radius: Option<i32>,
}

impl Default for VcfSearcher {
    fn default() -> Self {
        Self::new()
    }
}

/// Up to two points on `p`'s lines (within four steps) where `color` makes five.
fn five_points_near(board: &Board, p: Pos, color: Color) -> ([Pos; 2], usize) {
    let mut out = [Pos::NONE; 2];
    let mut n = 0;
    for d in Dir::ALL {
        for k in 1..=4 {
            for q in [p.step(d, k), p.step(d, -k)] {
                if board.is_empty(q)
                    && board.threat(q, color) == Pattern4::Five
                    && !out[..n].contains(&q)
                {
                    out[n] = q;
                    n += 1;
                    if n == 2 {
                        return (out, n);
                    }
                }
            }
        }
    }
    (out, n)
}

/// Whether a four on `p` follows on from the attacker's previous four `four` and the defender's
/// block `block` (a local search's test): `p` is on one of the four lines through `four` within
/// four steps (a four there can use that stone), or within `radius` king steps of `four` or of
/// `block`.
fn follows_on(p: Pos, four: Option<Pos>, block: Option<Pos>, radius: i32) -> bool {
    let steps = |q: Pos| {
        let dx = (p.x() as i32 - q.x() as i32).abs();
        let dy = (p.y() as i32 - q.y() as i32).abs();
        (dx, dy)
    };
    four.is_some_and(|q| {
        let (dx, dy) = steps(q);
        (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4 || dx.max(dy) <= radius
    }) || block.is_some_and(|q| {
        let (dx, dy) = steps(q);
        dx.max(dy) <= radius
    })
}

impl VcfSearcher {
    /// A searcher with an empty cache.
    #[must_use]
    pub fn new() -> VcfSearcher {
        VcfSearcher {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            cache: vec![(0, -1); 1 << CACHE_BITS],
            lists: Vec::new(),
            line: Vec::new(),
            radius: None,
        }
    }

    /// Forgets the cached failures (needed when the evaluation tables or rule change).
    pub fn clear(&mut self) {
        self.cache.iter_mut().for_each(|e| *e = (0, -1));
    }

    /// Nodes visited by the last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Looks for a VCF of the side to move with at most `max_fours` fours (five excluded) and at
    /// most `node_limit` nodes. Returns the winning line: attacker and defender moves alternating,
    /// ending with the attacker's winning move (the five, or the straight four / double four /
    /// four on a point the defender may not block).
    pub fn search(
        &mut self,
        board: &mut Board,
        max_fours: i32,
        node_limit: u64,
    ) -> Option<Vec<Pos>> {
        self.search_timed(board, max_fours, node_limit, None)
    }

    /// [`VcfSearcher::search`] for the VCFs whose fours follow on from each other: after the
    /// first four, only fours on the lines through the attacker's previous four (within four
    /// steps), or within `radius` king steps of it or of the defender's block, are tried. Much
    /// cheaper where there is no VCF (fours far apart are not combined with each other); it
    /// misses the VCFs that jump about (with radius 3, 4 of the 81 in
    /// `renju-vcf-with-solutions.txt` and 81 of the 609 puzzles of `renju-vcf.txt`, which are
    /// chosen to be tricky). A caller that must not miss a VCF (to see a defence fail, say) uses
    /// [`VcfSearcher::search`]. Its failures are cached apart from those of the full search.
    pub fn search_local(
        &mut self,
        board: &mut Board,
        max_fours: i32,
        node_limit: u64,
        radius: i32,
    ) -> Option<Vec<Pos>> {
        self.radius = Some(radius);
        let line = self.search_timed(board, max_fours, node_limit, None);
        self.radius = None;
        line
    }

    /// [`VcfSearcher::search`] with a wall-clock budget in milliseconds as well.
    pub fn search_timed(
        &mut self,
        board: &mut Board,
        max_fours: i32,
        node_limit: u64,
        max_ms: Option<u64>,
    ) -> Option<Vec<Pos>> {
        self.search_stoppable(board, max_fours, node_limit, max_ms, &NEVER)
    }

    /// [`VcfSearcher::search_timed`] that also gives up soon after `stop` becomes true (it is
    /// read with the clock, every 1024 nodes).
    pub fn search_stoppable(
        &mut self,
        board: &mut Board,
        max_fours: i32,
        node_limit: u64,
        max_ms: Option<u64>,
        stop: &AtomicBool,
    ) -> Option<Vec<Pos>> {
        self.nodes = 0;
        self.node_limit = node_limit;
        self.aborted = false;
        self.deadline =
            max_ms.map(|ms| std::time::Instant::now() + std::time::Duration::from_millis(ms));
        self.line.clear();
        if self.attack(board, max_fours, 0, stop) {
            Some(self.line.clone())
        } else {
            None
        }
    }

    /// Whether the side to move could make any four at all (a cheap precheck).
    #[must_use]
    pub fn has_four_moves(board: &Board, color: Color) -> bool {
        let n = board.threat_count(color, Pattern4::Block4)
            + board.threat_count(color, Pattern4::Block4Plus)
            + board.threat_count(color, Pattern4::Block4Flex3)
            + board.threat_count(color, Pattern4::Flex4)
            + board.threat_count(color, Pattern4::Five);
        n > 0
            || (board.rule() == Rule::Renju
                && color == Color::Black
                && board.threat_count(color, Pattern4::Flex3x2) > 0)
    }

    fn cache_slot(key: u64) -> usize {
        (key >> (64 - CACHE_BITS)) as usize
    }

    /// Attacker (the side to move) to play. `ply` indexes the move lists.
    fn attack(&mut self, b: &mut Board, depth: i32, ply: usize, stop: &AtomicBool) -> bool {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.aborted = true;
        } else if self.nodes % 1024 == 0
            && (stop.load(Ordering::Relaxed)
                || self
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d))
        {
            self.aborted = true;
            self.node_limit = self.nodes;
        }
        if self.aborted {
            return false;
        }
        let att = b.to_move();
        let def = att.opponent();
        if b.threat_count(att, Pattern4::Five) > 0 {
            let (p, n) = crate::vct::five_points(b, att);
            if n > 0 {
                self.line.push(p[0]);
                return true;
            }
        }
        if b.threat_count(def, Pattern4::Five) > 0 {
            // the defender's last block made a four: our next four must block it
            let (pts, n) = crate::vct::five_points(b, def);
            if n != 1 {
                return false;
            }
            let blk = pts[0];
            let class = own_class(b, blk, att);
            if !(Pattern4::Block4..Pattern4::Five).contains(&class) {
                return false;
            }
            return self.try_four(b, blk, depth, ply, stop);
        }
        if b.threat_count(att, Pattern4::Flex4) > 0 {
            let mut found = Pos::NONE;
            b.for_each_candidate(|q| {
                if found == Pos::NONE && b.threat(q, att) == Pattern4::Flex4 {
                    found = q;
                }
            });
            if found != Pos::NONE {
                self.line.push(found);
                return true;
            }
        }
        if depth <= 0 || !Self::has_four_moves(b, att) {
            return false;
        }
        // a local search's failures are not the full search's
        let key = if self.radius.is_some() {
            b.key() ^ LOCAL_KEY
        } else {
            b.key()
        };
        let slot = Self::cache_slot(key);
        if self.cache[slot].0 == key && i32::from(self.cache[slot].1) >= depth {
            return false;
        }
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        gen_fours(b, att, &mut list);
        let last = b.last_move_of(att);
        if let Some(r) = self.radius.filter(|_| ply > 0) {
            let block = b.last_move();
            list.retain(|m| follows_on(m.pos, last, block, r));
        }
        // four-threes first, then fours close to our previous four (VCFs are local), then
        // by ordering score
        list.sort_by_key(|m| {
            let bonus = if b.threat(m.pos, att) == Pattern4::Block4Flex3 {
                1 << 20
            } else {
                0
            };
            let near = last.map_or(0, |l| {
                let d = (l.x() as i32 - m.pos.x() as i32)
                    .abs()
                    .max((l.y() as i32 - m.pos.y() as i32).abs());
                (8 - d.min(8)) << 12
            });
            -(m.score + bonus + near)
        });
        let mut won = false;
        for m in list.iter() {
            if self.try_four(b, m.pos, depth, ply, stop) {
                won = true;
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.lists[ply] = list;
        if !won && !self.aborted {
            self.cache[slot] = (key, depth.min(i32::from(i16::MAX)) as i16);
        }
        won
    }

    /// Plays the attacker's four `m` and the forced block; true if the attack then wins.
    fn try_four(
        &mut self,
        b: &mut Board,
        m: Pos,
        depth: i32,
        ply: usize,
        stop: &AtomicBool,
    ) -> bool {
        let att = b.to_move();
        let def = att.opponent();
        b.play_unchecked(m);
        self.line.push(m);
        let (fives, n) = five_points_near(b, m, att);
        let won = if n >= 2 {
            true // double four
        } else if n == 0 {
            false // not a four after all (cannot happen for a generated four)
        } else {
            let r = fives[0];
            if b.rule() == Rule::Renju && def == Color::Black && b.is_forbidden(r) {
                true // Black cannot block on a forbidden point
            } else {
                self.nodes += 1;
                b.play_unchecked(r);
                self.line.push(r);
                let w = self.attack(b, depth - 1, ply + 1, stop);
                if !w {
                    self.line.pop();
                }
                b.undo();
                w
            }
        };
        if !won {
            self.line.pop();
        }
        b.undo();
        won
    }
}

/// Plies a line completed by [`complete_win`] may grow to.
const COMPLETE_MAX_PLIES: usize = 80;

/// The rest of a proven win: `line` (from `board`, the side to move winning, as a search or a
/// solver gives it: it may stop at a four that cannot be stopped, or sooner) played on to the
/// five. The winner plays a five when it has one, else the next four of a VCF (found by `vcf`
/// in at most `node_limit` nodes each); the loser blocks the winner's five (the first point of two: the
/// other one wins). It stops where it can say no more: the winner has no VCF, the loser faces
/// no four (the threat is a three), the block is forbidden to Black (a foul that loses), or
/// the line does not play. Returns the whole line, `line` first (only as much of `line` as
/// plays).
#[must_use]
pub fn complete_win(
    board: &Board,
    line: &[Pos],
    vcf: &mut VcfSearcher,
    node_limit: u64,
) -> Vec<Pos> {
    let mut b = board.clone();
    let winner = b.to_move();
    let mut out = Vec::new();
    for &p in line {
        if b.try_play(p).is_err() {
            return out;
        }
        out.push(p);
        if b.winning_line(p).is_some() {
            return out;
        }
    }
    while out.len() < COMPLETE_MAX_PLIES {
        let five = b
            .points()
            .find(|&p| b.is_empty(p) && b.makes_five(p, winner));
        let next = match (five, b.to_move() == winner) {
            (Some(p), _) => p,
            (None, true) => match vcf.search(&mut b, 40, node_limit) {
                Some(l) if !l.is_empty() => l[0],
                _ => return out,
            },
            (None, false) => return out,
        };
        let loser_fouls = b.to_move() == Color::Black
            && b.to_move() != winner
            && b.rule() == Rule::Renju
            && b.is_forbidden(next);
        if loser_fouls || b.try_play(next).is_err() {
            return out;
        }
        out.push(next);
        if b.winning_line(next).is_some() {
            return out;
        }
    }
    out
}

/// Replays a VCF line of the side to move on `board` (restored afterwards): true if every
/// attacker move is still a four (or the five), every defender move is still the forced block,
/// and the line still ends in a win. A fast re-check used by the threat searches.
pub fn replay_vcf(board: &mut Board, line: &[Pos]) -> bool {
    let att = board.to_move();
    let def = att.opponent();
    let mut played = 0;
    let mut ok = false;
    for (i, &m) in line.iter().enumerate() {
        if !board.is_empty(m) {
            break;
        }
        if i % 2 == 0 {
            if board.threat_count(def, Pattern4::Five) > 0 {
                // the defender's counter-four must be blocked right here
                if board.threat(m, def) != Pattern4::Five {
                    break;
                }
            }
            let class = own_class(board, m, att);
            if class == Pattern4::Five {
                ok = true;
                break;
            }
            if !(Pattern4::Block4..Pattern4::Five).contains(&class) {
                break;
            }
            board.play_unchecked(m);
            played += 1;
            if i + 1 == line.len() {
                let (fives, n) = five_points_near(board, m, att);
                ok = board.threat_count(def, Pattern4::Five) == 0
                    && (n >= 2
                        || (n == 1
                            && def == Color::Black
                            && board.rule() == Rule::Renju
                            && board.is_forbidden(fives[0])));
                break;
            }
        } else {
            if board.threat(m, att) != Pattern4::Five
                || board.threat_count(att, Pattern4::Five) != 1
                || board.threat_count(def, Pattern4::Five) > 0
            {
                break;
            }
            board.play_unchecked(m);
            played += 1;
        }
    }
    for _ in 0..played {
        board.undo();
    }
    ok
}

/// Checks a claimed VCF line independently of the searcher: every attacker move makes a four or
/// five (not on a renju-forbidden point), every defender move is the forced block (or, when the
/// defender can make five, the line fails), a defender's counter-four is answered, and the line
/// ends in five or in a four the defender cannot stop (two five points, or a block point that is
/// forbidden for Black).
///
/// # Errors
/// A description of the first broken step.
pub fn verify_vcf_line(board: &Board, line: &[Pos]) -> Result<(), String> {
    let mut b = board.clone();
    let att = b.to_move();
    let def = att.opponent();
    let name = |b: &Board, p: Pos| b.fmt_pos(p);
    for (i, &m) in line.iter().enumerate() {
        if !b.contains(m) || !b.is_empty(m) {
            return Err(format!(
                "move {} ({}) is not an empty point",
                i + 1,
                name(&b, m)
            ));
        }
        if i % 2 == 0 {
            // attacker
            if att == Color::Black && b.is_forbidden(m) {
                return Err(format!("attacker move {} is forbidden", name(&b, m)));
            }
            let class = b.threat(m, att);
            if class == Pattern4::Five {
                return if i + 1 == line.len() {
                    Ok(())
                } else {
                    Err("moves after the five".into())
                };
            }
            // a defender five threat must be blocked by this move
            let mut def_fives = Vec::new();
            b.for_each_candidate(|q| {
                if b.threat(q, def) == Pattern4::Five {
                    def_fives.push(q);
                }
            });
            if !def_fives.is_empty() && def_fives != [m] {
                return Err(format!(
                    "attacker move {} ignores the defender's four",
                    name(&b, m)
                ));
            }
            b.play(m);
            let mut fives = Vec::new();
            b.for_each_candidate(|q| {
                if b.threat(q, att) == Pattern4::Five {
                    fives.push(q);
                }
            });
            if fives.is_empty() {
                return Err(format!("attacker move {} makes no four", name(&b, m)));
            }
            if i + 1 == line.len() {
                // the last move must leave the defender without a defence
                let mut def_can_five = false;
                b.for_each_candidate(|q| def_can_five |= b.threat(q, def) == Pattern4::Five);
                if def_can_five {
                    return Err("the defender makes five first".into());
                }
                if fives.len() >= 2 {
                    return Ok(());
                }
                if def == Color::Black && b.is_forbidden(fives[0]) {
                    return Ok(());
                }
                return Err(format!("the last four ({}) can be blocked", name(&b, m)));
            }
        } else {
            // defender: must block the single five point, and it must be a legal block
            let mut fives = Vec::new();
            b.for_each_candidate(|q| {
                if b.threat(q, att) == Pattern4::Five {
                    fives.push(q);
                }
            });
            if fives != [m] {
                return Err(format!(
                    "defender move {} is not the forced block",
                    name(&b, m)
                ));
            }
            if def == Color::Black && b.is_forbidden(m) {
                return Err(format!(
                    "defender block {} is forbidden (attacker wins earlier)",
                    name(&b, m)
                ));
            }
            let mut def_can_five = false;
            b.for_each_candidate(|q| def_can_five |= b.threat(q, def) == Pattern4::Five);
            if def_can_five {
                return Err("the defender can make five instead of blocking".into());
            }
            b.play(m);
        }
    }
    Err("the line ends without a win".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::notation::parse_moves;

    fn board(rule: Rule, moves: &str) -> Board {
        Game::setup(15, rule, &parse_moves(moves, 15).unwrap())
            .unwrap()
            .board()
            .clone()
    }

    /// Freestyle, Black to move with h8 i8 j8 (row 8) and g9 g10 g11 (column g) with room: a
    /// short VCF whose fours are next to each other.
    fn simple_vcf_board() -> Board {
        let mut b = board(Rule::Freestyle, "h8 a1 i8 a3 j8 a5 g9 a7 g10 a9 g11 a11 --");
        if b.to_move() != Color::Black {
            b.pass();
        }
        b
    }

    #[test]
    fn a_win_s_line_goes_on_to_the_five() {
        // an open three: g8 makes an open four, White blocks one end, Black plays the other
        let b = board(Rule::Freestyle, "h8 a1 i8 a3 j8 a5");
        let g8 = b.pos(6, 7).unwrap();
        let mut vcf = VcfSearcher::new();
        let line = complete_win(&b, &[g8], &mut vcf, 10_000);
        let names: Vec<String> = line.iter().map(|&p| b.fmt_pos(p)).collect();
        assert_eq!(names, ["g8", "f8", "k8"]);
        // from nothing: the VCF found, played to the five
        let mut v = simple_vcf_board();
        let line = complete_win(&v, &[], &mut vcf, 100_000);
        assert!(line.len() % 2 == 1, "{line:?}");
        for &p in &line {
            v.play(p);
        }
        assert!(v.winning_line(*line.last().unwrap()).is_some());
        // a line that is no win stays as it is: White has no four to answer
        let quiet = board(Rule::Freestyle, "h8 a1");
        let h9 = quiet.pos(7, 6).unwrap();
        assert_eq!(complete_win(&quiet, &[h9], &mut vcf, 10_000), [h9]);
        // a line that does not play stops where it fails
        assert_eq!(
            complete_win(&b, &[b.pos(7, 7).unwrap()], &mut vcf, 10_000),
            []
        );
    }

    #[test]
    fn finds_simple_vcf() {
        let mut b = simple_vcf_board();
        let line = VcfSearcher::new()
            .search(&mut b, 10, 100_000)
            .expect("vcf exists");
        verify_vcf_line(&b, &line).unwrap();
    }

    #[test]
    fn the_local_search_finds_vcfs_that_follow_on_and_misses_one_that_jumps() {
        let mut b = simple_vcf_board();
        let line = VcfSearcher::new()
            .search_local(&mut b, 10, 100_000, 3)
            .expect("vcf exists");
        verify_vcf_line(&b, &line).unwrap();
        // renju-vcf-with-solutions.txt, line 78: the VCF d9 g9 c9 b9 e5 ... jumps from the
        // four on c9 (and the block on b9) to the one on e5, on no line of c9 and four rows away
        let mut b = board(
            Rule::Renju,
            "g10 h11 e9 f10 f9 i9 h9 c8 h8 f8 d7 g8 g7 f7 e6 h7 f6 c6 h6 g6",
        );
        let full = VcfSearcher::new().search(&mut b, 40, 1_000_000);
        verify_vcf_line(&b, &full.expect("the full search finds it")).unwrap();
        let mut searcher = VcfSearcher::new();
        assert_eq!(searcher.search_local(&mut b, 40, 1_000_000, 3), None);
        // its cached failures are not the full search's
        assert!(searcher.search(&mut b, 40, 1_000_000).is_some());
        let p = parse_moves("e5 c9 b9 a6 g9", 15).unwrap();
        assert!(!follows_on(p[0], Some(p[1]), Some(p[2]), 3));
        assert!(
            follows_on(p[3], Some(p[1]), Some(p[2]), 3),
            "within three of the block"
        );
        assert!(
            follows_on(p[4], Some(p[1]), Some(p[2]), 3),
            "on the four's row"
        );
    }

    #[test]
    fn no_vcf_on_quiet_board() {
        let mut b = board(Rule::Freestyle, "h8 i9 h9 i8");
        assert!(VcfSearcher::new().search(&mut b, 20, 100_000).is_none());
    }
}
