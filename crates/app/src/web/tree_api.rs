//! The handlers of the game's tree of moves: showing a node, promoting or deleting a line.

use super::api::game_actions;
use super::games::{BranchRequest, GotoRequest, Slot};

game_actions! {
    goto(GotoRequest, None) => Slot::goto;
    branch(BranchRequest, None) => Slot::branch;
}
