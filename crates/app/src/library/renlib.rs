//! The RenLib `.lib` reader: a renju library's tree of moves, its comments, marks and board
//! texts, as one game of the library.
//!
//! The format (RenLib 3.x, by Frank Arkbo; read from its description, versions up to 3.4):
//!
//! ```text
//! FF 'R' 'e' 'n' 'L' 'i' 'b' FF  major minor  FF x 10     the header (20 bytes); files of
//!                                                        the oldest versions have none and
//!                                                        start with the first move, 78 (h8)
//! pos flags [ext2 ext1] [text...] [board text...]        one record per node, in pre-order
//! ```
//!
//! - `pos`: the point, `16 * (row from the top) + column`, both from 1 on the 15x15 board
//!   (`0x78` is h8); 0 is no point: the root (the first record of a 3.4 file) or a pass.
//! - `flags`: `0x80` the node has a next sibling (a later record hangs from the same parent),
//!   `0x40` the node has no child (the line ends: the next record hangs from the parent of the
//!   last node with a sibling to come), `0x20` an old-style comment follows, `0x10` the node
//!   is marked, `0x08` a comment follows, `0x04` the start node, `0x02` the node is no move
//!   (it only carries a board text), `0x01` two more flag bytes follow, of which bit 8 of the
//!   24-bit flags (`0x000100`) says a board text follows the comment.
//! - A comment: bytes up to a 0, read two at a time (so padded to an even length); a
//!   backspace (8) parts its one-line title from the text below it. An old-style comment: 7-bit
//!   characters up to one with its top bit set (included), `{|}[\]` standing for `äöåÄÖÅ`.
//! - A board text: as a comment, shown on the node's point when the board is at its parent.
//!
//! A node of the library becomes a move of the game; a board text becomes a label on its
//! parent's position, a mark a label (without text) on the node's own point, and the title
//! and text of a comment one comment (title first).

use super::game::{Label, LibGame, NodeId, ROOT};
use gomoku_engine::{Pos, Rule};

const DOWN: u32 = 0x80;
const RIGHT: u32 = 0x40;
const OLD_COMMENT: u32 = 0x20;
const MARK: u32 = 0x10;
const COMMENT: u32 = 0x08;
const NO_MOVE: u32 = 0x02;
const EXTENSION: u32 = 0x01;
const BOARD_TEXT: u32 = 0x0100;

/// The newest version read, as `100 * major + minor`.
const NEWEST: u32 = 304;

/// A node as the file has it.
#[derive(Debug, Default)]
struct RawNode {
    point: Option<Pos>,
    is_move: bool,
    mark: bool,
    comment: String,
    board_text: String,
    children: Vec<usize>,
}

/// Bytes as text: UTF-8 when they are, else each byte a character of Latin-1 (RenLib writes
/// the system's 8-bit code page).
fn text_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Reads the file's records.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn pair(&mut self) -> Option<(u8, u8)> {
        let p = (*self.bytes.get(self.at)?, *self.bytes.get(self.at + 1)?);
        self.at += 2;
        Some(p)
    }

    /// Text up to a 0 byte, read in pairs.
    fn text(&mut self) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        loop {
            let (a, b) = self.pair().ok_or_else(|| self.cut())?;
            if a == 0 {
                return Ok(out);
            }
            out.push(a);
            if b == 0 {
                return Ok(out);
            }
            out.push(b);
        }
    }

    /// Old-style text: 7-bit characters up to one with its top bit set.
    fn old_text(&mut self) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        loop {
            let (a, b) = self.pair().ok_or_else(|| self.cut())?;
            out.push(a);
            if a & 0x80 != 0 {
                break;
            }
            out.push(b);
            if b & 0x80 != 0 {
                break;
            }
        }
        Ok(out
            .into_iter()
            .map(|c| match c & 0x7f {
                b'}' => 0xe5,
                b'{' => 0xe4,
                b'|' => 0xf6,
                b']' => 0xc5,
                b'[' => 0xc4,
                b'\\' => 0xd6,
                c => c,
            })
            .collect())
    }

    fn cut(&self) -> String {
        format!("the file is cut short (at byte {})", self.at)
    }
}

