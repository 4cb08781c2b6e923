//! The records of a match that `../shared/anchors/match.sh` writes: c-gomoku-cli's `games.sgf`
//! and `msg.txt`, read for `gomoku clock-report` and `gomoku opening-report`.
//!
//! `games.sgf` holds one game a record, as c-gomoku-cli writes it: the root node names the
//! engines (`PB`, `PW`), the game (`GN`), the result (`RE`) and how it ended (`TE`); every move
//! is a node whose comment is `opening move` for the opening's stones and the time the engine
//! took as the referee measured it (`C[1021ms]`) for every other. A move that timed out is not
//! in the record (the game ends before it). `msg.txt` holds, per game, a `Game ID: N` line, an
//! `Engines: BLACK x WHITE` line and both engines' `MESSAGE` lines as `STONE) NAME: TEXT`,
//! where STONE is the number of the stone being thought about; the depth each engine reported
//! last for a move is read from them (`depth 16-25` ours, `Depth 11-16` Rapfi's).

use std::collections::BTreeMap;

/// One move of a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The stone's number in the game (1 for the first stone).
    pub stone: usize,
    /// Whether Black played it.
    pub black: bool,
    /// The point as SGF letters, column then row (`a` for the first): `(0, 0)` is `aa`.
    pub point: (u8, u8),
    /// The time the engine took, as the referee measured it (`None` for an opening stone).
    pub time_ms: Option<u64>,
}

/// One game of `games.sgf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `GN`: the game's number (the `Game ID` of `msg.txt`).
    pub number: usize,
    /// `PB`: the engine playing Black.
    pub black: String,
    /// `PW`: the engine playing White.
    pub white: String,
    /// `RE` (`B+1`, `W+1`, `0`).
    pub result: String,
    /// `TE`: how the game ended, in the referee's words.
    pub ending: String,
    /// Every stone, in order.
    pub moves: Vec<Move>,
}

/// What `msg.txt` says about one game: the last depth each engine reported for each stone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Messages {
    /// The `Engines: BLACK x WHITE` line.
    pub engines: Option<(String, String)>,
    /// (engine, stone) → the last depth reported.
    pub depths: BTreeMap<(String, usize), i32>,
}

/// A node's properties, `(ID, value)` in order.
type Props = Vec<(String, String)>;

/// An SGF reader for c-gomoku-cli's records: a sequence of games, each one variation of nodes,
/// each node properties `ID[value]...`.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.bump();
        }
    }

    /// A property value after its `[`, up to the `]` that closes it (`\` escapes a character).
    fn value(&mut self) -> Result<String, String> {
        let start = self.line;
        let mut out = Vec::new();
        loop {
            match self.bump() {
                None => return Err(format!("line {start}: a value that never ends (no ']')")),
                Some(b']') => return Ok(String::from_utf8_lossy(&out).into_owned()),
                Some(b'\\') => out.extend(self.bump()),
                Some(c) => out.push(c),
            }
        }
    }

    /// The properties of a node, after its `;`.
    fn node(&mut self) -> Result<Props, String> {
        let mut props = Vec::new();
        loop {
            self.skip_space();
            let start = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                self.bump();
            }
            if self.at == start {
                return Ok(props);
            }
            let id = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
            self.skip_space();
            if self.peek() != Some(b'[') {
                return Err(format!("line {}: property {id} has no value", self.line));
            }
            while self.peek() == Some(b'[') {
                self.bump();
                props.push((id.clone(), self.value()?));
                self.skip_space();
            }
        }
    }

    /// The nodes of the game after its `(`, up to its `)`.
    fn game(&mut self) -> Result<Vec<(usize, Props)>, String> {
        let start = self.line;
        let mut nodes = Vec::new();
        loop {
            self.skip_space();
            let line = self.line;
            match self.bump() {
                Some(b';') => nodes.push((line, self.node()?)),
                Some(b')') => return Ok(nodes),
                Some(b'(') => return Err(format!("line {line}: a variation (not expected)")),
                Some(c) => {
                    return Err(format!(
                        "line {line}: '{}' where a node was expected",
                        c as char
                    ))
                }
                None => {
                    return Err(format!(
                        "the game starting on line {start} has no closing ')'"
                    ))
                }
            }
        }
    }
}

