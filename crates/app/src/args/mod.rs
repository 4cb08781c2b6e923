//! Command-line arguments that several commands share, and what they mean: the rule and
//! board size ([`BoardArgs`]), the search and evaluator ([`search`]) and the position to
//! start from ([`position`]). The commands and the command-line definition both use this
//! module; it uses neither.

pub mod position;
pub mod search;

pub use position::{
    excluded_points, load_position, result_text, searchable_position, BoardFile, PositionArgs,
};
pub use search::{
    check_hash_mb, params_with, parse_overrides, ComponentArgs, SearchArgs, TableArgs, MAX_HASH_MB,
    MAX_THREADS,
};

use gomoku_engine::{Color, Rule};

/// The rule and board size flags of the commands that take a position.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct BoardArgs {
    /// Rule: freestyle (the default), standard, renju, caro5 or caro6.
    #[arg(long, value_parser = parse_rule)]
    pub rule: Option<Rule>,
    /// Board size (5 to 22).
    #[arg(long, default_value_t = 15, value_parser = parse_size)]
    pub size: usize,
}

impl BoardArgs {
    /// The rule given, freestyle without one.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule.unwrap_or(Rule::Freestyle)
    }
}

/// Parses a rule name for clap.
pub fn parse_rule(s: &str) -> Result<Rule, String> {
    s.parse::<Rule>().map_err(|e| e.to_string())
}

/// Parses a board size for clap.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}': the board size must be a number"))?;
    gomoku_engine::notation::check_size(n).map_err(|e| e.to_string())
}

/// Parses a colour name for clap.
pub fn parse_color(s: &str) -> Result<Color, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "black" | "b" | "x" | "first" => Ok(Color::Black),
        "white" | "w" | "o" | "second" => Ok(Color::White),
        _ => Err(format!("'{s}': expected black or white")),
    }
}

/// How a game opens (`play --opening`, `match --opening`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningKind {
    /// Black's first move is free.
    Free,
    /// Gomocup's swap2.
    Swap2,
    /// A renju tournament rule: Soosõrv-8 or Taraguchi-10.
    Renju(gomoku_engine::renju::OpeningRule),
}

impl OpeningKind {
    /// The rule a game with this opening has when none is given: renju for the renju rules,
    /// freestyle otherwise.
    #[must_use]
    pub fn default_rule(self) -> Rule {
        match self {
            OpeningKind::Renju(_) => Rule::Renju,
            OpeningKind::Free | OpeningKind::Swap2 => Rule::Freestyle,
        }
    }
}

/// Parses an opening name for clap: `free`, `swap2`, `soosorv8` or `taraguchi10`.
pub fn parse_opening(s: &str) -> Result<OpeningKind, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "free" | "none" => Ok(OpeningKind::Free),
        "swap2" => Ok(OpeningKind::Swap2),
        other => other
            .parse()
            .map(OpeningKind::Renju)
            .map_err(|_| format!("'{s}': the openings are free, swap2, soosorv8 and taraguchi10")),
    }
}

/// Property tests of the rule and size arguments ([`parse_rule`], [`parse_size`]) and of the
/// colour argument of `play` ([`parse_color`]): any text gives a value
/// in range or an error that quotes the text (never a panic), and every value's own spelling
/// reads back as itself.
#[cfg(test)]
mod props {
    use super::*;
    use crate::prop_support::{config, noise, weird_token};
    use gomoku_engine::{Color, MAX_SIZE, MIN_SIZE};
    use proptest::prelude::*;

    fn argument() -> impl Strategy<Value = String> {
        prop_oneof![
            2 => (0usize..40).prop_map(|n| n.to_string()),
            1 => (0usize..40).prop_map(|n| format!(" {n}\t")),
            2 => prop::sample::select(vec![
                "renju", "Freestyle", "caro", "4", "exact-five", "black", "W", " o ", "second",
            ])
            .prop_map(str::to_string),
            2 => weird_token(),
            1 => noise(),
        ]
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn arguments_read_or_fail_cleanly(s in argument()) {
            match parse_size(&s) {
                Ok(n) => {
                    prop_assert!((MIN_SIZE..=MAX_SIZE).contains(&n));
                    prop_assert_eq!(s.trim().parse::<usize>(), Ok(n));
                }
                Err(e) => prop_assert!(
                    e.contains(&format!("'{s}'")) || e.contains("out of range"),
                    "{}",
                    e
                ),
            }
            match parse_rule(&s) {
                Ok(r) => prop_assert_eq!(parse_rule(r.name()), Ok(r)),
                Err(e) => prop_assert!(e.contains(&format!("'{s}'")), "{}", e),
            }
            match parse_color(&s) {
                Ok(c) => prop_assert_eq!(parse_color(c.name()), Ok(c)),
                Err(e) => prop_assert!(e.contains(&format!("'{s}'")), "{}", e),
            }
        }

        #[test]
        fn values_round_trip(
            n in MIN_SIZE..=MAX_SIZE,
            rule in prop::sample::select(Rule::ALL.to_vec()),
            color in prop::sample::select(Color::BOTH.to_vec()),
            upper in any::<bool>(),
        ) {
            let case = |t: String| if upper { t.to_ascii_uppercase() } else { t };
            prop_assert_eq!(parse_size(&n.to_string()), Ok(n));
            prop_assert_eq!(parse_rule(&case(rule.name().to_string())), Ok(rule));
            prop_assert_eq!(parse_rule(&rule.to_string()), Ok(rule));
            prop_assert_eq!(parse_color(&case(color.to_string())), Ok(color));
        }
    }
}
