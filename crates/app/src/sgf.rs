//! SGF game records (Smart Game Format, `FF[4]`) for Gomoku and Renju (`GM[4]`), with
//! variations.
//!
//! ```text
//! (;FF[4]GM[4]SZ[15]RU[renju]      the root node: game, size, rule (and set-up stones AB/AW,
//!  ;B[hh];W[ii]                     PL for the side to move); then one node per move, x and y
//!  (;B[jj];W[gg])                   as letters from `a`, y from the top; a fork opens one
//!  (;B[gi]))                        parenthesis per line, the main line first
//! ```
//!
//! Reading is in two steps: [`parse_collection`] reads the syntax of a file (a collection of
//! one game or more) into flat trees of nodes and their properties (no recursion, so a deep or
//! hostile file cannot exhaust the stack), then [`read_all`] gives each game's moves a meaning
//! ([`SgfRecord`]); [`read`] takes the first game. Whether the moves are legal is the game's
//! business: the caller replays them. [`write()`] is the inverse of [`read`]: the record
//! written reads back as the same record.
//!
//! Besides the moves, a record keeps the game-info tags (`PB`, `PW`, `RE`, `DT`, `EV`, `RO`,
//! `PC`, `GN`, `ON`; [`SgfInfo`]), and on any node a comment (`C`) and labels (`LB`, and
//! `MA` marks as labels without text). A node without a move (a comment of its own) gives
//! its comment and labels to the move it follows.
//!
//! `RU` is not in the SGF standard for `GM[4]`; it is written with this program's rule names
//! (`freestyle`, `standard`, `renju`, `caro5`, `caro6`) and read with those and the usual
//! aliases (`gomoku`, Gomocup's rule numbers).

use crate::pbrain::command::excerpt;
use gomoku_engine::notation::check_size;
use gomoku_engine::{Color, Pos, Rule};

/// At most this many nodes in a file (a 22x22 board holds 484 stones; the rest is room for
/// variations).
pub const MAX_NODES: usize = 20_000;

/// One node of a parsed file: its properties in order, and its children (the first continues
/// the line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfNode {
    /// `(identifier, values)` pairs, identifiers in upper case.
    pub props: Vec<(String, Vec<String>)>,
    /// Indices of the children in [`SgfTree::nodes`].
    pub children: Vec<usize>,
}

impl SgfNode {
    /// The values of property `id`, if the node has it.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, v)| v.as_slice())
    }
}

/// A parsed file: its nodes, the root first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfTree {
    /// The nodes; `nodes[0]` is the root.
    pub nodes: Vec<SgfNode>,
}

/// A move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfMove {
    /// Who plays it (`B` or `W`).
    pub color: Color,
    /// The point, or [`Pos::PASS`].
    pub pos: Pos,
    /// The moves that follow it (indices into [`SgfRecord::moves`]), the main line first.
    pub children: Vec<usize>,
    /// The comment on the move (`C`).
    pub comment: String,
    /// The labels on the board after it (`LB`; `MA` marks have no text).
    pub labels: Vec<(Pos, String)>,
}

/// The game-info tags of a record (empty when absent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfInfo {
    /// Black's player (`PB`).
    pub black: String,
    /// White's player (`PW`).
    pub white: String,
    /// The result (`RE`).
    pub result: String,
    /// The date (`DT`).
    pub date: String,
    /// The event (`EV`).
    pub event: String,
    /// The round (`RO`).
    pub round: String,
    /// The place (`PC`).
    pub place: String,
    /// The game's name (`GN`).
    pub name: String,
}

