//! A game: a board plus the game-level rules (results, renju fouls, no moves after the end).

use crate::board::{Board, ForbiddenKind, MoveError};
use crate::notation::{format_pos, parse_moves, tokenize, Diagram, NotationError};
use crate::types::{Color, Pos, Rule};
use std::fmt;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// The winning five (or longer line); empty when Black lost by a forbidden move.
        line: Vec<Pos>,
        /// Set when White won because Black played a forbidden point.
        foul: Option<ForbiddenKind>,
    },
    /// The board filled up with no winner.
    Draw,
}

/// Why a move could not be played in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The text of a move could not be read.
    Notation(NotationError),
    /// The point is off the board.
    OffBoard {
        /// The point as written.
        token: String,
    },
    /// The point already holds a stone.
    Occupied {
        /// The point as written.
        token: String,
        /// 1-based number of the move in the input (0 when not from a list).
        move_number: usize,
    },
    /// The game has already ended.
    GameOver {
        /// The move that came too late, as written.
        token: String,
        /// 1-based number of the move in the input (0 when not from a list).
        move_number: usize,
    },
    /// The game already holds as many passes as [`max_passes`] allows.
    TooManyPasses {
        /// 1-based number of the pass in the input (0 when not from a list).
        move_number: usize,
        /// The limit on this board.
        limit: usize,
    },
    /// A set-up position already holds a winning line.
    SetUpFive {
        /// The winning line's points, in order.
        line: Vec<String>,
    },
    /// A set-up position leaves no empty point.
    SetUpFull,
}

/// The most passes a game may hold: one per point of the board. A pass only hands the move to
/// the other side, so no game needs more; without a limit a position of a million passes
/// would make every copy of the game, every view of it and every search slow.
#[must_use]
pub const fn max_passes(size: usize) -> usize {
    size * size
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Notation(e) => e.fmt(f),
            GameError::OffBoard { token } => write!(f, "'{token}': off the board"),
            GameError::Occupied {
                token,
                move_number: 0,
            } => {
                write!(f, "'{token}': the point is already occupied")
            }
            GameError::Occupied { token, move_number } => {
                write!(
                    f,
                    "move {move_number} '{token}': the point is already occupied"
                )
            }
            GameError::GameOver {
                token,
                move_number: 0,
            } => {
                write!(f, "'{token}': the game is already over")
            }
            GameError::GameOver { token, move_number } => {
                write!(f, "move {move_number} '{token}': the game is already over")
            }
            GameError::TooManyPasses {
                move_number: 0,
                limit,
            } => {
                write!(f, "'--': a game holds at most {limit} passes on this board")
            }
            GameError::TooManyPasses { move_number, limit } => {
                write!(
                    f,
                    "move {move_number} '--': a game holds at most {limit} passes on this board"
                )
            }
            GameError::SetUpFive { line } => write!(
                f,
                "the position already holds a winning line ({}): there is no game left to play",
                line.join(" ")
            ),
            GameError::SetUpFull => {
                write!(
                    f,
                    "the position fills the board: there is no move left to play"
                )
            }
        }
    }
}

impl std::error::Error for GameError {}

impl From<NotationError> for GameError {
    fn from(e: NotationError) -> Self {
        GameError::Notation(e)
    }
}

/// A game in progress: a board, its result once decided, and undone moves for redo.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    results: Vec<Option<GameResult>>,
    redo: Vec<Pos>,
    /// Plies of a set-up start position ([`Game::from_stones`]): they are not moves of the
    /// game and cannot be undone.
    start: usize,
}

impl Game {
    /// A new game on an empty board.
    ///
    /// # Errors
    /// When the size is out of range.
    pub fn new(size: usize, rule: Rule) -> Result<Game, NotationError> {
        Ok(Game {
            board: Board::new(size, rule)?,
            results: vec![None],
            redo: Vec::new(),
            start: 0,
        })
    }

    /// A game after the moves of a position string (see [`crate::notation`]).
    ///
    /// # Errors
    /// The first token that is malformed, off the board, on an occupied point, after the end
    /// of the game, or a pass beyond [`max_passes`]; the message names the token and the move
    /// number.
    pub fn from_position(size: usize, rule: Rule, text: &str) -> Result<Game, GameError> {
        let mut g = Game::new(size, rule)?;
        let tokens = tokenize(text)?;
        let moves = parse_moves(text, size)?;
        for (n, (p, tok)) in moves.into_iter().zip(tokens).enumerate() {
            g.play_numbered(p, &tok, n + 1)?;
        }
        Ok(g)
    }