/// The games of a `games.sgf` text.
///
/// # Errors
/// Text that is not such a record, with its line: no `(`, a value or a game that never ends,
/// a game without `GN`, `PB` or `PW`, a node without a move, a point that is not two letters,
/// a comment that is neither `opening move` nor a time like `1021ms`, an opening stone after a
/// played one.
pub fn parse_games(text: &str) -> Result<Vec<Game>, String> {
    let mut cur = Cursor {
        text: text.as_bytes(),
        at: 0,
        line: 1,
    };
    let mut games = Vec::new();
    loop {
        cur.skip_space();
        let line = cur.line;
        match cur.bump() {
            None => return Ok(games),
            Some(b'(') => games.push(game_of(line, &cur.game()?)?),
            Some(c) => {
                return Err(format!(
                    "line {line}: '{}' where a game's '(' was expected",
                    c as char
                ))
            }
        }
    }
}

fn game_of(line: usize, nodes: &[(usize, Props)]) -> Result<Game, String> {
    let Some(((_, root), rest)) = nodes.split_first() else {
        return Err(format!("line {line}: a game with no node"));
    };
    let prop = |id: &str| root.iter().find(|(k, _)| k == id).map(|(_, v)| v.clone());
    let need = |id: &str| prop(id).ok_or_else(|| format!("line {line}: the game has no {id}"));
    let number = need("GN")?
        .trim()
        .parse()
        .map_err(|_| format!("line {line}: GN is not a game number"))?;
    let mut moves = Vec::new();
    for (line, props) in rest {
        let (color, point) = props
            .iter()
            .find(|(k, _)| k == "B" || k == "W")
            .ok_or_else(|| format!("line {line}: a node without a move"))?;
        if point.len() != 2 || !point.bytes().all(|c| c.is_ascii_lowercase()) {
            return Err(format!("line {line}: {color}[{point}] is not a point"));
        }
        let comment = props.iter().find(|(k, _)| k == "C").map(|(_, v)| v.trim());
        let time_ms = match comment {
            Some("opening move") => None,
            Some(c) => Some(
                c.strip_suffix("ms")
                    .and_then(|n| n.parse::<u64>().ok())
                    .ok_or_else(|| {
                        format!("line {line}: comment '{c}' is neither 'opening move' nor a time like '1021ms'")
                    })?,
            ),
            None => return Err(format!("line {line}: {color}[{point}] has no time comment")),
        };
        if time_ms.is_none() && moves.iter().any(|m: &Move| m.time_ms.is_some()) {
            return Err(format!("line {line}: an opening stone after a played move"));
        }
        let p = point.as_bytes();
        moves.push(Move {
            stone: moves.len() + 1,
            black: color == "B",
            point: (p[0] - b'a', p[1] - b'a'),
            time_ms,
        });
    }
    Ok(Game {
        number,
        black: need("PB")?,
        white: need("PW")?,
        result: prop("RE").unwrap_or_else(|| "?".into()),
        ending: prop("TE").unwrap_or_else(|| "?".into()),
        moves,
    })
}

