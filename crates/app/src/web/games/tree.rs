//! The tree of a game's moves: every line tried stays, as in Yixin-Board, RenLib or gomocalc.
//!
//! The root is the start position (after a set-up position's stones); each node is a move
//! with its record. A node's first child continues the main line, the others are variations.
//! The game on the board is the path from the root to the current node; the line shown
//! continues from there along each node's `next` child (the one last visited, else the first),
//! which is what redo replays.
//!
//! A node also keeps what a search of its position proved (a forced win or loss), so that a
//! proof is not forgotten when a later, shorter search of a position down the line only sees
//! an ordinary value ([`Tree::proofs`]).

use super::MoveRecord;
use crate::library::Label;
use gomoku_engine::search::score::{Score, WIN_MIN};
use gomoku_engine::Pos;

/// A node's number in its tree (never reused, so that a stale id is refused, not misread).
pub type NodeId = usize;

/// One position of the tree: the move that led to it, and where the lines go from it.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) parent: Option<NodeId>,
    /// The moves tried from here, the main line first.
    pub(super) children: Vec<NodeId>,
    /// The child the shown line continues with.
    pub(super) next: Option<NodeId>,
    /// The move that led here (the root's is [`Pos::NONE`]).
    pub(super) rec: MoveRecord,
    /// The number of moves on the board here (the root's is the start position's).
    pub(super) ply: usize,
    /// A proven value of this position for the side to move, with the move a win starts
    /// with.
    pub(super) proof: Option<(Score, Pos)>,
    /// The comment on the move.
    pub(super) comment: String,
    /// Labels on the board at this position (an empty text is a plain mark).
    pub(super) labels: Vec<Label>,
}

/// The tree of moves of a game.
#[derive(Clone, Debug)]
pub(super) struct Tree {
    /// Every node by id; `None` once deleted.
    nodes: Vec<Option<Node>>,
    current: NodeId,
}

/// The root's id.
pub(super) const ROOT: NodeId = 0;

/// Whether `s` is a proven result.
fn decisive(s: Score) -> bool {
    s.abs() >= WIN_MIN
}

impl Tree {
    /// A tree with the start position only, `ply` moves on the board.
    pub(super) fn new(ply: usize) -> Tree {
        Tree {
            nodes: vec![Some(Node {
                parent: None,
                children: Vec::new(),
                next: None,
                rec: MoveRecord {
                    pos: Pos::NONE,
                    ms: 0,
                    engine: None,
                },
                ply,
                proof: None,
                comment: String::new(),
                labels: Vec::new(),
            })],
            current: ROOT,
        }
    }

    /// A tree of the nodes `nodes` (by id, the root first; `None` for ids not used), showing
    /// the root. The caller gives consistent nodes (each child's parent is the node that lists
    /// it).
    pub(super) fn rebuild(nodes: Vec<Option<Node>>) -> Tree {
        Tree {
            nodes,
            current: ROOT,
        }
    }