    /// A game after `moves` (passes as [`Pos::PASS`]), played by the rules as
    /// [`Game::from_position`] plays a position string's.
    ///
    /// # Errors
    /// As [`Game::from_position`].
    pub fn from_moves(size: usize, rule: Rule, moves: &[Pos]) -> Result<Game, GameError> {
        let mut g = Game::new(size, rule)?;
        for (n, &p) in moves.iter().enumerate() {
            g.play_numbered(p, &format_pos(p, size), n + 1)?;
        }
        Ok(g)
    }

    /// A diagram set up from moves: the stones are placed in order (passes switch the side to
    /// move) with no game-level rules, so fives, fouls and later moves are all accepted; the
    /// result of the set-up position is left open. This is how the shared datasets are read.
    ///
    /// # Errors
    /// Off-board or occupied points, and more passes than [`max_passes`].
    pub fn setup(size: usize, rule: Rule, moves: &[Pos]) -> Result<Game, GameError> {
        let mut g = Game::new(size, rule)?;
        for (n, &p) in moves.iter().enumerate() {
            let token = format_pos(p, size);
            if p.is_pass() {
                g.check_pass_limit(n + 1)?;
                g.board.pass();
            } else {
                g.board.try_play(p).map_err(|e| match e {
                    MoveError::OffBoard(_) => GameError::OffBoard { token },
                    MoveError::Occupied(_) => GameError::Occupied {
                        token,
                        move_number: n + 1,
                    },
                })?;
            }
            g.results.push(None);
        }
        Ok(g)
    }

    /// A game from a set-up position: the stones of each colour, placed without game rules,
    /// and the side to move. The stones are laid down alternately from Black, with passes
    /// where one colour has run out (and one more when needed for `to_move`); those plies are
    /// the game's start ([`Game::start_ply`]): [`Game::undo`] stops there.
    ///
    /// # Errors
    /// Off-board points, a point given twice (or in both colours), a winning line already on
    /// the board (the game would be over before it starts), a full board.
    pub fn from_stones(
        size: usize,
        rule: Rule,
        black: &[Pos],
        white: &[Pos],
        to_move: Color,
    ) -> Result<Game, GameError> {
        let mut seen = std::collections::HashSet::new();
        for &p in black.iter().chain(white) {
            let token = format_pos(p, size);
            if !p.is_point() {
                return Err(GameError::OffBoard { token });
            }
            if !seen.insert(p) {
                return Err(GameError::Occupied {
                    token,
                    move_number: 0,
                });
            }
        }
        let mut moves = Vec::with_capacity(2 * black.len().max(white.len()) + 1);
        let (mut b, mut w) = (black.iter(), white.iter());
        let mut side = Color::Black;
        loop {
            let next = match side {
                Color::Black => b.next(),
                Color::White => w.next(),
            };
            match next {
                Some(&p) => moves.push(p),
                None if b.len() + w.len() == 0 => break,
                None => moves.push(Pos::PASS),
            }
            side = side.opponent();
        }
        if side != to_move {
            moves.push(Pos::PASS);
        }
        let mut g = Game::setup(size, rule, &moves)?;
        for &p in black.iter().chain(white) {
            if let Some(line) = g.board.winning_line(p) {
                return Err(GameError::SetUpFive {
                    line: line.iter().map(|&q| format_pos(q, size)).collect(),
                });
            }
        }
        if g.board.is_full() {
            return Err(GameError::SetUpFull);
        }
        g.start = g.board.ply();
        Ok(g)
    }

    /// A game from a board diagram ([`crate::notation::parse_diagram`]): its stones are a
    /// set-up position ([`Game::from_stones`]) with the side to move the diagram names, or
    /// the usual one for its stone counts.
    ///
    /// # Errors
    /// As [`Game::from_stones`].
    pub fn from_diagram(rule: Rule, d: &Diagram) -> Result<Game, GameError> {
        Game::from_stones(d.size, rule, &d.black, &d.white, d.side_to_move())
    }

