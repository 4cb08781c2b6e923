//! Victory by Continuous Threats (VCT): the side to move wins by playing only fours and threes
//! (moves that threaten a straight four), whatever the defender does.
//!
//! An AND/OR depth-first search with iterative deepening on the number of attacking moves and a
//! table of proven and disproven positions. The defender tries every real defence: against a
//! four the forced block (a forbidden point for renju Black is no defence); against a three every
//! point on the lines of the threatened straight fours, and every four of its own (a counter
//! attack the attacker must answer, after which the old threat still stands). Under renju Black
//! never plays a forbidden point, as attacker or defender.

use crate::board::Board;
use crate::pattern::Pattern4;
use crate::search::movegen::{gen_defence_against, order_score, own_class, ScoredMove};
use crate::types::{Color, Pos, Rule};
use std::time::Instant;

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

/// Limits of one VCT search.
#[derive(Clone, Copy, Debug)]
pub struct VctLimits {
    /// Largest number of attacking moves (fours and threes) to try.
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
    /// Deepest number of attacking moves searched completely.
    pub depth: i32,
}

/// A reusable VCT searcher.
#[derive(Debug)]
pub struct VctSearcher {
    table: Vec<EntryBox>,
    nodes: u64,
    limits: VctLimits,
    start: Option<Instant>,
    aborted: bool,
    line: Vec<Pos>,
    lists: Vec<Vec<ScoredMove>>,
}

#[derive(Clone, Copy, Default)]
struct EntryBox(Entry);

impl std::fmt::Debug for EntryBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Entry")
    }
}

impl Default for VctSearcher {
    fn default() -> Self {
        Self::new()
    }
}