    /// The node `id`, mutable, if there is one.
    pub(super) fn get_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id).and_then(Option::as_mut)
    }

    /// The node of the position on the board.
    pub(super) fn current(&self) -> NodeId {
        self.current
    }

    /// The node `id`, if there is one.
    pub(super) fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id).and_then(Option::as_ref)
    }

    fn node(&self, id: NodeId) -> &Node {
        self.get(id).expect("a node of the tree")
    }

    fn node_mut(&mut self, id: NodeId) -> &mut Node {
        self.nodes
            .get_mut(id)
            .and_then(Option::as_mut)
            .expect("a node of the tree")
    }

    /// The node of the current position, mutable.
    pub(super) fn current_mut(&mut self) -> &mut Node {
        let id = self.current;
        self.node_mut(id)
    }

    /// The nodes still in the tree, in order of their ids (the root first).
    pub(super) fn nodes(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(id, n)| n.as_ref().map(|n| (id, n)))
    }

    /// The nodes from the root (not included) down to `id`.
    pub(super) fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at.filter(|&n| n != ROOT) {
            out.push(n);
            at = self.node(n).parent;
        }
        out.reverse();
        out
    }

    /// The child of `id` the shown line continues with, if any.
    pub(super) fn next_of(&self, id: NodeId) -> Option<NodeId> {
        let n = self.node(id);
        n.next.or_else(|| n.children.first().copied())
    }

    /// The shown line after `id`: its `next` children, one after the other.
    pub(super) fn continuation(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut at = id;
        while let Some(n) = self.next_of(at) {
            out.push(n);
            at = n;
        }
        out
    }

    /// Records a move `rec` from the current position and makes its node current: the child
    /// with the same point if there is one (the record's engine figures replace its own when
    /// it has some), else a new child after the others (a new line; the main line when it is
    /// the first).
    pub(super) fn push(&mut self, rec: MoveRecord) -> NodeId {
        let parent = self.current;
        let same = self
            .node(parent)
            .children
            .iter()
            .copied()
            .find(|&c| self.node(c).rec.pos == rec.pos);
        let id = match same {
            Some(c) => {
                let node = self.node_mut(c);
                if rec.engine.is_some() {
                    node.rec = rec;
                }
                c
            }
            None => {
                let id = self.nodes.len();
                let ply = self.node(parent).ply + 1;
                self.nodes.push(Some(Node {
                    parent: Some(parent),
                    children: Vec::new(),
                    next: None,
                    rec,
                    ply,
                    proof: None,
                    comment: String::new(),
                    labels: Vec::new(),
                }));
                self.node_mut(parent).children.push(id);
                id
            }
        };
        self.node_mut(parent).next = Some(id);
        self.current = id;
        id
    }

    /// Makes `id` the current node; the line shown goes through it from now on.
    pub(super) fn set_current(&mut self, id: NodeId) {
        let mut child = id;
        while let Some(parent) = self.node(child).parent {
            self.node_mut(parent).next = Some(child);
            child = parent;
        }
        self.current = id;
    }

    /// Makes the parent of the current node current (the caller takes the move back on the
    /// board); the line shown still goes through the node left.
    pub(super) fn up(&mut self) {
        if let Some(p) = self.node(self.current).parent {
            self.current = p;
        }
    }

    /// Forgets which child each line went through last: the lines shown follow the main line
    /// again.
    pub(super) fn forget_visits(&mut self) {
        for n in self.nodes.iter_mut().flatten() {
            n.next = None;
        }
    }

    /// Makes the line through `id` the main line: at every fork above it, its branch comes
    /// first.
    pub(super) fn promote(&mut self, id: NodeId) {
        let mut child = id;
        while let Some(parent) = self.node(child).parent {
            let children = &mut self.node_mut(parent).children;
            if let Some(i) = children.iter().position(|&c| c == child) {
                let c = children.remove(i);
                children.insert(0, c);
            }
            child = parent;
        }
    }

    /// Removes `id` and every node under it (not the root); the current node must not be
    /// among them.
    pub(super) fn remove(&mut self, id: NodeId) {
        let Some(parent) = self.node(id).parent else {
            return;
        };
        let p = self.node_mut(parent);
        p.children.retain(|&c| c != id);
        if p.next == Some(id) {
            p.next = None;
        }
        let mut todo = vec![id];
        while let Some(n) = todo.pop() {
            if let Some(node) = self.nodes.get_mut(n).and_then(Option::take) {
                todo.extend(node.children);
            }
        }
    }

    /// Whether `id` is `ancestor` or under it.
    pub(super) fn is_under(&self, id: NodeId, ancestor: NodeId) -> bool {
        let mut at = Some(id);
        while let Some(n) = at {
            if n == ancestor {
                return true;
            }
            at = self.node(n).parent;
        }
        false
    }

    /// The proven value, for the side to move, of the root and of each node of `line` (a
    /// line down from the root): a node's own proof, else the one it inherits. A proven loss
    /// holds whatever is played, so the next position inherits the win of the other side, one
    /// ply nearer; a proven win holds after its own first move.
    pub(super) fn proofs(&self, line: &[NodeId]) -> Vec<Option<Score>> {
        let mut out = Vec::with_capacity(line.len() + 1);
        let mut inherited: Option<Score> = None;
        let mut at = ROOT;
        for i in 0..=line.len() {
            let own = self.node(at).proof;
            let value = own.map(|(s, _)| s).or(inherited);
            out.push(value);
            let Some(&next) = line.get(i) else {
                break;
            };
            let played = self.node(next).rec.pos;
            inherited = match value {
                Some(v) if decisive(v) && v < 0 => Some(-(v - 1)),
                // a win inherited from above does not say which move keeps it
                Some(v) if decisive(v) && own.is_some_and(|(_, best)| best == played) => {
                    Some(-(v + 1))
                }
                _ => None,
            };
            at = next;
        }
        out
    }

    /// Records that a search of the current position proved `score` (for the side to move),
    /// a win starting with `best`; an ordinary value is not recorded.
    pub(super) fn prove(&mut self, score: Score, best: Pos) {
        if decisive(score) {
            self.current_mut().proof = Some((score, best));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::search::score::{loss_in, win_in};

    fn rec(x: usize) -> MoveRecord {
        MoveRecord {
            pos: Pos::new(x, 0),
            ms: 0,
            engine: None,
        }
    }

    #[test]
    fn a_different_move_after_going_back_starts_a_branch() {
        let mut t = Tree::new(0);
        let a = t.push(rec(1));
        let b = t.push(rec(2));
        t.set_current(a);
        assert_eq!(t.continuation(a), [b], "redo follows the line");
        let c = t.push(rec(3));
        assert_eq!(
            t.get(a).unwrap().children,
            [b, c],
            "the old line stays first"
        );
        assert_eq!(
            t.continuation(a),
            [c],
            "the line shown goes through the new move"
        );
        t.set_current(a);
        assert_eq!(t.push(rec(2)), b, "the same move follows its node");
        t.promote(c);
        assert_eq!(t.get(a).unwrap().children, [c, b]);
        t.set_current(a);
        t.remove(c);
        assert_eq!(t.get(a).unwrap().children, [b]);
        assert!(t.get(c).is_none());
        assert_eq!(t.continuation(ROOT), [a, b]);
        assert_eq!(t.path(b), [a, b]);
    }

    #[test]
    fn proofs_hold_through_any_reply_and_after_the_winning_move() {
        let mut t = Tree::new(0);
        // Black to move at the root wins in 5 plies with move 1
        t.prove(win_in(5), Pos::new(1, 0));
        let a = t.push(rec(1));
        let b = t.push(rec(7));
        let c = t.push(rec(2));
        // (at b the win is inherited: which move keeps it is not known, so c has no proof)
        assert_eq!(
            t.proofs(&[a, b, c]),
            [Some(win_in(5)), Some(loss_in(4)), Some(win_in(3)), None]
        );
        // unless a search at b proves it again
        t.set_current(b);
        t.prove(win_in(3), Pos::new(2, 0));
        assert_eq!(t.proofs(&[a, b, c])[3], Some(loss_in(2)));
        // another first move proves nothing
        t.set_current(ROOT);
        let d = t.push(rec(9));
        assert_eq!(t.proofs(&[d]), [Some(win_in(5)), None]);
    }
}
