//! The players of a match: an internal configuration (search, evaluator, limits) or an
//! external pbrain engine, both behind [`Player`].
//!
//! A player is written on the command line as a spec:
//! - internal: `key=value` pairs separated by commas or spaces, e.g.
//!   `search=alphabeta,eval=tuple,depth=3` or `pvs time=200`. Keys: `search`, `eval`,
//!   `ordering` (on/off), `depth`, `time` (ms per move), `nodes`, `hash` (MB), `threads`,
//!   `name`, `set` (`set=NAME:VALUE`, a search parameter override of pvs, repeatable). A bare
//!   word is a search name.
//! - external: `cmd:` followed by the command line, e.g. `cmd:./pbrain-foo --flag`.

use super::pbrain::{split_command, Failure, PbrainProcess};
use crate::args::{MAX_HASH_MB, MAX_THREADS};
use crate::pbrain::swap2::{self, Answer};
use anyhow::{anyhow, bail, Result};
use gomoku_engine::search::MAX_DEPTH;
use gomoku_engine::study::{SearchKind, Searcher, SearcherSpec};
use gomoku_engine::{EngineConfig, Game, Limits, Pos, SearchOptions};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Default table size of an internal pvs player in a match (several may run at once).
const MATCH_HASH_MB: usize = 32;

/// What kind of player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A searcher of this program.
    Internal(SearcherSpec),
    /// A pbrain engine: program and arguments.
    External(Vec<String>),
}

/// A player as configured on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// Name in the results.
    pub name: String,
    /// Internal or external.
    pub kind: PlayerKind,
    /// Own time per move in ms (otherwise the match's).
    pub time_ms: Option<u64>,
    /// Own depth limit.
    pub depth: Option<i32>,
    /// Own node limit.
    pub nodes: Option<u64>,
}

fn parse_on_off(key: &str, v: &str) -> Result<bool> {
    match v.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" | "1" => Ok(true),
        "off" | "no" | "false" | "0" => Ok(false),
        _ => bail!("'{key}={v}': expected on or off"),
    }
}

fn parse_num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T> {
    v.parse()
        .map_err(|_| anyhow!("'{key}={v}': expected a number"))
}

impl std::str::FromStr for PlayerSpec {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<PlayerSpec> {
        let t = text.trim();
        if let Some(cmd) = t.strip_prefix("cmd:") {
            let words = split_command(cmd).map_err(|e| anyhow!("player '{text}': {e}"))?;
            // paths shortened to file names: `sh tests/fake.sh legal` -> `sh fake.sh legal`
            let name = words
                .iter()
                .map(|w| w.rsplit('/').next().unwrap_or(w))
                .collect::<Vec<_>>()
                .join(" ");
            return Ok(PlayerSpec {
                name,
                kind: PlayerKind::External(words),
                time_ms: None,
                depth: None,
                nodes: None,
            });
        }
        let mut spec = SearcherSpec {
            engine: EngineConfig {
                hash_mb: MATCH_HASH_MB,
                threads: 1,
            },
            ..SearcherSpec::default()
        };
        let mut name = None;
        let mut p = PlayerSpec {
            name: String::new(),
            kind: PlayerKind::Internal(spec.clone()),
            time_ms: None,
            depth: None,
            nodes: None,
        };
        let words: Vec<&str> = t
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            bail!("empty player spec (e.g. 'search=pvs,time=200' or 'cmd:./engine')");
        }
        for w in words {
            let Some((k, v)) = w.split_once('=') else {
                spec.search = w
                    .parse::<SearchKind>()
                    .map_err(|e| anyhow!("player '{text}': {e}"))?;
                continue;
            };
            match k.to_ascii_lowercase().as_str() {
                "search" => spec.search = v.parse().map_err(|e| anyhow!("player '{text}': {e}"))?,
                "eval" => spec.eval = v.parse().map_err(|e| anyhow!("player '{text}': {e}"))?,
                "ordering" => spec.ordering = parse_on_off(k, v)?,
                "depth" => {
                    let d: i32 = parse_num(k, v)?;
                    if !(1..=MAX_DEPTH).contains(&d) {
                        bail!("'{w}': the depth must be between 1 and {MAX_DEPTH}");
                    }
                    p.depth = Some(d);
                }
                "time" | "time-ms" | "time_ms" => p.time_ms = Some(parse_num(k, v)?),
                "nodes" => p.nodes = Some(parse_num(k, v)?),
                "hash" | "hash-mb" | "hash_mb" => {
                    let mb: usize = parse_num(k, v)?;
                    if mb > MAX_HASH_MB {
                        bail!("'{w}': the table is at most {MAX_HASH_MB} MB");
                    }
                    spec.engine.hash_mb = mb.max(1);
                }
                "threads" => {
                    let n: usize = parse_num(k, v)?;
                    if n > MAX_THREADS {
                        bail!("'{w}': at most {MAX_THREADS} threads");
                    }
                    spec.engine.threads = n.max(1);
                }
                "name" => {
                    if v.is_empty() {
                        bail!("'{w}': the name is empty (e.g. name=engine)");
                    }
                    name = Some(v.to_string());
                }
                "set" => {
                    let Some((pn, pv)) = v.split_once(':') else {
                        bail!("'{w}': expected set=NAME:VALUE (a search parameter override)");
                    };
                    spec.params.push((pn.to_string(), pv.to_string()));
                }
                _ => bail!(
                    "player '{text}': unknown key '{k}' (expected search, eval, ordering, depth, \
                     time, nodes, hash, threads, name, set, or cmd:COMMAND for a pbrain engine)"
                ),
            }
        }
        spec.validate()
            .map_err(|e| anyhow!("player '{text}': {e}"))?;
        p.name = name.unwrap_or_else(|| spec.label());
        p.kind = PlayerKind::Internal(spec);
        Ok(p)
    }
}

