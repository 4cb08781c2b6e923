//! Victory by Continuous Threats (VCT): the side to move wins by playing only threats (fours,
//! threes, moves that set up a four-three or a double four, and near the root "VCF threats",
//! quiet moves after which it would win by fours), whatever the defender does.
//!
//! This module defines the game (which attacker moves are threats, which defender moves are
//! real defences) and an iterative-deepening AND/OR search over it, with a VCF search at every
//! attacking node (fours cost no depth; the attacker's is a quick local search, see
//! [`VcfSearcher::search_local`]) and the defender's own (complete) VCF refuting a three. The
//! defender tries every real defence: against a four the forced
//! block (a forbidden point for renju Black is no defence); against a straight-four threat every
//! point on the lines of the threatened fours; against a four-three threat the points on its
//! lines, and the points on the lines through the block it would force that make that block a
//! four of its own; against a VCF threat every move that breaks the VCF; and always every four
//! of its own (a counter-attack the attacker must
//! answer, after which the old threat still stands). Under renju Black never plays a forbidden
//! point, as attacker or defender, and White also threatens with fours whose five point is
//! forbidden for Black (Black can only take the four point, make the five point playable, or
//! counter with fours).

use crate::board::Board;
use crate::pattern::{Pattern, Pattern4};
use crate::search::movegen::{gen_defence_against, order_score, own_class, ScoredMove};
use crate::types::{Color, Dir, Pos, Rule};
use crate::vcf::{replay_vcf, VcfSearcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Limits of one VCT search.
#[derive(Clone, Copy, Debug)]
pub struct VctLimits {
    /// Largest number of attacking moves (iterative deepening search only).
    pub max_depth: i32,
    /// Node budget.
    pub max_nodes: u64,
    /// Wall-clock budget in milliseconds.
    pub max_ms: Option<u64>,
}

impl Default for VctLimits {
    fn default() -> Self {
        VctLimits {
            max_depth: 12,
            max_nodes: 10_000_000,
            max_ms: None,
        }
    }
}

/// Result of a VCT search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VctResult {
    /// A winning line (attacker and defender alternating) when a VCT was found.
    pub line: Option<Vec<Pos>>,
    /// Nodes visited.
    pub nodes: u64,
    /// Deepest number of attacking moves searched completely (iterative deepening only).
    pub depth: i32,
}

/// Up to two points where `color` makes five, and how many were found.
#[must_use]
pub fn five_points(board: &Board, color: Color) -> ([Pos; 2], usize) {
    let mut out = [Pos::NONE; 2];
    let mut n = 0;
    board.for_each_candidate(|q| {
        if n < 2 && board.threat(q, color) == Pattern4::Five {
            out[n] = q;
            n += 1;
        }
    });
    (out, n)
}

/// Under renju, the points where White makes a four whose five point is forbidden for Black
/// (Black cannot block it, so the four wins like a straight four), with that five point. Empty
/// for other rules and for Black.
#[must_use]
pub fn forbidden_block_fours(b: &mut Board, att: Color) -> Vec<(Pos, Pos)> {
    forbidden_block_fours_through(b, att, None)
}

/// [`forbidden_block_fours`], only those whose four goes through `through` when given.
fn forbidden_block_fours_through(
    b: &mut Board,
    att: Color,
    through: Option<Pos>,
) -> Vec<(Pos, Pos)> {
    let mut out = Vec::new();
    if b.rule() != Rule::Renju || att != Color::White {
        return out;
    }
    // A White stone never makes a point forbidden, so the five point is one of Black's
    // forbidden-looking points already, on a line where White can make a four.
    let is_five_point = |b: &Board, r: Pos, d: Dir| {
        b.is_empty(r)
            && b.pattern(r, att, d) >= Pattern::B4
            && matches!(
                b.threat(r, Color::Black),
                Pattern4::Forbid | Pattern4::Flex3x2
            )
    };
    let mut fives: Vec<(Pos, Dir)> = Vec::new();
    match through {
        Some(m) => {
            for d in Dir::ALL {
                for k in 1..=4 {
                    for r in [m.step(d, k), m.step(d, -k)] {
                        if is_five_point(b, r, d) {
                            fives.push((r, d));
                        }
                    }
                }
            }
        }
        None => b.for_each_candidate(|r| {
            for d in Dir::ALL {
                if is_five_point(b, r, d) {
                    fives.push((r, d));
                }
            }
        }),
    }
    if fives.is_empty() {
        return out;
    }
    let mut fours = Vec::new();
    for &(r, d) in &fives {
        for k in 1..=4 {
            for q in [r.step(d, k), r.step(d, -k)] {
                if b.is_empty(q) && b.pattern(q, att, d) >= Pattern::B4 && !fours.contains(&q) {
                    fours.push(q);
                }
            }
        }
    }
    let passed = b.to_move() != att;
    if passed {
        b.pass();
    }
    for q in fours {
        if matches!(b.threat(q, att), Pattern4::Flex4 | Pattern4::Five) {
            continue;
        }
        b.play_unchecked(q);
        let (pts, n) = five_points(b, att);
        if n == 1 && fives.iter().any(|&(r, _)| r == pts[0]) && b.is_forbidden(pts[0]) {
            out.push((q, pts[0]));
        }
        b.undo();
    }
    if passed {
        b.undo();
    }
    out
}