/// A comment's title and text as one comment.
fn comment_of(raw: &[u8]) -> String {
    let (title, body) = match raw.iter().position(|&b| b == 8) {
        Some(i) => (&raw[..i], &raw[i + 1..]),
        None => (raw, &[][..]),
    };
    let (title, body) = (text_of(title), text_of(body));
    let body = body.replace("\r\n", "\n");
    match (title.trim().is_empty(), body.trim().is_empty()) {
        (false, false) => format!("{}\n{}", title.trim(), body.trim_end()),
        (false, true) => title.trim().to_string(),
        (true, _) => body.trim_end().to_string(),
    }
}

/// The point of a position byte (`None` for 0).
fn point_of(pos: u8, record: usize) -> Result<Option<Pos>, String> {
    if pos == 0 {
        return Ok(None);
    }
    let (x, y) = (usize::from(pos % 16), usize::from(pos / 16) + 1);
    if !(1..=15).contains(&x) || !(1..=15).contains(&y) {
        return Err(format!(
            "record {record}: the point byte {pos:#04x} is off the board"
        ));
    }
    Ok(Some(Pos::new(x - 1, y - 1)))
}

/// Where the records start, after checking the header.
fn body_start(bytes: &[u8]) -> Result<usize, String> {
    const MAGIC: [u8; 8] = [0xff, b'R', b'e', b'n', b'L', b'i', b'b', 0xff];
    if bytes.len() >= 20 && bytes[..8] == MAGIC {
        let (major, minor) = (u32::from(bytes[8]), u32::from(bytes[9]));
        if 100 * major + minor > NEWEST {
            return Err(format!(
                "RenLib version {major}.{minor} is newer than the versions this reader knows \
                 (up to 3.4)"
            ));
        }
        Ok(20)
    } else if bytes.first() == Some(&0x78) {
        // the oldest libraries have no header: they start with h8
        Ok(0)
    } else {
        Err("not a RenLib library (no RenLib header, and it does not start with h8)".to_string())
    }
}

/// Reads the records into RenLib's tree (node 0 the root).
fn raw_tree(bytes: &[u8]) -> Result<Vec<RawNode>, String> {
    let mut r = Reader {
        bytes,
        at: body_start(bytes)?,
    };
    let mut nodes = vec![RawNode::default()];
    // the line of nodes from the root to the current one, and where siblings are to come
    let mut path: Vec<usize> = vec![0];
    let mut forks: Vec<usize> = Vec::new();
    let mut record = 0;
    while let Some((pos, low)) = r.pair() {
        record += 1;
        let mut flags = u32::from(low);
        if flags & EXTENSION != 0 {
            let (b2, b1) = r.pair().ok_or_else(|| r.cut())?;
            flags |= ((u32::from(b2) << 8) | u32::from(b1)) << 8;
        }
        let point = point_of(pos, record)?;
        let here = if record == 1 && point.is_none() {
            // the root's own record
            0
        } else {
            let parent = *path.last().unwrap_or(&0);
            let p = point.unwrap_or(Pos::PASS);
            let same = nodes[parent]
                .children
                .iter()
                .copied()
                .find(|&c| nodes[c].point == Some(p));
            let id = same.unwrap_or_else(|| {
                nodes.push(RawNode {
                    point: Some(p),
                    ..RawNode::default()
                });
                let id = nodes.len() - 1;
                nodes[parent].children.push(id);
                id
            });
            path.push(id);
            id
        };
        let node = &mut nodes[here];
        node.is_move |= flags & NO_MOVE == 0;
        node.mark |= flags & MARK != 0;
        if flags & COMMENT != 0 {
            node.comment = comment_of(&r.text()?);
        } else if flags & OLD_COMMENT != 0 {
            node.comment = comment_of(&r.old_text()?);
        }
        if flags & BOARD_TEXT != 0 {
            node.board_text = text_of(&r.text()?).trim().to_string();
        }
        if flags & DOWN != 0 {
            forks.push(path.len() - 1);
        }
        if flags & RIGHT != 0 {
            if let Some(i) = forks.pop() {
                path.truncate(i.max(1));
            }
        }
        if nodes.len() > super::game::MAX_NODES {
            return Err(format!("more than {} moves", super::game::MAX_NODES));
        }
    }
    Ok(nodes)
}

