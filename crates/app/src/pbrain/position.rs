//! The game as the brain sees it: the stones in the order they came, the points of a
//! continuous game's dead stones, and a board kept in step.
//!
//! Stones from the manager (`BOARD`, `TURN`) are taken as given: no renju foul check, since
//! the manager judges the opponent. Only our own answers are held to the rules.

use super::command::{excerpt, notation_message};
use gomoku_engine::notation::{format_xy, parse_xy};
use gomoku_engine::{Board, Color, Pos, Rule};

/// The meaning of a `BOARD` line's third number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// 1: our stone.
    Own,
    /// 2: the opponent's stone.
    Opponent,
    /// 3: a stone of a continuous game (part of a finished five or a renju foul) that no one
    /// can use any more.
    Dead,
}

/// Parses one `BOARD` line, `x,y,field`.
///
/// # Errors
/// A message naming the line.
pub fn parse_field_line(line: &str, size: usize) -> Result<(Pos, Field), String> {
    // (a reply quotes at most the start of a long line)
    let quoted = || excerpt(line);
    let parts: Vec<&str> = line.split(',').collect();
    let [x, y, field] = parts.as_slice() else {
        return Err(format!("'{}': expected x,y,field", quoted()));
    };
    let field = match field.trim() {
        "1" => Field::Own,
        "2" => Field::Opponent,
        "3" => Field::Dead,
        f => {
            return Err(format!(
                "'{}': field must be 1, 2 or 3, not '{}'",
                quoted(),
                excerpt(f)
            ))
        }
    };
    let p = parse_xy(&format!("{x},{y}"), size)
        .map_err(|e| format!("'{}': {}", quoted(), notation_message(e)))?;
    Ok((p, field))
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    stones: Vec<(Pos, Color)>,
    dead: Vec<Pos>,
}

impl Position {
    /// An empty board.
    ///
    /// # Errors
    /// When the size is out of range.
    pub fn new(size: usize, rule: Rule) -> Result<Position, String> {
        Ok(Position {
            board: Board::new(size, rule).map_err(|e| e.to_string())?,
            stones: Vec::new(),
            dead: Vec::new(),
        })
    }

    /// The position of a `BOARD` command: we are to move, so our colour is the one that moves
    /// next given the counts (Black when both sides have as many stones, White when the
    /// opponent has one more).
    ///
    /// # Errors
    /// A point given twice, or counts that no game reaches with us to move (see
    /// [`check_counts`]).
    pub fn from_fields(
        size: usize,
        rule: Rule,
        fields: &[(Pos, Field)],
    ) -> Result<Position, String> {
        let count = |field: Field| fields.iter().filter(|f| f.1 == field).count();
        let (own, opp) = (count(Field::Own), count(Field::Opponent));
        let us = if opp > own {
            Color::White
        } else {
            Color::Black
        };
        let mut stones = Vec::new();
        let mut dead = Vec::new();
        let mut seen = Vec::new();
        for &(p, f) in fields {
            if seen.contains(&p) {
                return Err(format!("{} is given twice", format_xy(p)));
            }
            seen.push(p);
            match f {
                Field::Own => stones.push((p, us)),
                Field::Opponent => stones.push((p, us.opponent())),
                Field::Dead => dead.push(p),
            }
        }
        check_counts(own, opp, dead.len())?;
        let board = build(size, rule, &stones, us)?;
        Ok(Position {
            board,
            stones,
            dead,
        })
    }

    /// The board (dead points are empty on it; see [`Position::dead`]).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Board size.
    #[must_use]
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    /// Points of dead stones: occupied for the protocol, never to be played.
    #[must_use]
    pub fn dead(&self) -> &[Pos] {
        &self.dead
    }

