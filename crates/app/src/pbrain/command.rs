//! Reading protocol lines: one line in, one [`Command`] (or a reason why not) out.
//!
//! Parsing here is purely textual; whether a point is on the board or free is decided by the
//! session, which knows the board.

use gomoku_engine::notation::NotationError;
use std::borrow::Cow;
use std::fmt;

/// The most characters of an input line that a reply quotes: a manager that sends a huge
/// malformed line gets a short answer, not its line back.
pub const QUOTE_MAX: usize = 100;

/// `text` as a reply quotes it: whole up to [`QUOTE_MAX`] characters, else cut there (on a
/// character boundary) with `... (N bytes)` after it.
#[must_use]
pub fn excerpt(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(QUOTE_MAX) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}... ({} bytes)", &text[..end], text.len())),
    }
}

/// The message of a coordinate error, with the coordinate cut by [`excerpt`].
#[must_use]
pub fn notation_message(e: NotationError) -> String {
    match e {
        NotationError::Malformed { token, reason } => NotationError::Malformed {
            token: excerpt(&token).into_owned(),
            reason,
        },
        NotationError::OffBoard { token, size } => NotationError::OffBoard {
            token: excerpt(&token).into_owned(),
            size,
        },
        other => other,
    }
    .to_string()
}

/// One command of the manager (Gomocup pbrain protocol plus the Yixin-Board extensions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START size`.
    Start(usize),
    /// `RECTSTART width,height`.
    RectStart(usize, usize),
    /// `RESTART`.
    Restart,
    /// `BEGIN`.
    Begin,
    /// `TURN x,y` (the coordinates as written).
    Turn(String),
    /// `BOARD` (think afterwards) or `YXBOARD` (only set the position); field lines and `DONE`
    /// follow.
    Board {
        /// Whether the brain answers a move after `DONE`.
        think: bool,
    },
    /// `SWAP2BOARD` (Gomocup's swap2 opening): `x,y` lines of the stones so far (Black
    /// first, alternating) and `DONE` follow; the brain answers stones or `SWAP`.
    Swap2Board,
    /// `TAKEBACK x,y`.
    Takeback(String),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `PLAY x,y`.
    Play(String),
    /// `INFO key value` (the key lower-cased, the value as written, possibly empty).
    Info {
        /// The key, lower case.
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `YXSHOWFORBID`.
    ShowForbid,
    /// `STOP` or `YXSTOP`.
    Stop,
    /// `YXHASHCLEAR`.
    HashClear,
    /// `YXSHOWINFO`.
    ShowInfo,
    /// `YXNBEST n`.
    NBest(usize),
    /// `YXBLOCK` (`undo: false`) or `YXBLOCKUNDO` (`undo: true`): `x,y` lines and `DONE`
    /// follow, points the engine must not play (Yixin-Board's blocked points), added to or
    /// taken from the list.
    Block {
        /// Whether the points leave the list.
        undo: bool,
    },
    /// `YXBLOCKRESET`: no point is blocked any more.
    BlockReset,
    /// `YXBALANCEONE bias` (`two: false`) or `YXBALANCETWO bias`: the move (or our move and
    /// the opponent's) after which the value is nearest to `bias` (0 when not given).
    Balance {
        /// Two moves instead of one.
        two: bool,
        /// The value aimed at, for the side that moves first.
        bias: i32,
    },
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is no command we know (answered `UNKNOWN`).
    Unknown(String),
    /// A known command with bad arguments (answered `ERROR`).
    Malformed(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(w) => write!(f, "unknown command '{w}'"),
            ParseError::Malformed(m) => f.write_str(m),
        }
    }
}

/// Strips the line ending (`\n`, `\r\n` or a lone `\r`) and surrounding blanks.
#[must_use]
pub fn clean(line: &str) -> &str {
    line.trim_matches(|c: char| c == '\r' || c == '\n' || c.is_whitespace())
}