/// The attacker's threats (side to move is `att`, with no five or straight four available and
/// no five threat of the defender to answer): fours, threes, and quiet moves that create a
/// straight-four or four-three point. Best first.
#[must_use]
pub fn attacker_threats(b: &mut Board, att: Color) -> Vec<Pos> {
    let def = att.opponent();
    // A defender holding a three of its own answers a three of ours with a straight four: then
    // only fours, and threats that also break the defender's three, are worth trying.
    let def_flex4 = b.threat_count(def, Pattern4::Flex4) > 0;
    let mut pts: Vec<Pos> = Vec::new();
    let mut quiet: Vec<Pos> = Vec::new();
    b.for_each_candidate(|q| {
        let t = b.threat(q, att);
        if (Pattern4::Flex3..Pattern4::Five).contains(&t) {
            pts.push(q);
        } else if (Pattern4::Flex2..Pattern4::Flex3).contains(&t) {
            quiet.push(q);
        }
    });
    let threats_before =
        b.threat_count(att, Pattern4::Flex4) + b.threat_count(att, Pattern4::Block4Flex3);
    for q in quiet {
        if own_class(b, q, att) == Pattern4::Forbid {
            continue;
        }
        b.play_unchecked(q);
        let threat = b.threat_count(att, Pattern4::Flex4)
            + b.threat_count(att, Pattern4::Block4Flex3)
            > threats_before
            || !forbidden_block_fours_through(b, att, Some(q)).is_empty();
        b.undo();
        if threat {
            pts.push(q);
        }
    }
    let last = b.last_move_of(att);
    let mut list: Vec<ScoredMove> = Vec::with_capacity(pts.len());
    for q in pts {
        let class = own_class(b, q, att);
        if class < Pattern4::Flex2 || class >= Pattern4::Five {
            continue;
        }
        if def_flex4 && class < Pattern4::Block4 {
            b.play_unchecked(q);
            let breaks = b.threat_count(def, Pattern4::Flex4) == 0;
            b.undo();
            if !breaks {
                continue;
            }
        }
        let near = last.map_or(0, |l| {
            let d = (l.x() as i32 - q.x() as i32)
                .abs()
                .max((l.y() as i32 - q.y() as i32).abs());
            (8 - d.min(8)) * 40
        });
        let class_bonus = match class {
            Pattern4::Block4Flex3 => 6000,
            Pattern4::Flex3x2 => 4000,
            Pattern4::Block4Plus | Pattern4::Flex3Plus => 2000,
            Pattern4::Block4 | Pattern4::Flex3 => 1000,
            _ => 0,
        };
        list.push(ScoredMove {
            pos: q,
            score: order_score(b, q, att, class) + near + class_bonus,
        });
    }
    list.sort_by_key(|m| -m.score);
    list.into_iter().map(|m| m.pos).collect()
}

/// What the defender (side to move) can do against the attacker's threat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replies {
    /// Nothing helps: two five points, or the only block is forbidden for renju Black.
    AttackerWins,
    /// The defender makes five, or the attacker has no threat left.
    DefenderWins,
    /// The real defences, best first (empty means none: the attacker wins).
    Moves(Vec<Pos>),
}

/// The defender's (side to move) real defences against the attacker `att`.
#[must_use]
pub fn defender_replies(b: &mut Board, att: Color) -> Replies {
    let def = att.opponent();
    if b.threat_count(def, Pattern4::Five) > 0 {
        return Replies::DefenderWins;
    }
    if b.threat_count(att, Pattern4::Five) > 0 {
        let (pts, n) = five_points(b, att);
        if n >= 2 {
            return Replies::AttackerWins;
        }
        if def == Color::Black && b.rule() == Rule::Renju && b.is_forbidden(pts[0]) {
            return Replies::AttackerWins;
        }
        return Replies::Moves(vec![pts[0]]);
    }
    let mut list = Vec::new();
    if b.threat_count(att, Pattern4::Flex4) > 0 {
        gen_defence_against(b, def, Pattern4::Flex4, &mut list);
    } else if b.threat_count(att, Pattern4::Block4Flex3) > 0 {
        gen_defence_against(b, def, Pattern4::Block4Flex3, &mut list);
        add_block_line_defences(b, def, &mut list);
    } else {
        let fours = forbidden_block_fours(b, att);
        if fours.is_empty() {
            return Replies::DefenderWins;
        }
        add_forbidden_block_defences(b, def, &fours, &mut list);
    }
    list.sort_by_key(|m| -m.score);
    Replies::Moves(list.into_iter().map(|m| m.pos).collect())
}

/// Adds the empty point `q` to a defence list of `def` unless it is there already or forbidden.
fn push_defence(b: &mut Board, def: Color, q: Pos, list: &mut Vec<ScoredMove>) {
    if b.is_empty(q) && !list.iter().any(|m| m.pos == q) {
        let class = own_class(b, q, def);
        if class != Pattern4::Forbid {
            list.push(ScoredMove {
                pos: q,
                score: order_score(b, q, def, class),
            });
        }
    }
}

