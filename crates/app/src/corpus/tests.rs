//! The corpus format: round trips, and every kind of broken file refused with its record
//! and byte offset.

use super::*;
use gomoku_engine::rng::{Rng, SplitMix64};
use proptest::prelude::*;

fn p(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

/// Two short games: a freestyle one with a pass and a proven value, a renju draw.
fn sample() -> Vec<GameRecord> {
    vec![
        GameRecord {
            rule: Rule::Freestyle,
            size: 15,
            result: Some(Color::White),
            opening_plies: 3,
            moves: vec![p(7, 7), p(8, 8), p(6, 6), Pos::PASS, p(0, 14)],
            values: vec![-120, PROVEN],
        },
        GameRecord {
            rule: Rule::Renju,
            size: 9,
            result: None,
            opening_plies: 0,
            moves: vec![p(4, 4), p(0, 0)],
            values: vec![5, -PROVEN],
        },
    ]
}

fn encode_all(records: &[GameRecord]) -> Vec<u8> {
    let mut w = CorpusWriter::new(Vec::new()).expect("header");
    for r in records {
        w.write(r).expect("write");
    }
    w.into_inner().expect("flush")
}

fn read_all(bytes: &[u8]) -> Result<Vec<GameRecord>> {
    CorpusReader::new(bytes)?.collect()
}

/// The error of reading `bytes`, with its causes.
fn error_of(bytes: &[u8]) -> String {
    format!("{:#}", read_all(bytes).expect_err("a broken file"))
}

#[test]
fn records_round_trip_with_the_documented_layout() {
    let records = sample();
    let bytes = encode_all(&records);
    // 8 header bytes; 6 + 2 per move + 2 per value per record
    assert_eq!(bytes.len(), 8 + (6 + 10 + 4) + (6 + 4 + 4));
    assert_eq!(&bytes[..8], b"GMKCORP1");
    assert_eq!(&bytes[8..14], &[0, 15, 2, 3, 5, 0]);
    // h8 is y 7, x 7 on 15x15: 7 * 15 + 7; then a pass
    assert_eq!(&bytes[14..16], &112u16.to_le_bytes());
    assert_eq!(&bytes[20..22], &[0xFF, 0xFF]);
    assert_eq!(&bytes[24..26], &(-120i16).to_le_bytes());
    assert_eq!(read_all(&bytes).expect("read"), records);
    assert_eq!(read_all(MAGIC).expect("empty corpus"), vec![]);
}

#[test]
fn every_truncation_is_an_error_naming_the_record_and_its_offset() {
    let bytes = encode_all(&sample());
    let second = 8 + 20;
    for len in 0..bytes.len() {
        let cut = &bytes[..len];
        match len {
            0..8 => assert!(error_of(cut).contains("shorter than the 8-byte header")),
            8 => assert_eq!(read_all(cut).expect("header alone"), vec![]),
            n if n == second => assert_eq!(read_all(cut).expect("one record").len(), 1),
            n => {
                let (record, offset) = if n < second { (1, 8) } else { (2, second) };
                let e = error_of(cut);
                assert!(
                    e.contains(&format!("record {record} (at byte {offset})"))
                        && e.contains("the file ends inside the record"),
                    "{n} bytes: {e}"
                );
            }
        }
    }
}

#[test]
fn a_bad_header_is_refused() {
    let mut bytes = encode_all(&sample());
    bytes[7] = b'2';
    assert!(error_of(&bytes).contains("not a corpus: the header is \"GMKCORP2\""));
    assert!(error_of(b"15 freestyle h8 i9\n").contains("not a corpus"));
}

#[test]
fn bad_fields_are_refused_with_the_record_and_the_reason() {
    let good = encode_all(&sample());
    let second = 8 + 20;
    let cases: [(usize, &[u8], &str); 7] = [
        (second, &[3], "rule byte 3"),
        (second, &[4], "rule byte 4"),
        (second + 1, &[4], "board size 4"),
        (second + 1, &[23], "board size 23"),
        (second + 2, &[3], "result byte 3"),
        (
            second + 3,
            &[3],
            "an opening of 3 plies in a game of 2 moves",
        ),
        // the second move on the first's point
        (second + 8, &[40, 0], "occupied"),
    ];
    for (at, patch, says) in cases {
        let mut bytes = good.clone();
        bytes[at..at + patch.len()].copy_from_slice(patch);
        let e = error_of(&bytes);
        assert!(
            e.contains(&format!("record 2 (at byte {second})")) && e.contains(says),
            "{says}: {e}"
        );
    }
    // off the 9x9 board
    let mut bytes = good.clone();
    bytes[second + 8..second + 10].copy_from_slice(&81u16.to_le_bytes());
    assert!(error_of(&bytes).contains("move 2: 81 is off the 9x9 board"));
    // a move after the five that ended the game
    let five = GameRecord {
        rule: Rule::Freestyle,
        size: 9,
        result: Some(Color::Black),
        opening_plies: 0,
        moves: vec![
            p(0, 0),
            p(0, 8),
            p(1, 0),
            p(1, 8),
            p(2, 0),
            p(2, 8),
            p(3, 0),
            p(3, 8),
            p(4, 0),
            p(4, 8),
        ],
        values: vec![0; 10],
    };
    let mut w = CorpusWriter::new(Vec::new()).expect("header");
    let e = format!("{:#}", w.write(&five).expect_err("after the end"));
    assert!(e.contains("do not play as a game"), "{e}");
}

#[test]
fn the_writer_refuses_what_the_reader_would() {
    let mut w = CorpusWriter::new(Vec::new()).expect("header");
    let mut r = sample()[0].clone();
    r.rule = Rule::Caro6;
    assert!(format!("{:#}", w.write(&r).expect_err("caro")).contains("rule caro6"));
    let mut r = sample()[0].clone();
    r.values.pop();
    assert!(format!("{:#}", w.write(&r).expect_err("values")).contains("1 values for the 2"));
    let mut r = sample()[0].clone();
    r.moves[4] = p(15, 0);
    assert!(format!("{:#}", w.write(&r).expect_err("off")).contains("off the 15x15 board"));
    assert_eq!(w.into_inner().expect("flush"), MAGIC.to_vec());
}

#[test]
fn scores_are_stored_with_proven_results_apart() {
    for (score, stored) in [
        (0, 0),
        (-57, -57),
        (WIN_MIN - 1, WIN_MIN as i16 - 1),
        (WIN_MIN, PROVEN),
        (30_000, PROVEN),
        (-WIN_MIN, -PROVEN),
        (-30_000, -PROVEN),
    ] {
        assert_eq!(GameRecord::value_of_score(score), stored, "{score}");
    }
}

#[test]
fn a_record_reads_as_a_line_of_the_common_format() {
    let records = sample();
    assert_eq!(
        records[0].to_line(),
        "15 freestyle h8 i7 g9 -- a1 | opening_plies=3 result=white values=-120,W"
    );
    assert_eq!(
        records[1].to_line(),
        "9 renju e5 a9 | opening_plies=0 result=draw values=5,L"
    );
}

/// A game of random legal moves (passes now and then) until it ends or has `len` moves.
fn random_game(seed: u64, len: usize) -> GameRecord {
    let mut rng = SplitMix64::new(seed);
    let rule = RULES[rng.below(3)];
    let size = 5 + rng.below(18);
    let mut game = Game::new(size, rule).expect("size");
    while game.board().moves().len() < len && !game.is_over() {
        let m = if rng.below(20) == 0 {
            Pos::PASS
        } else {
            Pos::new(rng.below(size), rng.below(size))
        };
        // an occupied point or a pass beyond the limit: draw again
        let _ = game.play(m);
    }
    let moves = game.board().moves().to_vec();
    let opening_plies = rng.below(moves.len().min(255) + 1);
    let values = (opening_plies..moves.len())
        .map(|_| rng.next_u64() as i16)
        .collect();
    GameRecord {
        rule,
        size,
        result: [None, Some(Color::Black), Some(Color::White)][rng.below(3)],
        opening_plies,
        moves,
        values,
    }
}

proptest! {
    #![proptest_config(crate::prop_support::config())]

    #[test]
    fn random_corpora_round_trip(
        games in prop::collection::vec((any::<u64>(), 0usize..120), 0..5),
    ) {
        let records: Vec<GameRecord> =
            games.iter().map(|&(seed, len)| random_game(seed, len)).collect();
        let bytes = encode_all(&records);
        let positions: usize = records.iter().map(GameRecord::positions).sum();
        let moves: usize = records.iter().map(|r| r.moves.len()).sum();
        prop_assert_eq!(bytes.len(), 8 + 6 * records.len() + 2 * moves + 2 * positions);
        prop_assert_eq!(read_all(&bytes).map_err(|e| e.to_string()), Ok(records));
    }
}
