//! Moving about the tree of moves ([`super::tree`]): one move back or forward (undo and redo
//! use these), a jump to any node, and promoting or deleting a line. The game on the board
//! always follows the current node.

use super::tree::{NodeId, ROOT};
use super::{MoveRecord, Slot};
use crate::web::error::ApiError;
use gomoku_engine::search::score::Score;
use serde::Deserialize;

/// The body of `POST /api/games/{id}/goto`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GotoRequest {
    /// The node to show (an id of the state's `tree`).
    pub node: NodeId,
}

/// The body of `POST /api/games/{id}/branch`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BranchRequest {
    /// A node of the line to change.
    pub node: NodeId,
    /// `promote` (the line through the node becomes the main line) or `delete` (the node
    /// and every move after it go).
    pub action: BranchAction,
}

/// What to do with a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BranchAction {
    /// Make it the main line.
    Promote,
    /// Delete it from the node on.
    Delete,
}

impl Slot {
    /// The records of the moves on the board after the start position, in order.
    pub(super) fn path_records(&self) -> Vec<&MoveRecord> {
        self.tree
            .path(self.tree.current())
            .into_iter()
            .filter_map(|n| self.tree.get(n).map(|n| &n.rec))
            .collect()
    }

    /// The proven value of the position on the board for the side to move: its own, or the
    /// one it inherits from up the game ([`super::tree::Tree::proofs`]).
    pub(super) fn proof_here(&self) -> Option<Score> {
        let path = self.tree.path(self.tree.current());
        self.tree.proofs(&path).last().copied().flatten()
    }

    /// Takes back the last move; the line it was on stays, for redo. Returns the node left,
    /// `None` at the start.
    pub(super) fn undo_one(&mut self) -> Option<NodeId> {
        let here = self.tree.current();
        let parent = self.tree.get(here)?.parent?;
        self.game.undo()?;
        self.tree.set_current(parent);
        Some(here)
    }

    /// Plays the next move of the line shown; false at its end.
    pub(super) fn redo_one(&mut self) -> bool {
        let Some(next) = self.tree.next_of(self.tree.current()) else {
            return false;
        };
        let Some(p) = self.tree.get(next).map(|n| n.rec.pos) else {
            return false;
        };
        if self.game.play(p).is_err() {
            return false;
        }
        self.tree.set_current(next);
        true
    }

    /// Puts the game at node `target`: back to where the two lines meet, then down.
    pub(super) fn jump(&mut self, target: NodeId) {
        let from = self.tree.path(self.tree.current());
        let to = self.tree.path(target);
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        for _ in common..from.len() {
            self.game.undo();
        }
        for &n in &to[common..] {
            let p = self
                .tree
                .get(n)
                .map_or(gomoku_engine::Pos::NONE, |n| n.rec.pos);
            if self.game.play(p).is_err() {
                // cannot happen: every node was a legal move from its parent
                break;
            }
        }
        self.tree.set_current(target);
    }

    /// Refuses a node that is not in the tree.
    fn check_node(&self, node: NodeId) -> Result<(), ApiError> {
        if self.tree.get(node).is_some() {
            Ok(())
        } else {
            Err(ApiError::bad_request(
                "unknown_node",
                format!("no move {node} in this game's tree (it may have been deleted)"),
            ))
        }
    }

    /// Refuses what would go back into an opening (swap2, a renju rule) or behind its stones:
    /// a node with fewer than `earliest` moves on the board. Showing the position after the
    /// opening's last stone is fine (`earliest` is the opening's plies); changing a line is
    /// not when its first move is one of the opening's stones (one more).
    fn refuse_before_start(
        &self,
        node: NodeId,
        earliest: usize,
        what: &str,
    ) -> Result<(), ApiError> {
        self.refuse_in_opening(what)?;
        let ply = self.tree.get(node).map_or(0, |n| n.ply);
        if ply < earliest {
            let opening = match &self.renju {
                Some(r) => r.opening.rule().title(),
                None => "swap2",
            };
            return Err(ApiError::conflict(
                "before_start",
                format!(
                    "the {opening} opening's stones are the start of the game: no going back before them"
                ),
            ));
        }
        Ok(())
    }

    /// Shows node `req.node`: the board takes its position, the analysis (when on) follows
    /// it, and a move played there starts a new line unless it is the next move of one. The
    /// engine moves by itself only at the end of a line; inside one it waits for an engine
    /// move or for a person's move.
    ///
    /// # Errors
    /// 400 for a node not in the tree; 409 in an opening or before its stones.
    pub fn goto(&mut self, req: &GotoRequest) -> Result<(), ApiError> {
        self.touch();
        self.check_node(req.node)?;
        self.refuse_before_start(req.node, self.opening_plies, "moving about the game")?;
        if req.node == self.tree.current() {
            return Ok(());
        }
        self.cancel_job();
        self.settle_clock();
        self.jump(req.node);
        self.hold = self.tree.next_of(req.node).is_some();
        self.resume_after_history_change();
        Ok(())
    }

    /// Promotes or deletes the line through `req.node`. Deleting the line the board shows
    /// takes the board back to the move before the node.
    ///
    /// # Errors
    /// 400 for a node not in the tree or the start position (which has no line to change);
    /// 409 in an opening or before its stones.
    pub fn branch(&mut self, req: &BranchRequest) -> Result<(), ApiError> {
        self.touch();
        self.check_node(req.node)?;
        if req.node == ROOT {
            return Err(ApiError::bad_request(
                "bad_node",
                "the start position is no line: choose a move",
            ));
        }
        // (deleting the opening's last stone would leave an opening of fewer stones)
        self.refuse_before_start(req.node, self.opening_plies + 1, "changing the lines")?;
        match req.action {
            BranchAction::Promote => {
                self.tree.promote(req.node);
                self.changed();
            }
            BranchAction::Delete => {
                if self.tree.is_under(self.tree.current(), req.node) {
                    let parent = self.tree.get(req.node).and_then(|n| n.parent);
                    self.cancel_job();
                    self.settle_clock();
                    self.jump(parent.unwrap_or(ROOT));
                    self.tree.remove(req.node);
                    // whoever is to move there, the engine waits: the line was just deleted
                    self.hold = true;
                    self.resume_after_history_change();
                } else {
                    self.tree.remove(req.node);
                    self.changed();
                }
            }
        }
        Ok(())
    }
}