/// The defence list of Black against White's fours whose five point is forbidden for Black:
/// the four points themselves, every point on the lines through the five points (a Black stone
/// there may make the five point playable), and Black's own fours.
fn add_forbidden_block_defences(
    b: &mut Board,
    def: Color,
    fours: &[(Pos, Pos)],
    list: &mut Vec<ScoredMove>,
) {
    for &(q, r) in fours {
        push_defence(b, def, q, list);
        for d in Dir::ALL {
            for k in 1..=4 {
                push_defence(b, def, r.step(d, k), list);
                push_defence(b, def, r.step(d, -k), list);
            }
        }
    }
    let mut own = Vec::new();
    b.for_each_candidate(|p| {
        if b.threat(p, def) >= Pattern4::Block4 {
            own.push(p);
        }
    });
    for p in own {
        push_defence(b, def, p, list);
    }
}

/// Adds to a defence list against four-three points the points on the lines through each
/// four's five point (within four steps) after which a defender's block on that five point
/// would be a four of its own: the block then gains the tempo that stops the three.
fn add_block_line_defences(b: &mut Board, def: Color, list: &mut Vec<ScoredMove>) {
    let att = def.opponent();
    let mut threats = Vec::new();
    b.for_each_candidate(|q| {
        if b.threat(q, att) == Pattern4::Block4Flex3 {
            threats.push(q);
        }
    });
    for t in threats {
        for d in Dir::ALL {
            if !b.pattern(t, att, d).is_four() {
                continue;
            }
            b.pass();
            b.play_unchecked(t);
            let mut r = Pos::NONE;
            for k in 1..=4 {
                for q in [t.step(d, k), t.step(d, -k)] {
                    if b.is_empty(q) && b.threat(q, att) == Pattern4::Five {
                        r = q;
                    }
                }
            }
            b.undo();
            b.undo();
            if r == Pos::NONE {
                continue;
            }
            for d2 in Dir::ALL {
                for k in 1..=4 {
                    for q in [r.step(d2, k), r.step(d2, -k)] {
                        if !b.is_empty(q) || list.iter().any(|m| m.pos == q) {
                            continue;
                        }
                        b.play_unchecked(q);
                        let four = b.threat(r, def) >= Pattern4::Block4;
                        b.undo();
                        if four {
                            push_defence(b, def, q, list);
                        }
                    }
                }
            }
        }
    }
}

/// Whether a search started at `start` with `max_ms` is out of time or told to stop.
fn time_up(start: Option<Instant>, max_ms: Option<u64>, stop: &AtomicBool) -> bool {
    stop.load(Ordering::Relaxed)
        || matches!((start, max_ms), (Some(t), Some(ms)) if t.elapsed().as_millis() as u64 >= ms)
}

/// The attacker's (`att`, side to move) quiet moves, other than `tried`, after which it would
/// have a VCF if it moved again ("VCF threats"), each with that VCF, best first; and the VCF
/// nodes spent finding them. `expired` is asked before each candidate: when it says the time is
/// up, the ones found so far come back.
pub fn vcf_threats(
    b: &mut Board,
    att: Color,
    tried: &[Pos],
    vcf: &mut VcfSearcher,
    expired: &dyn Fn() -> bool,
) -> (Vec<(Pos, Vec<Pos>)>, u64) {
    let def = att.opponent();
    let mut nodes = 0;
    if b.threat_count(def, Pattern4::Flex4) > 0 {
        // the defender's straight four comes first
        return (Vec::new(), nodes);
    }
    let mut quiet: Vec<ScoredMove> = Vec::new();
    b.for_each_candidate(|q| {
        let t = b.threat(q, att);
        if (Pattern4::Flex2..Pattern4::Flex3).contains(&t) && !tried.contains(&q) {
            quiet.push(ScoredMove { pos: q, score: 0 });
        }
    });
    for m in &mut quiet {
        let class = own_class(b, m.pos, att);
        m.score = if class == Pattern4::Forbid {
            i32::MIN
        } else {
            order_score(b, m.pos, att, class)
        };
    }
    quiet.retain(|m| m.score != i32::MIN);
    quiet.sort_by_key(|m| -m.score);
    let mut out = Vec::new();
    for m in quiet {
        if expired() {
            break;
        }
        b.play_unchecked(m.pos);
        let mut line = None;
        if VcfSearcher::has_four_moves(b, att) && b.threat_count(def, Pattern4::Five) == 0 {
            b.pass();
            line = vcf.search(b, INNER_VCF_FOURS, VCF_THREAT_NODES);
            nodes += vcf.nodes();
            b.undo();
        }
        b.undo();
        if let Some(l) = line {
            out.push((m.pos, l));
        }
    }
    (out, nodes)
}