    /// Number of stones (dead ones included).
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.stones.len() + self.dead.len()
    }

    /// The same stones under another rule.
    ///
    /// # Errors
    /// Never in practice (the stones were valid before).
    pub fn with_rule(&self, rule: Rule) -> Result<Position, String> {
        Ok(Position {
            board: build(self.size(), rule, &self.stones, self.to_move())?,
            stones: self.stones.clone(),
            dead: self.dead.clone(),
        })
    }

    /// Whether `p` is a free point of the board.
    #[must_use]
    pub fn is_free(&self, p: Pos) -> bool {
        self.board.contains(p) && self.board.is_empty(p) && !self.dead.contains(&p)
    }

    /// Plays the side to move's stone on `p` (taken as given: no foul check).
    ///
    /// # Errors
    /// When `p` is not a free point; the position is unchanged then.
    pub fn play(&mut self, p: Pos) -> Result<(), String> {
        if !self.board.contains(p) {
            return Err(format!("{} is off the board", format_xy(p)));
        }
        if !self.is_free(p) {
            return Err(format!("{} is already occupied", format_xy(p)));
        }
        let color = self.board.to_move();
        self.board.try_play(p).map_err(|e| e.to_string())?;
        self.stones.push((p, color));
        Ok(())
    }

    /// Removes the last stone played, which must be on `p`; its owner is to move afterwards.
    /// A dead stone (whose place in the game's order is unknown) can be removed at any time.
    ///
    /// # Errors
    /// When there is no stone on `p`, or it is not the last one played; the position is
    /// unchanged then.
    pub fn take_back(&mut self, p: Pos) -> Result<(), String> {
        if let Some(i) = self.dead.iter().position(|&d| d == p) {
            self.dead.remove(i);
            return Ok(());
        }
        let Some(i) = self.stones.iter().position(|s| s.0 == p) else {
            return Err(format!("there is no stone on {}", format_xy(p)));
        };
        // the board's order is the game's: the manager's own, or BOARD's lines taken in turn
        match self.board.last_move() {
            Some(last) if last != p => {
                return Err(format!(
                    "{} is not the last stone played ({} is)",
                    format_xy(p),
                    format_xy(last)
                ))
            }
            _ => {}
        }
        let mut stones = self.stones.clone();
        let (_, color) = stones.remove(i);
        self.board = build(self.size(), self.board.rule(), &stones, color)?;
        self.stones = stones;
        Ok(())
    }

    /// Why no move can be made here, if so: a five on the board, no free point, or (renju,
    /// Black to move) only forbidden points left.
    pub fn status(&mut self) -> Option<String> {
        if let Some(reason) = self.over() {
            return Some(reason);
        }
        if self.only_forbidden_left() {
            return Some("every free point is forbidden for Black".to_string());
        }
        None
    }

    /// Whether the game has ended: a five on the board, or no free point.
    pub fn over(&mut self) -> Option<String> {
        for &(p, color) in &self.stones {
            if self.board.winning_line(p).is_some() {
                return Some(format!(
                    "the game is over: {color} has five in a row through {}",
                    format_xy(p)
                ));
            }
        }
        let free: Vec<Pos> = self.board.points().filter(|&p| self.is_free(p)).collect();
        if free.is_empty() {
            return Some("the board is full".to_string());
        }
        None
    }

    /// Whether Black (under renju) is to move and every free point is forbidden: any move is
    /// a foul then, and the game is lost.
    pub fn only_forbidden_left(&mut self) -> bool {
        if !self.mover_has_forbidden() {
            return false;
        }
        let free: Vec<Pos> = self.board.points().filter(|&p| self.is_free(p)).collect();
        free.into_iter().all(|p| self.board.is_forbidden(p))
    }

    /// The free point a foul is played on when nothing else is left (the centre first, then the
    /// first in reading order).
    pub fn any_free(&self) -> Option<Pos> {
        self.centre_first().into_iter().find(|&p| self.is_free(p))
    }

    fn mover_has_forbidden(&self) -> bool {
        self.board.rule().has_forbidden() && self.board.to_move() == Color::Black
    }

    /// Whether the side to move may play `p`: a free point, and not renju-forbidden for Black.
    pub fn is_legal(&mut self, p: Pos) -> bool {
        self.is_free(p) && !(self.mover_has_forbidden() && self.board.is_forbidden(p))
    }

    /// Some legal point (the centre first, then the first in reading order), for when the
    /// engine's answer cannot be used.
    pub fn any_legal(&mut self) -> Option<Pos> {
        self.centre_first().into_iter().find(|&p| self.is_legal(p))
    }

    /// Every point of the board, the centre first, then in reading order.
    fn centre_first(&self) -> Vec<Pos> {
        let mut pts: Vec<Pos> = vec![self.board.centre()];
        pts.extend(self.board.points());
        pts
    }

    /// Renju forbidden points of the side to move (none unless Black is to move under renju).
    pub fn forbidden(&mut self) -> Vec<Pos> {
        if !self.mover_has_forbidden() {
            return Vec::new();
        }
        let dead = self.dead.clone();
        self.board
            .forbidden_points()
            .into_iter()
            .map(|(p, _)| p)
            .filter(|p| !dead.contains(p))
            .collect()
    }

    /// The answer to `YXSHOWFORBID`: `FORBID`, then `xxyy` (two digits each) per forbidden
    /// point, then `.`.
    pub fn forbid_line(&mut self) -> String {
        let mut s = String::from("FORBID ");
        for p in self.forbidden() {
            s.push_str(&format!("{:02}{:02}", p.x(), p.y()));
        }
        s.push('.');
        s
    }
}