/// Parses one non-empty, cleaned line. Command words are case-insensitive (Yixin-Board sends
/// them in lower case).
///
/// # Errors
/// [`ParseError::Unknown`] for an unknown first word, [`ParseError::Malformed`] for bad
/// arguments.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = clean(line);
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    let no_args = |c: Command| -> Result<Command, ParseError> {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(ParseError::Malformed(format!(
                "{upper} takes no arguments, got '{}'",
                excerpt(rest)
            )))
        }
    };
    let point = |c: fn(String) -> Command| -> Result<Command, ParseError> {
        if rest.is_empty() {
            Err(ParseError::Malformed(format!("{upper} needs a point x,y")))
        } else {
            Ok(c(rest.to_string()))
        }
    };
    match upper.as_str() {
        "START" => Ok(Command::Start(number(&upper, rest)?)),
        "RECTSTART" => {
            let Some((w, h)) = rest.split_once(',') else {
                return Err(ParseError::Malformed(format!(
                    "RECTSTART needs width,height, got '{}'",
                    excerpt(rest)
                )));
            };
            Ok(Command::RectStart(
                number(&upper, w.trim())?,
                number(&upper, h.trim())?,
            ))
        }
        "RESTART" => no_args(Command::Restart),
        "BEGIN" => no_args(Command::Begin),
        "TURN" => point(Command::Turn),
        "BOARD" => no_args(Command::Board { think: true }),
        "YXBOARD" => no_args(Command::Board { think: false }),
        "SWAP2BOARD" => no_args(Command::Swap2Board),
        "TAKEBACK" => point(Command::Takeback),
        "END" => Ok(Command::End),
        "ABOUT" => no_args(Command::About),
        "PLAY" => point(Command::Play),
        "INFO" => {
            let (key, value) = match rest.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v.trim()),
                None => (rest, ""),
            };
            if key.is_empty() {
                return Err(ParseError::Malformed("INFO needs a key and a value".into()));
            }
            Ok(Command::Info {
                key: key.to_ascii_lowercase(),
                value: value.to_string(),
            })
        }
        "YXSHOWFORBID" => no_args(Command::ShowForbid),
        "STOP" | "YXSTOP" => no_args(Command::Stop),
        "YXHASHCLEAR" => no_args(Command::HashClear),
        "YXSHOWINFO" => no_args(Command::ShowInfo),
        "YXNBEST" => {
            let n = number(&upper, rest)?;
            if n == 0 {
                return Err(ParseError::Malformed(
                    "YXNBEST needs at least one move".into(),
                ));
            }
            Ok(Command::NBest(n))
        }
        "YXBLOCK" => no_args(Command::Block { undo: false }),
        "YXBLOCKUNDO" => no_args(Command::Block { undo: true }),
        "YXBLOCKRESET" => no_args(Command::BlockReset),
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let bias = if rest.is_empty() {
                0
            } else {
                rest.parse::<i32>()
                    .ok()
                    .filter(|b| b.abs() <= 100_000)
                    .ok_or_else(|| {
                        ParseError::Malformed(format!(
                            "{upper} takes a value to aim at (an integer, 0 for even), got '{}'",
                            excerpt(rest)
                        ))
                    })?
            };
            Ok(Command::Balance {
                two: upper == "YXBALANCETWO",
                bias,
            })
        }
        "DONE" => Err(ParseError::Malformed("DONE without BOARD".into())),
        _ => Err(ParseError::Unknown(excerpt(word).into_owned())),
    }
}

fn number(cmd: &str, s: &str) -> Result<usize, ParseError> {
    s.parse::<usize>().map_err(|_| {
        if s.is_empty() {
            ParseError::Malformed(format!("{cmd} needs a number"))
        } else {
            ParseError::Malformed(format!("{cmd}: '{}' is not a number", excerpt(s)))
        }
    })
}