/// Reads a RenLib library as one renju game on the 15x15 board.
///
/// # Errors
/// Not a RenLib file, a newer version, a file cut short, a point off the board.
pub fn read(bytes: &[u8]) -> Result<LibGame, String> {
    let raw = raw_tree(bytes)?;
    let mut g = LibGame::new(15, Rule::Renju);
    if let Some(root) = g.tree.get_mut(ROOT) {
        root.note.comment.clone_from(&raw[0].comment);
    }
    // each RenLib node with the game's node it hangs from
    let mut todo: Vec<(usize, NodeId)> = raw[0].children.iter().rev().map(|&c| (c, ROOT)).collect();
    while let Some((r, parent)) = todo.pop() {
        let n = &raw[r];
        let Some(p) = n.point else { continue };
        if !n.board_text.is_empty() && p.is_point() {
            if let Some(par) = g.tree.get_mut(parent) {
                par.note.labels.push(Label {
                    point: p,
                    text: n.board_text.clone(),
                });
            }
        }
        if !n.is_move {
            // a board text's holder: no stone, and nothing can follow it
            continue;
        }
        let id = g.tree.add(parent, p)?;
        if let Some(node) = g.tree.get_mut(id) {
            node.note.comment.clone_from(&n.comment);
            if n.mark && p.is_point() {
                node.note.labels.push(Label {
                    point: p,
                    text: String::new(),
                });
            }
        }
        todo.extend(n.children.iter().rev().map(|&c| (c, id)));
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::notation::{format_pos, parse_pos};

    fn header(minor: u8) -> Vec<u8> {
        let mut h = vec![0xff, b'R', b'e', b'n', b'L', b'i', b'b', 0xff, 3, minor];
        h.extend([0xff; 10]);
        h
    }

    fn p(s: &str) -> Pos {
        parse_pos(s, 15).unwrap()
    }

    fn line(g: &LibGame, mut at: NodeId) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(&c) = g.tree.get(at).and_then(|n| n.children.first()) {
            out.push(format_pos(g.tree.get(c).unwrap().point, 15));
            at = c;
        }
        out
    }

    #[test]
    fn a_tree_with_a_fork_a_comment_a_mark_and_a_board_text() {
        let mut b = header(4);
        b.extend([0x00, 0x00]); // the root
        b.extend([0x78, 0x00]); // h8
        b.extend([0x68, 0x80]); // h9, a sibling to come
        b.extend([0x67, 0x08]); // g9 with a comment
        b.extend(b"Good\x08for black\0\0");
        b.extend([0x69, 0x43, 0x00, 0x01]); // i9: no move, a board text, end of line
        b.extend(b"A\0");
        b.extend([0x79, 0x50]); // i8, marked, end of the line: back to h8
        let g = read(&b).unwrap();
        assert_eq!(line(&g, ROOT), ["h8", "h9", "g9"]);
        let h8 = g.tree.get(ROOT).unwrap().children[0];
        let kids: Vec<Pos> = g
            .tree
            .get(h8)
            .unwrap()
            .children
            .iter()
            .map(|&c| g.tree.get(c).unwrap().point)
            .collect();
        assert_eq!(kids, [p("h9"), p("i8")]);
        let g9 = g.tree.path(
            g.tree
                .get(g.tree.get(h8).unwrap().children[0])
                .unwrap()
                .children[0],
        );
        let g9 = *g9.last().unwrap();
        assert_eq!(g.tree.get(g9).unwrap().note.comment, "Good\nfor black");
        assert_eq!(
            g.tree.get(g9).unwrap().note.labels,
            [Label {
                point: p("i9"),
                text: "A".into()
            }]
        );
        let i8 = g.tree.get(h8).unwrap().children[1];
        assert_eq!(g.tree.get(i8).unwrap().note.labels[0].text, "");
        assert!(g.check().is_ok());
    }

    #[test]
    fn old_files_and_bad_files() {
        // no header: h8 first; an old-style comment
        let g = read(&[0x78, 0x20, b'h', b'|' | 0x80, 0x68, 0x00]).unwrap();
        assert_eq!(line(&g, ROOT), ["h8", "h9"]);
        let h8 = g.tree.get(ROOT).unwrap().children[0];
        assert_eq!(g.tree.get(h8).unwrap().note.comment, "hö");
        assert!(read(b"hello").unwrap_err().contains("not a RenLib"));
        assert!(read(&header(9)).unwrap_err().contains("3.9 is newer"));
        let mut cut = header(4);
        cut.extend([0x78, 0x08, b'a', b'b']);
        assert!(read(&cut).unwrap_err().contains("cut short"));
        let mut off = header(4);
        off.extend([0x70, 0x00]);
        assert!(read(&off).unwrap_err().contains("off the board"));
    }
}
