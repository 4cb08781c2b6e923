//! Depth-first proof-number search (df-pn) for threat sequences (VCT): the same AND/OR game as
//! [`crate::vct`] (attacker threats, defender's real defences), searched by proof and disproof
//! numbers so that the effort goes where the proof is cheapest.

use crate::board::Board;
use crate::pattern::Pattern4;
use crate::types::{Color, Pos, Rule};
use crate::vct::{attacker_threats, defender_replies, five_points, Replies, VctLimits, VctResult};
use std::time::Instant;

const INF: u32 = 1 << 28;
const TABLE_BITS: u32 = 21;
/// Deepest ply of a threat line (longer lines count as failures).
const MAX_PLY: usize = 120;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
}

/// A reusable df-pn searcher.
pub struct DfpnSearcher {
    table: Vec<Entry>,
    nodes: u64,
    limits: VctLimits,
    start: Option<Instant>,
    next_clock_check: u64,
    aborted: bool,
}

impl std::fmt::Debug for DfpnSearcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DfpnSearcher({} nodes)", self.nodes)
    }
}

impl Default for DfpnSearcher {
    fn default() -> Self {
        Self::new()
    }
}

/// What a node is after the quick checks.
enum Node {
    Proven,
    Disproven,
    /// Children moves (OR: attacker threats, AND: defences).
    Moves(Vec<Pos>),
}

impl DfpnSearcher {
    /// A searcher with an empty table.
    #[must_use]
    pub fn new() -> DfpnSearcher {
        DfpnSearcher {
            table: vec![Entry::default(); 1 << TABLE_BITS],
            nodes: 0,
            limits: VctLimits::default(),
            start: None,
            next_clock_check: 0,
            aborted: false,
        }
    }