    /// The plies of the set-up start position (0 for a game from the empty board or from
    /// moves): they cannot be undone.
    #[must_use]
    pub fn start_ply(&self) -> usize {
        self.start
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board, mutable (for forbidden-point queries; do not play moves through it).
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        self.results.last().and_then(Option::as_ref)
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// Plays `p` (a pass when [`Pos::PASS`]) for the side to move and returns the result if the
    /// game ended. Under renju a forbidden point played by Black loses the game for Black.
    ///
    /// # Errors
    /// Off-board or occupied points and moves after the end; the game is unchanged then.
    pub fn play(&mut self, p: Pos) -> Result<Option<&GameResult>, GameError> {
        let tok = format_pos(p, self.board.size());
        self.play_numbered(p, &tok, 0)?;
        self.redo.clear();
        Ok(self.result())
    }

    fn play_numbered(&mut self, p: Pos, token: &str, n: usize) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver {
                token: token.to_string(),
                move_number: n,
            });
        }
        if p.is_pass() {
            self.check_pass_limit(n)?;
            self.board.pass();
            self.results.push(None);
            return Ok(());
        }
        let color = self.board.to_move();
        let foul = if color == Color::Black {
            self.board.forbidden_kind(p)
        } else {
            None
        };
        match self.board.try_play(p) {
            Ok(()) => {}
            Err(MoveError::OffBoard(_)) => {
                return Err(GameError::OffBoard {
                    token: token.to_string(),
                })
            }
            Err(MoveError::Occupied(_)) => {
                return Err(GameError::Occupied {
                    token: token.to_string(),
                    move_number: n,
                })
            }
        }
        let result = if let Some(kind) = foul {
            Some(GameResult::Win {
                winner: Color::White,
                line: Vec::new(),
                foul: Some(kind),
            })
        } else if let Some(line) = self.board.winning_line(p) {
            Some(GameResult::Win {
                winner: color,
                line,
                foul: None,
            })
        } else if self.board.is_full() {
            Some(GameResult::Draw)
        } else {
            None
        };
        self.results.push(result);
        Ok(())
    }

    /// An error when one more pass would exceed [`max_passes`].
    fn check_pass_limit(&self, move_number: usize) -> Result<(), GameError> {
        let limit = max_passes(self.board.size());
        let passes = self.board.moves().iter().filter(|p| p.is_pass()).count();
        if passes >= limit {
            return Err(GameError::TooManyPasses { move_number, limit });
        }
        Ok(())
    }

    /// Takes back the last move (keeping it for [`Game::redo`]); `None` at the start (an empty
    /// board, or a set-up position).
    pub fn undo(&mut self) -> Option<Pos> {
        if self.board.ply() <= self.start {
            return None;
        }
        let p = self.board.undo()?;
        self.results.pop();
        self.redo.push(p);
        Some(p)
    }

    /// Replays the last undone move.
    pub fn redo(&mut self) -> Option<Pos> {
        let p = self.redo.pop()?;
        let tok = format_pos(p, self.board.size());
        // the move was legal before it was undone, so it is legal again
        self.play_numbered(p, &tok, 0).ok()?;
        Some(p)
    }

    /// Moves that [`Game::redo`] would replay, next first.
    #[must_use]
    pub fn redo_stack(&self) -> Vec<Pos> {
        self.redo.iter().rev().copied().collect()
    }
}