impl PlayerSpec {
    /// A short description with the limits: `pvs (200 ms)`, `alphabeta/tuple (depth 3)`.
    #[must_use]
    pub fn describe(&self, match_time_ms: u64) -> String {
        let mut lim = Vec::new();
        if let Some(d) = self.depth {
            lim.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            lim.push(format!("{n} nodes"));
        }
        if let Some(t) = self.time_ms {
            lim.push(format!("{t} ms"));
        }
        if lim.is_empty() {
            lim.push(format!("{match_time_ms} ms"));
        }
        format!("{} ({})", self.name, lim.join(", "))
    }
}

/// The clock of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time per move in ms.
    pub move_ms: u64,
    /// Time for the whole game per player in ms, if any.
    pub game_ms: Option<u64>,
    /// Extra time an external engine gets before it forfeits (process and pipe latency).
    pub margin_ms: u64,
    /// Time an external engine gets to answer `START`.
    pub start_ms: u64,
}

/// Why a player lost without a five.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit(pub String);

/// A player during one game.
pub trait Player {
    /// Asks for a move in `game` (the player is the side to move). `time_left_ms` is the
    /// player's remaining game time when the match has one.
    ///
    /// # Errors
    /// A forfeit: timeout, crash, protocol error.
    fn get_move(&mut self, game: &Game, time_left_ms: Option<u64>) -> Result<Pos, Forfeit>;
    /// Answers Gomocup's swap2 opening after `game`'s stones (0, 3 or 5, Black first): stones
    /// to place, or `SWAP` (see [`crate::pbrain::swap2`]).
    ///
    /// # Errors
    /// As for [`Player::get_move`].
    fn swap2(&mut self, game: &Game, time_left_ms: Option<u64>) -> Result<Answer, Forfeit>;
    /// Acts in a renju opening rule after `game`'s stones: every action of its turn (see
    /// [`gomoku_engine::renju::decide()`]).
    ///
    /// # Errors
    /// As for [`Player::get_move`]; a player that cannot play the rule forfeits.
    fn renju(
        &mut self,
        game: &Game,
        opening: &gomoku_engine::renju::Opening,
        time_left_ms: Option<u64>,
    ) -> Result<Vec<gomoku_engine::renju::Action>, Forfeit>;
    /// The game is over.
    fn finish(&mut self);
}

