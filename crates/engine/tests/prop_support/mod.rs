//! Shared pieces of the property tests of the parsers (tests only): the test configuration,
//! and strategies for random text, strange tokens, and valid lines with one token broken
//! (random text alone rarely gets past a parser's first check). The engine's parser
//! properties (`parsers_prop.rs`) use it, and so does the app's library, as its
//! `prop_support` module; each uses some of it.
#![allow(dead_code)]

use proptest::prelude::*;
use proptest::sample::Index;

/// Few enough cases to keep the suite quick; no regression files (a failure found by a
/// property becomes a plain unit test beside it).
pub fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Numbers and words that break parsers: overflow, signs, floats, empty and odd digits.
pub const NASTY: &[&str] = &[
    "",
    " ",
    "0",
    "-0",
    "+7",
    "-1",
    "-9223372036854775809",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "4294967296",
    "2147483648",
    "1e3",
    "1e400",
    "0x10",
    "7.5",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "\u{663}",
    "\u{ff17}",
    "\u{e9}",
    "--",
    "-",
    "|",
    "=",
    ",",
    ",,",
    ":",
    "'",
    "\"",
    "\\",
    "a",
    "z99",
    "h0",
    "h000",
    "h0008",
    "a1b",
    "#",
];

/// One token that is probably wrong.
pub fn weird_token() -> BoxedStrategy<String> {
    prop_oneof![
        3 => prop::sample::select(NASTY).prop_map(str::to_string),
        1 => "[a-zA-Z]{1,2}[0-9]{0,5}",
        1 => "[+-]?[0-9]{1,30}",
        1 => "[0-9a-z,|=;:+ -]{0,10}",
        1 => ".{0,8}",
        1 => any::<String>(),
    ]
    .boxed()
}

/// Fully random text, biased towards the characters the parsers look at.
pub fn noise() -> BoxedStrategy<String> {
    prop_oneof![
        any::<String>(),
        ".{0,40}",
        "[0-9a-z ,|=;:+#\t\r-]{0,60}",
        "[0-9 ,-]{0,30}",
    ]
    .boxed()
}

/// A number that is usually fine, sometimes not.
pub fn number() -> BoxedStrategy<String> {
    prop_oneof![
        3 => (0u64..40).prop_map(|v| v.to_string()),
        1 => any::<u64>().prop_map(|v| v.to_string()),
        2 => weird_token(),
    ]
    .boxed()
}

/// A token list with one change: a token replaced, a token inserted, a token removed, or two
/// tokens glued together.
pub fn mutate(mut tokens: Vec<String>, at: Index, weird: String, how: u8) -> Vec<String> {
    if tokens.is_empty() {
        return vec![weird];
    }
    let i = at.index(tokens.len());
    match how % 4 {
        0 => tokens[i] = weird,
        1 => tokens.insert(i, weird),
        2 => {
            tokens.remove(i);
        }
        _ => {
            if i + 1 < tokens.len() {
                let next = tokens.remove(i + 1);
                tokens[i].push_str(&next);
            } else {
                tokens[i].push_str(&weird);
            }
        }
    }
    tokens
}

/// Text built from valid tokens: joined by `sep` as they are, with one token changed, or
/// fully random.
pub fn near_valid(
    tokens: impl Strategy<Value = Vec<String>> + Clone + 'static,
    sep: &'static str,
) -> BoxedStrategy<String> {
    prop_oneof![
        2 => tokens.clone().prop_map(move |t| t.join(sep)),
        4 => (tokens, any::<Index>(), weird_token(), any::<u8>())
            .prop_map(move |(t, at, w, how)| mutate(t, at, w, how).join(sep)),
        1 => noise(),
    ]
    .boxed()
}