impl SgfInfo {
    /// The tags with their identifiers, in the order they are written.
    fn fields(&self) -> [(&'static str, &String); 8] {
        [
            ("GN", &self.name),
            ("PB", &self.black),
            ("PW", &self.white),
            ("EV", &self.event),
            ("RO", &self.round),
            ("DT", &self.date),
            ("PC", &self.place),
            ("RE", &self.result),
        ]
    }

    fn fields_mut(&mut self) -> [(&'static str, &mut String); 8] {
        [
            ("GN", &mut self.name),
            ("PB", &mut self.black),
            ("PW", &mut self.white),
            ("EV", &mut self.event),
            ("RO", &mut self.round),
            ("DT", &mut self.date),
            ("PC", &mut self.place),
            ("RE", &mut self.result),
        ]
    }
}

/// A game record: the start position and the tree of moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfRecord {
    /// The board size.
    pub size: usize,
    /// The rule (`RU`), when the record names one.
    pub rule: Option<Rule>,
    /// Black's set-up stones (`AB`).
    pub black: Vec<Pos>,
    /// White's set-up stones (`AW`).
    pub white: Vec<Pos>,
    /// The side to move at the start (`PL`), when given.
    pub to_move: Option<Color>,
    /// The name of the game's opening (`ON`), when it has one: information only, the moves
    /// say what was played.
    pub opening: Option<String>,
    /// Every move of every line.
    pub moves: Vec<SgfMove>,
    /// The moves from the start position (indices into `moves`), the main line first.
    pub first: Vec<usize>,
    /// The game-info tags.
    pub info: SgfInfo,
    /// The comment on the start position (`C` of the root).
    pub comment: String,
    /// The labels on the start position.
    pub labels: Vec<(Pos, String)>,
}

/// Where a problem is: a line and a column (both from 1) of the text.
fn at(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {col}")
}

/// Reads the syntax of a file's first game tree (`(;...)`), its nodes and properties.
///
/// # Errors
/// As [`parse_collection`].
pub fn parse(text: &str) -> Result<SgfTree, String> {
    parse_collection(text)?
        .into_iter()
        .next()
        .ok_or_else(|| "the SGF record is empty".to_string())
}

/// Reads the syntax of a file: a collection of game trees (`(;...)(;...)`), their nodes and
/// properties. Text before the first `(` other than white space (and a byte-order mark) and
/// text after the last game are refused.
///
/// # Errors
/// The first syntax error, with its line and column; more than [`MAX_NODES`] nodes in all.
pub fn parse_collection(text: &str) -> Result<Vec<SgfTree>, String> {
    let bytes = text.as_bytes();
    let mut i = 0;
    if text.starts_with('\u{feff}') {
        i = 3;
    }
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return Err(if i >= bytes.len() {
            "the SGF record is empty".to_string()
        } else {
            format!(
                "an SGF record starts with '(;' ({}: found '{}')",
                at(text, i),
                excerpt(&first_char(text, i))
            )
        });
    }
    let mut trees: Vec<SgfTree> = Vec::new();
    let mut tree = SgfTree::default();
    let mut total = 0;
    // each open parenthesis: the node its first node hangs from (None at the top), and the
    // last node of its sequence so far
    let mut stack: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    while i < bytes.len() {
        match bytes[i] {
            b'(' => {
                if stack.is_empty() && !tree.nodes.is_empty() {
                    trees.push(std::mem::take(&mut tree));
                }
                if stack.last().is_some_and(|&(_, last)| last.is_none()) {
                    return Err(format!("a variation with no node ({})", at(text, i)));
                }
                let parent = stack.last().and_then(|&(p, last)| last.or(p));
                stack.push((parent, None));
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                if bytes.get(i) != Some(&b';') {
                    return Err(format!("expected ';' after '(' ({})", at(text, i)));
                }
            }
            b')' => {
                match stack.pop() {
                    Some((_, Some(_))) => {}
                    Some((_, None)) => {
                        return Err(format!("a variation with no node ({})", at(text, i)))
                    }
                    None => return Err(format!("')' with no '(' ({})", at(text, i))),
                }
                i += 1;
            }
            b';' => {
                let Some(top) = stack.last_mut() else {
                    return Err(format!("a node outside the game ({})", at(text, i)));
                };
                if total >= MAX_NODES {
                    return Err(format!(
                        "more than {MAX_NODES} nodes: too large for a game record"
                    ));
                }
                total += 1;
                let id = tree.nodes.len();
                tree.nodes.push(SgfNode::default());
                if let Some(parent) = top.1.or(top.0) {
                    tree.nodes[parent].children.push(id);
                }
                top.1 = Some(id);
                i += 1;
                i = parse_props(text, i, &mut tree.nodes[id])?;
                continue;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                if stack.is_empty() {
                    return Err(format!(
                        "text after the end of the game ({}): '{}'",
                        at(text, i),
                        excerpt(&first_char(text, i))
                    ));
                }
                return Err(format!(
                    "unexpected '{}' ({}): expected ';', '(' or ')'",
                    excerpt(&first_char(text, i)),
                    at(text, i)
                ));
            }
        }
    }
    if !stack.is_empty() {
        return Err("the record ends inside a variation: a ')' is missing".to_string());
    }
    trees.push(tree);
    Ok(trees)
}

