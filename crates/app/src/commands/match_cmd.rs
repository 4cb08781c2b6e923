//! `gomoku match`: games between two players, with the score, the Elo difference and an
//! optional SPRT verdict at the end. See [`crate::arena`] for how games are played.

use crate::arena::elo::{fmt_elo, Sprt, Tally, Verdict};
use crate::arena::player::{PlayerSpec, TimeControl};
use crate::arena::{
    average_move_ms, load_openings, run_match, tally, GameRecord, MatchConfig, Opening, Outcome,
};
use crate::args::OpeningKind;
use anyhow::{bail, Context, Result};
use gomoku_engine::rng::{Rng, SplitMix64};
use gomoku_engine::Rule;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `gomoku match`.
#[derive(Debug, clap::Args)]
#[command(after_help = "PLAYER specs:\n  \
    internal: key=value pairs separated by commas or spaces: search=pvs|alphabeta|minimax|greedy,\n  \
    eval=pattern|tuple, ordering=on|off, depth=N, time=MS, nodes=N, hash=MB, threads=N, name=TEXT,\n  \
    set=NAME:VALUE (a search parameter override of pvs, repeatable; see gomoku bench --set)\n  \
    (e.g. 'search=alphabeta,eval=tuple,depth=3', 'pvs time=200' or 'pvs set=lmr_scale_pct:110')\n  \
    external pbrain engine: 'cmd:PROGRAM ARGS...' (e.g. 'cmd:./pbrain-rapfi')")]
pub struct Args {
    /// The first player (the one the score, Elo and SPRT are reported for).
    #[arg(long, value_name = "PLAYER")]
    pub p1: PlayerSpec,
    /// The second player.
    #[arg(long, value_name = "PLAYER")]
    pub p2: PlayerSpec,
    /// Rule and board size.
    #[command(flatten)]
    pub board: crate::args::BoardArgs,
    /// Openings file in the common position format (each opening is played with both colours);
    /// without one, games start from the empty board.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Open every game with Gomocup's swap2 (pbrain engines get `SWAP2BOARD`): the players
    /// take turns as the first player, and the opening decides the colours. Not with
    /// `--openings`.
    #[arg(long)]
    pub swap2: bool,
    /// How every game opens: free (from the empty board, the default), swap2 (as --swap2), or
    /// a renju tournament rule, soosorv8 (Soosõrv-8) or taraguchi10 (Taraguchi-10): the
    /// players take turns as the first player, each decides by search, and the games go on
    /// from the rule's sixth move. The renju rules are for internal players (the pbrain
    /// protocol has no commands for them) and make the rule renju unless --rule says
    /// otherwise. Not with `--openings`.
    #[arg(long, value_parser = crate::args::parse_opening)]
    pub opening: Option<OpeningKind>,
    /// Only openings whose `set=` key contains this text.
    #[arg(long)]
    pub opening_set: Option<String>,
    /// Use openings of the board size whatever their rule.
    #[arg(long)]
    pub any_opening_rule: bool,
    /// Shuffle the openings (after filtering) with this seed, to draw varied ones from a file
    /// whose sets come one after another.
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// Skip this many openings (after filtering and shuffling).
    #[arg(long, default_value_t = 0)]
    pub skip_openings: usize,
    /// Number of games (default: two per opening, or 2 without openings).
    #[arg(long)]
    pub games: Option<usize>,
    /// Time per move in ms, for players without their own limits.
    #[arg(long, default_value_t = 500)]
    pub time_ms: u64,
    /// Time per game and player in ms (none by default).
    #[arg(long)]
    pub game_time_ms: Option<u64>,
    /// Extra time an external engine gets per move before it forfeits.
    #[arg(long, default_value_t = 500)]
    pub margin_ms: u64,
    /// Time an external engine gets to start and answer START.
    #[arg(long, default_value_t = 10_000)]
    pub start_timeout_ms: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Sequential probability ratio test of p1 against p2: ELO0,ELO1 (e.g. 0,50), each within
    /// -1000..1000.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// SPRT: probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT: probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Save every game as DIR/game-NNN.psq.
    #[arg(long, value_name = "DIR")]
    pub psq_dir: Option<PathBuf>,
    /// Save every game as a line of the common position format with its result.
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Print one JSON object at the end instead of text.
    #[arg(long)]
    pub json: bool,
    /// No line per game.
    #[arg(long)]
    pub quiet: bool,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Serialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    lower: f64,
    upper: f64,
    verdict: Verdict,
}