/// Checks that a game reaches `own` stones of ours and `opponent` stones of the opponent's with
/// us to move: as many as the opponent's (we are Black) or one fewer (we are White). Each of
/// `dead` stones (a continuous game's) was either side's, so it widens the range by one.
///
/// # Errors
/// A message with the counts.
pub fn check_counts(own: usize, opponent: usize, dead: usize) -> Result<(), String> {
    let reachable = own <= opponent + dead && opponent <= own + 1 + dead;
    if reachable {
        return Ok(());
    }
    let stones = |n: usize| if n == 1 { "stone" } else { "stones" };
    let dead_note = if dead > 0 {
        format!(
            " (or differ by up to {dead} more, with {dead} dead {})",
            stones(dead)
        )
    } else {
        String::new()
    };
    Err(format!(
        "{own} {} of ours and {opponent} of the opponent's: no game reaches that with us to \
         move (we have as many stones as the opponent, or one fewer{dead_note})",
        stones(own)
    ))
}

/// A board with `stones` on it, each colour's stones in the order given, passes where one side
/// has no stone left to place, and `to_move` to move at the end.
fn build(
    size: usize,
    rule: Rule,
    stones: &[(Pos, Color)],
    to_move: Color,
) -> Result<Board, String> {
    let mut board = Board::new(size, rule).map_err(|e| e.to_string())?;
    let mut queues = [Vec::new(), Vec::new()];
    for &(p, c) in stones.iter().rev() {
        queues[c.index()].push(p);
    }
    while queues.iter().any(|q| !q.is_empty()) {
        match queues[board.to_move().index()].pop() {
            Some(p) => board
                .try_play(p)
                .map_err(|_| format!("{} is given twice", format_xy(p)))?,
            None => board.pass(),
        }
    }
    if board.to_move() != to_move {
        board.pass();
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xy(x: usize, y: usize) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn field_lines() {
        assert_eq!(parse_field_line("7,7,1", 15), Ok((xy(7, 7), Field::Own)));
        assert_eq!(
            parse_field_line(" 0 , 14 , 2", 15),
            Ok((xy(0, 14), Field::Opponent))
        );
        assert_eq!(parse_field_line("3,4,3", 15), Ok((xy(3, 4), Field::Dead)));
        assert!(parse_field_line("7,7,4", 15).unwrap_err().contains("field"));
        assert!(parse_field_line("7,7", 15)
            .unwrap_err()
            .contains("x,y,field"));
        assert!(parse_field_line("7,7,1,1", 15)
            .unwrap_err()
            .contains("x,y,field"));
        assert!(parse_field_line("15,0,1", 15)
            .unwrap_err()
            .contains("off the 15x15 board"));
        assert!(parse_field_line("a,b,1", 15).is_err());
    }

    #[test]
    fn side_to_move_follows_from_the_counts() {
        // we have as many stones as the opponent: we are Black
        let p = Position::from_fields(
            15,
            Rule::Freestyle,
            &[(xy(8, 8), Field::Opponent), (xy(7, 7), Field::Own)],
        )
        .unwrap();
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(
            p.board().cell(xy(7, 7)),
            gomoku_engine::Cell::Stone(Color::Black)
        );
        // the opponent has one more: we are White
        let p = Position::from_fields(15, Rule::Freestyle, &[(xy(7, 7), Field::Opponent)]).unwrap();
        assert_eq!(p.to_move(), Color::White);
        // empty board: Black to move
        let p = Position::from_fields(15, Rule::Renju, &[]).unwrap();
        assert_eq!(p.to_move(), Color::Black);
        // dead stones may have been either side's: the counts may differ by as many more
        let p = Position::from_fields(
            15,
            Rule::Freestyle,
            &[
                (xy(1, 1), Field::Own),
                (xy(2, 2), Field::Own),
                (xy(3, 3), Field::Dead),
                (xy(4, 4), Field::Dead),
            ],
        )
        .unwrap();
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.board().stone_count(), 2);
        // a point twice is an error
        assert!(Position::from_fields(
            15,
            Rule::Freestyle,
            &[(xy(1, 1), Field::Own), (xy(1, 1), Field::Opponent)]
        )
        .is_err());
    }

    #[test]
    fn counts_no_game_reaches_are_refused() {
        let board = |fields: &[(usize, usize, Field)]| {
            let fields: Vec<(Pos, Field)> = fields.iter().map(|&(x, y, f)| (xy(x, y), f)).collect();
            Position::from_fields(15, Rule::Freestyle, &fields)
        };
        use Field::{Dead, Opponent, Own};
        // three of ours and none of the opponent's, with us to move
        let e = board(&[(1, 1, Own), (2, 2, Own), (3, 3, Own)]).unwrap_err();
        assert!(e.contains("3 stones of ours and 0"), "{e}");
        // one of ours too many, or the opponent two ahead
        assert!(board(&[(1, 1, Own)]).is_err());
        assert!(board(&[(1, 1, Own), (2, 2, Own), (3, 3, Opponent)]).is_err());
        assert!(board(&[(1, 1, Opponent), (2, 2, Opponent)]).is_err());
        // what a game reaches
        assert!(board(&[(1, 1, Opponent)]).is_ok());
        assert!(board(&[(1, 1, Opponent), (2, 2, Own)]).is_ok());
        // a dead stone may have been either side's: one more either way, not two
        assert!(board(&[(1, 1, Own), (5, 5, Dead)]).is_ok());
        assert!(board(&[(1, 1, Opponent), (2, 2, Opponent), (5, 5, Dead)]).is_ok());
        let e = board(&[(1, 1, Own), (2, 2, Own), (5, 5, Dead)]).unwrap_err();
        assert!(e.contains("1 dead stone"), "{e}");
        assert!(board(&[
            (1, 1, Opponent),
            (2, 2, Opponent),
            (3, 3, Opponent),
            (5, 5, Dead)
        ])
        .is_err());
        assert_eq!(check_counts(0, 0, 0), Ok(()));
    }

    #[test]
    fn dead_stones_block_the_point() {
        let mut p = Position::from_fields(15, Rule::Freestyle, &[(xy(5, 5), Field::Dead)]).unwrap();
        assert!(!p.is_free(xy(5, 5)));
        assert!(p.play(xy(5, 5)).unwrap_err().contains("occupied"));
        assert_eq!(p.stone_count(), 1);
        p.take_back(xy(5, 5)).unwrap();
        assert!(p.is_free(xy(5, 5)));
    }

    #[test]
    fn take_back_only_the_last_stone() {
        let mut p = Position::new(15, Rule::Freestyle).unwrap();
        p.play(xy(7, 7)).unwrap();
        p.play(xy(8, 8)).unwrap();
        p.play(xy(9, 9)).unwrap();
        // an earlier stone is refused and nothing changes
        let e = p.take_back(xy(7, 7)).unwrap_err();
        assert!(e.contains("not the last") && e.contains("9,9"), "{e}");
        assert_eq!(p.board().stone_count(), 3);
        assert_eq!(p.to_move(), Color::White);
        // the last stone: plain undo, then the one before it
        p.take_back(xy(9, 9)).unwrap();
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.board().stone_count(), 2);
        p.take_back(xy(8, 8)).unwrap();
        assert_eq!(p.to_move(), Color::White);
        assert!(p.is_free(xy(8, 8)));
        assert!(p.take_back(xy(0, 0)).unwrap_err().contains("no stone"));
        p.play(xy(8, 8)).unwrap();
        assert!(p.play(xy(8, 8)).is_err());
        // after BOARD the last stone is the last line of the side that moved last
        let mut p = Position::from_fields(
            15,
            Rule::Freestyle,
            &[
                (xy(7, 7), Field::Opponent),
                (xy(8, 8), Field::Own),
                (xy(9, 9), Field::Opponent),
            ],
        )
        .unwrap();
        assert!(p.take_back(xy(8, 8)).unwrap_err().contains("not the last"));
        p.take_back(xy(9, 9)).unwrap();
        p.take_back(xy(8, 8)).unwrap();
        assert_eq!(p.to_move(), Color::White);
        assert_eq!(p.board().stone_count(), 1);
        assert!(p
            .play(Pos::new(15, 3))
            .unwrap_err()
            .contains("off the board"));
    }

    #[test]
    fn status_sees_fives_and_full_boards() {
        let mut p = Position::new(15, Rule::Freestyle).unwrap();
        assert_eq!(p.status(), None);
        for i in 0..4 {
            p.play(xy(i, 0)).unwrap();
            p.play(xy(i, 5)).unwrap();
        }
        p.play(xy(4, 0)).unwrap();
        assert!(p.status().unwrap().contains("five"));
        // a full 5x5 board without five
        let mut p = Position::new(5, Rule::Freestyle).unwrap();
        let pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
        let mut blacks = Vec::new();
        let mut whites = Vec::new();
        for (y, row) in pattern.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == 'X' {
                    blacks.push(xy(x, y));
                } else {
                    whites.push(xy(x, y));
                }
            }
        }
        // 13 black, 12 white: alternate
        for i in 0..25 {
            let q = if i % 2 == 0 {
                blacks[i / 2]
            } else {
                whites[i / 2]
            };
            p.play(q).unwrap();
        }
        assert_eq!(p.status().as_deref(), Some("the board is full"));
        assert_eq!(p.any_legal(), None);
    }

    #[test]
    fn renju_forbidden_points_and_forbid_line() {
        // Black on 2,3,4 and 6,7 of row 7: 5,7 would make six in a row (an overline)
        let mut p = Position::new(15, Rule::Renju).unwrap();
        let black = [2, 3, 4, 6, 7];
        let white = [3, 5, 7, 9, 11];
        for (bx, wy) in black.into_iter().zip(white) {
            p.play(xy(bx, 7)).unwrap();
            p.play(xy(0, wy)).unwrap();
        }
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.forbidden(), vec![xy(5, 7)]);
        assert_eq!(p.forbid_line(), "FORBID 0507.");
        assert!(!p.is_legal(xy(5, 7)));
        assert!(p.is_legal(xy(5, 8)));
        // White to move: nothing is forbidden
        p.play(xy(10, 10)).unwrap();
        assert_eq!(p.forbid_line(), "FORBID .");
        // the same stones under freestyle: no forbidden points
        let mut f = p.with_rule(Rule::Freestyle).unwrap();
        f.take_back(xy(10, 10)).unwrap();
        assert_eq!(f.forbid_line(), "FORBID .");
    }
}