/// The defender's (`def`, side to move) moves that could break the attacker's VCF `vcf`: the
/// empty points of the line, the empty points within five steps along the four lines through
/// each of them, and every point where the defender makes a four. Playable points only (renju
/// Black never plays a forbidden point); the line's own points first.
#[must_use]
pub fn vcf_threat_defences(b: &mut Board, def: Color, vcf: &[Pos]) -> Vec<Pos> {
    let mut list: Vec<ScoredMove> = Vec::new();
    for (i, &p) in vcf.iter().enumerate() {
        if b.is_empty(p)
            && !list.iter().any(|m| m.pos == p)
            && own_class(b, p, def) != Pattern4::Forbid
        {
            list.push(ScoredMove {
                pos: p,
                score: 1_000_000 - i as i32,
            });
        }
    }
    for &p in vcf {
        for d in Dir::ALL {
            for k in 1..=5 {
                push_defence(b, def, p.step(d, k), &mut list);
                push_defence(b, def, p.step(d, -k), &mut list);
            }
        }
    }
    let mut own = Vec::new();
    b.for_each_candidate(|p| {
        if b.threat(p, def) >= Pattern4::Block4 {
            own.push(p);
        }
    });
    for p in own {
        push_defence(b, def, p, &mut list);
    }
    list.sort_by_key(|m| -m.score);
    list.into_iter().map(|m| m.pos).collect()
}

/// The VCF and VCT searchers of a caller that searches many positions, with the rule and board
/// size their tables were filled under (the tables' keys do not encode them).
#[derive(Debug, Default)]
pub struct ThreatSearchers {
    /// The VCF searcher.
    pub vcf: VcfSearcher,
    vct: Option<Box<VctSearcher>>,
    context: Option<(Rule, usize)>,
}

impl ThreatSearchers {
    /// Clears the tables when `board`'s rule or size differs from the last position's.
    pub fn prepare(&mut self, board: &Board) {
        let context = Some((board.rule(), board.size()));
        if self.context != context {
            self.vcf.clear();
            if let Some(v) = self.vct.as_mut() {
                v.clear();
            }
            self.context = context;
        }
    }

    /// The VCT searcher (its table is allocated on first use).
    pub fn vct(&mut self) -> &mut VctSearcher {
        self.vct.get_or_insert_with(|| Box::new(VctSearcher::new()))
    }
}

const TABLE_BITS: u32 = 20;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Attacking moves with which a win was found (0 = none known).
    win_depth: u8,
    /// Attacking moves for which no win exists (searched completely).
    fail_depth: u8,
    /// The winning move of an attack node.
    win_move: u16,
}

/// A reusable iterative-deepening VCT searcher.
pub struct VctSearcher {
    table: Vec<Entry>,
    nodes: u64,
    limits: VctLimits,
    start: Option<Instant>,
    next_clock_check: u64,
    aborted: bool,
    line: Vec<Pos>,
    /// VCF searches inside the VCT: the attacker's, at every attack node (fours cost no depth),
    /// and the defender's, against a three (a defender with a VCF of its own ignores the three).
    vcf: VcfSearcher,
    /// The attacker's last winning move at each ply (tried first at the next attack node of
    /// that ply: a defence elsewhere seldom changes which threat wins).
    killers: Vec<Pos>,
    /// Attacking moves of the current iteration (the root's depth).
    iter_depth: i32,
    /// The defender answers a three or a quiet threat on every empty point it may play.
    full_width: bool,
}

/// Node budget of each VCF search inside the VCT.
const INNER_VCF_NODES: u64 = 3000;
/// Longest inner VCF (fours).
const INNER_VCF_FOURS: i32 = 40;
/// The attacker's inner VCF is a local one ([`VcfSearcher::search_local`]) with this radius: it
/// runs at every attacking node, mostly to fail, and the full search spent three quarters of the
/// VCT's time there. A VCF it misses is still found by the VCT itself, its fours counting as
/// attacking moves. Over `renju-vct.txt` at 1 s (`solve --concurrent`), this solved 192, 191 and
/// 192 positions against 188, 191 and 191 with the full search (interleaved runs).
const INNER_VCF_RADIUS: i32 = 3;
/// VCF threats (quiet moves after which the attacker would have a VCF) are tried in the first
/// this many attacking moves of a line...
const VCF_THREAT_PLIES: i32 = 2;
/// ... from this iteration on (they are costly to refute: the cheaper threats get the first
/// iterations to themselves).
const VCF_THREAT_FROM_ITERATION: i32 = 6;
/// Node budget of the VCF search that qualifies a VCF threat.
const VCF_THREAT_NODES: u64 = 1000;

impl std::fmt::Debug for VctSearcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VctSearcher({} nodes)", self.nodes)
    }
}

impl Default for VctSearcher {
    fn default() -> Self {
        Self::new()
    }
}

impl VctSearcher {
    /// A searcher with an empty table.
    #[must_use]
    pub fn new() -> VctSearcher {
        VctSearcher {
            table: vec![Entry::default(); 1 << TABLE_BITS],
            nodes: 0,
            limits: VctLimits::default(),
            start: None,
            next_clock_check: 0,
            aborted: false,
            line: Vec::new(),
            vcf: VcfSearcher::new(),
            killers: Vec::new(),
            iter_depth: 0,
            full_width: false,
        }
    }

    /// A searcher whose defender answers every threat but a four on every empty point it may
    /// play, not only on the real defences: very slow, and meant to check the defence rules
    /// (a win it proves holds whatever the defence rules miss).
    #[must_use]
    pub fn full_width() -> VctSearcher {
        VctSearcher {
            full_width: true,
            ..VctSearcher::new()
        }
    }