/// The last depth in a message (`depth 16-25 ...`, `... | Depth 11-16 | ...`), if any.
fn depth_in(text: &str) -> Option<i32> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '|')
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .rev()
        .filter(|w| w[0].eq_ignore_ascii_case("depth"))
        .find_map(|w| {
            let digits: String = w[1].chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
}

/// The games of a `msg.txt` text, by `Game ID`.
///
/// # Errors
/// A line that is none of a separator (`----`), `Game ID: N`, `Engines: A x B` or
/// `STONE) NAME: TEXT`, or a message before the first `Game ID`, with its line.
pub fn parse_messages(text: &str) -> Result<BTreeMap<usize, Messages>, String> {
    let mut games: BTreeMap<usize, Messages> = BTreeMap::new();
    let mut current: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.chars().all(|c| c == '-') {
            continue;
        }
        if let Some(id) = line.strip_prefix("Game ID: ") {
            let id = id
                .trim()
                .parse()
                .map_err(|_| format!("line {n}: '{line}' has no game number"))?;
            games.entry(id).or_default();
            current = Some(id);
            continue;
        }
        let game = current
            .and_then(|id| games.get_mut(&id))
            .ok_or_else(|| format!("line {n}: '{line}' comes before any 'Game ID:' line"))?;
        if let Some(names) = line.strip_prefix("Engines: ") {
            let (b, w) = names
                .split_once(" x ")
                .ok_or_else(|| format!("line {n}: '{line}' does not name two engines"))?;
            game.engines = Some((b.to_string(), w.to_string()));
            continue;
        }
        let message = line.split_once(") ").and_then(|(stone, rest)| {
            let stone: usize = stone.parse().ok()?;
            let (name, text) = rest
                .split_once(": ")
                .or_else(|| rest.strip_suffix(':').map(|name| (name, "")))?;
            Some((stone, name, text))
        });
        let Some((stone, name, text)) = message else {
            return Err(format!(
                "line {n}: '{line}' is not a 'STONE) NAME: MESSAGE' line"
            ));
        };
        if let Some(d) = depth_in(text) {
            game.depths.insert((name.to_string(), stone), d);
        }
    }
    Ok(games)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::Path;

    /// A file of the fixture match folders (`tests/data/clock-report/PATH`).
    pub(crate) fn fixture(path: &str) -> String {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/clock-report")
            .join(path);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// (file, games, played moves, first played move's time) or the error's words.
    #[test]
    fn games_sgf_fixtures() {
        #[allow(clippy::type_complexity)]
        let rows: &[(&str, Result<(usize, usize, Option<u64>), &str>)] = &[
            ("renju-15-120-5000/games.sgf", Ok((3, 19, Some(1_021)))),
            ("missing-msg/games.sgf", Ok((1, 2, Some(1_021)))),
            (
                "bad-time/games.sgf",
                Err("line 3: comment 'fast' is neither"),
            ),
            (
                "unclosed/games.sgf",
                Err("the game starting on line 1 has no closing ')'"),
            ),
        ];
        for (file, want) in rows {
            let got = parse_games(&fixture(file)).map(|games| {
                let played: Vec<&Move> = games
                    .iter()
                    .flat_map(|g| &g.moves)
                    .filter(|m| m.time_ms.is_some())
                    .collect();
                (
                    games.len(),
                    played.len(),
                    played.first().and_then(|m| m.time_ms),
                )
            });
            match (want, got) {
                (Ok(w), Ok(g)) => assert_eq!(*w, g, "{file}"),
                (Err(w), Err(g)) => assert!(g.contains(w), "{file}: {g}"),
                (w, g) => panic!("{file}: wanted {w:?}, got {g:?}"),
            }
        }
    }

    #[test]
    fn a_game_record_read_in_full() {
        let games = parse_games(&fixture("renju-15-120-5000/games.sgf")).unwrap();
        let g = &games[1];
        assert_eq!(
            (g.number, g.black.as_str(), g.white.as_str()),
            (2, "anchor", "ours")
        );
        assert_eq!(
            (g.result.as_str(), g.ending.as_str()),
            ("W+1", "White win by five connection")
        );
        assert_eq!(g.moves.len(), 12);
        assert_eq!(
            g.moves[3],
            Move {
                stone: 4,
                black: false,
                point: (8, 8),
                time_ms: Some(2_950)
            }
        );
        assert!(g.moves[..3].iter().all(|m| m.time_ms.is_none()));
        // a start-up forfeit: the opening and nothing else
        assert_eq!(games[2].moves.len(), 3);
        assert_eq!(games[2].ending, "Black win by time forfeit");
    }

    /// SGF texts that are not c-gomoku-cli records, and the error's words.
    #[test]
    fn malformed_records() {
        let head = "(;GN[1]PB[a]PW[b]";
        for (text, want) in [
            ("x", "line 1: 'x' where a game's '(' was expected"),
            (
                "(;GN[1]PB[a]\n;B[hh]C[opening move])",
                "line 1: the game has no PW",
            ),
            ("(;GN[x]PB[a]PW[b])", "GN is not a game number"),
            (
                &format!("{head}\n;C[12ms])"),
                "line 2: a node without a move",
            ),
            (&format!("{head};B[h]C[12ms])"), "B[h] is not a point"),
            (&format!("{head};B[hh])"), "B[hh] has no time comment"),
            (
                &format!("{head};B[hh]C[12ms];W[ii]C[opening move])"),
                "an opening stone after",
            ),
            (&format!("{head};B[hh]C[12ms)"), "no ']'"),
            (&format!("{head};B[hh]C[12ms](;W[ii]))"), "a variation"),
            (&format!("{head};B[hh]C[12ms]"), "no closing ')'"),
            ("(;GN[1]PB[a]PW[b]X)", "property X has no value"),
        ] {
            let e = parse_games(text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
        // escapes and empty input
        let g = parse_games("(;GN[7]PB[a\\]b]PW[c];B[hh]C[5ms])").unwrap();
        assert_eq!((g[0].number, g[0].black.as_str()), (7, "a]b"));
        assert_eq!(parse_games("\n\n").unwrap(), Vec::new());
    }

    #[test]
    fn msg_txt_fixtures() {
        // (file, games, (game, engine, stone, depth) expected) or the error's words
        #[allow(clippy::type_complexity)]
        let rows: &[(&str, Result<(usize, &[(usize, &str, usize, i32)]), &str>)] = &[
            (
                "renju-15-120-5000/msg.txt",
                Ok((
                    3,
                    &[
                        (1, "anchor", 4, 11),
                        (1, "ours", 5, 16),
                        (1, "ours", 13, 3),
                        (2, "anchor", 11, 8),
                        (2, "ours", 10, 18),
                    ],
                )),
            ),
            ("bad-time/msg.txt", Ok((1, &[]))),
            (
                "bad-msg/msg.txt",
                Err("line 5: 'the engine crashed here' is not a"),
            ),
        ];
        for (file, want) in rows {
            match (want, parse_messages(&fixture(file))) {
                (Ok((n, depths)), Ok(got)) => {
                    assert_eq!(got.len(), *n, "{file}");
                    for &(game, name, stone, depth) in *depths {
                        assert_eq!(
                            got[&game].depths.get(&(name.to_string(), stone)),
                            Some(&depth),
                            "{file}: game {game} {name} #{stone}"
                        );
                    }
                }
                (Err(w), Err(g)) => assert!(g.contains(w), "{file}: {g}"),
                (w, g) => panic!("{file}: wanted {w:?}, got {g:?}"),
            }
        }
        let m = parse_messages(&fixture("renju-15-120-5000/msg.txt")).unwrap();
        assert_eq!(m[&2].engines, Some(("anchor".into(), "ours".into())));
        // a message with no depth (an empty one, Rapfi's time plan) counts for nothing
        assert!(!m[&2].depths.contains_key(&("ours".to_string(), 12)));
        assert_eq!(
            parse_messages("4) a: depth 3").unwrap_err(),
            "line 1: '4) a: depth 3' comes before any 'Game ID:' line"
        );
    }

    #[test]
    fn depths_in_both_engines_words() {
        for (text, want) in [
            ("depth 16-25 eval +41 nodes 5 pv 7,8", Some(16)),
            (
                "Speed 1.20M | Depth 11-16 | Eval 20 | Time 1001ms",
                Some(11),
            ),
            ("OptiTime 3.12s | MaxTime 5.00s", None),
            ("depth x depth 9", Some(9)),
            ("", None),
        ] {
            assert_eq!(depth_in(text), want, "{text}");
        }
    }
}