/// Property tests of [`parse_field_line`]: any line, random or a valid `x,y,field` with one
/// part broken, gives a point on the board or a short error that quotes the line (never a
/// panic), and every valid line reads back as the point and field it was written from.
#[cfg(test)]
mod props {
    use super::*;
    use crate::pbrain::command::QUOTE_MAX;
    use crate::prop_support::{config, near_valid, number};
    use proptest::prelude::*;

    fn field_digit(f: Field) -> u8 {
        match f {
            Field::Own => 1,
            Field::Opponent => 2,
            Field::Dead => 3,
        }
    }

    /// A coordinate, mostly on a board.
    fn coordinate() -> impl Strategy<Value = String> + Clone {
        prop_oneof![
            6 => (0usize..22).prop_map(|v| v.to_string()),
            1 => number(),
        ]
    }

    fn field() -> impl Strategy<Value = Field> {
        prop::sample::select(vec![Field::Own, Field::Opponent, Field::Dead])
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn field_lines_read_or_fail_cleanly(
            size in 5usize..=22,
            line in near_valid(
                (coordinate(), coordinate(), prop_oneof![4 => "[0-4]", 1 => number()])
                    .prop_map(|(x, y, f)| vec![x, y, f]),
                ",",
            ),
        ) {
            match parse_field_line(&line, size) {
                Ok((p, f)) => {
                    prop_assert!(p.is_point() && p.x() < size && p.y() < size, "{:?}", p);
                    let again = format!("{},{},{}", p.x(), p.y(), field_digit(f));
                    prop_assert_eq!(parse_field_line(&again, size), Ok((p, f)));
                }
                Err(e) => {
                    let quoted = excerpt(&line);
                    prop_assert!(e.starts_with(&format!("'{quoted}'")), "{}", e);
                    prop_assert!(e.len() <= 3 * (4 * QUOTE_MAX + 30) + 80, "{}", e);
                }
            }
        }

        #[test]
        fn field_lines_round_trip(
            (size, x, y) in (5usize..=22).prop_flat_map(|n| (Just(n), 0..n, 0..n)),
            f in field(),
            spaced in any::<bool>(),
        ) {
            let line = if spaced {
                format!(" {x} , {y} , {} ", field_digit(f))
            } else {
                format!("{x},{y},{}", field_digit(f))
            };
            prop_assert_eq!(parse_field_line(&line, size), Ok((Pos::new(x, y), f)));
        }
    }
}