    /// Every empty point the side to move may play (not a renju-forbidden one for Black).
    fn every_move(b: &mut Board) -> Vec<Pos> {
        let us = b.to_move();
        let empty: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
        empty
            .into_iter()
            .filter(|&p| own_class(b, p, us) != Pattern4::Forbid)
            .collect()
    }

    /// Forgets the tables.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = Entry::default());
        self.vcf.clear();
    }

    /// A VCF of the side to move within the inner budget (its nodes are counted): the
    /// defender's, refuting a threat, by the full search; the attacker's by the local one.
    fn inner_vcf(&mut self, b: &mut Board, att: Color) -> Option<Vec<Pos>> {
        if !VcfSearcher::has_four_moves(b, b.to_move()) {
            return None;
        }
        let line = if b.to_move() == att {
            self.vcf
                .search_local(b, INNER_VCF_FOURS, INNER_VCF_NODES, INNER_VCF_RADIUS)
        } else {
            self.vcf.search(b, INNER_VCF_FOURS, INNER_VCF_NODES)
        };
        self.nodes += self.vcf.nodes();
        line
    }

    /// Searches for a VCT of the side to move, deepening the number of attacking moves from 1
    /// up to the limit.
    pub fn search(&mut self, board: &mut Board, limits: VctLimits) -> VctResult {
        self.search_stoppable(board, limits, &AtomicBool::new(false))
    }

    /// [`VctSearcher::search`] that also gives up soon after `stop` becomes true.
    pub fn search_stoppable(
        &mut self,
        board: &mut Board,
        limits: VctLimits,
        stop: &AtomicBool,
    ) -> VctResult {
        self.nodes = 0;
        self.limits = limits;
        self.start = Some(Instant::now());
        self.next_clock_check = 0;
        self.aborted = false;
        self.killers.clear();
        let mut completed = 0;
        for depth in 1..=limits.max_depth.clamp(1, 200) {
            self.line.clear();
            self.iter_depth = depth;
            if self.attack(board, depth, stop) {
                return VctResult {
                    line: Some(self.line.clone()),
                    nodes: self.nodes,
                    depth,
                };
            }
            if self.aborted {
                break;
            }
            completed = depth;
        }
        VctResult {
            line: None,
            nodes: self.nodes,
            depth: completed,
        }
    }

    fn out_of_budget(&mut self, stop: &AtomicBool) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes > self.limits.max_nodes {
            self.aborted = true;
        } else if self.nodes >= self.next_clock_check {
            self.next_clock_check = self.nodes + 64;
            self.aborted = time_up(self.start, self.limits.max_ms, stop);
        }
        self.aborted
    }

    /// The attacker plays the threat `m`, the defender answers (against a VCF threat, every
    /// move that could break `vcf`); true if the attack wins, with `m` left on the line.
    fn try_threat(
        &mut self,
        b: &mut Board,
        m: Pos,
        depth: i32,
        vcf: Option<&[Pos]>,
        stop: &AtomicBool,
    ) -> bool {
        b.play_unchecked(m);
        self.line.push(m);
        let ok = match vcf {
            Some(vcf) => self.defend_vcf_threat(b, depth - 1, vcf, stop),
            None => self.defend(b, depth - 1, stop),
        };
        if !ok {
            self.line.pop();
        }
        b.undo();
        ok
    }

    fn slot(key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    /// The attacker (side to move) plays a threat; true if it wins within `depth` more
    /// attacking moves.
    fn attack(&mut self, b: &mut Board, depth: i32, stop: &AtomicBool) -> bool {
        self.nodes += 1;
        if self.out_of_budget(stop) {
            return false;
        }
        if let Some(won) = self.attack_by_fours(b, depth, stop) {
            return won;
        }
        let att = b.to_move();
        let key = b.key();
        {
            let e = self.table[Self::slot(key)];
            if e.key == key && i32::from(e.fail_depth) >= depth {
                return false;
            }
        }
        if let Some(l) = self.inner_vcf(b, att) {
            self.line.extend(l);
            return true;
        }
        if depth <= 0 {
            return false;
        }
        let slot = Self::slot(key);
        let e = self.table[slot];
        if e.key == key {
            if i32::from(e.fail_depth) >= depth {
                return false;
            }
            if e.win_depth > 0 && i32::from(e.win_depth) <= depth && self.replay(b, e, depth, stop)
            {
                return true;
            }
        }
        let ply = b.ply();
        let Some(won) = self.try_threats(b, depth, stop) else {
            return false;
        };
        self.store(key, ply, won, depth)
    }

    /// The attack when a five or a straight four settles it: a five of ours wins, a counter-four
    /// of the defender must be blocked (and the attack goes on only if a threat of ours still
    /// stands), a straight four of ours wins. `None` when no four is on the board.
    fn attack_by_fours(&mut self, b: &mut Board, depth: i32, stop: &AtomicBool) -> Option<bool> {
        let att = b.to_move();
        let def = att.opponent();
        if b.threat_count(att, Pattern4::Five) > 0 {
            let (p, _) = five_points(b, att);
            self.line.push(p[0]);
            return Some(true);
        }
        if b.threat_count(def, Pattern4::Five) > 0 {
            let (pts, n) = five_points(b, def);
            if n != 1 || own_class(b, pts[0], att) == Pattern4::Forbid {
                return Some(false);
            }
            b.play_unchecked(pts[0]);
            self.line.push(pts[0]);
            let won = self.defend(b, depth, stop);
            if !won {
                self.line.pop();
            }
            b.undo();
            return Some(won);
        }
        if b.threat_count(att, Pattern4::Flex4) > 0 {
            let mut found = Pos::NONE;
            b.for_each_candidate(|q| {
                if found == Pos::NONE && b.threat(q, att) == Pattern4::Flex4 {
                    found = q;
                }
            });
            self.line.push(found);
            return Some(true);
        }
        None
    }

    /// Replays the winning move of the table's entry `e` (cheap, and gives the line): true if
    /// it still wins within `depth`.
    fn replay(&mut self, b: &mut Board, e: Entry, depth: i32, stop: &AtomicBool) -> bool {
        let m = Pos::from_index(e.win_move as usize);
        if !b.is_empty(m) {
            return false;
        }
        b.play_unchecked(m);
        self.line.push(m);
        let won = self.defend(b, depth - 1, stop);
        if !won {
            self.line.pop();
        }
        b.undo();
        won
    }

    /// Tries the attacker's threats (the killer of the ply first), then the quiet moves after
    /// which it would have a VCF: the move that wins within `depth`, `Pos::NONE` when none
    /// does, or `None` when time ran out while the VCFs were looked for.
    fn try_threats(&mut self, b: &mut Board, depth: i32, stop: &AtomicBool) -> Option<Pos> {
        let att = b.to_move();
        let mut moves = attacker_threats(b, att);
        let ply = b.ply();
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, Pos::NONE);
        }
        let killer = self.killers[ply];
        if let Some(i) = moves.iter().position(|&m| m == killer) {
            moves[..=i].rotate_right(1);
        }
        for &m in &moves {
            if self.try_threat(b, m, depth, None, stop) {
                return Some(m);
            }
            if self.aborted {
                return Some(Pos::NONE);
            }
        }
        if self.aborted
            || self.iter_depth < VCF_THREAT_FROM_ITERATION
            || self.iter_depth - depth >= VCF_THREAT_PLIES
        {
            return Some(Pos::NONE);
        }
        // quiet moves after which we would have a VCF: the defender must break it
        let (start, max_ms) = (self.start, self.limits.max_ms);
        let expired = || time_up(start, max_ms, stop);
        let (threats, n) = vcf_threats(b, att, &moves, &mut self.vcf, &expired);
        self.nodes += n;
        if expired() {
            self.aborted = true;
            return None;
        }
        for (m, vcf) in threats {
            if self.try_threat(b, m, depth, Some(&vcf), stop) {
                return Some(m);
            }
            if self.aborted {
                break;
            }
        }
        Some(Pos::NONE)
    }

    /// Stores in the table what the attack of the position `key` at `ply` found: the move
    /// `won` that wins within `depth` (also the ply's killer), or a failure at `depth` (unless
    /// the search was cut short). Returns whether the attack won.
    fn store(&mut self, key: u64, ply: usize, won: Pos, depth: i32) -> bool {
        let entry = &mut self.table[Self::slot(key)];
        if entry.key != key {
            *entry = Entry {
                key,
                ..Entry::default()
            };
        }
        if won != Pos::NONE {
            self.killers[ply] = won;
            let d = depth.clamp(1, 255) as u8;
            if entry.win_depth == 0 || d < entry.win_depth {
                entry.win_depth = d;
                entry.win_move = won.index() as u16;
            }
            true
        } else {
            if !self.aborted {
                entry.fail_depth = entry.fail_depth.max(depth.clamp(0, 255) as u8);
            }
            false
        }
    }

    /// The defender (side to move) answers a quiet move after which the attacker has the VCF
    /// `vcf`; true if every defence loses. Every move that could break the VCF is tried: the
    /// points of the line, the points within five along the lines through them, and the
    /// defender's fours (a stone anywhere else leaves every four of the line, every forced
    /// block and the defender's lack of fives as they were). A defence after which the line
    /// still replays loses at once; the others are searched.
    fn defend_vcf_threat(
        &mut self,
        b: &mut Board,
        depth: i32,
        vcf: &[Pos],
        stop: &AtomicBool,
    ) -> bool {
        self.nodes += 1;
        if self.out_of_budget(stop) {
            return false;
        }
        let def = b.to_move();
        if b.threat_count(def, Pattern4::Five) > 0 {
            return false;
        }
        let key = b.key();
        if self.holds(key, depth) {
            return false;
        }
        if self.inner_vcf(b, def.opponent()).is_some() {
            self.store_hold(key, u8::MAX);
            return false;
        }
        let moves = if self.full_width {
            Self::every_move(b)
        } else {
            vcf_threat_defences(b, def, vcf)
        };
        self.try_defences(b, key, depth, &moves, Some(vcf), stop)
    }

    /// Whether the defender (side to move in the position of `key`) is known to hold against
    /// every attack of `depth` attacking moves.
    fn holds(&self, key: u64, depth: i32) -> bool {
        let e = self.table[Self::slot(key)];
        e.key == key && i32::from(e.fail_depth) >= depth
    }

    /// Records that the defender (side to move in the position of `key`) holds against every
    /// attack of `depth` attacking moves.
    fn store_hold(&mut self, key: u64, depth: u8) {
        let e = &mut self.table[Self::slot(key)];
        if e.key != key {
            *e = Entry {
                key,
                ..Entry::default()
            };
        }
        e.fail_depth = e.fail_depth.max(depth);
    }

    /// The defender (side to move) answers the attacker's threat; true if every defence loses.
    /// The line keeps the defence that held out longest.
    fn defend(&mut self, b: &mut Board, depth: i32, stop: &AtomicBool) -> bool {
        self.nodes += 1;
        if self.out_of_budget(stop) {
            return false;
        }
        let att = b.to_move().opponent();
        // defence nodes are cached for the defender's holds only (a win needs its line)
        let key = b.key();
        if self.holds(key, depth) {
            return false;
        }
        let mut moves = match defender_replies(b, att) {
            Replies::AttackerWins => return true,
            Replies::DefenderWins => return false,
            Replies::Moves(m) => m,
        };
        if self.full_width && b.threat_count(att, Pattern4::Five) == 0 {
            moves = Self::every_move(b);
        }
        if b.threat_count(att, Pattern4::Five) == 0 && self.inner_vcf(b, att).is_some() {
            // the defender wins by fours first, whatever the attacker's three threatens
            self.store_hold(key, u8::MAX);
            return false;
        }
        // no defence at all (renju Black with every blocking point forbidden) loses too
        self.try_defences(b, key, depth, &moves, None, stop)
    }

    /// Tries each defence `moves` of the defence node `key`; true if all lose (the line then
    /// keeps the one that held out longest), false at the first that holds (recorded). With
    /// `vcf`, a defence after which that VCF still replays loses without a search.
    fn try_defences(
        &mut self,
        b: &mut Board,
        key: u64,
        depth: i32,
        moves: &[Pos],
        vcf: Option<&[Pos]>,
        stop: &AtomicBool,
    ) -> bool {
        let mark = self.line.len();
        let mut longest: Option<Vec<Pos>> = None;
        for &d in moves {
            b.play_unchecked(d);
            self.line.push(d);
            let lost = match vcf {
                Some(l) if replay_vcf(b, l) => {
                    self.line.extend_from_slice(l);
                    true
                }
                _ => self.attack(b, depth, stop),
            };
            b.undo();
            if !lost {
                self.line.truncate(mark);
                if !self.aborted {
                    self.store_hold(key, depth.clamp(0, 255) as u8);
                }
                return false;
            }
            if longest
                .as_ref()
                .is_none_or(|l| self.line.len() - mark > l.len())
            {
                longest = Some(self.line[mark..].to_vec());
            }
            self.line.truncate(mark);
        }
        if let Some(l) = longest {
            self.line.extend(l);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_moves;

    fn board(rule: Rule, moves: &str) -> Board {
        crate::game::test_board(15, rule, moves)
    }

    /// Replays `line` on `b`: every move legal (no forbidden Black move under renju) and the
    /// attacker's last move makes five or leaves a straight four the defender cannot stop.
    fn assert_line_wins(b: &Board, line: &[Pos]) {
        let mut b = b.clone();
        let att = b.to_move();
        assert!(!line.is_empty());
        for (k, &m) in line.iter().enumerate() {
            assert!(b.is_empty(m), "move {k} of the line is on a stone");
            if b.rule() == Rule::Renju && b.to_move() == Color::Black {
                assert!(b.threat(m, Color::Black) == Pattern4::Five || !b.is_forbidden(m));
            }
            if k + 1 == line.len() {
                assert_eq!(b.to_move(), att, "the line ends with a defender move");
                let t = b.threat(m, att);
                let forbidden_block = || {
                    let mut a = b.clone();
                    a.play(m);
                    let (fives, n) = five_points(&a, att);
                    n == 1 && att == Color::White && a.is_forbidden(fives[0])
                };
                assert!(
                    t >= Pattern4::Flex4 || (b.rule() == Rule::Renju && forbidden_block()),
                    "the last move {} is only {t:?}",
                    b.fmt_pos(m)
                );
            }
            b.play(m);
        }
    }

    #[test]
    fn finds_a_three_and_four_win_and_its_line_replays() {
        // renju, Black to move (a ladder-book VCT)
        let b = board(Rule::Renju, "j9 j11 g8 i9 h8 k8 j8 h6");
        let mut s = VctSearcher::new();
        let res = s.search(&mut b.clone(), VctLimits::default());
        let line = res.line.expect("a VCT exists");
        assert_line_wins(&b, &line);
    }

    #[test]
    fn white_fours_onto_a_forbidden_point_are_found() {
        // Black's f8 g8 and h6 h7 make h8 a double three; White's i9 j10 k11 reach it with
        // a four at l12 or g7 (m13 blocks the other end)
        let mut b = board(Rule::Renju, "f8 i9 g8 j10 h6 k11 h7 a1 m13 a3");
        let mut found: Vec<String> = forbidden_block_fours(&mut b, Color::White)
            .iter()
            .map(|&(q, r)| format!("{}>{}", b.fmt_pos(q), b.fmt_pos(r)))
            .collect();
        found.sort();
        assert_eq!(found, ["g7>h8", "l12>h8"]);
        assert!(forbidden_block_fours(&mut b, Color::Black).is_empty());
        let mut free = board(Rule::Freestyle, "f8 i9 g8 j10 h6 k11 h7 a1 m13 a3");
        assert!(forbidden_block_fours(&mut free, Color::White).is_empty());
    }

    #[test]
    fn white_wins_by_threatening_fours_onto_forbidden_points() {
        // a White-to-win renju problem whose threats are fours Black may not block
        let b = board(
            Rule::Renju,
            "h10 g10 f8 h9 h8 g8 i8 k8 j8 i7 g7 h6 h7 i5 h5",
        );
        assert_eq!(b.to_move(), Color::White);
        let mut s = VctSearcher::new();
        let line = s
            .search(&mut b.clone(), VctLimits::default())
            .line
            .expect("a VCT exists");
        assert_line_wins(&b, &line);
    }

    #[test]
    fn quiet_positions_have_no_vct() {
        let mut s = VctSearcher::new();
        for (rule, moves) in [
            (Rule::Renju, "h8 i9"),
            (Rule::Freestyle, "h8 h7 j6 i7 f7 g7"),
            (Rule::Standard, "h8 i9 i8"),
        ] {
            let mut b = board(rule, moves);
            let res = s.search(&mut b, VctLimits::default());
            assert_eq!(res.line, None, "{moves}");
            s.clear();
        }
    }

    #[test]
    fn a_defender_with_a_vcf_of_its_own_refutes_a_three() {
        // White's e5 f5 g5 and h6 h7 h8 (each blocked at one end by Black) meet at h5, a
        // double four; Black's open two b12 c12 can only become a three, which is too slow.
        let b = board(Rule::Freestyle, "d5 e5 h9 f5 b12 g5 c12 h6 n14 h7 a3 h8");
        assert_eq!(b.to_move(), Color::Black);
        let mut s = VctSearcher::new();
        assert_eq!(s.search(&mut b.clone(), VctLimits::default()).line, None);
        let mut w = b.clone();
        w.pass();
        let line = s
            .search(&mut w, VctLimits::default())
            .line
            .expect("White wins by fours");
        assert_line_wins(&w, &line);
    }

    #[test]
    fn quiet_moves_that_threaten_a_vcf_win_where_threes_do_not() {
        // a White-to-win renju problem (白先胜100题 no. 62) whose fours and threes alone run
        // out: White first plays a quiet move after which it threatens a VCF
        let b = board(
            Rule::Renju,
            "i11 h11 i10 g10 j10 h10 f9 h9 g9 e8 h8 i8 f7 h7 j7 i7 g6 h5 i6",
        );
        let mut s = VctSearcher::new();
        let line = s
            .search(&mut b.clone(), VctLimits::default())
            .line
            .expect("a VCT exists");
        assert_line_wins(&b, &line);
        let mut a = b.clone();
        let first = own_class(&mut a, line[0], Color::White);
        assert!(first < Pattern4::Flex3, "{first:?}");
    }

    #[test]
    fn the_defences_against_a_vcf_threat_include_every_line_point_and_counter_four() {
        // freestyle, White to move; Black's open three h8 i8 j8 would win by fours
        let mut b = board(Rule::Freestyle, "h8 a1 i8 a3 j8 a5 i9 b14 i10");
        let mut w = b.clone();
        w.pass();
        let mut v = VcfSearcher::new();
        let vcf = v.search(&mut w, 10, 10_000).expect("Black has a VCF");
        let defences = vcf_threat_defences(&mut b, Color::White, &vcf);
        for p in &vcf {
            assert!(defences.contains(p), "line point {} missing", b.fmt_pos(*p));
        }
        // White's a1 a3 a5 with a2 and a4 empty: a2 or a4 makes a four
        let a2 = parse_moves("a2", 15).unwrap()[0];
        let a4 = parse_moves("a4", 15).unwrap()[0];
        assert!(defences.contains(&a2) && defences.contains(&a4));
        // and nothing far from the line and White's stones
        let far = parse_moves("o1", 15).unwrap()[0];
        assert!(!defences.contains(&far));
    }

    #[test]
    fn a_stone_that_turns_the_forced_block_into_a_four_defends_a_four_three() {
        // renju, White to defend: Black's g9 made j6 a four-three point (g6 h6 i6 j6 four,
        // blocked at f6, and g9 h8 _ j6 three); Black's four would force White to k6, and a
        // White stone on k8 makes that block the four k6 k7 k8 k9
        let mut b = board(
            Rule::Renju,
            "h10 f9 h8 h9 i8 k9 e7 f8 f7 h7 g7 k7 j7 d6 g6 f6 h6 g5 i6 i5 g9",
        );
        let k8 = parse_moves("k8", 15).unwrap()[0];
        let j6 = parse_moves("j6", 15).unwrap()[0];
        match defender_replies(&mut b, Color::Black) {
            Replies::Moves(m) => assert!(m.contains(&k8) && m.contains(&j6), "{m:?}"),
            r => panic!("{r:?}"),
        }
    }
}