/// The character at byte `i` of `text`, as a string.
fn first_char(text: &str, i: usize) -> String {
    text[i..]
        .chars()
        .next()
        .map(String::from)
        .unwrap_or_default()
}

/// Reads the properties of a node from `i` (just after its `;`); returns where they end.
fn parse_props(text: &str, mut i: usize, node: &mut SgfNode) -> Result<usize, String> {
    let bytes = text.as_bytes();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() || !bytes[i].is_ascii_alphabetic() {
            return Ok(i);
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        // FF[3] files may spell identifiers with lower-case letters (`AddBlack`): the upper
        // case ones are the identifier
        let id: String = text[start..i]
            .chars()
            .filter(char::is_ascii_uppercase)
            .collect();
        if id.is_empty() {
            return Err(format!(
                "property '{}' has no upper-case letter ({})",
                excerpt(&text[start..i]),
                at(text, start)
            ));
        }
        let mut values = Vec::new();
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if bytes.get(i) != Some(&b'[') {
                break;
            }
            let open = i;
            i += 1;
            let mut value = String::new();
            loop {
                let Some(c) = text[i..].chars().next() else {
                    return Err(format!(
                        "the value of {id} opened at {} has no ']'",
                        at(text, open)
                    ));
                };
                i += c.len_utf8();
                match c {
                    ']' => break,
                    '\\' => {
                        if let Some(e) = text[i..].chars().next() {
                            i += e.len_utf8();
                            // an escaped line break is a soft one: it disappears
                            if e != '\n' && e != '\r' {
                                value.push(e);
                            }
                        }
                    }
                    _ => value.push(c),
                }
            }
            values.push(value);
        }
        if values.is_empty() {
            return Err(format!("property {id} has no value ({})", at(text, start)));
        }
        if node.get(&id).is_some() {
            return Err(format!(
                "property {id} twice in one node ({})",
                at(text, start)
            ));
        }
        node.props.push((id, values));
    }
}

/// A point written as two letters (`hh`), or a pass (empty, or `tt` on boards up to 19).
fn read_point(value: &str, size: usize, what: &str) -> Result<Pos, String> {
    let v = value.trim();
    if v.is_empty() || (v == "tt" && size <= 19) {
        return Ok(Pos::PASS);
    }
    let b = v.as_bytes();
    let coord = |c: u8| -> Option<usize> {
        let i = usize::from(c.checked_sub(b'a')?);
        (i < size).then_some(i)
    };
    match (
        b.len(),
        b.first().copied().and_then(coord),
        b.get(1).copied().and_then(coord),
    ) {
        (2, Some(x), Some(y)) => Ok(Pos::new(x, y)),
        _ => Err(format!(
            "{what}[{}]: not a point of a {size}x{size} board (two letters from 'a', x then y \
             from the top)",
            excerpt(v)
        )),
    }
}

/// Points of `AB` / `AW` values: single points, or `FF[4]` rectangles `aa:cc`.
fn read_points(values: &[String], size: usize, what: &str) -> Result<Vec<Pos>, String> {
    let mut out = Vec::new();
    for v in values {
        let (a, b) = v.split_once(':').unwrap_or((v, v));
        let (a, b) = (read_point(a, size, what)?, read_point(b, size, what)?);
        if !a.is_point() || !b.is_point() {
            return Err(format!(
                "{what}[{}]: a set-up stone needs a point",
                excerpt(v)
            ));
        }
        for y in a.y().min(b.y())..=a.y().max(b.y()) {
            for x in a.x().min(b.x())..=a.x().max(b.x()) {
                out.push(Pos::new(x, y));
            }
        }
    }
    Ok(out)
}