/// Parses an INFO value as a signed integer.
///
/// # Errors
/// A message naming the key and the value.
pub fn info_int(key: &str, value: &str) -> Result<i64, String> {
    value
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("INFO {key}: '{}' is not a number", excerpt(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_case_insensitive_and_tolerate_crlf() {
        assert_eq!(parse("start 15\r\n"), Ok(Command::Start(15)));
        assert_eq!(parse("  TURN 7,8 \r"), Ok(Command::Turn("7,8".into())));
        assert_eq!(parse("yxstop"), Ok(Command::Stop));
        assert_eq!(parse("STOP"), Ok(Command::Stop));
        assert_eq!(parse("yxboard"), Ok(Command::Board { think: false }));
        assert_eq!(parse("swap2board"), Ok(Command::Swap2Board));
        assert_eq!(parse("YXNBEST 3"), Ok(Command::NBest(3)));
        assert_eq!(parse("RECTSTART 20, 20"), Ok(Command::RectStart(20, 20)));
        assert_eq!(parse("yxblock"), Ok(Command::Block { undo: false }));
        assert_eq!(parse("YXBLOCKUNDO\r\n"), Ok(Command::Block { undo: true }));
        assert_eq!(parse("yxblockreset"), Ok(Command::BlockReset));
        assert_eq!(
            parse("YXBALANCEONE"),
            Ok(Command::Balance {
                two: false,
                bias: 0
            })
        );
        assert_eq!(
            parse("yxbalancetwo -50"),
            Ok(Command::Balance {
                two: true,
                bias: -50
            })
        );
    }

    #[test]
    fn info_keeps_the_whole_value() {
        assert_eq!(
            parse("INFO folder C:\\My Games\\gomoku"),
            Ok(Command::Info {
                key: "folder".into(),
                value: "C:\\My Games\\gomoku".into()
            })
        );
        assert_eq!(
            parse("INFO TIMEOUT_TURN 500"),
            Ok(Command::Info {
                key: "timeout_turn".into(),
                value: "500".into()
            })
        );
        assert_eq!(info_int("rule", " 4 "), Ok(4));
        assert!(info_int("rule", "x").unwrap_err().contains("'x'"));
    }

    #[test]
    fn bad_lines_say_why() {
        assert_eq!(parse("FOO 1"), Err(ParseError::Unknown("FOO".into())));
        assert!(matches!(parse("START"), Err(ParseError::Malformed(m)) if m.contains("number")));
        assert!(matches!(parse("START x"), Err(ParseError::Malformed(m)) if m.contains("'x'")));
        assert!(matches!(parse("TURN"), Err(ParseError::Malformed(m)) if m.contains("x,y")));
        assert!(matches!(parse("BEGIN now"), Err(ParseError::Malformed(_))));
        assert!(matches!(
            parse("RECTSTART 20"),
            Err(ParseError::Malformed(_))
        ));
        assert!(matches!(parse("YXNBEST 0"), Err(ParseError::Malformed(_))));
        assert!(matches!(parse("INFO"), Err(ParseError::Malformed(_))));
        assert!(
            matches!(parse("YXBLOCK 7,7"), Err(ParseError::Malformed(m)) if m.contains("no arguments"))
        );
        for bad in ["YXBALANCEONE x", "YXBALANCETWO 1 2", "YXBALANCEONE 999999"] {
            assert!(
                matches!(parse(bad), Err(ParseError::Malformed(m)) if m.contains("value to aim at")),
                "{bad}"
            );
        }
    }

    #[test]
    fn replies_quote_at_most_the_start_of_a_long_line() {
        assert_eq!(excerpt("7,x"), "7,x");
        let exact = "a".repeat(QUOTE_MAX);
        assert_eq!(excerpt(&exact), exact);
        let long = "a".repeat(QUOTE_MAX + 1);
        assert_eq!(
            excerpt(&long),
            format!("{}... ({} bytes)", "a".repeat(QUOTE_MAX), QUOTE_MAX + 1)
        );
        // cut between characters, never inside one
        let wide = "é".repeat(3 * QUOTE_MAX);
        assert_eq!(
            excerpt(&wide),
            format!("{}... ({} bytes)", "é".repeat(QUOTE_MAX), 6 * QUOTE_MAX)
        );
        // every reply of the parser that quotes its input
        let huge = "x".repeat(1 << 20);
        for line in [
            huge.clone(),
            format!("BEGIN {huge}"),
            format!("RECTSTART {huge}"),
            format!("START {huge}"),
            format!("YXNBEST {huge}"),
        ] {
            let e = parse(&line).expect_err("malformed").to_string();
            assert!(e.len() < 200, "{} bytes: {}", e.len(), &e[..200]);
            assert!(e.contains(&format!("... ({} bytes)", 1 << 20)), "{e}");
        }
        let e = info_int("timeout_turn", &huge).unwrap_err();
        assert!(e.len() < 200 && e.contains("'xxx"), "{e}");
        let e = gomoku_engine::notation::parse_xy(&format!("1,{huge}"), 15).unwrap_err();
        let m = notation_message(e);
        assert!(
            m.len() < 200 && m.starts_with("'1,xxx") && m.ends_with("must be integers"),
            "{m}"
        );
    }
}

/// Property tests of [`parse`]: any line, random or a valid command with one token broken,
/// gives a command or a short error (never a panic), a command read from a line reads back
/// equal from its canonical spelling, and every command, written in any letter case and with
/// any line ending, reads back as itself.
#[cfg(test)]
mod props {
    use super::*;
    use crate::prop_support::{config, near_valid, noise, number};
    use proptest::prelude::*;

    /// A command with arguments a manager might send.
    fn command() -> BoxedStrategy<Command> {
        let point = prop_oneof!["[0-9]{1,2},[0-9]{1,2}", "[!-~]{1,12}"];
        prop_oneof![
            any::<usize>().prop_map(Command::Start),
            (any::<usize>(), any::<usize>()).prop_map(|(w, h)| Command::RectStart(w, h)),
            Just(Command::Restart),
            Just(Command::Begin),
            point.clone().prop_map(Command::Turn),
            any::<bool>().prop_map(|think| Command::Board { think }),
            Just(Command::Swap2Board),
            point.clone().prop_map(Command::Takeback),
            Just(Command::End),
            Just(Command::About),
            point.prop_map(Command::Play),
            ("[a-z_]{1,12}", "([!-~]{1,6}( [!-~]{1,6}){0,3})?")
                .prop_map(|(key, value)| Command::Info { key, value }),
            Just(Command::ShowForbid),
            Just(Command::Stop),
            Just(Command::HashClear),
            Just(Command::ShowInfo),
            (1..=usize::MAX).prop_map(Command::NBest),
            any::<bool>().prop_map(|undo| Command::Block { undo }),
            Just(Command::BlockReset),
            (any::<bool>(), -100_000..=100_000i32)
                .prop_map(|(two, bias)| Command::Balance { two, bias }),
        ]
        .boxed()
    }

    /// The canonical line of a command.
    fn line_of(c: &Command) -> String {
        match c {
            Command::Start(n) => format!("START {n}"),
            Command::RectStart(w, h) => format!("RECTSTART {w},{h}"),
            Command::Restart => "RESTART".into(),
            Command::Begin => "BEGIN".into(),
            Command::Turn(p) => format!("TURN {p}"),
            Command::Board { think: true } => "BOARD".into(),
            Command::Board { think: false } => "YXBOARD".into(),
            Command::Swap2Board => "SWAP2BOARD".into(),
            Command::Takeback(p) => format!("TAKEBACK {p}"),
            Command::End => "END".into(),
            Command::About => "ABOUT".into(),
            Command::Play(p) => format!("PLAY {p}"),
            Command::Info { key, value } => format!("INFO {key} {value}"),
            Command::ShowForbid => "YXSHOWFORBID".into(),
            Command::Stop => "YXSTOP".into(),
            Command::HashClear => "YXHASHCLEAR".into(),
            Command::ShowInfo => "YXSHOWINFO".into(),
            Command::NBest(n) => format!("YXNBEST {n}"),
            Command::Block { undo: false } => "YXBLOCK".into(),
            Command::Block { undo: true } => "YXBLOCKUNDO".into(),
            Command::BlockReset => "YXBLOCKRESET".into(),
            Command::Balance { two: false, bias } => format!("YXBALANCEONE {bias}"),
            Command::Balance { two: true, bias } => format!("YXBALANCETWO {bias}"),
        }
    }

    /// `text` with the letters whose bit is set in `mask` in lower case.
    fn mixed_case(text: &str, mask: u64) -> String {
        text.chars()
            .enumerate()
            .map(|(i, c)| {
                if mask >> (i % 64) & 1 == 1 {
                    c.to_ascii_lowercase()
                } else {
                    c
                }
            })
            .collect()
    }

    /// The words of a command line, some with numbers that may be wrong.
    fn line_tokens() -> impl Strategy<Value = Vec<String>> + Clone {
        let words = prop::sample::select(vec![
            "START",
            "RECTSTART",
            "RESTART",
            "BEGIN",
            "TURN",
            "BOARD",
            "YXBOARD",
            "TAKEBACK",
            "END",
            "ABOUT",
            "PLAY",
            "INFO",
            "YXSHOWFORBID",
            "STOP",
            "YXSTOP",
            "YXHASHCLEAR",
            "YXSHOWINFO",
            "YXNBEST",
            "YXBLOCK",
            "YXBLOCKUNDO",
            "YXBLOCKRESET",
            "YXBALANCEONE",
            "YXBALANCETWO",
            "DONE",
            "start",
            "info",
        ]);
        (
            words,
            prop::collection::vec(number(), 0..3),
            prop_oneof![Just(","), Just(" "), Just(", ")],
        )
            .prop_map(|(w, args, sep)| {
                let mut t = vec![w.to_string()];
                if !args.is_empty() {
                    t.push(args.join(sep));
                }
                t
            })
    }

    /// What an `Ok` answer must satisfy, given the cleaned line.
    fn check_command(line: &str, c: &Command) -> Result<(), TestCaseError> {
        let line = clean(line);
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let word = word.to_ascii_uppercase();
        match c {
            Command::Start(n) => prop_assert_eq!(rest.parse::<usize>().ok(), Some(*n)),
            Command::NBest(n) => prop_assert!(*n >= 1),
            Command::Turn(p) | Command::Takeback(p) | Command::Play(p) => {
                prop_assert!(!p.is_empty() && p.as_str() == rest);
            }
            Command::Info { key, value } => {
                prop_assert!(!key.is_empty() && !key.contains(char::is_whitespace));
                prop_assert_eq!(key.clone(), key.to_ascii_lowercase());
                prop_assert_eq!(value.trim(), value.as_str());
            }
            _ => {}
        }
        // the command's canonical word is the one on the line (STOP and YXSTOP are one)
        let canonical = line_of(c);
        let canonical_word = canonical.split(' ').next().unwrap_or_default();
        prop_assert!(
            canonical_word == word || (word == "STOP" && canonical_word == "YXSTOP"),
            "{} read as {:?}",
            line,
            c
        );
        prop_assert_eq!(parse(&canonical), Ok(c.clone()));
        Ok(())
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn any_line_is_a_command_or_a_short_error(line in prop_oneof![
            near_valid(line_tokens(), " "),
            near_valid(
                command().prop_map(|c| line_of(&c).split(' ').map(str::to_string).collect()),
                " ",
            ),
            noise(),
            (line_tokens(), "[ -~]{200,400}").prop_map(|(t, long)| format!("{} {long}", t[0])),
        ]) {
            match parse(&line) {
                Ok(c) => check_command(&line, &c)?,
                Err(e) => {
                    let msg = e.to_string();
                    prop_assert!(!msg.is_empty());
                    // replies quote at most the start of the line
                    prop_assert!(msg.len() <= 2 * (4 * QUOTE_MAX + 30) + 60, "{}", msg);
                }
            }
        }

        #[test]
        fn commands_round_trip(c in command(), mask in any::<u64>(), ending in prop::sample::select(vec!["", "\n", "\r\n", "\r", " \t\r\n"])) {
            let line = line_of(&c);
            let (word, rest) = line.split_once(' ').unwrap_or((&line, ""));
            let written = if rest.is_empty() {
                format!("{}{ending}", mixed_case(word, mask))
            } else {
                format!("{} {rest}{ending}", mixed_case(word, mask))
            };
            prop_assert_eq!(parse(&written), Ok(c));
        }

        #[test]
        fn info_int_is_total(key in "[a-z_]{1,12}", value in number()) {
            match info_int(&key, &value) {
                Ok(v) => prop_assert_eq!(value.trim().parse::<i64>(), Ok(v)),
                Err(e) => prop_assert!(e.starts_with(&format!("INFO {key}: '")) && e.len() < 600, "{}", e),
            }
        }
    }
}