/// Makes a fresh player for one game.
///
/// # Errors
/// An external engine that cannot be started counts as a forfeit of the game.
pub fn make_player(
    spec: &PlayerSpec,
    game: &Game,
    tc: &TimeControl,
) -> Result<Box<dyn Player + Send>, Forfeit> {
    match &spec.kind {
        PlayerKind::Internal(s) => {
            let searcher = s.build().map_err(|e| Forfeit(e.to_string()))?;
            let limits = Limits {
                move_time_ms: if spec.time_ms.is_some() {
                    spec.time_ms
                } else if spec.depth.is_none() && spec.nodes.is_none() {
                    Some(tc.move_ms)
                } else {
                    None
                },
                depth: spec.depth,
                nodes: spec.nodes,
                ..Limits::default()
            };
            Ok(Box::new(Internal { searcher, limits }))
        }
        PlayerKind::External(cmd) => {
            let mut p =
                PbrainProcess::start(cmd, game.board().size(), Duration::from_millis(tc.start_ms))
                    .map_err(|e| Forfeit(e.to_string()))?;
            let turn = spec.time_ms.unwrap_or(tc.move_ms);
            p.send_info(game.board().rule(), turn, tc.game_ms, tc.game_ms)
                .map_err(|e| Forfeit(e.to_string()))?;
            Ok(Box::new(External {
                process: Some(p),
                synced: None,
                turn_ms: turn,
                margin_ms: tc.margin_ms,
                game_ms: tc.game_ms,
            }))
        }
    }
}

struct Internal {
    searcher: Box<dyn Searcher>,
    limits: Limits,
}

impl Player for Internal {
    fn get_move(&mut self, game: &Game, time_left_ms: Option<u64>) -> Result<Pos, Forfeit> {
        let limits = Limits {
            game_time_left_ms: time_left_ms,
            ..self.limits.clone()
        };
        let stop = AtomicBool::new(false);
        let r = self.searcher.search(
            game.board(),
            &limits,
            &SearchOptions::default(),
            &stop,
            &mut |_| {},
        );
        if r.best_move.is_point() {
            Ok(r.best_move)
        } else {
            Err(Forfeit("the search found no move".to_string()))
        }
    }
    fn swap2(&mut self, game: &Game, time_left_ms: Option<u64>) -> Result<Answer, Forfeit> {
        let limits = Limits {
            game_time_left_ms: time_left_ms,
            ..self.limits.clone()
        };
        let stop = AtomicBool::new(false);
        let seed = crate::seed::time_seed();
        let mut cx = swap2::Context {
            searcher: self.searcher.as_mut(),
            time_ms: limits.move_time_ms,
            limits,
            stop: &stop,
            seed,
            note: &mut |_| {},
        };
        Ok(swap2::decide(&mut cx, game.board()))
    }
    fn renju(
        &mut self,
        game: &Game,
        opening: &gomoku_engine::renju::Opening,
        time_left_ms: Option<u64>,
    ) -> Result<Vec<gomoku_engine::renju::Action>, Forfeit> {
        let limits = Limits {
            game_time_left_ms: time_left_ms,
            ..self.limits.clone()
        };
        let stop = AtomicBool::new(false);
        let seed = crate::seed::time_seed();
        let time_ms = match (limits.move_time_ms, time_left_ms) {
            // a decision is worth a move, but not more than a fifteenth of the game time left
            (Some(t), Some(left)) => Some(t.min(left / 15)),
            (t, _) => t,
        };
        let mut cx = gomoku_engine::renju::Context {
            searcher: self.searcher.as_mut(),
            time_ms,
            limits,
            stop: &stop,
            seed,
            note: &mut |_| {},
        };
        let actions = gomoku_engine::renju::decide(&mut cx, opening, game.board());
        if actions.is_empty() {
            Ok(vec![gomoku_engine::renju::fallback(opening, game.board())])
        } else {
            Ok(actions)
        }
    }
    fn finish(&mut self) {}
}

struct External {
    process: Option<PbrainProcess>,
    /// Number of moves of the game the engine knows (None before the first request).
    synced: Option<usize>,
    turn_ms: u64,
    margin_ms: u64,
    game_ms: Option<u64>,
}

impl External {
    fn fail(&mut self, f: &Failure) -> Forfeit {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        Forfeit(f.to_string())
    }
}