fn five_points(board: &Board, color: Color) -> ([Pos; 2], usize) {
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

impl VctSearcher {
    /// A searcher with an empty table.
    #[must_use]
    pub fn new() -> VctSearcher {
        VctSearcher {
            table: vec![EntryBox::default(); 1 << TABLE_BITS],
            nodes: 0,
            limits: VctLimits::default(),
            start: None,
            aborted: false,
            line: Vec::new(),
            lists: Vec::new(),
        }
    }

    /// Forgets the table.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = EntryBox::default());
    }

    /// Searches for a VCT of the side to move, deepening the number of attacking moves from 1
    /// up to the limit.
    pub fn search(&mut self, board: &mut Board, limits: VctLimits) -> VctResult {
        self.nodes = 0;
        self.limits = limits;
        self.start = Some(Instant::now());
        self.aborted = false;
        let mut completed = 0;
        for depth in 1..=limits.max_depth.clamp(1, 200) {
            self.line.clear();
            if self.attack(board, depth, 0) {
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

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes > self.limits.max_nodes {
            self.aborted = true;
        } else if self.nodes % 1024 == 0 {
            if let (Some(ms), Some(start)) = (self.limits.max_ms, self.start) {
                if start.elapsed().as_millis() as u64 >= ms {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    fn slot(key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    /// The attacker (side to move) plays a threat; true if it wins within `depth` more
    /// attacking moves.
    fn attack(&mut self, b: &mut Board, depth: i32, ply: usize) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        let att = b.to_move();
        let def = att.opponent();
        if b.threat_count(att, Pattern4::Five) > 0 {
            let (p, n) = five_points(b, att);
            if n > 0 {
                self.line.push(p[0]);
                return true;
            }
        }
        if b.threat_count(def, Pattern4::Five) > 0 {
            // the defender's counter-four must be blocked; the attack goes on only if a threat
            // of ours still stands (or the block makes one)
            let (pts, n) = five_points(b, def);
            if n != 1 {
                return false;
            }
            let blk = pts[0];
            if own_class(b, blk, att) == Pattern4::Forbid {
                return false;
            }
            b.play_unchecked(blk);
            self.line.push(blk);
            let threat = b.threat_count(att, Pattern4::Five) > 0
                || b.threat_count(att, Pattern4::Flex4) > 0
                || b.threat_count(att, Pattern4::Block4Flex3) > 0;
            let won = threat && self.defend(b, depth, ply + 1);
            if !won {
                self.line.pop();
            }
            b.undo();
            return won;
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
        if depth <= 0 {
            return false;
        }
        let key = b.key();
        let slot = Self::slot(key);
        let e = self.table[slot].0;
        if e.key == key {
            if i32::from(e.fail_depth) >= depth {
                return false;
            }
            if e.win_depth > 0 && i32::from(e.win_depth) <= depth && e.win_move != 0 {
                // replay the known winning move (cheap, and gives the line)
                let m = Pos::from_index(e.win_move as usize);
                if b.is_empty(m) {
                    b.play_unchecked(m);
                    self.line.push(m);
                    let mark = self.line.len();
                    if self.defend(b, depth - 1, ply + 1) {
                        b.undo();
                        return true;
                    }
                    self.line.truncate(mark - 1);
                    b.undo();
                }
            }
        }
        // The defender holding a three of its own answers a three of ours with a straight
        // four: then only fours, and threes that also break the defender's three, are tried.
        let def_flex4 = b.threat_count(def, Pattern4::Flex4) > 0;
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let mut pts: Vec<Pos> = Vec::new();
        let mut quiet: Vec<Pos> = Vec::new();
        b.for_each_candidate(|q| {
            let t = b.threat(q, att);
            if (Pattern4::Flex3..Pattern4::Five).contains(&t) {
                pts.push(q);
            } else if (Pattern4::Flex2..Pattern4::Flex3).contains(&t) {
                // may set up a double four or a four-three (a threat too): checked below
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
                > threats_before;
            b.undo();
            if threat {
                pts.push(q);
            }
        }
        let last = b.last_move_of(att);
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
                Pattern4::Block4Flex3 => 5000,
                Pattern4::Flex3x2 => 3000,
                Pattern4::Block4Plus | Pattern4::Flex3Plus => 1000,
                _ => 0,
            };
            list.push(ScoredMove {
                pos: q,
                score: order_score(b, q, att, class) + near + class_bonus,
            });
        }
        list.sort_by_key(|m| -m.score);
        let mut won = Pos::NONE;
        for i in 0..list.len() {
            let m = list[i].pos;
            b.play_unchecked(m);
            self.line.push(m);
            let ok = self.defend(b, depth - 1, ply + 1);
            if !ok {
                self.line.pop();
            }
            b.undo();
            if ok {
                won = m;
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.lists[ply] = list;
        let entry = &mut self.table[slot].0;
        if entry.key != key {
            *entry = Entry {
                key,
                ..Entry::default()
            };
        }
        if won != Pos::NONE {
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

    /// The defender (side to move) answers the attacker's threat; true if every defence loses.
    fn defend(&mut self, b: &mut Board, depth: i32, ply: usize) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        let def = b.to_move();
        let att = def.opponent();
        if b.threat_count(def, Pattern4::Five) > 0 {
            return false; // the defender makes five first
        }
        if b.threat_count(att, Pattern4::Five) > 0 {
            let (pts, n) = five_points(b, att);
            if n >= 2 {
                return true;
            }
            let r = pts[0];
            if def == Color::Black && b.rule() == Rule::Renju && b.is_forbidden(r) {
                return true;
            }
            b.play_unchecked(r);
            self.line.push(r);
            let won = self.attack(b, depth, ply + 1);
            if !won {
                self.line.pop();
            }
            b.undo();
            return won;
        }
        let threat = if b.threat_count(att, Pattern4::Flex4) > 0 {
            Pattern4::Flex4
        } else if b.threat_count(att, Pattern4::Block4Flex3) > 0 {
            Pattern4::Block4Flex3
        } else {
            return false; // no threat: the attacker lost the initiative
        };
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        gen_defence_against(b, def, threat, &mut list);
        list.sort_by_key(|m| -m.score);
        let mut all_lose = true;
        let n = list.len();
        for i in 0..n {
            let d = list[i].pos;
            let mark = self.line.len();
            b.play_unchecked(d);
            self.line.push(d);
            let lost = self.attack(b, depth, ply + 1);
            b.undo();
            if !lost {
                self.line.truncate(mark);
                all_lose = false;
                break;
            }
            if i + 1 < n {
                self.line.truncate(mark);
            }
        }
        self.lists[ply] = list;
        // no defence at all (renju Black with every blocking point forbidden) loses too
        all_lose
    }
}
