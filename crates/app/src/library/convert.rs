//! Game records to and from [`LibGame`]: SGF (tags, set-up stones, every line, comments and
//! labels), Piskvork `.psq` records and lines of the datasets' common position format
//! (`15 renju h8 i9 | result=black black=... white=...`).

use super::game::{Label, LibGame, NodeId, Tags, ROOT};
use crate::sgf::{SgfInfo, SgfMove, SgfRecord};
use gomoku_engine::notation::{format_pos, side_to_move};
use gomoku_engine::record::Record;
use gomoku_engine::{Color, Pos, Rule};

/// The program's name in the files it writes.
pub const APP: &str = concat!("gomoku:", env!("CARGO_PKG_VERSION"));

fn labels_of(list: &[(Pos, String)]) -> Vec<Label> {
    list.iter()
        .map(|(p, t)| Label {
            point: *p,
            text: t.clone(),
        })
        .collect()
}

/// The tags of an SGF record.
#[must_use]
pub fn tags_of_sgf(rec: &SgfRecord) -> Tags {
    let i = &rec.info;
    Tags {
        name: i.name.clone(),
        black: i.black.clone(),
        white: i.white.clone(),
        event: i.event.clone(),
        round: i.round.clone(),
        date: i.date.clone(),
        place: i.place.clone(),
        result: i.result.clone(),
        opening: rec.opening.clone().unwrap_or_default(),
        ..Tags::default()
    }
}

/// A game of an SGF record, under its rule (`RU`) or `rule` when it names none.
///
/// # Errors
/// A move of the wrong colour (the library's games alternate), or too many moves.
pub fn from_sgf(rec: &SgfRecord, rule: Rule) -> Result<LibGame, String> {
    let mut g = LibGame::new(rec.size, rec.rule.unwrap_or(rule));
    g.black.clone_from(&rec.black);
    g.white.clone_from(&rec.white);
    g.to_move = rec
        .to_move
        .unwrap_or_else(|| side_to_move(rec.black.len(), rec.white.len()));
    g.tags = tags_of_sgf(rec);
    if let Some(root) = g.tree.get_mut(ROOT) {
        root.note.comment.clone_from(&rec.comment);
        root.note.labels = labels_of(&rec.labels);
    }
    // each move with the node it hangs from and the side to move there
    let mut todo: Vec<(usize, NodeId, Color, usize)> = rec
        .first
        .iter()
        .rev()
        .map(|&m| (m, ROOT, g.to_move, 1))
        .collect();
    while let Some((m, parent, to_move, number)) = todo.pop() {
        let mv = &rec.moves[m];
        if mv.color != to_move {
            let c = if mv.color == Color::Black { 'B' } else { 'W' };
            return Err(format!(
                "move {number} ({c}[{}], {}): it is {to_move}'s turn",
                crate::sgf::point(mv.pos),
                format_pos(mv.pos, rec.size)
            ));
        }
        let id = g.tree.add(parent, mv.pos)?;
        if let Some(n) = g.tree.get_mut(id) {
            if !mv.comment.is_empty() {
                if !n.note.comment.is_empty() {
                    n.note.comment.push('\n');
                }
                n.note.comment.push_str(&mv.comment);
            }
            n.note.labels.extend(labels_of(&mv.labels));
        }
        todo.extend(
            mv.children
                .iter()
                .rev()
                .map(|&c| (c, id, to_move.opponent(), number + 1)),
        );
    }
    Ok(g)
}

/// The SGF record of a game, with every line, comment and label.
#[must_use]
pub fn to_sgf(g: &LibGame) -> SgfRecord {
    let t = &g.tags;
    let mut rec = SgfRecord {
        size: g.size,
        rule: Some(g.rule),
        black: g.black.clone(),
        white: g.white.clone(),
        to_move: (!g.black.is_empty() || !g.white.is_empty() || g.to_move != Color::Black)
            .then_some(g.to_move),
        opening: (!t.opening.is_empty()).then(|| t.opening.clone()),
        info: SgfInfo {
            black: t.black.clone(),
            white: t.white.clone(),
            result: t.result.clone(),
            date: t.date.clone(),
            event: t.event.clone(),
            round: t.round.clone(),
            place: t.place.clone(),
            name: t.name.clone(),
        },
        ..SgfRecord::default()
    };
    if let Some(root) = g.tree.get(ROOT) {
        rec.comment.clone_from(&root.note.comment);
        rec.labels = root
            .note
            .labels
            .iter()
            .map(|l| (l.point, l.text.clone()))
            .collect();
    }
    // the tree's nodes in pre-order become the record's moves
    let order = g.tree.preorder();
    let mut index = std::collections::HashMap::new();
    for (i, &(id, _)) in order.iter().skip(1).enumerate() {
        index.insert(id, i);
    }
    for &(id, depth) in order.iter().skip(1) {
        let Some(n) = g.tree.get(id) else { continue };
        // the colour of a move at depth d: the start's side to move at odd depths
        let color = if depth % 2 == 1 {
            g.to_move
        } else {
            g.to_move.opponent()
        };
        rec.moves.push(SgfMove {
            color,
            pos: n.point,
            children: n
                .children
                .iter()
                .filter_map(|c| index.get(c).copied())
                .collect(),
            comment: n.note.comment.clone(),
            labels: n
                .note
                .labels
                .iter()
                .map(|l| (l.point, l.text.clone()))
                .collect(),
        });
    }
    if let Some(root) = g.tree.get(ROOT) {
        rec.first = root
            .children
            .iter()
            .filter_map(|c| index.get(c).copied())
            .collect();
    }
    rec
}