impl External {
    /// Sends the game time left (in a timed match), then `ask`s the engine with the deadline
    /// of one move; a failure kills the engine and forfeits.
    fn exchange<T>(
        &mut self,
        time_left_ms: Option<u64>,
        ask: impl FnOnce(&mut PbrainProcess, Instant) -> Result<T, Failure>,
    ) -> Result<T, Forfeit> {
        let allowed = time_left_ms.map_or(self.turn_ms, |left| self.turn_ms.min(left));
        let deadline = Instant::now() + Duration::from_millis(allowed + self.margin_ms);
        let Some(p) = self.process.as_mut() else {
            return Err(Forfeit("the engine is not running".to_string()));
        };
        let res = (|| {
            if self.game_ms.is_some() {
                if let Some(left) = time_left_ms {
                    p.send(&format!("INFO time_left {left}"))?;
                }
            }
            ask(p, deadline)
        })();
        res.map_err(|f| self.fail(&f))
    }
}

impl Player for External {
    fn get_move(&mut self, game: &Game, time_left_ms: Option<u64>) -> Result<Pos, Forfeit> {
        let board = game.board();
        let moves = board.moves();
        let synced = self.synced;
        let m = self.exchange(time_left_ms, |p, deadline| match synced {
            // the engine knows everything but the opponent's last move
            Some(n) if n + 1 == moves.len() && moves[n].is_point() => {
                p.ask_turn(moves[n], board.size(), deadline)
            }
            _ => p.ask_board(board, board.to_move(), deadline),
        })?;
        self.synced = Some(moves.len() + 1);
        Ok(m)
    }

    fn swap2(&mut self, game: &Game, time_left_ms: Option<u64>) -> Result<Answer, Forfeit> {
        let board = game.board();
        let a = self.exchange(time_left_ms, |p, deadline| {
            p.ask_swap2(board.moves(), board.size(), deadline)
        })?;
        // the next move sends the whole position
        self.synced = None;
        Ok(a)
    }

    fn renju(
        &mut self,
        _: &Game,
        opening: &gomoku_engine::renju::Opening,
        _: Option<u64>,
    ) -> Result<Vec<gomoku_engine::renju::Action>, Forfeit> {
        Err(Forfeit(format!(
            "cannot play a {} opening: the pbrain protocol has no commands for it",
            opening.rule()
        )))
    }

