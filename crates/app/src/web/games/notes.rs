//! Comments and labels on the nodes of a game's tree (`POST /api/games/{id}/note`): a comment
//! on any move (or on the start position), and labels on the board at any node, a letter or a
//! word, or a plain mark.

use super::tree::NodeId;
use super::{read_point, Slot};
use crate::library::Label;
use crate::web::error::ApiError;
use serde::Deserialize;

/// The longest comment, in characters.
pub const COMMENT_MAX: usize = 10_000;
/// The longest label, in characters.
pub const LABEL_MAX: usize = 40;
/// The most labels on one node.
pub const LABELS_MAX: usize = 100;

/// A label in a request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelRequest {
    /// The point (`h8` or Gomocup `x,y`).
    pub point: String,
    /// The text (empty or absent: a plain mark).
    #[serde(default)]
    pub text: String,
}

/// The body of `POST /api/games/{id}/note`: what is given replaces what the node had.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteRequest {
    /// The node (an id of the state's `tree`; 0 is the start position).
    pub node: NodeId,
    /// The comment (empty: none).
    pub comment: Option<String>,
    /// The labels on the board at the node.
    pub labels: Option<Vec<LabelRequest>>,
}

impl Slot {
    /// Sets the comment and labels of a node.
    ///
    /// # Errors
    /// 400 for a node not in the tree, a comment or label too long, too many labels, a point
    /// off the board.
    pub fn note(&mut self, req: &NoteRequest) -> Result<(), ApiError> {
        self.touch();
        let bad = |code: &'static str, m: String| ApiError::bad_request(code, m);
        if self.tree.get(req.node).is_none() {
            return Err(bad(
                "unknown_node",
                format!("no move {} in this game's tree", req.node),
            ));
        }
        if let Some(c) = &req.comment {
            if c.chars().count() > COMMENT_MAX {
                return Err(bad(
                    "bad_note",
                    format!("a comment has at most {COMMENT_MAX} characters"),
                ));
            }
        }
        let labels = match &req.labels {
            None => None,
            Some(list) => {
                if list.len() > LABELS_MAX {
                    return Err(bad(
                        "bad_note",
                        format!("at most {LABELS_MAX} labels on a node"),
                    ));
                }
                let size = self.size();
                let mut out: Vec<Label> = Vec::with_capacity(list.len());
                for l in list {
                    let point = read_point(&l.point, size)
                        .map_err(|e| bad("bad_note", format!("label: {e}")))?;
                    if !point.is_point() {
                        return Err(bad("bad_note", "a label needs a point".to_string()));
                    }
                    let text = l.text.trim();
                    if text.chars().count() > LABEL_MAX {
                        return Err(bad(
                            "bad_note",
                            format!("a label has at most {LABEL_MAX} characters"),
                        ));
                    }
                    out.retain(|o| o.point != point);
                    out.push(Label {
                        point,
                        text: text.to_string(),
                    });
                }
                Some(out)
            }
        };
        let Some(node) = self.tree.get_mut(req.node) else {
            return Ok(());
        };
        if let Some(c) = &req.comment {
            c.trim_end().clone_into(&mut node.comment);
        }
        if let Some(l) = labels {
            node.labels = l;
        }
        self.changed();
        Ok(())
    }
}