/// A game of a Piskvork `.psq` record under `rule` (the format names none): its moves with
/// their times, and the players' names when the lines after the moves give them.
///
/// # Errors
/// A malformed record.
pub fn from_psq(text: &str, rule: Rule) -> Result<LibGame, String> {
    let rec = crate::psq::parse(text)?;
    let mut g = LibGame::new(rec.size, rule);
    let mut at = ROOT;
    for &(p, ms) in &rec.moves {
        at = g.tree.add(at, p)?;
        if let Some(n) = g.tree.get_mut(at) {
            n.ms = ms;
        }
    }
    // the lines after the moves: the players' names, then `-1` (or other figures)
    let names: Vec<&str> = text
        .lines()
        .skip(1 + rec.moves.len())
        .map(str::trim)
        .filter(|l| !l.is_empty() && l.parse::<i64>().is_err() && !l.contains(','))
        .collect();
    if let [black, white, ..] = names.as_slice() {
        g.tags.black = (*black).to_string();
        g.tags.white = (*white).to_string();
    }
    Ok(g)
}

/// A game of a line of the common position format: its moves (passes included) as one line,
/// and its keys `result` (`black`, `white`, `draw`), `black`, `white`, `game` (the name),
/// `opening`, `event` and `date` as tags.
///
/// # Errors
/// A malformed line.
pub fn from_record_line(line: &str) -> Result<LibGame, String> {
    let rec = Record::parse(line.trim()).map_err(|e| e.to_string())?;
    let mut g = LibGame::new(rec.size, rec.rule);
    let mut at = ROOT;
    for &p in &rec.moves {
        at = g.tree.add(at, p)?;
    }
    let get = |k: &str| rec.get(k).unwrap_or("").to_string();
    g.tags.result = match rec.get("result") {
        Some("black") => "B+".to_string(),
        Some("white") => "W+".to_string(),
        Some("draw") => "0".to_string(),
        _ => String::new(),
    };
    g.tags.black = get("black");
    g.tags.white = get("white");
    g.tags.name = rec
        .get("game")
        .map_or_else(String::new, |n| format!("game {n}"));
    g.tags.opening = get("opening");
    g.tags.event = get("event");
    g.tags.date = get("date");
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf;

    #[test]
    fn an_sgf_record_goes_through_the_library_and_back() {
        let text = "(;GM[4]SZ[15]RU[renju]PB[Ann]PW[Bo]RE[W+R]DT[2020-01-02]EV[Cup]C[start]\
                    ;B[hh]C[centre]LB[ii:A];W[ii](;B[jj];W[gg])(;B[gi]MA[hi]))";
        let rec = sgf::read(text).unwrap();
        let g = from_sgf(&rec, Rule::Freestyle).unwrap();
        assert_eq!(g.rule, Rule::Renju);
        assert_eq!(
            (g.tags.black.as_str(), g.tags.result.as_str()),
            ("Ann", "W+R")
        );
        assert_eq!(g.tree.moves(), 5);
        assert_eq!(g.tree.get(ROOT).unwrap().note.comment, "start");
        let back = to_sgf(&g);
        assert_eq!(back, rec);
        // a move of the wrong colour
        let bad = sgf::read("(;GM[4];B[hh];B[ii])").unwrap();
        let e = from_sgf(&bad, Rule::Freestyle).unwrap_err();
        assert!(e.contains("move 2 (B[ii], i7): it is white's turn"), "{e}");
    }

    #[test]
    fn position_lines_and_psq_records_become_games() {
        let g = from_record_line(
            "15 freestyle h8 i9 j10 | game=7 black=pvs white=pvs result=white reason=five",
        )
        .unwrap();
        assert_eq!(g.tree.moves(), 3);
        assert_eq!(
            (g.tags.name.as_str(), g.tags.result.as_str()),
            ("game 7", "W+")
        );
        let psq = "Piskvorky 15x15, 11:11, 0\n8,8,100\n9,9,200\nann.zip\nbo.zip\n-1\n";
        let g = from_psq(psq, Rule::Standard).unwrap();
        assert_eq!(g.tree.moves(), 2);
        assert_eq!(
            (g.tags.black.as_str(), g.tags.white.as_str()),
            ("ann.zip", "bo.zip")
        );
        assert_eq!(g.tree.get(2).unwrap().ms, 200);
    }
}