    fn finish(&mut self) {
        if let Some(p) = self.process.take() {
            p.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomoku_engine::study::EvalKind;

    #[test]
    fn parses_internal_specs() {
        let p: PlayerSpec = "search=alphabeta,eval=tuple,depth=3"
            .parse()
            .expect("valid");
        assert_eq!(p.depth, Some(3));
        assert_eq!(p.name, "alphabeta/tuple");
        match &p.kind {
            PlayerKind::Internal(s) => {
                assert_eq!(s.search, SearchKind::AlphaBeta);
                assert_eq!(s.eval, EvalKind::Tuple);
                assert!(s.ordering);
            }
            PlayerKind::External(_) => panic!("internal expected"),
        }
        let p: PlayerSpec = "pvs time=200 name=engine".parse().expect("valid");
        assert_eq!(p.time_ms, Some(200));
        assert_eq!(p.name, "engine");
        assert_eq!(p.describe(100), "engine (200 ms)");
        let e = "pvs name="
            .parse::<PlayerSpec>()
            .expect_err("an empty name")
            .to_string();
        assert!(e.contains("'name=': the name is empty"), "{e}");
        let p: PlayerSpec = "alphabeta ordering=off".parse().expect("valid");
        assert_eq!(p.name, "alphabeta-noorder/pattern");
        let p: PlayerSpec = "pvs set=lmr_scale_pct:120,set=futility_per_ply:50"
            .parse()
            .expect("valid");
        match &p.kind {
            PlayerKind::Internal(s) => {
                let params = s.search_params().expect("valid overrides");
                assert_eq!(params.lmr_scale_pct, 120);
                assert_eq!(params.futility_per_ply, 50);
            }
            PlayerKind::External(_) => panic!("internal expected"),
        }
    }

    #[test]
    fn parses_external_specs() {
        let p: PlayerSpec = "cmd:sh tests/fake.sh legal".parse().expect("valid");
        assert_eq!(
            p.kind,
            PlayerKind::External(vec!["sh".into(), "tests/fake.sh".into(), "legal".into()])
        );
        assert_eq!(p.name, "sh fake.sh legal");
    }

    #[test]
    fn rejects_bad_specs_with_the_reason() {
        for (bad, why) in [
            ("search=mcts", "'mcts'"),
            ("depth=x", "expected a number"),
            ("depth=0", "between 1 and 99"),
            ("depth=100", "between 1 and 99"),
            ("hash=4097", "at most 4096 MB"),
            ("threads=257", "at most 256 threads"),
            ("colour=red", "unknown key 'colour'"),
            ("search=pvs,eval=tuple", "pattern"),
            ("", "empty player spec"),
            ("cmd:", "empty engine command"),
            ("ordering=maybe", "on or off"),
            ("set=lmr_scale_pct", "NAME:VALUE"),
            ("set=no_such_param:1", "no_such_param"),
            ("set=lmr_scale_pct:x", "not a valid value"),
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}

/// Property tests of the player specs of `match --p1/--p2` ([`PlayerSpec`]'s `FromStr`) and of
/// the engine command lines in them ([`split_command`]): any spec, random or a valid one with
/// one token broken, gives a player within the limits or an error (never a panic); a spec
/// written from random settings reads back as those settings; a command line written with
/// quotes reads back as its words.
#[cfg(test)]
mod props {
    use super::*;
    use crate::prop_support::{config, near_valid, noise, number, weird_token};
    use gomoku_engine::search::params::PARAMS;
    use gomoku_engine::search::SearchParams;
    use gomoku_engine::study::EvalKind;
    use proptest::prelude::*;

    /// `key=value` tokens of a spec, most of them sensible.
    fn spec_tokens() -> impl Strategy<Value = Vec<String>> + Clone {
        let value = |words: Vec<&'static str>| {
            prop_oneof![
                3 => prop::sample::select(words).prop_map(str::to_string),
                1 => weird_token(),
            ]
            .boxed()
        };
        let param = prop::sample::select(PARAMS.iter().map(|p| p.name).collect::<Vec<_>>());
        let token = prop_oneof![
            value(vec!["pvs", "alphabeta", "minimax", "greedy", "mcts"])
                .prop_map(|v| format!("search={v}")),
            value(vec!["pattern", "tuple"]).prop_map(|v| format!("eval={v}")),
            value(vec!["on", "off", "yes", "0"]).prop_map(|v| format!("ordering={v}")),
            prop_oneof!["depth", "time", "time-ms", "nodes", "hash", "threads"]
                .prop_flat_map(|k| (Just(k), number()))
                .prop_map(|(k, v)| format!("{k}={v}")),
            "[a-z]{1,8}".prop_map(|v| format!("name={v}")),
            (param, prop_oneof![number(), weird_token()]).prop_map(|(p, v)| format!("set={p}:{v}")),
            value(vec!["pvs", "greedy"]),
        ];
        prop::collection::vec(token, 1..5)
    }

    /// A spec as a person might write it.
    fn spec_text() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => near_valid(spec_tokens(), ","),
            2 => near_valid(spec_tokens(), " "),
            1 => noise().prop_map(|t| format!("cmd:{t}")),
            1 => noise(),
        ]
    }

    /// `words` as one command line, each word quoted as a POSIX shell reads it.
    fn quoted(words: &[String], sep: &str) -> String {
        let quoter = shlex::Quoter::new().allow_nul(true);
        words
            .iter()
            .map(|w| quoter.quote(w).expect("NUL allowed").into_owned())
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Settings of an internal player and the spec that says them.
    #[derive(Clone, Debug)]
    struct Settings {
        search: SearchKind,
        eval: EvalKind,
        ordering: bool,
        depth: Option<i32>,
        time_ms: Option<u64>,
        nodes: Option<u64>,
        hash_mb: Option<usize>,
        threads: Option<usize>,
        name: Option<String>,
        params: Vec<(String, String)>,
    }

    fn settings() -> impl Strategy<Value = Settings> {
        let defaults = SearchParams::default();
        let param = prop::sample::select(
            PARAMS
                .iter()
                .map(|p| (p.name.to_string(), p.get(&defaults)))
                .collect::<Vec<_>>(),
        );
        (
            prop::sample::select(SearchKind::ALL.to_vec()),
            prop::sample::select(EvalKind::ALL.to_vec()),
            any::<bool>(),
            (
                prop::option::of(1..=MAX_DEPTH),
                prop::option::of(any::<u64>()),
                prop::option::of(any::<u64>()),
            ),
            prop::option::of(1..=MAX_HASH_MB),
            prop::option::of(1..=MAX_THREADS),
            prop::option::of("[A-Za-z0-9_./-]{1,12}"),
            prop::collection::vec(param, 0..3),
        )
            .prop_map(
                |(
                    search,
                    eval,
                    ordering,
                    (depth, time_ms, nodes),
                    hash_mb,
                    threads,
                    name,
                    params,
                )| {
                    let pvs = search == SearchKind::Pvs;
                    Settings {
                        search,
                        // the engine's search only runs with its own evaluation, and takes
                        // parameter overrides only for itself
                        eval: if pvs { EvalKind::Pattern } else { eval },
                        ordering,
                        depth,
                        time_ms,
                        nodes,
                        hash_mb,
                        threads,
                        name,
                        params: if pvs { params } else { Vec::new() },
                    }
                },
            )
    }

    fn spec_of(s: &Settings, sep: &str) -> String {
        let mut t = vec![
            format!("search={}", s.search),
            format!("eval={}", s.eval),
            format!("ordering={}", if s.ordering { "on" } else { "off" }),
        ];
        let mut opt = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                t.push(format!("{k}={v}"));
            }
        };
        opt("depth", s.depth.map(|v| v.to_string()));
        opt("time", s.time_ms.map(|v| v.to_string()));
        opt("nodes", s.nodes.map(|v| v.to_string()));
        opt("hash", s.hash_mb.map(|v| v.to_string()));
        opt("threads", s.threads.map(|v| v.to_string()));
        opt("name", s.name.clone());
        for (n, v) in &s.params {
            t.push(format!("set={n}:{v}"));
        }
        t.join(sep)
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn specs_read_or_fail_cleanly(text in spec_text()) {
            match text.parse::<PlayerSpec>() {
                Ok(p) => match &p.kind {
                    PlayerKind::Internal(s) => {
                        prop_assert!(s.validate().is_ok());
                        prop_assert!(p.depth.is_none_or(|d| (1..=MAX_DEPTH).contains(&d)));
                        prop_assert!((1..=MAX_HASH_MB).contains(&s.engine.hash_mb));
                        prop_assert!((1..=MAX_THREADS).contains(&s.engine.threads));
                    }
                    PlayerKind::External(words) => {
                        prop_assert!(!words.is_empty());
                        prop_assert!(text.trim_start().starts_with("cmd:"));
                    }
                },
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }

        #[test]
        fn internal_specs_round_trip(s in settings(), comma in any::<bool>()) {
            let text = spec_of(&s, if comma { "," } else { " " });
            let p: PlayerSpec = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            let PlayerKind::Internal(spec) = &p.kind else {
                return Err(TestCaseError::fail("an internal player expected"));
            };
            prop_assert_eq!(spec.search, s.search);
            prop_assert_eq!(spec.eval, s.eval);
            prop_assert_eq!(spec.ordering, s.ordering);
            prop_assert_eq!(spec.engine.hash_mb, s.hash_mb.unwrap_or(MATCH_HASH_MB));
            prop_assert_eq!(spec.engine.threads, s.threads.unwrap_or(1));
            prop_assert_eq!(&spec.params, &s.params);
            prop_assert_eq!((p.depth, p.time_ms, p.nodes), (s.depth, s.time_ms, s.nodes));
            prop_assert_eq!(p.name, s.name.clone().unwrap_or_else(|| spec.label()));
        }

        #[test]
        fn command_lines_read_or_fail_cleanly(line in noise()) {
            match split_command(&line) {
                Ok(words) => {
                    prop_assert!(!words.is_empty());
                    prop_assert_eq!(split_command(&quoted(&words, " ")), Ok(words));
                }
                Err(e) => prop_assert!(!e.is_empty()),
            }
        }

        #[test]
        fn quoted_command_lines_round_trip(
            words in prop::collection::vec(prop_oneof!["[ -~]{0,8}", ".{0,4}"], 1..5),
            sep in prop_oneof![Just(" "), Just("  "), Just("\t")],
        ) {
            let line = quoted(&words, sep);
            prop_assert_eq!(split_command(&line), Ok(words.clone()));
            let p: PlayerSpec = format!("cmd:{line}").parse().map_err(|e| TestCaseError::fail(format!("{e}")))?;
            prop_assert_eq!(p.kind, PlayerKind::External(words));
        }
    }
}
