//! The text readers: position strings, board diagrams, Piskvork `.psq` records, game records
//! and pbrain `BOARD` lines. The first byte chooses the rule and the board size, the rest is
//! the text. Nothing may panic, and what reads successfully must read back the same once
//! written out again.

#![no_main]

use gomoku_app::pbrain::position::parse_field_line;
use gomoku_app::psq;
use gomoku_engine::notation::{self, parse_diagram, parse_moves, parse_pos, parse_xy};
use gomoku_engine::record::Record;
use gomoku_engine::{Game, Pos, Rule};
use libfuzzer_sys::fuzz_target;

fn sorted(mut v: Vec<Pos>) -> Vec<Pos> {
    v.sort_by_key(|p| (p.y(), p.x()));
    v
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][usize::from(choice) % 3];
    let size = 5 + usize::from(choice / 3) % 18;

    // points and position strings
    let on_board = |p: Pos| p.x() < size && p.y() < size;
    if let Ok(p) = parse_pos(text, size) {
        assert!(on_board(p));
    }
    if let Ok(p) = parse_xy(text, size) {
        assert!(on_board(p));
    }
    let _ = notation::tokenize(text);
    if let Ok(moves) = parse_moves(text, size) {
        assert!(moves.iter().all(|&p| p.is_pass() || on_board(p)));
    }
    if let Ok(game) = Game::from_position(size, rule, text) {
        let written = game.board().position_string();
        let again = Game::from_position(size, rule, &written)
            .unwrap_or_else(|e| panic!("'{written}' does not read back: {e}"));
        assert_eq!(again.board().moves(), game.board().moves());
    }

    // diagrams
    if let Ok(d) = parse_diagram(text) {
        if let Ok(game) = Game::from_diagram(rule, &d) {
            let board = game.board();
            assert_eq!(board.stone_count(), d.black.len() + d.white.len());
            let drawn = board.to_text(&[]);
            let again = parse_diagram(&drawn)
                .unwrap_or_else(|e| panic!("{drawn}\ndoes not read back: {e}"));
            assert_eq!(again.size, d.size);
            assert_eq!(sorted(again.black), sorted(d.black));
            assert_eq!(sorted(again.white), sorted(d.white));
        }
    }

    // .psq records
    if let Ok(g) = psq::parse(text) {
        let written = psq::format(g.size, &g.moves, "Black", "White");
        assert_eq!(psq::parse(&written), Ok(g.clone()), "{written}");
        let points: Vec<Pos> = g.moves.iter().map(|m| m.0).collect();
        let _ = Game::from_moves(g.size, rule, &points);
    }

    // game records and BOARD lines, a line at a time
    for line in text.lines().take(64) {
        if let Ok(r) = Record::parse(line) {
            let _ = r.game();
            let _ = r.start();
        }
        if let Ok((p, _)) = parse_field_line(line, size) {
            assert!(on_board(p));
        }
    }
});