#[derive(Serialize)]
struct MatchJson<'a> {
    p1: String,
    p2: String,
    rule: &'static str,
    size: usize,
    games: usize,
    wins: u32,
    losses: u32,
    draws: u32,
    score: f64,
    score_rate: f64,
    /// Elo of p1 over p2 (null when infinite).
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    sprt: Option<SprtJson>,
    /// Average ms per move of p1 and p2.
    avg_move_ms: [f64; 2],
    forfeits: Vec<String>,
    records: &'a [GameRecord],
}

/// The largest Elo difference an SPRT bound may name: a score of 99.7%. Past it the expected
/// scores of the two hypotheses run together (1e300 and 2e300 both expect exactly 1).
const MAX_SPRT_ELO: f64 = 1000.0;

fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [a, b] = parts.as_slice() else {
        bail!("--sprt '{text}': expected ELO0,ELO1 (e.g. 0,50)");
    };
    let elo = |t: &str| -> Result<f64> {
        let v: f64 = t
            .parse()
            .with_context(|| format!("--sprt '{text}': '{t}' is not a number"))?;
        // `f64` also reads `NaN` and `inf`, with which the test never decides
        if !v.is_finite() {
            bail!("--sprt '{text}': '{t}' is not a finite number");
        }
        // beyond this both hypotheses expect a score of 1 (or 0) and the test never decides
        if v.abs() > MAX_SPRT_ELO {
            bail!("--sprt '{text}': '{t}' is outside -{MAX_SPRT_ELO}..{MAX_SPRT_ELO} Elo");
        }
        Ok(v)
    };
    let (elo0, elo1) = (elo(a)?, elo(b)?);
    if elo1 <= elo0 {
        bail!("--sprt '{text}': ELO1 must be larger than ELO0");
    }
    for (name, v) in [("--alpha", alpha), ("--beta", beta)] {
        if !(v > 0.0 && v < 0.5) {
            bail!("{name} {v}: expected a probability between 0 and 0.5");
        }
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn game_line(g: &GameRecord) -> String {
    let result = match g.outcome {
        Outcome::Black => "1-0",
        Outcome::White => "0-1",
        Outcome::Draw => "1/2",
    };
    format!(
        "game {:>3} [{}] {} (black) vs {} (white): {result} {} after {} moves",
        g.number,
        g.opening,
        g.black,
        g.white,
        g.reason,
        g.moves.len()
    )
}

/// Runs the command.
///
/// # Errors
/// Bad flags, an unreadable or malformed openings file, unwritable output paths.
pub fn run(args: &Args) -> Result<()> {
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if args.time_ms == 0 {
        bail!("--time-ms must be at least 1");
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(|s| parse_sprt(s, args.alpha, args.beta))
        .transpose()?;
    let cfg = match_config(args)?;
    let sink = GameSink::new(args)?;
    let players = [args.p1.clone(), args.p2.clone()];
    if !args.json {
        println!("{}", header(args, &cfg, &players));
    }
    let records = play_match(args, &cfg, &players, &sink)?;
    let t = tally(&records);
    // forfeits are the games not decided on the board
    let forfeits: Vec<String> = records
        .iter()
        .filter(|g| g.reason != "five" && g.reason != "board full")
        .map(|g| format!("game {}: {}", g.number, g.reason))
        .collect();
    let sprt_json = sprt.map(|s| {
        let (lower, upper) = s.bounds();
        SprtJson {
            elo0: s.elo0,
            elo1: s.elo1,
            alpha: s.alpha,
            beta: s.beta,
            llr: s.llr(&t),
            lower,
            upper,
            verdict: s.verdict(&t),
        }
    });
    if args.json {
        let (lo, hi) = t.elo_interval();
        let out = MatchJson {
            p1: players[0].name.clone(),
            p2: players[1].name.clone(),
            rule: rule_of(args).name(),
            size: args.board.size,
            games: records.len(),
            wins: t.wins,
            losses: t.losses,
            draws: t.draws,
            score: t.points(),
            score_rate: t.mean(),
            elo: finite(t.elo()),
            elo_low: finite(lo),
            elo_high: finite(hi),
            sprt: sprt_json,
            avg_move_ms: average_move_ms(&records),
            forfeits,
            records: &records,
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        print_summary(&players, &t, &records, &forfeits, sprt_json.as_ref());
    }
    Ok(())
}

/// The match the flags describe.
///
/// # Errors
/// Bad openings or game count, an unreadable or malformed openings file.
fn match_config(args: &Args) -> Result<MatchConfig> {
    let openings = openings(args)?;
    let games = args.games.unwrap_or(if openings.is_empty() {
        2
    } else {
        2 * openings.len()
    });
    if games == 0 {
        bail!("--games must be at least 1");
    }
    Ok(MatchConfig {
        size: args.board.size,
        rule: rule_of(args),
        time: TimeControl {
            move_ms: args.time_ms,
            game_ms: args.game_time_ms,
            margin_ms: args.margin_ms,
            start_ms: args.start_timeout_ms,
        },
        openings,
        swap2: opening_of(args) == OpeningKind::Swap2,
        renju: match opening_of(args) {
            OpeningKind::Renju(rule) => Some(rule),
            _ => None,
        },
        games,
        concurrency: args.concurrency,
    })
}

/// Plays the match, saving each game to `sink` and reporting it as it ends.
///
/// # Errors
/// A game that cannot be saved.
fn play_match(
    args: &Args,
    cfg: &MatchConfig,
    players: &[PlayerSpec; 2],
    sink: &GameSink,
) -> Result<Vec<GameRecord>> {
    let save_error: std::sync::Mutex<Option<anyhow::Error>> = std::sync::Mutex::new(None);
    let bar = progress_bar(args, cfg.games);
    let score = std::sync::Mutex::new(Tally::default());
    let quiet = args.quiet || args.json;
    let records = run_match(cfg, players, &|g| {
        let t = if let Ok(mut t) = score.lock() {
            t.add_score(g.score_of_first());
            *t
        } else {
            Tally::default()
        };
        bar.set_message(format!(
            "{}: +{} -{} ={}",
            players[0].name, t.wins, t.losses, t.draws
        ));
        {
            let mut err = save_error.lock().unwrap_or_else(|e| e.into_inner());
            if err.is_none() {
                *err = sink.save(g).err();
            }
        }
        bar.inc(1);
        if !quiet {
            bar.suspend(|| println!("{}", game_line(g)));
        }
    });
    bar.finish_and_clear();
    if let Some(e) = save_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(records)
}

/// The openings of the match: the file's, shuffled and with the first ones skipped as asked.
///
/// # Errors
/// `--openings` with `--swap2`; an unreadable or malformed file; skipping every opening.
fn openings(args: &Args) -> Result<Vec<Opening>> {
    if args.swap2 && args.opening.is_some_and(|o| o != OpeningKind::Swap2) {
        bail!("--swap2 and --opening ask for two openings: give one");
    }
    match (opening_of(args), args.openings.is_some()) {
        (OpeningKind::Swap2, true) => {
            bail!("--swap2 opens every game from the empty board: it does not take --openings")
        }
        (OpeningKind::Renju(rule), true) => bail!(
            "--opening {} opens every game from the empty board: it does not take --openings",
            rule.name()
        ),
        _ => {}
    }
    if let OpeningKind::Renju(rule) = opening_of(args) {
        if [&args.p1, &args.p2]
            .iter()
            .any(|p| matches!(p.kind, crate::arena::player::PlayerKind::External(_)))
        {
            bail!(
                "--opening {}: pbrain engines cannot play it (the protocol has no commands for \
                 a renju opening rule); give internal players",
                rule.name()
            );
        }
        let board = gomoku_engine::Board::new(args.board.size, rule_of(args))?;
        gomoku_engine::renju::Opening::check_start(rule, &board).map_err(anyhow::Error::msg)?;
    }
    let mut openings: Vec<Opening> = match &args.openings {
        Some(path) => load_openings(
            path,
            args.board.size,
            rule_of(args),
            args.any_opening_rule,
            args.opening_set.as_deref(),
        )?,
        None => Vec::new(),
    };
    if let Some(seed) = args.shuffle {
        SplitMix64::new(seed).shuffle(&mut openings);
    }
    if args.skip_openings > 0 {
        if args.skip_openings >= openings.len() {
            bail!(
                "--skip-openings {}: only {} openings fit",
                args.skip_openings,
                openings.len()
            );
        }
        openings.drain(..args.skip_openings);
    }
    Ok(openings)
}

/// Where the games are saved as each ends (so that a match cut short keeps the games it
/// played): a `.psq` record each in `--psq-dir`, a position line each in `--positions`.
struct GameSink {
    psq_dir: Option<PathBuf>,
    positions: std::sync::Mutex<Option<std::fs::File>>,
    size: usize,
    rule: Rule,
}

impl GameSink {
    /// Creates the directory and the positions file asked for.
    ///
    /// # Errors
    /// When either cannot be created.
    fn new(args: &Args) -> Result<GameSink> {
        if let Some(dir) = &args.psq_dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating the directory {}", dir.display()))?;
        }
        let positions = match &args.positions {
            Some(p) => Some(
                std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
            ),
            None => None,
        };
        Ok(GameSink {
            psq_dir: args.psq_dir.clone(),
            positions: std::sync::Mutex::new(positions),
            size: args.board.size,
            rule: rule_of(args),
        })
    }

    /// Saves a finished game.
    ///
    /// # Errors
    /// When a file cannot be written.
    fn save(&self, g: &GameRecord) -> Result<()> {
        if let Some(dir) = &self.psq_dir {
            let path = dir.join(format!("game-{:03}.psq", g.number));
            std::fs::write(&path, g.to_psq(self.size))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        let mut file = self.positions.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = file.as_mut() {
            writeln!(f, "{}", g.to_position_line(self.size, self.rule))
                .context("writing the positions file")?;
        }
        Ok(())
    }
}

/// How the games open: `--opening`, or swap2 with `--swap2`, else free.
fn opening_of(args: &Args) -> OpeningKind {
    match (args.opening, args.swap2) {
        (Some(o), _) => o,
        (None, true) => OpeningKind::Swap2,
        (None, false) => OpeningKind::Free,
    }
}

/// The rule: `--rule`, else the opening's (renju for the renju opening rules, freestyle).
fn rule_of(args: &Args) -> Rule {
    args.board
        .rule
        .unwrap_or_else(|| opening_of(args).default_rule())
}

/// The match's first line: the players, the board and how the games open.
fn header(args: &Args, cfg: &MatchConfig, players: &[PlayerSpec; 2]) -> String {
    let games = cfg.games;
    format!(
        "match: {} vs {}, {} {}x{}, {} games{}",
        players[0].describe(args.time_ms),
        players[1].describe(args.time_ms),
        rule_of(args),
        args.board.size,
        args.board.size,
        games,
        if let Some(rule) = cfg.renju {
            format!(" opened with {rule} (the games go on from its 6th move)")
        } else if cfg.swap2 {
            " opened with swap2".to_string()
        } else if cfg.openings.is_empty() {
            " from the empty board".to_string()
        } else {
            format!(
                " from {} openings, both colours",
                cfg.openings.len().min(games.div_ceil(2))
            )
        }
    )
}

/// The progress bar (hidden with `--no-progress`; drawn on stderr only when it is a terminal).
fn progress_bar(args: &Args, games: usize) -> ProgressBar {
    let bar = if args.no_progress {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Prints the result of the match as text: the score, the Elo difference, the time per
/// move, the forfeits and the SPRT verdict.
fn print_summary(
    players: &[PlayerSpec; 2],
    t: &Tally,
    records: &[GameRecord],
    forfeits: &[String],
    sprt: Option<&SprtJson>,
) {
    let (lo, hi) = t.elo_interval();
    println!(
        "result: {} {} wins, {} losses, {} draws of {} games against {}",
        players[0].name,
        t.wins,
        t.losses,
        t.draws,
        t.games(),
        players[1].name
    );
    println!(
        "score: {:.1}/{} ({:.1}%)",
        t.points(),
        t.games(),
        t.mean() * 100.0
    );
    println!(
        "elo: {} (95% interval {} .. {})",
        fmt_elo(t.elo()),
        fmt_elo(lo),
        fmt_elo(hi)
    );
    let avg = average_move_ms(records);
    println!(
        "time per move: {} {:.0} ms, {} {:.0} ms (average)",
        players[0].name, avg[0], players[1].name, avg[1]
    );
    if forfeits.is_empty() {
        println!("forfeits: none");
    } else {
        println!("forfeits: {}", forfeits.len());
        for f in forfeits {
            println!("  {f}");
        }
    }
    if let Some(s) = sprt {
        println!(
            "sprt: elo0 {} elo1 {} alpha {} beta {}: llr {:.2} (bounds {:.2} .. {:.2}): {}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.llr,
            s.lower,
            s.upper,
            match s.verdict {
                Verdict::H1 => "H1 accepted (p1 is stronger by about elo1 or more)",
                Verdict::H0 => "H0 accepted (p1 is not stronger by more than about elo0)",
                Verdict::Continue => "no decision yet (play more games)",
            }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprt_flags() {
        let s = parse_sprt("0, 50", 0.05, 0.1).expect("valid");
        assert_eq!((s.elo0, s.elo1, s.beta), (0.0, 50.0, 0.1));
        assert!(parse_sprt("50,0", 0.05, 0.05).is_err());
        assert!(parse_sprt("a,5", 0.05, 0.05).is_err());
        assert!(parse_sprt("0,5", 0.7, 0.05).is_err());
    }

    #[test]
    fn sprt_elo_must_be_finite() {
        // found by the property test below: `NaN,0` was accepted (NaN compares false)
        for (text, bad) in [
            ("NaN,0", "'NaN'"),
            ("0,inf", "'inf'"),
            ("-inf,0", "'-inf'"),
            ("0,1e400", "'1e400'"),
        ] {
            let e = parse_sprt(text, 0.05, 0.05).expect_err(text).to_string();
            assert!(e.contains(&format!("{bad} is not a finite number")), "{e}");
        }
    }

    #[test]
    fn sprt_elo_must_be_within_a_thousand() {
        // 1e300 and 2e300 were accepted: both expect a score of exactly 1, so the
        // log-likelihood ratio stayed 0 and the test never decided
        for (text, bad) in [
            ("1e300,2e300", "'1e300'"),
            ("0,1000.5", "'1000.5'"),
            ("-1001,0", "'-1001'"),
        ] {
            let e = parse_sprt(text, 0.05, 0.05).expect_err(text).to_string();
            assert!(
                e.contains(&format!("{bad} is outside -1000..1000 Elo")),
                "{e}"
            );
        }
        let s = parse_sprt("-1000,1000", 0.05, 0.05).expect("the widest bounds");
        assert_eq!(
            s.verdict(&Tally {
                wins: 40,
                losses: 0,
                draws: 0
            }),
            Verdict::H1
        );
    }
}

/// Property tests of `--sprt ELO0,ELO1` with `--alpha` and `--beta` ([`parse_sprt`]): any
/// text and probabilities, random or valid with one number broken, give a test whose
/// log-likelihood ratio and bounds are finite numbers for every tally, or an error naming
/// the flag (never a panic); valid settings read back as themselves.
#[cfg(test)]
mod props {
    use super::*;
    use crate::arena::elo::Tally;
    use crate::prop_support::{config, near_valid, number};
    use proptest::prelude::*;

    /// An Elo difference as written on the command line.
    fn elo() -> impl Strategy<Value = String> + Clone {
        prop_oneof![
            3 => (-500i32..500).prop_map(|v| v.to_string()),
            1 => (-1000.0f64..1000.0).prop_map(|v| v.to_string()),
            1 => prop::sample::select(vec!["NaN", "inf", "-infinity", "1e400", "-0", "1e300"])
                .prop_map(str::to_string),
            2 => number(),
        ]
    }

    /// A probability, often a strange one.
    fn probability() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => 0.001f64..0.499,
            1 => prop::sample::select(vec![
                0.0,
                0.5,
                -0.1,
                1.0,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::MIN_POSITIVE,
            ]),
            1 => any::<f64>(),
        ]
    }

    fn tally() -> impl Strategy<Value = Tally> {
        (0u32..1000, 0u32..1000, 0u32..1000).prop_map(|(wins, losses, draws)| Tally {
            wins,
            losses,
            draws,
        })
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn sprt_settings_read_or_fail_cleanly(
            text in near_valid((elo(), elo()).prop_map(|(a, b)| vec![a, b]), ","),
            alpha in probability(),
            beta in probability(),
            tallies in prop::collection::vec(tally(), 1..4),
        ) {
            match parse_sprt(&text, alpha, beta) {
                Ok(s) => {
                    prop_assert!(s.elo0.is_finite() && s.elo1.is_finite(), "{:?}", s);
                    prop_assert!(s.elo1 > s.elo0);
                    prop_assert!(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5);
                    let (lo, hi) = s.bounds();
                    prop_assert!(lo.is_finite() && hi.is_finite() && lo < hi);
                    for t in &tallies {
                        prop_assert!(s.llr(t).is_finite(), "{:?} {:?}", s, t);
                    }
                }
                Err(e) => {
                    let msg = format!("{e:#}");
                    prop_assert!(
                        msg.starts_with("--sprt") || msg.starts_with("--alpha") || msg.starts_with("--beta"),
                        "{}",
                        msg
                    );
                }
            }
        }

        #[test]
        fn sprt_settings_round_trip(
            elo0 in -1000i32..500,
            gap in 1i32..500,
            alpha in 0.001f64..0.499,
            beta in 0.001f64..0.499,
        ) {
            let text = format!("{elo0}, {}", elo0 + gap);
            let s = parse_sprt(&text, alpha, beta).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(
                (s.elo0, s.elo1, s.alpha, s.beta),
                (f64::from(elo0), f64::from(elo0 + gap), alpha, beta)
            );
        }
    }
}