/// The board after a position string played as a game; for unit tests, which pass only
/// positions they know to be valid.
#[cfg(test)]
pub(crate) fn test_board(size: usize, rule: Rule, moves: &str) -> Board {
    Game::from_position(size, rule, moves)
        .expect("valid position")
        .board()
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Cell;

    #[test]
    fn five_wins_and_ends_the_game() {
        let mut g = Game::from_position(15, Rule::Freestyle, "h8 a1 i8 a2 j8 a3 k8 a4").unwrap();
        assert!(!g.is_over());
        let r = g
            .play(crate::notation::parse_pos("l8", 15).unwrap())
            .unwrap()
            .cloned();
        match r {
            Some(GameResult::Win {
                winner: Color::Black,
                line,
                foul: None,
            }) => assert_eq!(line.len(), 5),
            other => panic!("{other:?}"),
        }
        let e = g
            .play(crate::notation::parse_pos("b2", 15).unwrap())
            .unwrap_err();
        assert!(e.to_string().contains("already over"));
        g.undo();
        assert!(!g.is_over());
        assert!(g.redo().is_some());
        assert!(g.is_over());
    }

    #[test]
    fn passes_are_limited_to_one_per_point() {
        // 5x5: at most 25 passes, by any way into a game
        let ok = vec!["--"; 25].join(" ");
        let mut g = Game::from_position(5, Rule::Freestyle, &ok).unwrap();
        assert_eq!(g.board().ply(), 25);
        let e = g.play(Pos::PASS).unwrap_err();
        assert_eq!(
            e,
            GameError::TooManyPasses {
                move_number: 0,
                limit: 25
            }
        );
        assert_eq!(g.board().ply(), 25, "a refused pass changes nothing");
        // a stone is still welcome, and undo/redo of a pass stay within the limit
        g.play(crate::notation::parse_pos("c3", 5).unwrap())
            .unwrap();
        g.undo();
        g.undo();
        assert!(g.redo().is_some());
        assert_eq!(g.board().ply(), 25);

        let e = Game::from_position(5, Rule::Freestyle, &format!("c3 {ok} --")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "move 27 '--': a game holds at most 25 passes on this board"
        );
        let many = vec![Pos::PASS; 26];
        let e = Game::setup(5, Rule::Renju, &many).unwrap_err();
        assert!(
            matches!(
                e,
                GameError::TooManyPasses {
                    move_number: 26,
                    limit: 25
                }
            ),
            "{e:?}"
        );
        assert!(Game::setup(5, Rule::Renju, &many[..25]).is_ok());
        assert_eq!(max_passes(15), 225);
    }

    #[test]
    fn errors_name_token_and_number() {
        let e = Game::from_position(15, Rule::Renju, "h8 i9 h8").unwrap_err();
        assert_eq!(e.to_string(), "move 3 'h8': the point is already occupied");
        let e = Game::from_position(15, Rule::Renju, "h8 i9 z8").unwrap_err();
        assert!(e.to_string().contains("'z8'"), "{e}");
        let e =
            Game::from_position(15, Rule::Freestyle, "a1 b1 a2 b2 a3 b3 a4 b4 a5 b5").unwrap_err();
        assert_eq!(e.to_string(), "move 10 'b5': the game is already over");
    }

    #[test]
    fn standard_overline_does_not_win() {
        let g =
            Game::from_position(15, Rule::Standard, "a1 b1 a2 b2 a3 b3 a5 b5 a6 b6 a4").unwrap();
        assert!(!g.is_over());
        let g =
            Game::from_position(15, Rule::Freestyle, "a1 b1 a2 b2 a3 b3 a5 b5 a6 b6 a4").unwrap();
        assert!(g.is_over());
    }

    fn pts(text: &str) -> Vec<Pos> {
        parse_moves(text, 15).unwrap()
    }

    #[test]
    fn a_set_up_position_places_the_stones_and_keeps_them() {
        // (black, white, side to move) -> the plies laid down, the passes among them
        let cases = [
            ("h8 i9", "h9", Color::White, 3, 0),
            ("h8 i9", "h9", Color::Black, 4, 1),
            ("h8", "h9", Color::Black, 2, 0),
            ("h8", "h9", Color::White, 3, 1),
            ("h8 i8 j8 k8", "", Color::White, 7, 3),
            ("", "h8 i8", Color::Black, 4, 2),
            ("", "", Color::White, 1, 1),
            ("", "", Color::Black, 0, 0),
        ];
        for (black, white, to_move, plies, passes) in cases {
            let mut g =
                Game::from_stones(15, Rule::Renju, &pts(black), &pts(white), to_move).unwrap();
            let what = format!("{black} / {white} / {to_move:?}");
            assert_eq!(g.board().to_move(), to_move, "{what}");
            assert_eq!(g.start_ply(), plies, "{what}");
            let moves = g.board().moves();
            assert_eq!(
                moves.iter().filter(|p| p.is_pass()).count(),
                passes,
                "{what}"
            );
            for (list, color) in [
                (black, Cell::Stone(Color::Black)),
                (white, Cell::Stone(Color::White)),
            ] {
                for p in pts(list) {
                    assert_eq!(g.board().cell(p), color, "{what}: {}", format_pos(p, 15));
                }
            }
            assert_eq!(g.board().stone_count(), pts(black).len() + pts(white).len());
            assert!(!g.is_over());
            // the start cannot be undone; the moves after it can
            assert_eq!(g.undo(), None, "{what}");
            let free = g.board().points().find(|&p| g.board().is_empty(p)).unwrap();
            g.play(free).unwrap();
            assert_eq!(g.undo(), Some(free));
            assert_eq!(g.undo(), None);
            assert_eq!(g.board().ply(), plies);
        }
    }

    #[test]
    fn a_diagram_is_a_set_up_position_with_its_side_to_move() {
        // (the first two rows of a 5x5 diagram, the line naming the side to move, the side to
        // move): the one named, else the one the stone counts give
        let cases = [
            ("X . . . .\n. O . . .\n", "", Color::Black),
            ("X . . . .\n. . . . .\n", "", Color::White),
            ("X . . . .\n. O . . .\n", "to move: white\n", Color::White),
            (". . . . .\n. O . . .\n", "", Color::Black),
            (". . . . .\n. . . . .\n", "", Color::Black),
            (". O O . .\n. . . . X\n", "to move: black\n", Color::Black),
        ];
        for (rows, named, to_move) in cases {
            let text = format!("{rows}{}{named}", ". . . . .\n".repeat(3));
            let d = crate::notation::parse_diagram(&text).unwrap();
            assert_eq!(d.size, 5, "{text}");
            assert_eq!(d.side_to_move(), to_move, "{text}");
            let g = Game::from_diagram(Rule::Freestyle, &d).unwrap();
            assert_eq!(g.board().to_move(), to_move, "{text}");
            assert_eq!(g.board().stone_count(), d.black.len() + d.white.len());
            assert_eq!(g.board().to_text(&[]).matches('X').count(), d.black.len());
            assert_eq!(g.board().to_text(&[]).matches('O').count(), d.white.len());
        }
        let five = format!("X X X X X\n{}", ". . . . .\n".repeat(4));
        let d = crate::notation::parse_diagram(&five).unwrap();
        assert!(matches!(
            Game::from_diagram(Rule::Standard, &d),
            Err(GameError::SetUpFive { .. })
        ));
    }

    #[test]
    fn a_set_up_position_may_hold_what_a_game_could_not() {
        // under renju Black's double three is forbidden as a move, but a diagram may show it
        let g = Game::from_stones(
            15,
            Rule::Renju,
            &pts("h8 i8 h9 j10"),
            &pts("a1 a2"),
            Color::White,
        )
        .unwrap();
        assert!(!g.is_over());
        assert_eq!(g.start_ply(), 7);
    }

    #[test]
    fn bad_set_up_positions_are_refused() {
        let err = |b: &str, w: &str| {
            Game::from_stones(15, Rule::Freestyle, &pts(b), &pts(w), Color::Black)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err("h8 h8", ""), "'h8': the point is already occupied");
        assert_eq!(err("h8", "i9 h8"), "'h8': the point is already occupied");
        let five = err("a1 a2 a3 a4 a5", "c1");
        assert!(
            five.starts_with("the position already holds a winning line (a")
                && ["a1", "a2", "a3", "a4", "a5"]
                    .iter()
                    .all(|p| five.contains(p)),
            "{five}"
        );
        assert!(err("", "b1 c2 d3 e4 f5 g6").contains("winning line"));
        assert!(err("--", "").contains("'--'"));
        // exactly five wins under standard; six does not
        let six = pts("a1 a2 a3 a4 a5 a6");
        assert!(Game::from_stones(15, Rule::Standard, &six, &[], Color::White).is_ok());
        // a full board
        let all: Vec<Pos> = Board::new(5, Rule::Freestyle).unwrap().points().collect();
        let (mut b, mut w) = (Vec::new(), Vec::new());
        for p in all {
            let (x, y) = (p.x(), p.y());
            // columns in pairs of colours, shifted every row: no five anywhere
            if ((x + 2 * y) / 2) % 2 == 0 {
                b.push(p);
            } else {
                w.push(p);
            }
        }
        let e = Game::from_stones(5, Rule::Freestyle, &b, &w, Color::Black).unwrap_err();
        assert_eq!(e, GameError::SetUpFull, "{e}");
    }
}