    /// Forgets the table.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = Entry::default());
    }

    fn slot(key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    fn lookup(&self, key: u64) -> (u32, u32) {
        let e = &self.table[Self::slot(key)];
        if e.key == key && (e.pn | e.dn) != 0 {
            (e.pn, e.dn)
        } else {
            (1, 1)
        }
    }

    fn store(&mut self, key: u64, pn: u32, dn: u32) {
        let e = &mut self.table[Self::slot(key)];
        // keep proofs and disproofs over unfinished work
        if e.key != key && (e.pn == 0 || e.dn == 0) && pn != 0 && dn != 0 {
            return;
        }
        *e = Entry { key, pn, dn };
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes > self.limits.max_nodes {
            self.aborted = true;
        } else if self.nodes >= self.next_clock_check {
            self.next_clock_check = self.nodes + 1024;
            if let (Some(ms), Some(start)) = (self.limits.max_ms, self.start) {
                if start.elapsed().as_millis() as u64 >= ms {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Searches for a VCT of the side to move.
    pub fn search(&mut self, board: &mut Board, limits: VctLimits) -> VctResult {
        self.nodes = 0;
        self.limits = limits;
        self.start = Some(Instant::now());
        self.next_clock_check = 0;
        self.aborted = false;
        let attacker = board.to_move();
        self.mid(board, attacker, INF - 1, INF - 1, 0);
        let (pn, _) = self.lookup(board.key());
        if pn == 0 {
            let mut line = Vec::new();
            self.extract(board, attacker, &mut line, 0);
            return VctResult {
                line: Some(line),
                nodes: self.nodes,
                depth: 0,
            };
        }
        VctResult {
            line: None,
            nodes: self.nodes,
            depth: 0,
        }
    }

    /// Quick checks and children of a node (`attacker` is the side proving the win).
    fn expand(&mut self, b: &mut Board, attacker: Color, ply: usize) -> Node {
        let or_node = b.to_move() == attacker;
        let att = attacker;
        let def = att.opponent();
        if ply >= MAX_PLY {
            return Node::Disproven;
        }
        if or_node {
            if b.threat_count(att, Pattern4::Five) > 0 {
                return Node::Proven;
            }
            if b.threat_count(def, Pattern4::Five) > 0 {
                // the defender's counter-four: one forced block, after which a threat must stand
                let (pts, n) = five_points(b, def);
                if n != 1 || crate::search::movegen::own_class(b, pts[0], att) == Pattern4::Forbid {
                    return Node::Disproven;
                }
                return Node::Moves(vec![pts[0]]);
            }
            if b.threat_count(att, Pattern4::Flex4) > 0 {
                return Node::Proven;
            }
            let moves = attacker_threats(b, att);
            if moves.is_empty() {
                Node::Disproven
            } else {
                Node::Moves(moves)
            }
        } else {
            match defender_replies(b, att) {
                Replies::AttackerWins => Node::Proven,
                Replies::DefenderWins => Node::Disproven,
                Replies::Moves(m) if m.is_empty() => Node::Proven,
                Replies::Moves(m) => Node::Moves(m),
            }
        }
    }

    /// Multiple iterative deepening: search the node until its numbers reach the thresholds.
    fn mid(&mut self, b: &mut Board, attacker: Color, thpn: u32, thdn: u32, ply: usize) {
        self.nodes += 1;
        if self.out_of_budget() {
            return;
        }
        let key = b.key();
        let (pn, dn) = self.lookup(key);
        if pn >= thpn || dn >= thdn || pn == 0 || dn == 0 {
            return;
        }
        let or_node = b.to_move() == attacker;
        let moves = match self.expand(b, attacker, ply) {
            Node::Proven => {
                self.store(key, 0, INF);
                return;
            }
            Node::Disproven => {
                self.store(key, INF, 0);
                return;
            }
            Node::Moves(m) => m,
        };
        let keys: Vec<u64> = moves.iter().map(|&m| b.key_after(m)).collect();
        loop {
            // numbers of this node from its children
            let (mut best, mut best_pn, mut second, mut sum) = (0usize, INF, INF, 0u32);
            // for an OR node: pn = min child pn, dn = sum child dn (AND: the other way round)
            for (i, &k) in keys.iter().enumerate() {
                let (cpn, cdn) = self.lookup(k);
                let (lead, other) = if or_node { (cpn, cdn) } else { (cdn, cpn) };
                sum = (sum + other).min(INF);
                if lead < best_pn {
                    second = best_pn;
                    best_pn = lead;
                    best = i;
                } else if lead < second {
                    second = lead;
                }
            }
            let (npn, ndn) = if or_node {
                (best_pn, sum)
            } else {
                (sum, best_pn)
            };
            if npn >= thpn || ndn >= thdn || npn == 0 || ndn == 0 || self.aborted {
                self.store(key, npn, ndn);
                return;
            }
            let (cpn, cdn) = self.lookup(keys[best]);
            let (tpn, tdn) = if or_node {
                (
                    thpn.min(second.saturating_add(1)),
                    (thdn - ndn).saturating_add(cdn).min(INF - 1),
                )
            } else {
                (
                    (thpn - npn).saturating_add(cpn).min(INF - 1),
                    thdn.min(second.saturating_add(1)),
                )
            };
            b.play_unchecked(moves[best]);
            self.mid(b, attacker, tpn, tdn, ply + 1);
            b.undo();
        }
    }

    /// Walks a proven tree: at the attacker's nodes the proven child, at the defender's the
    /// first (most natural) defence.
    fn extract(&mut self, b: &mut Board, attacker: Color, line: &mut Vec<Pos>, ply: usize) {
        if ply >= MAX_PLY {
            return;
        }
        let or_node = b.to_move() == attacker;
        let att = attacker;
        if or_node {
            if b.threat_count(att, Pattern4::Five) > 0 {
                let (p, _) = five_points(b, att);
                line.push(p[0]);
                return;
            }
            if b.threat_count(att.opponent(), Pattern4::Five) == 0
                && b.threat_count(att, Pattern4::Flex4) > 0
            {
                let mut f = Pos::NONE;
                b.for_each_candidate(|q| {
                    if f == Pos::NONE && b.threat(q, att) == Pattern4::Flex4 {
                        f = q;
                    }
                });
                line.push(f);
                return;
            }
        }
        let moves = match self.expand(b, attacker, ply) {
            Node::Moves(m) => m,
            _ => {
                if !or_node {
                    // the defender cannot stop the threat: show the attacker's win
                    if let Some(&m) = defender_last_resort(b, att).first() {
                        line.push(m);
                    }
                }
                return;
            }
        };
        let pick = if or_node {
            moves
                .iter()
                .copied()
                .find(|&m| self.lookup(b.key_after(m)).0 == 0)
        } else {
            moves.first().copied()
        };
        let Some(m) = pick else { return };
        // re-prove the chosen child if its entry was overwritten
        b.play_unchecked(m);
        if self.lookup(b.key()).0 != 0 {
            self.aborted = false;
            self.limits.max_nodes = u64::MAX;
            self.limits.max_ms = None;
            self.mid(b, attacker, INF - 1, INF - 1, ply + 1);
        }
        line.push(m);
        self.extract(b, attacker, line, ply + 1);
        b.undo();
    }
}

/// When the defender has no defence left: any legal point (for display of the line).
fn defender_last_resort(b: &mut Board, att: Color) -> Vec<Pos> {
    let def = att.opponent();
    let mut v = Vec::new();
    b.for_each_candidate(|q| v.push(q));
    v.into_iter()
        .filter(|&q| !(def == Color::Black && b.rule() == Rule::Renju && b.clone().is_forbidden(q)))
        .take(1)
        .collect()
}