/// The move of a node (`B` or `W`), if it has one.
fn node_move(node: &SgfNode, size: usize) -> Result<Option<(Color, Pos)>, String> {
    match (node.get("B"), node.get("W")) {
        (Some(_), Some(_)) => Err("a node with both a black and a white move".to_string()),
        (Some(v), None) => Ok(Some((Color::Black, read_point(&v[0], size, "B")?))),
        (None, Some(v)) => Ok(Some((Color::White, read_point(&v[0], size, "W")?))),
        (None, None) => Ok(None),
    }
}

/// Reads a record, the first game of the text: the root's game, size, rule and set-up, then
/// every line of moves. Nodes without a move (comments only) are passed through; set-up stones
/// after the root are refused.
///
/// # Errors
/// A syntax error ([`parse_collection`]), another game than Gomoku (`GM` other than 4), a size
/// out of range or not square, an unknown rule, a malformed point; the message says where.
pub fn read(text: &str) -> Result<SgfRecord, String> {
    record_of(&parse(text)?)
}

/// Reads every game of a collection.
///
/// # Errors
/// The first error, with the number of its game when the file holds more than one.
pub fn read_all(text: &str) -> Result<Vec<SgfRecord>, String> {
    let trees = parse_collection(text)?;
    let many = trees.len() > 1;
    trees
        .iter()
        .enumerate()
        .map(|(i, t)| {
            record_of(t).map_err(|e| {
                if many {
                    format!("game {}: {e}", i + 1)
                } else {
                    e
                }
            })
        })
        .collect()
}

/// The size of a root's `SZ` (15 without one).
fn root_size(root: &SgfNode) -> Result<usize, String> {
    let Some(v) = root.get("SZ") else {
        return Ok(15);
    };
    let v = v[0].trim();
    let (w, h) = v.split_once(':').unwrap_or((v, v));
    match (w.trim().parse::<usize>(), h.trim().parse::<usize>()) {
        (Ok(w), Ok(h)) if w == h => check_size(w).map_err(|e| format!("SZ[{v}]: {e}")),
        (Ok(_), Ok(_)) => Err(format!("SZ[{v}]: only square boards are played")),
        _ => Err(format!("SZ[{}]: not a board size", excerpt(v))),
    }
}

/// The labels of a node: `LB[pt:text]` and `MA[pt]` (a mark, no text).
fn node_labels(node: &SgfNode, size: usize) -> Result<Vec<(Pos, String)>, String> {
    let mut out = Vec::new();
    for v in node.get("LB").unwrap_or(&[]) {
        let (pt, text) = v.split_once(':').unwrap_or((v, ""));
        let p = read_point(pt, size, "LB")?;
        if p.is_point() {
            out.push((p, text.to_string()));
        }
    }
    for p in read_points(node.get("MA").unwrap_or(&[]), size, "MA")? {
        out.push((p, String::new()));
    }
    Ok(out)
}

/// Gives one game tree's moves their meaning.
fn record_of(tree: &SgfTree) -> Result<SgfRecord, String> {
    let root = &tree.nodes[0];
    if let Some(gm) = root.get("GM") {
        if gm[0].trim() != "4" {
            return Err(format!(
                "GM[{}]: not a Gomoku or Renju record (those are GM[4])",
                excerpt(gm[0].trim())
            ));
        }
    }
    let size = root_size(root)?;
    let rule = match root.get("RU") {
        None => None,
        Some(v) => Some(v[0].parse::<Rule>().map_err(|_| {
            format!(
                "RU[{}]: unknown rule (freestyle, standard, renju, caro5 or caro6)",
                excerpt(v[0].trim())
            )
        })?),
    };
    let to_move = match root.get("PL").map(|v| v[0].trim().to_ascii_uppercase()) {
        None => None,
        Some(p) if p == "B" || p == "1" => Some(Color::Black),
        Some(p) if p == "W" || p == "2" => Some(Color::White),
        Some(p) => return Err(format!("PL[{}]: the player is B or W", excerpt(&p))),
    };
    let opening = root
        .get("ON")
        .map(|v| v[0].clone())
        .filter(|v| !v.is_empty());
    let mut info = SgfInfo::default();
    for (id, field) in info.fields_mut() {
        if let Some(v) = root.get(id) {
            v[0].trim().clone_into(field);
        }
    }
    let mut rec = SgfRecord {
        size,
        rule,
        black: read_points(root.get("AB").unwrap_or(&[]), size, "AB")?,
        white: read_points(root.get("AW").unwrap_or(&[]), size, "AW")?,
        to_move,
        opening,
        info,
        ..SgfRecord::default()
    };
    read_moves(tree, &mut rec)?;
    Ok(rec)
}

