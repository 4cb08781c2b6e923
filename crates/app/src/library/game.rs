//! A game of the library: its tags, its start position and its whole tree of lines, with a
//! comment and labels on any node ([`LibGame`]).
//!
//! The tree is stored as one compact blob ([`GameTree::encode`]): the nodes in pre-order,
//! each as its id, its parent, its move and the milliseconds it took (varints), so that a
//! game of 60 moves takes about 300 bytes. Comments, labels and the engine's figures are
//! sparse and live in rows of their own ([`Note`]).

use super::symmetry::{code, point};
use gomoku_engine::notation::format_pos;
use gomoku_engine::{Color, Pos, Rule};
use serde::Serialize;

/// A node's number in its game's tree: 0 is the start position.
pub type NodeId = u32;

/// The root's id.
pub const ROOT: NodeId = 0;

/// At most this many nodes in one game's tree.
pub const MAX_NODES: usize = 200_000;

/// A label on a point of the board at a node: a letter or a word (SGF `LB`), or a plain mark
/// (SGF `MA`) when the text is empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    /// The point.
    pub point: Pos,
    /// The text (empty: a mark).
    pub text: String,
}

/// What a node has besides its move: a comment, labels, the engine's figures (JSON).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// The comment.
    pub comment: String,
    /// The labels on the board.
    pub labels: Vec<Label>,
    /// The engine's figures of the move, as JSON (the board's games).
    pub engine: Option<String>,
}

impl Note {
    /// Whether there is nothing in it.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.comment.is_empty() && self.labels.is_empty() && self.engine.is_none()
    }
}

/// One node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The node it hangs from (`None` for the root).
    pub parent: Option<NodeId>,
    /// The move that led here ([`Pos::NONE`] for the root, [`Pos::PASS`] for a pass).
    pub point: Pos,
    /// The milliseconds the move took (0 when unknown).
    pub ms: u64,
    /// The moves tried from here, the main line first.
    pub children: Vec<NodeId>,
    /// Comment, labels, engine figures.
    pub note: Note,
}

impl Default for Node {
    /// A node without a parent or a move.
    fn default() -> Node {
        Node {
            parent: None,
            point: Pos::NONE,
            ms: 0,
            children: Vec::new(),
            note: Note::default(),
        }
    }
}

/// A game's tree of moves; a node's id is its index (deleted ids stay empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree {
    nodes: Vec<Option<Node>>,
}

impl Default for GameTree {
    fn default() -> GameTree {
        GameTree::new()
    }
}

impl GameTree {
    /// A tree with the start position only.
    #[must_use]
    pub fn new() -> GameTree {
        GameTree {
            nodes: vec![Some(Node {
                point: Pos::NONE,
                ..Node::default()
            })],
        }
    }

