//! The handlers of the game's tree of moves: showing a node, promoting or deleting a line,
//! a node's comment and labels.

use super::api::game_actions;
use super::games::{BranchRequest, GotoRequest, NoteRequest, Slot};

game_actions! {
    goto(GotoRequest, None) => Slot::goto;
    branch(BranchRequest, None) => Slot::branch;
    note(NoteRequest, None) => Slot::note;
}