/// Reads the moves of every line, with their comments and labels, into `rec`.
fn read_moves(tree: &SgfTree, rec: &mut SgfRecord) -> Result<(), String> {
    let size = rec.size;
    // every node with the move it hangs from (None: the start), visited in order so that each
    // parent's children keep the file's order
    let mut todo: Vec<(usize, Option<usize>)> = vec![(0, None)];
    while let Some((n, parent)) = todo.pop() {
        let node = &tree.nodes[n];
        let here = |what: &str| format!("{what} (node {} of the game)", n + 1);
        if n > 0 {
            for id in ["AB", "AW", "AE"] {
                if node.get(id).is_some() {
                    return Err(here(&format!(
                        "{id}: set-up stones after the start of the game are not supported"
                    )));
                }
            }
        }
        let hangs_from = match node_move(node, size).map_err(|e| here(&e))? {
            Some((color, pos)) => {
                let id = rec.moves.len();
                rec.moves.push(SgfMove {
                    color,
                    pos,
                    children: Vec::new(),
                    comment: String::new(),
                    labels: Vec::new(),
                });
                match parent {
                    Some(p) => rec.moves[p].children.push(id),
                    None => rec.first.push(id),
                }
                Some(id)
            }
            None => parent,
        };
        let labels = node_labels(node, size).map_err(|e| here(&e))?;
        let comment = node.get("C").map(|v| v[0].as_str()).unwrap_or("");
        let (text, marks) = match hangs_from {
            Some(m) => {
                let mv = &mut rec.moves[m];
                (&mut mv.comment, &mut mv.labels)
            }
            None => (&mut rec.comment, &mut rec.labels),
        };
        if !comment.is_empty() {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(comment);
        }
        marks.extend(labels);
        for &c in node.children.iter().rev() {
            todo.push((c, hangs_from));
        }
    }
    Ok(())
}

/// Escapes a text value: `]` and `\` get a backslash.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// A point as SGF writes it (`hh`; a pass is empty).
#[must_use]
pub fn point(p: Pos) -> String {
    if p.is_point() {
        let letter = |i: usize| char::from(b'a' + i as u8);
        format!("{}{}", letter(p.x()), letter(p.y()))
    } else {
        String::new()
    }
}

/// A node's comment and labels as properties (`C`, `LB`, `MA`), empty when it has none.
fn annotations(comment: &str, labels: &[(Pos, String)]) -> String {
    let mut out = String::new();
    if !comment.is_empty() {
        out.push_str(&format!("C[{}]", escape(comment)));
    }
    let (marks, texts): (Vec<_>, Vec<_>) = labels.iter().partition(|(_, t)| t.is_empty());
    if !texts.is_empty() {
        out.push_str("LB");
        for (p, t) in texts {
            out.push_str(&format!("[{}:{}]", point(*p), escape(t)));
        }
    }
    if !marks.is_empty() {
        out.push_str("MA");
        for (p, _) in marks {
            out.push_str(&format!("[{}]", point(*p)));
        }
    }
    out
}