    /// The node `id`, if there is one.
    #[must_use]
    pub fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize).and_then(Option::as_ref)
    }

    /// The node `id`, mutable.
    pub fn get_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id as usize).and_then(Option::as_mut)
    }

    /// The nodes in order of their ids (the root first).
    pub fn nodes(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(id, n)| n.as_ref().map(|n| (id as NodeId, n)))
    }

    /// The number of moves (nodes other than the root).
    #[must_use]
    pub fn moves(&self) -> usize {
        self.nodes().count() - 1
    }

    /// The ids of the tree in pre-order (a node, then each child's subtree, the main line
    /// first), with each node's depth.
    #[must_use]
    pub fn preorder(&self) -> Vec<(NodeId, usize)> {
        let mut out = Vec::new();
        let mut todo = vec![(ROOT, 0)];
        while let Some((id, depth)) = todo.pop() {
            out.push((id, depth));
            if let Some(n) = self.get(id) {
                todo.extend(n.children.iter().rev().map(|&c| (c, depth + 1)));
            }
        }
        out
    }

    /// Adds a move `point` after `parent`: the existing child with the same point, or a new
    /// one after the others. Returns its id.
    ///
    /// # Errors
    /// An unknown parent, or too many nodes.
    pub fn add(&mut self, parent: NodeId, point: Pos) -> Result<NodeId, String> {
        let p = self
            .get(parent)
            .ok_or_else(|| format!("no node {parent}"))?;
        if let Some(&same) = p
            .children
            .iter()
            .find(|&&c| self.get(c).is_some_and(|n| n.point == point))
        {
            return Ok(same);
        }
        if self.nodes.len() >= MAX_NODES {
            return Err(format!("more than {MAX_NODES} moves in one game"));
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Some(Node {
            parent: Some(parent),
            point,
            ..Node::default()
        }));
        if let Some(p) = self.get_mut(parent) {
            p.children.push(id);
        }
        Ok(id)
    }

    /// Puts node `id` in place (its parent must be there already; it goes after the parent's
    /// other children). Used to rebuild a tree whose ids must stay as they were.
    ///
    /// # Errors
    /// An id taken, or a parent missing.
    pub fn insert(&mut self, id: NodeId, node: Node) -> Result<(), String> {
        let i = id as usize;
        if i == 0 || i >= MAX_NODES {
            return Err(format!("node id {id} out of range"));
        }
        if self.get(id).is_some() {
            return Err(format!("node {id} twice"));
        }
        let parent = node
            .parent
            .ok_or_else(|| format!("node {id} has no parent"))?;
        self.get_mut(parent)
            .ok_or_else(|| format!("node {id} comes before its parent {parent}"))?
            .children
            .push(id);
        if self.nodes.len() <= i {
            self.nodes.resize(i + 1, None);
        }
        self.nodes[i] = Some(Node {
            children: Vec::new(),
            ..node
        });
        Ok(())
    }

    /// The moves from the root down to `id` (not the root's).
    #[must_use]
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at.filter(|&n| n != ROOT) {
            out.push(n);
            at = self.get(n).and_then(|n| n.parent);
        }
        out.reverse();
        out
    }

    /// The main line: the first child of each node from the root.
    #[must_use]
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut at = ROOT;
        while let Some(&c) = self.get(at).and_then(|n| n.children.first()) {
            out.push(c);
            at = c;
        }
        out
    }

    /// The blob of the tree: for each node but the root, in pre-order, its id, its parent,
    /// its move's code plus one (0: none) and its milliseconds, as LEB128 varints.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.nodes.len() * 5);
        for (id, _) in self.preorder().into_iter().skip(1) {
            let Some(n) = self.get(id) else { continue };
            put_varint(&mut out, u64::from(id));
            put_varint(&mut out, u64::from(n.parent.unwrap_or(ROOT)));
            let c = if n.point == Pos::NONE {
                0
            } else {
                code(n.point) as u64 + 1
            };
            put_varint(&mut out, c);
            put_varint(&mut out, n.ms);
        }
        out
    }

    /// Reads a blob written by [`GameTree::encode`] for a board of `size`.
    ///
    /// # Errors
    /// A blob cut short, a node before its parent, a point off the board.
    pub fn decode(blob: &[u8], size: usize) -> Result<GameTree, String> {
        let mut tree = GameTree::new();
        let mut at = 0;
        while at < blob.len() {
            let id = get_varint(blob, &mut at)?;
            let parent = get_varint(blob, &mut at)?;
            let c = get_varint(blob, &mut at)?;
            let ms = get_varint(blob, &mut at)?;
            let point = if c == 0 {
                Pos::NONE
            } else {
                point(c as i64 - 1, size).ok_or_else(|| format!("node {id}: bad point"))?
            };
            let id = NodeId::try_from(id).map_err(|_| "a node id out of range".to_string())?;
            let parent =
                NodeId::try_from(parent).map_err(|_| "a parent id out of range".to_string())?;
            tree.insert(
                id,
                Node {
                    parent: Some(parent),
                    point,
                    ms,
                    ..Node::default()
                },
            )?;
        }
        Ok(tree)
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(blob: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *blob.get(*at).ok_or("the tree's blob is cut short")?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err("a number of the tree's blob is too long".to_string())
}

/// How a game ended, as the explorer counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Unknown or unfinished.
    Unknown,
    /// Black won.
    Black,
    /// White won.
    White,
    /// A draw.
    Draw,
}

impl Outcome {
    /// The outcome of an SGF `RE` value (`B+`, `W+R`, `0`, `Draw`, `Void`, ...).
    #[must_use]
    pub fn of_result(re: &str) -> Outcome {
        let re = re.trim();
        let upper = re.to_ascii_uppercase();
        if upper.starts_with("B+") || upper == "B" || upper == "BLACK" {
            Outcome::Black
        } else if upper.starts_with("W+") || upper == "W" || upper == "WHITE" {
            Outcome::White
        } else if upper == "0" || upper == "DRAW" || upper == "JIGO" {
            Outcome::Draw
        } else {
            Outcome::Unknown
        }
    }

    /// The number stored in the position index.
    #[must_use]
    pub fn number(self) -> i64 {
        match self {
            Outcome::Unknown => 0,
            Outcome::Black => 1,
            Outcome::White => 2,
            Outcome::Draw => 3,
        }
    }
}

/// The tags of a game (SGF's game-info properties); empty when unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Tags {
    /// The game's name (`GN`).
    pub name: String,
    /// Black's player (`PB`).
    pub black: String,
    /// White's player (`PW`).
    pub white: String,
    /// The event (`EV`).
    pub event: String,
    /// The round (`RO`).
    pub round: String,
    /// The date (`DT`, `YYYY-MM-DD` as SGF writes it).
    pub date: String,
    /// The place (`PC`).
    pub place: String,
    /// The result, as SGF writes it (`RE`: `B+`, `W+R`, `0` for a draw, ...).
    pub result: String,
    /// The opening rule (`free`, `swap2`, `soosorv8`, `taraguchi10`, or as a record names it).
    pub opening_rule: String,
    /// The opening's name (`ON`).
    pub opening: String,
    /// Where the game comes from: `board` (played on the board) or the file it was read from.
    pub source: String,
}

/// A game of the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibGame {
    /// The board size.
    pub size: usize,
    /// The rule.
    pub rule: Rule,
    /// Black's set-up stones (SGF `AB`).
    pub black: Vec<Pos>,
    /// White's set-up stones (SGF `AW`).
    pub white: Vec<Pos>,
    /// The side to move at the start.
    pub to_move: Color,
    /// The tags.
    pub tags: Tags,
    /// Every line of moves.
    pub tree: GameTree,
}

impl LibGame {
    /// An empty game: the empty board of `size` under `rule`, Black to move.
    #[must_use]
    pub fn new(size: usize, rule: Rule) -> LibGame {
        LibGame {
            size,
            rule,
            black: Vec::new(),
            white: Vec::new(),
            to_move: Color::Black,
            tags: Tags::default(),
            tree: GameTree::new(),
        }
    }

    /// The outcome its result tag says.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        Outcome::of_result(&self.tags.result)
    }

    /// Checks that every line can be played on the board: set-up stones on distinct points,
    /// every move on an empty point of the board (the rules' other limits, such as renju's
    /// forbidden points or moves after a five, are not the library's business: a study tree
    /// may hold them).
    ///
    /// # Errors
    /// The first move that cannot be played, written `h8` style with its line.
    pub fn check(&self) -> Result<(), String> {
        let n = self.size;
        let mut board = vec![false; n * n];
        for &p in self.black.iter().chain(&self.white) {
            if !p.is_point() || p.x() >= n || p.y() >= n {
                return Err("a set-up stone off the board".to_string());
            }
            let i = p.y() * n + p.x();
            if board[i] {
                return Err(format!("two set-up stones on {}", format_pos(p, n)));
            }
            board[i] = true;
        }
        // pre-order with the points of the line so far
        let mut line: Vec<Pos> = Vec::new();
        for (id, depth) in self.tree.preorder().into_iter().skip(1) {
            while line.len() >= depth {
                if let Some(p) = line.pop().filter(|p| p.is_point()) {
                    board[p.y() * n + p.x()] = false;
                }
            }
            let p = self.tree.get(id).map_or(Pos::NONE, |n| n.point);
            if p == Pos::NONE || (p.is_point() && (p.x() >= n || p.y() >= n)) {
                return Err(format!("move {depth} of a line is no point of the board"));
            }
            if p.is_point() {
                let i = p.y() * n + p.x();
                if board[i] {
                    let moves: Vec<String> = line
                        .iter()
                        .chain(std::iter::once(&p))
                        .map(|&q| format_pos(q, n))
                        .collect();
                    return Err(format!(
                        "move {depth} ({}) is on a stone, in the line {}",
                        format_pos(p, n),
                        moves.join(" ")
                    ));
                }
                board[i] = true;
            }
            line.push(p);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_encodes_and_decodes_with_its_ids_and_order() {
        let mut t = GameTree::new();
        let a = t.add(ROOT, Pos::new(7, 7)).unwrap();
        let b = t.add(a, Pos::new(8, 8)).unwrap();
        let c = t.add(a, Pos::PASS).unwrap();
        let d = t.add(ROOT, Pos::new(0, 14)).unwrap();
        assert_eq!(
            t.add(a, Pos::new(8, 8)).unwrap(),
            b,
            "the same move is the same node"
        );
        t.get_mut(b).unwrap().ms = 1234;
        // the second line first: the blob keeps the order of children
        t.get_mut(a).unwrap().children = vec![c, b];
        let back = GameTree::decode(&t.encode(), 15).unwrap();
        assert_eq!(back.get(a).unwrap().children, [c, b]);
        assert_eq!(back.get(ROOT).unwrap().children, [a, d]);
        assert_eq!(back.get(b).unwrap().ms, 1234);
        assert_eq!(back.get(c).unwrap().point, Pos::PASS);
        assert_eq!(back.main_line(), [a, c]);
        assert!(GameTree::decode(&[5, 9, 1, 0], 15)
            .unwrap_err()
            .contains("before its parent"));
        assert!(GameTree::decode(&[1, 0], 15)
            .unwrap_err()
            .contains("cut short"));
    }

    #[test]
    fn lines_on_a_stone_are_found() {
        let mut g = LibGame::new(15, Rule::Renju);
        let a = g.tree.add(ROOT, Pos::new(7, 7)).unwrap();
        let b = g.tree.add(a, Pos::new(7, 8)).unwrap();
        g.tree.add(ROOT, Pos::new(7, 8)).unwrap();
        assert!(g.check().is_ok(), "lines are apart");
        g.tree.add(b, Pos::new(7, 7)).unwrap();
        let e = g.check().unwrap_err();
        assert!(e.contains("move 3 (h8) is on a stone"), "{e}");
    }

    #[test]
    fn results_read_as_outcomes() {
        assert_eq!(Outcome::of_result("B+R"), Outcome::Black);
        assert_eq!(Outcome::of_result("w+"), Outcome::White);
        assert_eq!(Outcome::of_result("Draw"), Outcome::Draw);
        assert_eq!(Outcome::of_result("?"), Outcome::Unknown);
    }
}