/// The root node's properties: the file, the board, the tags, the set-up and its notes.
fn write_root(rec: &SgfRecord, app: &str) -> String {
    let mut out = format!("(;FF[4]GM[4]CA[UTF-8]AP[{}]SZ[{}]", escape(app), rec.size);
    if let Some(rule) = rec.rule {
        out.push_str(&format!("RU[{}]", rule.name()));
    }
    for (id, value) in rec.info.fields() {
        if !value.is_empty() {
            out.push_str(&format!("{id}[{}]", escape(value)));
        }
    }
    if let Some(name) = &rec.opening {
        out.push_str(&format!("ON[{}]", escape(name)));
    }
    for (id, stones) in [("AB", &rec.black), ("AW", &rec.white)] {
        if !stones.is_empty() {
            out.push_str(id);
            for &p in stones {
                out.push_str(&format!("[{}]", point(p)));
            }
        }
    }
    if let Some(c) = rec.to_move {
        out.push_str(if c == Color::Black { "PL[B]" } else { "PL[W]" });
    }
    out.push_str(&annotations(&rec.comment, &rec.labels));
    out
}

/// Writes a record as one SGF game: the root (`FF`, `GM`, `CA`, `AP`, `SZ`, `RU`, the tags,
/// `ON`, the set-up stones and `PL`, its comment and labels), then the moves with theirs, a
/// parenthesis for each line at a fork (the main line first). `app` names the program (`AP`).
#[must_use]
pub fn write(rec: &SgfRecord, app: &str) -> String {
    let mut out = write_root(rec, app);
    enum Step {
        Open,
        Move(usize),
        Close,
    }
    let mut todo: Vec<Step> = Vec::new();
    let push_children = |todo: &mut Vec<Step>, children: &[usize]| {
        if children.len() == 1 {
            todo.push(Step::Move(children[0]));
        } else {
            for &c in children.iter().rev() {
                todo.push(Step::Close);
                todo.push(Step::Move(c));
                todo.push(Step::Open);
            }
        }
    };
    push_children(&mut todo, &rec.first);
    let mut line_len = 0;
    while let Some(step) = todo.pop() {
        match step {
            Step::Open => out.push_str("\n("),
            Step::Close => out.push(')'),
            Step::Move(m) => {
                let mv = &rec.moves[m];
                let c = if mv.color == Color::Black { 'B' } else { 'W' };
                // a line break now and then, so that long games stay readable
                if line_len >= 16 {
                    out.push('\n');
                    line_len = 0;
                }
                out.push_str(&format!(";{c}[{}]", point(mv.pos)));
                let notes = annotations(&mv.comment, &mv.labels);
                if !notes.is_empty() {
                    out.push_str(&notes);
                    line_len = 16;
                }
                line_len += 1;
                push_children(&mut todo, &mv.children);
            }
        }
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Pos {
        gomoku_engine::notation::parse_pos(s, 15).expect("a point")
    }

    #[test]
    fn a_main_line_with_two_variations_reads_and_writes_back() {
        let text = "(;FF[4]GM[4]SZ[15]RU[renju];B[hh];W[ii](;B[jj];W[gg])(;B[gi]))";
        let rec = read(text).expect("reads");
        assert_eq!((rec.size, rec.rule), (15, Some(Rule::Renju)));
        assert_eq!(rec.first.len(), 1);
        let m0 = &rec.moves[rec.first[0]];
        assert_eq!((m0.color, m0.pos), (Color::Black, p("h8")));
        let m1 = &rec.moves[m0.children[0]];
        assert_eq!((m1.color, m1.pos), (Color::White, p("i7")));
        let forks: Vec<Pos> = m1.children.iter().map(|&c| rec.moves[c].pos).collect();
        assert_eq!(forks, [p("j6"), p("g7")]);
        let again = read(&write(&rec, "test")).expect("reads back");
        assert_eq!(again, rec);
    }

    #[test]
    fn the_opening_name_is_written_and_read_back() {
        let text = "(;FF[4]GM[4]SZ[15]RU[renju]ON[Kagetsu 花月 (4D)];B[hh];W[hg];B[ig])";
        let rec = read(text).expect("reads");
        assert_eq!(rec.opening.as_deref(), Some("Kagetsu 花月 (4D)"));
        let out = write(&rec, "test");
        assert!(
            out.contains("RU[renju]ON[Kagetsu 花月 (4D)];B[hh]"),
            "{out}"
        );
        assert_eq!(read(&out).expect("reads back"), rec);
        // a name with the characters SGF escapes
        let odd = SgfRecord {
            opening: Some("a]b\\c".to_string()),
            ..rec
        };
        assert_eq!(read(&write(&odd, "test")).expect("reads back"), odd);
    }

    #[test]
    fn set_up_stones_passes_and_comments() {
        let text =
            "(;GM[4]SZ[9]AB[ee][dd:de]AW[ff]PL[W]C[a \\] bracket];W[];B[aa];C[no move];W[tt])";
        let rec = read(text).expect("reads");
        assert_eq!(rec.size, 9);
        assert_eq!(rec.black.len(), 3);
        assert_eq!(rec.to_move, Some(Color::White));
        let line: Vec<Pos> = {
            let mut out = Vec::new();
            let mut next = rec.first.first().copied();
            while let Some(m) = next {
                out.push(rec.moves[m].pos);
                next = rec.moves[m].children.first().copied();
            }
            out
        };
        assert_eq!(line, [Pos::PASS, Pos::new(0, 0), Pos::PASS]);
        assert_eq!(read(&write(&rec, "test")).expect("reads back"), rec);
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        let cases = [
            ("", "empty"),
            ("hello", "starts with '(;'"),
            ("(;GM[4];B[hh]", "')' is missing"),
            ("(;GM[1]SZ[19])", "GM[1]"),
            ("(;SZ[15:13])", "square"),
            ("(;SZ[40])", "SZ[40]"),
            ("(;RU[chess])", "RU[chess]"),
            ("(;;B[zz])", "B[zz]"),
            ("(;;B[hh]W[ii])", "both"),
            ("(;;B[hh];AB[aa])", "set-up stones after the start"),
            ("(;B[hh)", "no ']'"),
            ("(;GM[4]) x", "after the end"),
            ("(;GM[4])(;GM[1])", "game 2: GM[1]"),
            ("(;GM[4]()", "expected ';'"),
            ("(;GM[4];B[aa]B[bb])", "twice"),
        ];
        for (text, want) in cases {
            let err = read_all(text).expect_err(text);
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    #[test]
    fn tags_comments_labels_and_collections_read_and_write_back() {
        let text = "(;GM[4]SZ[15]PB[Ann]PW[Bo \\] b]RE[B+R]DT[2024-05-01]EV[Cup]RO[3]PC[Tallinn]\
                    GN[final]C[the start]LB[hh:A]\n;B[hh]C[centre];C[a node of its own]\
                    LB[ii:x]MA[jj];W[ii])\n(;GM[4]SZ[9];B[ee])";
        let all = read_all(text).expect("reads");
        assert_eq!(all.len(), 2);
        let rec = &all[0];
        assert_eq!(rec.info.black, "Ann");
        assert_eq!(rec.info.white, "Bo ] b");
        assert_eq!(
            (
                rec.info.result.as_str(),
                rec.info.date.as_str(),
                rec.info.place.as_str()
            ),
            ("B+R", "2024-05-01", "Tallinn")
        );
        assert_eq!(
            (rec.info.event.as_str(), rec.info.round.as_str()),
            ("Cup", "3")
        );
        assert_eq!(rec.info.name, "final");
        assert_eq!(rec.comment, "the start");
        assert_eq!(rec.labels, [(p("h8"), "A".to_string())]);
        let first = &rec.moves[rec.first[0]];
        assert_eq!(first.comment, "centre\na node of its own");
        assert_eq!(
            first.labels,
            [(p("i7"), "x".to_string()), (p("j6"), String::new())]
        );
        assert_eq!(all[1].size, 9);
        // the first game is the record when one is read
        assert_eq!(read(text).expect("reads"), *rec);
        let again = read(&write(rec, "test")).expect("reads back");
        assert_eq!(again, *rec);
    }

    #[test]
    fn deep_lines_and_many_forks_need_no_recursion() {
        let mut text = String::from("(;GM[4]SZ[15]");
        for _ in 0..5000 {
            text.push_str("(;B[aa]");
        }
        text.push_str(&")".repeat(5001));
        let rec = read(&text).expect("reads");
        assert_eq!(rec.moves.len(), 5000);
        let too_many = format!("(;GM[4]{})", ";C[x]".repeat(MAX_NODES));
        assert!(read(&too_many).unwrap_err().contains("nodes"));
    }
}
