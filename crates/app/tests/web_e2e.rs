//! End to end: the real `gomoku serve` binary, driven by headless Chromium through WebDriver
//! (Debian's `chromium` and `chromium-driver`; `scripts/test.sh` installs them when missing).
//!
//! The test opens the page, starts a game against the engine, clicks intersections, waits for
//! the engine's replies, checks the engine panel, plays a short game to a win, looks at the
//! other board sizes, renju marks, the analysis overlay (with points left out of it), a swap2
//! opening, a Soosõrv-8 opening (against the engine, and between two people), the Chinese
//! labels and a phone-sized window, and saves a screenshot
//! (`target/tmp/web-e2e.png`, or the path in `GOMOKU_E2E_SCREENSHOT`).

mod common;

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process that is killed when the test ends, however it ends.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        // the whole group when it leads one (chromedriver and its browsers); `kill` only
        // reaches the process itself
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Flags this machine's Chromium needs: no sandbox (root in a container), no GPU, and no
/// background connections (the network is closed; they would only fail).
const CHROME_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
];

fn find_program(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn missing(what: &str) -> ! {
    panic!(
        "{what} not found. The browser test needs Debian's chromium and chromium-driver: \
         run scripts/test.sh (it installs them) or `apt-get install -y chromium chromium-driver`; \
         CHROMIUM and CHROMEDRIVER may point to other binaries"
    )
}

/// Starts `gomoku serve --port 0` and reads the address it prints.
fn start_server() -> (Proc, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gomoku"))
        .args(["serve", "--port", "0", "--hash-mb", "8", "--no-library"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("gomoku serve starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let proc = Proc(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("gomoku serve prints its address");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in: {line}"))
        .to_string();
    (proc, url)
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("local address").port()
}

/// Starts chromedriver and waits until it accepts connections.
fn start_chromedriver() -> (Proc, u16) {
    let driver =
        find_program("CHROMEDRIVER", &["chromedriver"]).unwrap_or_else(|| missing("chromedriver"));
    let port = free_port();
    // a process group of its own, so that the browsers it starts go with it even when the
    // test fails before closing its session (they would otherwise outlive the test)
    let child = Command::new(&driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", driver.display()));
    let proc = Proc(child);
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (proc, port)
}

async fn connect(driver_port: u16, profile: &Path) -> Client {
    let chromium = find_program("CHROMIUM", &["chromium", "chromium-browser"])
        .unwrap_or_else(|| missing("chromium"));
    let mut args: Vec<String> = CHROME_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": chromium.display().to_string(), "args": args },
    });
    let serde_json::Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("a WebDriver session with headless Chromium")
}

/// A session whose page is `width` x `height` pixels exactly (Chromium's emulation of a
/// screen), with touch for a phone.
async fn connect_emulated(
    driver_port: u16,
    profile: &Path,
    width: u32,
    height: u32,
    touch: bool,
) -> Client {
    let chromium = find_program("CHROMIUM", &["chromium", "chromium-browser"])
        .unwrap_or_else(|| missing("chromium"));
    let mut args: Vec<String> = CHROME_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium.display().to_string(),
            "args": args,
            "mobileEmulation": { "deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 1.0, "touch": touch, "mobile": touch,
            } },
        },
    });
    let serde_json::Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("a WebDriver session with an emulated screen")
}

/// Runs a script in the page and returns its value.
async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
}

/// Waits until `script` returns true; on timeout, fails with the page's status for context.
async fn wait_js(c: &Client, what: &str, script: &str) {
    let start = Instant::now();
    loop {
        if js(c, script).await == Value::Bool(true) {
            return;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let state = js(
                c,
                "return [document.querySelector('[data-testid=status]').textContent, \
                 document.querySelector('[data-testid=error]').textContent, \
                 document.querySelector('[data-testid=move-list]').textContent];",
            )
            .await;
            panic!("timed out waiting for {what}; page says {state}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn text(c: &Client, testid: &str) -> String {
    c.find(Locator::Css(&format!("[data-testid={testid}]")))
        .await
        .unwrap_or_else(|e| panic!("no [data-testid={testid}]: {e}"))
        .text()
        .await
        .expect("text")
}

async fn click_point(c: &Client, point: &str) {
    // the board is drawn afresh on every state the server sends, so the point found may be
    // replaced before the click reaches it: found afresh and clicked again, up to three times
    let mut tries = 0;
    loop {
        let clicked = c
            .find(Locator::Css(&format!(
                "[data-testid=board] .hit[data-point=\"{point}\"]"
            )))
            .await
            .unwrap_or_else(|e| panic!("no point {point} on the board: {e}"))
            .click()
            .await;
        match clicked {
            Ok(()) => return,
            Err(e) if tries == 2 => panic!("cannot click {point}: {e}"),
            Err(_) => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn click(c: &Client, testid: &str) {
    c.find(Locator::Css(&format!("[data-testid={testid}]")))
        .await
        .unwrap_or_else(|e| panic!("no [data-testid={testid}]: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {testid}: {e}"));
}

async fn select(c: &Client, testid: &str, value: &str) {
    c.find(Locator::Css(&format!("[data-testid={testid}]")))
        .await
        .unwrap_or_else(|e| panic!("no [data-testid={testid}]: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("cannot select {value} in {testid}: {e}"));
}

/// True when the board, the evaluation under it and every button of the board are in the
/// window, and nothing reaches past its right edge.
const FITS: &str = "const inside = (e) => { const r = e.getBoundingClientRect(); \
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }; \
    return ['board', 'eval-bar', 'controls'].every(t => inside(document.querySelector(`[data-testid=${t}]`))) \
    && [...document.querySelectorAll('[data-testid=controls] button')].every(inside) \
    && document.documentElement.scrollWidth <= window.innerWidth;";

/// The game of the screenshots: twelve moves, with another line tried at the 8th.
const SHOWN_GAME: &str =
    "(;FF[4]GM[4]SZ[15]RU[freestyle];B[hh];W[ig];B[gg];W[ii];B[hg];W[hf];B[gi]\
    (;W[fj];B[ih];W[gh])(;W[jh];B[ff]))";

/// Number of moves on the board (not a set-up position's stones).
const MOVE_COUNT: &str = "Number(document.querySelector('[data-testid=status]').dataset.moves)";

/// Whether `text` starts with an evaluation that names its side: "Black 64%", "White wins
/// in 5".
fn names_a_side(text: &str) -> bool {
    let Some(rest) = text
        .strip_prefix("Black ")
        .or_else(|| text.strip_prefix("White "))
    else {
        return false;
    };
    fn digits(s: &str) -> Option<&str> {
        let n = s.chars().take_while(char::is_ascii_digit).count();
        (n > 0).then(|| &s[n..])
    }
    match rest.strip_prefix("wins in ") {
        Some(r) => digits(r).is_some(),
        None => digits(rest).is_some_and(|r| r.starts_with('%')),
    }
}
/// True when nobody is thinking and the person may click.
const IDLE: &str = "document.querySelector('[data-testid=status]').dataset.thinking === 'no'";

async fn start_game(c: &Client, rule: &str, size: &str, mode: &str) {
    select(c, "ng-rule", rule).await;
    select(c, "ng-size", size).await;
    select(c, "ng-mode", mode).await;
    click(c, "ng-start").await;
    wait_js(
        c,
        "the new game",
        &format!(
            "return document.querySelector('[data-testid=board]').dataset.size === '{size}' \
             && {MOVE_COUNT} === 0 && {IDLE};"
        ),
    )
    .await;
}

async fn import(c: &Client, position: &str, moves: usize) {
    let area = c
        .find(Locator::Css("[data-testid=io-text]"))
        .await
        .expect("import box");
    area.clear().await.expect("clear");
    area.send_keys(position).await.expect("type");
    click(c, "io-import").await;
    wait_js(
        c,
        "the imported game",
        &format!("return {MOVE_COUNT} === {moves} && {IDLE};"),
    )
    .await;
}

fn number(s: &str) -> u64 {
    s.replace(',', "")
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("'{s}' is not a number"))
}

/// Saves a screenshot of the page as `name` in the test's temporary directory; the English
/// one goes to `GOMOKU_E2E_SCREENSHOT` when that is set.
async fn save_screenshot(c: &Client, name: &str) -> PathBuf {
    let png = c.screenshot().await.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000);
    let path = match std::env::var_os("GOMOKU_E2E_SCREENSHOT") {
        Some(p) if name == "web-e2e.png" => PathBuf::from(p),
        _ => Path::new(env!("CARGO_TARGET_TMPDIR")).join(name),
    };
    std::fs::write(&path, &png).expect("the screenshot is saved");
    path
}

/// Plays the person's steps of the renju opening on the page until it is over, the engine
/// acting in between: keep at a swap, two offers declared, ten at Taraguchi-10's 5th, the
/// first offer chosen, and stones and offers on the free points nearest the centre (the next
/// one when the rule refuses a point).
async fn play_renju_opening(c: &Client, renju: &str) {
    let mut points: Vec<(usize, String)> = Vec::new();
    for x in 0..15usize {
        for y in 0..15usize {
            let ring = x.abs_diff(7).max(y.abs_diff(7)) * 100 + x.abs_diff(7) + y.abs_diff(7);
            points.push((ring, format!("{}{}", (b'a' + x as u8) as char, 15 - y)));
        }
    }
    points.sort();
    for _ in 0..60 {
        wait_js(
            c,
            "the person's step in the opening",
            &format!("return {IDLE} && ({renju}.hidden || {renju}.dataset.actor === 'person');"),
        )
        .await;
        if js(c, &format!("return {renju}.hidden;")).await == Value::Bool(true) {
            return;
        }
        let step = js(c, &format!("return {renju}.dataset.step;")).await;
        match step.as_str().unwrap_or("") {
            "swap" => click(c, "renju-keep").await,
            "declare" => {
                select(c, "renju-count", "2").await;
                click(c, "renju-declare").await;
            }
            "fifth" => click(c, "renju-ten").await,
            "choose" => {
                let first = js(
                    c,
                    "return document.querySelector('[data-offer]').dataset.offer;",
                )
                .await;
                click_point(c, first.as_str().expect("an offer")).await;
            }
            _ => {
                // a stone or an offer: the first free point the rule takes
                let state = "return document.querySelectorAll('[data-stone]').length * 100 \
                     + document.querySelectorAll('[data-offer]').length;";
                let before = js(c, state).await;
                let taken = js(
                    c,
                    "return [...document.querySelectorAll('[data-stone], [data-offer]')]\
                     .map((e) => e.dataset.stone || e.dataset.offer);",
                )
                .await;
                for (_, p) in &points {
                    if taken.as_array().is_some_and(|t| t.contains(&json!(p))) {
                        continue;
                    }
                    click_point(c, p).await;
                    tokio::time::sleep(Duration::from_millis(150)).await;
                    if js(c, state).await != before
                        || js(c, &format!("return {renju}.dataset.step;")).await != step
                    {
                        break;
                    }
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the renju opening did not end");
}

#[tokio::test]
async fn play_in_headless_chromium() {
    let started = Instant::now();
    let (_server, url) = start_server();
    let (_driver, port) = start_chromedriver();
    // a fresh profile directory, removed at the end
    let profile = tempfile::tempdir().expect("profile directory");
    let c = connect(port, profile.path()).await;
    c.goto(&url).await.expect("the page opens");
    c.wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css("[data-testid=board] .hit[data-point=h8]"))
        .await
        .expect("the board is drawn");

    // 1. A game against the engine (easy, so its replies are quick): click, wait, read.
    select(&c, "ng-level", "easy").await;
    select(&c, "ng-time", "500").await;
    start_game(&c, "freestyle", "15", "person-engine").await;
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('[data-testid=board] .hit').length;"
        )
        .await,
        225
    );
    // hovering an empty point previews the stone of the side to move
    let i9 = c
        .find(Locator::Css("[data-testid=board] .hit[data-point=i9]"))
        .await
        .expect("point i9");
    let hover = |element| {
        MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
    };
    // the driver refused the move once in a loaded run of the whole suite: tried again once,
    // with the point found afresh
    if let Err(first) = c.perform_actions(hover(i9)).await {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let i9 = c
            .find(Locator::Css("[data-testid=board] .hit[data-point=i9]"))
            .await
            .expect("point i9");
        c.perform_actions(hover(i9))
            .await
            .unwrap_or_else(|e| panic!("hover: {e} (the first try: {first})"));
    }
    let fill = js(
        &c,
        "return getComputedStyle(document.querySelector('.hit[data-point=i9]')).fill;",
    )
    .await;
    assert_eq!(fill, "rgba(0, 0, 0, 0.42)", "black preview under the mouse");
    click_point(&c, "h8").await;
    wait_js(
        &c,
        "the engine's reply",
        &format!("return {MOVE_COUNT} === 2 && {IDLE};"),
    )
    .await;
    let reply = js(
        &c,
        "return document.querySelector('[data-testid=move-list] [data-played][data-number=\"2\"]').dataset.move;",
    )
    .await;
    let reply = reply.as_str().expect("the reply's point").to_string();
    assert_eq!(
        js(
            &c,
            &format!("return document.querySelector('[data-stone=\"{reply}\"]').dataset.color;")
        )
        .await,
        "white",
        "the engine's stone is on the board"
    );
    assert_eq!(text(&c, "info-move").await, reply, "coordinate");
    // every value names its side, in the panel and under the board
    let eval = text(&c, "info-eval").await;
    assert!(names_a_side(&eval), "evaluation: {eval}");
    let bar = js(
        &c,
        "return document.querySelector('[data-testid=eval-bar]').dataset.label;",
    )
    .await;
    assert!(
        names_a_side(bar.as_str().unwrap_or("")),
        "the evaluation under the board: {bar}"
    );
    let time = text(&c, "info-time").await;
    assert!(time.ends_with(" s"), "think time: {time}");
    let depth = text(&c, "info-depth").await;
    assert!(
        number(depth.split('/').next().unwrap_or("")) >= 1,
        "depth: {depth}"
    );
    assert!(number(&text(&c, "info-nodes").await) > 0, "nodes");
    // nodes per second only for a search long enough to measure them
    let secs: f64 = time.trim_end_matches(" s").parse().expect("seconds");
    let nps = text(&c, "info-nps").await;
    if secs >= 0.1 {
        number(&nps);
    } else {
        assert_eq!(nps, "–", "no speed after {time}");
    }
    number(&text(&c, "info-tt").await); // hash hits: a number, possibly 0 this early
    assert!(
        text(&c, "info-pv").await.starts_with(&reply),
        "principal variation"
    );
    // the figures were streamed while the engine thought, not only sent at the end
    let streamed = js(&c, "return Number(document.querySelector('[data-testid=engine-info]').dataset.liveUpdates || 0);").await;
    assert!(
        streamed.as_u64().is_some_and(|n| n > 0),
        "live updates: {streamed}"
    );
    // one more exchange: the last move is marked and the graph has points
    let second = if reply == "i9" { "g7" } else { "i9" };
    click_point(&c, second).await;
    wait_js(
        &c,
        "the second reply",
        &format!("return {MOVE_COUNT} === 4 && {IDLE};"),
    )
    .await;
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('[data-testid=eval-graph] .graph-dot').length;"
        )
        .await,
        2
    );
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('[data-testid=last-move]').length;"
        )
        .await,
        1
    );
    // the best line on the board: a full-strength hint's line, numbered, Black first
    select(&c, "ng-level", "max").await;
    click(&c, "btn-hint").await;
    wait_js(
        &c,
        "the hint",
        &format!("return {IDLE} && !!document.querySelector('[data-testid=hint-mark]');"),
    )
    .await;
    click(&c, "chk-pv").await;
    let shown = js(
        &c,
        "return [[...document.querySelectorAll('[data-testid=pv-line] [data-pv]')]\
         .map(g => [g.dataset.pv, g.dataset.color, Number(g.dataset.step)]), \
         document.querySelector('[data-testid=info-pv]').textContent];",
    )
    .await;
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-line.png").await;
    let pv: Vec<&str> = shown[1].as_str().unwrap_or("").split(' ').collect();
    let stones = shown[0].as_array().expect("the line's stones");
    // (a line of one move when the hint is a proven win found at once)
    assert!(!pv.is_empty() && pv[0] != "–", "a line: {shown}");
    assert_eq!(stones.len(), pv.len(), "{shown}");
    for (i, st) in stones.iter().enumerate() {
        assert_eq!(st[0], json!(pv[i]), "{shown}");
        assert_eq!(st[1], json!(["black", "white"][i % 2]), "{shown}");
        assert_eq!(st[2], json!(i + 1), "{shown}");
    }
    click(&c, "chk-pv").await;
    assert_eq!(
        js(&c, "return document.querySelectorAll('[data-pv]').length;").await,
        json!(0),
        "the line goes with the box unticked"
    );
    select(&c, "ng-level", "easy").await;
    // undo takes back the engine's reply and the person's move
    click(&c, "btn-undo").await;
    wait_js(&c, "undo", &format!("return {MOVE_COUNT} === 2;")).await;
    // the keyboard: Ctrl+Y redoes, Ctrl+Z undoes
    let key = |k: &str, shift: bool| {
        format!(
            "const e = new KeyboardEvent('keydown', {{ key: '{k}', ctrlKey: true, shiftKey: {shift}, \
             bubbles: true, cancelable: true }}); document.body.dispatchEvent(e); return e.defaultPrevented;"
        )
    };
    assert_eq!(js(&c, &key("y", false)).await, json!(true));
    wait_js(
        &c,
        "redo by Ctrl+Y",
        &format!("return {MOVE_COUNT} === 4 && {IDLE};"),
    )
    .await;
    assert_eq!(js(&c, &key("z", false)).await, json!(true));
    wait_js(
        &c,
        "undo by Ctrl+Z",
        &format!("return {MOVE_COUNT} === 2 && {IDLE};"),
    )
    .await;
    assert_eq!(js(&c, &key("Z", true)).await, json!(true));
    wait_js(
        &c,
        "redo by Ctrl+Shift+Z",
        &format!("return {MOVE_COUNT} === 4 && {IDLE};"),
    )
    .await;
    js(&c, &key("z", false)).await;
    wait_js(
        &c,
        "undo again",
        &format!("return {MOVE_COUNT} === 2 && {IDLE};"),
    )
    .await;

    // 2. Other sizes are drawn to scale, and a click lands where it should.
    start_game(&c, "freestyle", "20", "person-person").await;
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('[data-testid=board] .hit').length;"
        )
        .await,
        400
    );
    click_point(&c, "t20").await;
    wait_js(
        &c,
        "the corner stone",
        "return !!document.querySelector('[data-stone=t20][data-color=black]');",
    )
    .await;
    start_game(&c, "freestyle", "19", "person-person").await;
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('[data-testid=board] .hit').length;"
        )
        .await,
        361
    );

    // 3. Renju: Black's forbidden point is marked, and clicking it is refused with a message.
    start_game(&c, "renju", "15", "person-person").await;
    import(&c, "f8 a1 g8 a3 h6 a5 h7 a7", 8).await;
    assert_eq!(
        js(
            &c,
            "return document.querySelector('[data-forbidden=h8]').dataset.kind;"
        )
        .await,
        "double-three"
    );
    click_point(&c, "h8").await;
    wait_js(
        &c,
        "the refusal",
        "return !document.querySelector('[data-testid=error]').hidden;",
    )
    .await;
    assert_eq!(js(&c, &format!("return {MOVE_COUNT};")).await, 8);

    // 3b. Analysis: a heat map of the candidates on the board (their colour the side to
    // move's chance, the number under the pointer) and the candidate list, each value naming
    // its side; Black's forbidden point is never a candidate; a move restarts it for the other
    // side.
    click(&c, "btn-analyze").await;
    wait_js(
        &c,
        "candidates on the board",
        "return document.querySelectorAll('[data-testid=board] [data-candidate]').length >= 3 \
         && document.querySelectorAll('[data-testid=candidates] li').length >= 3;",
    )
    .await;
    assert_eq!(
        js(&c, "return document.querySelector('[data-testid=btn-analyze]').getAttribute('aria-pressed');").await,
        "true"
    );
    assert_eq!(
        js(
            &c,
            "return !!document.querySelector('[data-candidate=h8]');"
        )
        .await,
        Value::Bool(false),
        "a forbidden point is no candidate"
    );
    // the board and the list read at once: both follow the live analysis
    let seen = js(
        &c,
        "return [[...document.querySelectorAll('[data-testid=heat-map] [data-candidate]')]\
         .map(g => [g.dataset.candidate, Number(g.dataset.rank), Number(g.dataset.score), \
         Number(g.dataset.chance), g.querySelector('rect').getAttribute('fill'), g.classList.contains('best')]), \
         document.querySelector('[data-testid=candidates] li').dataset.move, \
         [...document.querySelectorAll('[data-testid=candidates] li .ev')].map(e => e.textContent)];",
    )
    .await;
    let marks = seen[0].as_array().expect("heat map cells");
    for (i, m) in marks.iter().enumerate() {
        assert_eq!(m[1], json!(i), "cells in rank order: {marks:?}");
        if i > 0 {
            assert!(
                m[2].as_f64() <= marks[i - 1][2].as_f64()
                    && m[3].as_f64() <= marks[i - 1][3].as_f64(),
                "best first, with the best chance: {marks:?}"
            );
        }
        let chance = m[3].as_f64().expect("a chance");
        assert!((0.0..=1.0).contains(&chance), "{marks:?}");
        assert!(
            m[4].as_str().is_some_and(|f| f.starts_with("hsl(")),
            "a colour of the scale: {marks:?}"
        );
        assert_eq!(m[5], json!(i == 0), "the best outlined: {marks:?}");
    }
    for label in seen[2].as_array().expect("the list's values") {
        assert!(
            names_a_side(label.as_str().unwrap_or("")),
            "a candidate's value names its side: {seen}"
        );
    }
    // the number of a candidate under the pointer
    let best_cell = marks[0][0].as_str().expect("a point").to_string();
    let cell = c
        .find(Locator::Css(&format!(
            "[data-testid=board] .hit[data-point=\"{best_cell}\"]"
        )))
        .await
        .expect("the best candidate's point");
    c.perform_actions(hover(cell))
        .await
        .expect("the pointer on the best candidate");
    wait_js(
        &c,
        "the heat map's number under the pointer",
        &format!(
            "const l = document.querySelector('[data-testid=heat-label]'); \
             return l.dataset.point === '{best_cell}' && / (Black|White) (\\d+%|wins in \\d+)$/.test(l.dataset.text) \
             && l.querySelector('text').textContent === l.dataset.text;"
        ),
    )
    .await;
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-heatmap.png").await;
    // the heat map goes with its box unticked, and comes back
    click(&c, "chk-heat").await;
    wait_js(
        &c,
        "no heat map",
        "return document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length === 0 \
         && document.querySelectorAll('[data-testid=candidates] li').length >= 3;",
    )
    .await;
    click(&c, "chk-heat").await;
    wait_js(
        &c,
        "the heat map again",
        "return document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length >= 3;",
    )
    .await;
    assert_eq!(
        seen[1], marks[0][0],
        "the list and the board agree on the best move"
    );
    let status = text(&c, "status").await;
    assert!(status.contains("analysing"), "status: {status}");
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-analysis.png").await;
    // the pointer on a candidate in the list: its line on the board, instead of the values.
    // The list is redrawn on every report of the live analysis, so the entry found can be
    // replaced before the driver reads or reaches it, and the candidates can change places:
    // found afresh and pointed at again, up to five times
    let mut last = Value::Null;
    let mut shown = false;
    for _ in 0..5 {
        let Ok(second) = c
            .find(Locator::Css("[data-testid=candidates] li:nth-child(2)"))
            .await
        else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let Ok(Some(hovered)) = second.attr("data-move").await else {
            continue;
        };
        if c.perform_actions(hover(second)).await.is_err() {
            continue;
        }
        let check = format!(
            "const li = [...document.querySelectorAll('[data-testid=candidates] li')]\
             .find(l => l.dataset.move === '{hovered}'); \
             return [li ? li.dataset.line : null, \
             [...document.querySelectorAll('[data-testid=pv-line] [data-pv]')].map(g => g.dataset.pv).join(' '), \
             document.querySelectorAll('[data-testid=board] [data-candidate]').length];"
        );
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            last = js(&c, &check).await;
            if last[0].as_str().is_some_and(|l| l.starts_with(&hovered))
                && last[0] == last[1]
                && last[2] == json!(0)
            {
                shown = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if shown {
            break;
        }
    }
    assert!(
        shown,
        "the hovered candidate's line on the board, and no values under it: {last}"
    );
    // leaving points out: the × of a candidate, a right-click on the board, then all back
    let left_out = js(
        &c,
        "const b = document.querySelector('[data-testid=candidates] li [data-exclude]');          b.click(); return b.dataset.exclude;",
    )
    .await;
    let left_out = left_out.as_str().expect("a candidate's point").to_string();
    wait_js(
        &c,
        "the candidate left out",
        &format!(
            "return !document.querySelector('[data-testid=excluded-box]').hidden              && document.querySelector('[data-testid=excluded-list]').textContent === '{left_out}'              && !!document.querySelector('[data-testid=board] [data-excluded=\"{left_out}\"]')              && document.querySelectorAll('[data-testid=candidates] li').length >= 1              && !document.querySelector('[data-testid=candidates] li[data-move=\"{left_out}\"]')              && !document.querySelector('[data-candidate=\"{left_out}\"]');"
        ),
    )
    .await;
    let prevented = js(
        &c,
        "const h = document.querySelector('[data-testid=board] .hit[data-point=o15]');          const e = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });          h.dispatchEvent(e); return e.defaultPrevented;",
    )
    .await;
    assert_eq!(
        prevented,
        Value::Bool(true),
        "no browser menu over the board"
    );
    wait_js(
        &c,
        "a point left out by a right-click",
        &format!(
            "return document.querySelector('[data-testid=excluded-list]').textContent === '{left_out} o15'              && !!document.querySelector('[data-excluded=o15]');"
        ),
    )
    .await;
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-excluded.png").await;
    click(&c, "btn-include-all").await;
    wait_js(
        &c,
        "every point back in the analysis",
        "return document.querySelector('[data-testid=excluded-box]').hidden          && !document.querySelector('[data-excluded]')          && document.querySelectorAll('[data-testid=candidates] li').length >= 1;",
    )
    .await;
    let best = marks[0][0].as_str().expect("a point").to_string();
    click_point(&c, &best).await;
    wait_js(
        &c,
        "the analysis for White",
        &format!(
            "return {MOVE_COUNT} === 9 && document.querySelector('[data-testid=status]').dataset.toMove === 'white' \
             && document.querySelectorAll('[data-testid=board] [data-candidate]').length >= 1 \
             && !document.querySelector('[data-candidate=\"{best}\"]');"
        ),
    )
    .await;
    click(&c, "btn-analyze").await;
    wait_js(
        &c,
        "analysis off",
        &format!(
            "return {IDLE} && document.querySelectorAll('[data-candidate]').length === 0 \
             && document.querySelector('[data-testid=candidates-box]').hidden;"
        ),
    )
    .await;

    // 3c. A swap2 opening against the engine: three stones, the engine's choice, perhaps ours.
    select(&c, "ng-opening", "swap2").await;
    select(&c, "ng-level", "easy").await;
    select(&c, "ng-time", "200").await;
    start_game(&c, "freestyle", "15", "person-engine").await;
    let opening = "document.querySelector('[data-testid=opening]')";
    assert_eq!(
        js(
            &c,
            &format!("return [{opening}.hidden, {opening}.dataset.stage];")
        )
        .await,
        json!([false, "three"])
    );
    for (i, p) in ["h8", "j9", "i7"].iter().enumerate() {
        click_point(&c, p).await;
        // (the engine may answer the third stone at once)
        wait_js(
            &c,
            "the stone",
            &format!("return {MOVE_COUNT} >= {};", i + 1),
        )
        .await;
    }
    wait_js(
        &c,
        "the engine's swap2 decision",
        &format!("return {IDLE} && ({opening}.hidden || {opening}.dataset.actor === 'person');"),
    )
    .await;
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-swap2.png").await;
    if js(&c, &format!("return {opening}.hidden;")).await == Value::Bool(false) {
        // two more stones: our choice of colour
        assert_eq!(
            js(&c, &format!("return {opening}.dataset.stage;")).await,
            "choice5"
        );
        assert_eq!(
            js(
                &c,
                "return getComputedStyle(document.querySelector('[data-testid=op-more]')).display;"
            )
            .await,
            "none",
            "no third choice after five stones"
        );
        click(&c, "op-white").await;
        wait_js(
            &c,
            "the opening's end",
            &format!("return {opening}.hidden;"),
        )
        .await;
    }
    assert_eq!(
        js(&c, &format!("return getComputedStyle({opening}).display;")).await,
        "none",
        "the banner goes once the opening is over"
    );
    let log = text(&c, "swap2-log").await;
    assert!(log.contains("took"), "the swap2 log: {log}");
    select(&c, "ng-opening", "free").await;

    // 3e. A Soosõrv-8 opening against the engine through the board: a stone off the centre
    // is refused with the rule's reason, the three stones are named, then every step of the
    // rule as it comes (ours by click or button, the engine's by search) to the sixth move.
    select(&c, "ng-opening", "soosorv8").await;
    assert_eq!(
        js(
            &c,
            "return document.querySelector('[data-testid=ng-rule]').value;"
        )
        .await,
        "renju",
        "a renju opening rule chooses the renju rule"
    );
    start_game(&c, "renju", "15", "person-engine").await;
    let renju = "document.querySelector('[data-testid=renju]')";
    assert_eq!(
        js(
            &c,
            &format!("return [{renju}.hidden, {renju}.dataset.step, {renju}.dataset.actor];")
        )
        .await,
        json!([false, "stone", "person"])
    );
    click_point(&c, "a1").await;
    wait_js(
        &c,
        "the refusal",
        "const e = document.querySelector('[data-testid=error]'); \
         return !e.hidden && e.textContent.includes('goes on the centre');",
    )
    .await;
    assert_eq!(js(&c, &format!("return {MOVE_COUNT};")).await, 0);
    for (i, p) in ["h8", "h9", "i9"].iter().enumerate() {
        click_point(&c, p).await;
        wait_js(
            &c,
            "the stone",
            &format!("return {MOVE_COUNT} >= {};", i + 1),
        )
        .await;
    }
    let name = text(&c, "opening-name").await;
    assert!(
        name.contains("Kagetsu") && name.contains("花月") && name.contains("4D"),
        "{name}"
    );
    play_renju_opening(&c, renju).await;
    assert!(
        js(&c, &format!("return {MOVE_COUNT};"))
            .await
            .as_u64()
            .unwrap_or(0)
            >= 5,
        "the game goes on from the sixth move"
    );
    let log = text(&c, "renju-log").await;
    assert!(log.contains("the opening is over"), "the log: {log}");
    assert!(text(&c, "opening-name").await.contains("Kagetsu"));

    // 3f. Two people on one board: Soosõrv-8 up to White's choice among
    // three offers, drawn on the board (the screenshot of the guide)
    select(&c, "ng-opening", "soosorv8").await;
    start_game(&c, "renju", "15", "person-person").await;
    for p in ["h8", "h9", "j10"] {
        click_point(&c, p).await;
    }
    wait_js(
        &c,
        "the swap step",
        &format!("return {renju}.dataset.step === 'swap';"),
    )
    .await;
    click(&c, "renju-keep").await;
    wait_js(
        &c,
        "the 4th stone",
        &format!("return {renju}.dataset.step === 'stone';"),
    )
    .await;
    click_point(&c, "j8").await;
    wait_js(
        &c,
        "the declaration",
        &format!("return {renju}.dataset.step === 'declare';"),
    )
    .await;
    select(&c, "renju-count", "3").await;
    click(&c, "renju-declare").await;
    wait_js(
        &c,
        "the second swap",
        &format!("return {renju}.dataset.step === 'swap';"),
    )
    .await;
    click(&c, "renju-keep").await;
    for p in ["i10", "g7", "k9"] {
        wait_js(
            &c,
            "an offer",
            &format!("return {renju}.dataset.step === 'offer';"),
        )
        .await;
        click_point(&c, p).await;
    }
    wait_js(
        &c,
        "the choice",
        &format!("return {renju}.dataset.step === 'choose';"),
    )
    .await;
    assert_eq!(
        js(
            &c,
            "return [...document.querySelectorAll('[data-offer]')].map((e) => e.dataset.offer);"
        )
        .await,
        json!(["i10", "g7", "k9"])
    );
    js(&c, "window.scrollTo(0, 0); return true;").await;
    // the pointer on the panel, so that the picture previews no stone on the board
    if let Ok(panel) = c.find(Locator::Css("[data-testid=renju-text]")).await {
        let away = MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
            element: panel,
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        // (only the picture depends on it)
        let _ = c.perform_actions(away).await;
    }
    save_screenshot(&c, "web-e2e-renju.png").await;
    click_point(&c, "g7").await;
    wait_js(
        &c,
        "the end of the opening",
        &format!("return {renju}.hidden && {MOVE_COUNT} === 5;"),
    )
    .await;
    select(&c, "ng-opening", "free").await;

    // 3d. Find a win: the solver's line on the board and in words; a move clears it.
    select(&c, "ng-mode", "person-person").await;
    select(&c, "ng-rule", "freestyle").await;
    select(&c, "ng-size", "15").await;
    import(&c, "h8 a1 i8 a3 j8 a5", 6).await;
    click(&c, "btn-solve").await;
    wait_js(
        &c,
        "the solver's answer",
        &format!(
            "const box = document.querySelector('[data-testid=solution]'); \
             return {IDLE} && !box.hidden && box.dataset.solved === 'yes';"
        ),
    )
    .await;
    let first = js(
        &c,
        "return document.querySelector('[data-testid=solution-line] [data-step=\"1\"]').dataset.solution;",
    )
    .await;
    assert!(first == json!("g8") || first == json!("k8"), "{first}");
    let words = text(&c, "solution").await;
    assert!(words.starts_with("Black wins by VC"), "{words}");
    assert_eq!(
        js(
            &c,
            "return document.querySelector('[data-testid=btn-solve]').disabled;"
        )
        .await,
        Value::Bool(true),
        "solved already"
    );
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-solve.png").await;
    click_point(&c, first.as_str().unwrap()).await;
    wait_js(
        &c,
        "the answer gone after the move",
        &format!(
            "return {MOVE_COUNT} === 7 && document.querySelector('[data-testid=solution]').hidden \
             && !document.querySelector('[data-testid=solution-line]');"
        ),
    )
    .await;
    // a solve of a quiet position (10 s: twice the 5 s per move) ends at Stop, and may be
    // asked again
    select(&c, "ng-time", "5000").await;
    import(&c, "h8 h7 j6 i7 f7 g7", 6).await;
    click(&c, "btn-solve").await;
    wait_js(
        &c,
        "the solve under way",
        "return !document.querySelector('[data-testid=btn-stop]').disabled;",
    )
    .await;
    click(&c, "btn-stop").await;
    wait_js(
        &c,
        "the stopped solve",
        &format!(
            "const box = document.querySelector('[data-testid=solution]'); \
             return {IDLE} && !box.hidden && box.dataset.stopped === 'yes';"
        ),
    )
    .await;
    let words = text(&c, "solution").await;
    assert!(words.starts_with("Stopped after"), "{words}");
    assert_eq!(
        js(
            &c,
            "return document.querySelector('[data-testid=btn-solve]').disabled;"
        )
        .await,
        Value::Bool(false),
        "a stopped solve may be asked again"
    );
    select(&c, "ng-time", "1000").await;

    // 3e. A game clock: both sides' times, the side to move's counting down; a move stops it
    // and starts the other's.
    select(&c, "ng-clock", "180000+2000").await;
    start_game(&c, "freestyle", "15", "person-person").await;
    assert_eq!(
        js(
            &c,
            "return document.querySelector('[data-testid=clocks]').hidden;"
        )
        .await,
        Value::Bool(false),
        "the clocks are shown"
    );
    let inc = text(&c, "clock-inc").await;
    assert!(inc.contains('2'), "the increment: {inc}");
    wait_js(
        &c,
        "Black's clock running down",
        "const b = document.querySelector('[data-testid=clock-black]'); \
         return b.classList.contains('running') && Number(b.dataset.ms) < 179_800;",
    )
    .await;
    click_point(&c, "h8").await;
    wait_js(
        &c,
        "White's clock running",
        &format!(
            "return {MOVE_COUNT} === 1 && document.querySelector('[data-testid=clock-white]').classList.contains('running') \
             && !document.querySelector('[data-testid=clock-black]').classList.contains('running');"
        ),
    )
    .await;
    let black = js(
        &c,
        "return [Number(document.querySelector('[data-testid=clock-black]').dataset.ms), \
         document.querySelector('[data-testid=clock-black] .time').textContent];",
    )
    .await;
    let black_ms = black[0].as_f64().unwrap_or(0.0);
    // three minutes, less the move's time, plus the 2 s increment
    assert!(
        (170_000.0..=182_000.0).contains(&black_ms),
        "Black's time after the move: {black}"
    );
    assert!(
        black[1]
            .as_str()
            .is_some_and(|t| t.starts_with("3:0") || t.starts_with("2:5")),
        "m:ss: {black}"
    );
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-clock.png").await;
    select(&c, "ng-clock", "").await;

    // 3f. Setting up a position: stones of either colour put down and taken away, a refused
    // position kept on the page, then a game from it against the engine; its stones stay.
    select(&c, "ng-mode", "person-engine").await;
    click(&c, "ng-setup").await;
    wait_js(
        &c,
        "the set-up bar, from the board shown",
        "return !document.querySelector('[data-testid=setup-bar]').hidden \
         && document.querySelector('[data-testid=status]').dataset.setup === 'yes' \
         && !!document.querySelector('[data-stone=h8]') \
         && document.querySelector('[data-testid=btn-undo]').disabled;",
    )
    .await;
    click(&c, "setup-clear").await;
    let stones = "[...document.querySelectorAll('[data-testid=board] [data-stone]')]\
                  .map(s => s.dataset.stone + ':' + s.dataset.color).sort().join(' ')";
    wait_js(&c, "an empty board", &format!("return {stones} === '';")).await;
    // a five is refused by the server: the message shows and the stones stay
    for p in ["a1", "a2", "a3", "a4", "a5"] {
        click_point(&c, p).await;
    }
    click(&c, "setup-done").await;
    wait_js(
        &c,
        "the refusal",
        "const e = document.querySelector('[data-testid=error]'); \
         return !e.hidden && e.textContent.includes('winning line');",
    )
    .await;
    assert_eq!(
        js(
            &c,
            &format!(
                "return [document.querySelector('[data-testid=setup-bar]').hidden, {stones}];"
            )
        )
        .await,
        json!([false, "a1:black a2:black a3:black a4:black a5:black"]),
        "still setting up, nothing lost"
    );
    for p in ["a1", "a2", "a3", "a4", "a5", "h8", "i8", "j8"] {
        click_point(&c, p).await;
    }
    click(&c, "setup-white").await;
    click_point(&c, "h9").await;
    click_point(&c, "i8").await; // taken away
    click(&c, "setup-black").await;
    click_point(&c, "i8").await; // and put back, black
    wait_js(
        &c,
        "three black stones and a white one, White to move",
        &format!(
            "return {stones} === 'h8:black h9:white i8:black j8:black' \
             && document.querySelector('[data-testid=setup-count]').dataset.toMove === 'white';"
        ),
    )
    .await;
    // the side to move chosen: Black (the person), though Black has more stones
    select(&c, "setup-to-move", "black").await;
    wait_js(
        &c,
        "Black to move",
        "return document.querySelector('[data-testid=setup-count]').dataset.toMove === 'black';",
    )
    .await;
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-setup.png").await;
    click(&c, "setup-done").await;
    wait_js(
        &c,
        "the game from the set-up position",
        &format!(
            "return document.querySelector('[data-testid=setup-bar]').hidden && {IDLE} \
             && document.querySelector('[data-testid=status]').dataset.toMove === 'black' \
             && document.querySelector('[data-testid=setup-entry]')?.textContent.includes('3') \
             && {MOVE_COUNT} === 0 && {stones} === 'h8:black h9:white i8:black j8:black';"
        ),
    )
    .await;
    // a move and the engine's reply, numbered after the set-up stones; undo takes both back
    // to the set-up position, which cannot be undone
    click_point(&c, "a15").await;
    wait_js(
        &c,
        "the engine's reply",
        &format!(
            "return {IDLE} && {MOVE_COUNT} === 2 \
             && document.querySelectorAll('[data-testid=board] [data-stone]').length === 6;"
        ),
    )
    .await;
    click(&c, "btn-undo").await;
    wait_js(
        &c,
        "the set-up position again, which cannot be undone",
        &format!(
            "return {IDLE} && {MOVE_COUNT} === 0 && {stones} === 'h8:black h9:white i8:black j8:black' \
             && document.querySelector('[data-testid=btn-undo]').disabled;"
        ),
    )
    .await;
    // the board as a diagram, and back: a new game from the same stones
    click(&c, "io-export-diagram").await;
    wait_js(
        &c,
        "the diagram in the box",
        "const t = document.querySelector('[data-testid=io-text]').value; \
         return t.replace(/[\\[\\]]/g, ' ').includes(' 8  . . . . . . . X X X') && t.endsWith('to move: black\\n');",
    )
    .await;
    let before = js(&c, "return sessionStorage.getItem('gomoku.game');").await;
    click(&c, "io-import").await;
    wait_js(
        &c,
        "the game from the diagram",
        &format!(
            "return {IDLE} && {MOVE_COUNT} === 0 && {stones} === 'h8:black h9:white i8:black j8:black' \
             && document.querySelector('[data-testid=status]').dataset.toMove === 'black' \
             && !!document.querySelector('[data-testid=setup-entry]') \
             && sessionStorage.getItem('gomoku.game') !== {before};"
        ),
    )
    .await;
    // the same as a position line (the passes keep the set-up), and back
    click(&c, "io-export-record").await;
    wait_js(
        &c,
        "the position line in the box",
        "return document.querySelector('[data-testid=io-text]').value.startsWith('15 freestyle ');",
    )
    .await;
    let before = js(&c, "return sessionStorage.getItem('gomoku.game');").await;
    click(&c, "io-import").await;
    wait_js(
        &c,
        "the game from the position line",
        &format!(
            "return {IDLE} && {MOVE_COUNT} === 0 && {stones} === 'h8:black h9:white i8:black j8:black' \
             && !!document.querySelector('[data-testid=setup-entry]') \
             && sessionStorage.getItem('gomoku.game') !== {before};"
        ),
    )
    .await;
    // a puzzle's line brings its own size and rule
    let area = c
        .find(Locator::Css("[data-testid=io-text]"))
        .await
        .expect("import box");
    area.clear().await.expect("clear");
    // (Black to move: the engine plays White here)
    area.send_keys("9 renju e5 -- d4 -- | task=x")
        .await
        .expect("type");
    click(&c, "io-import").await;
    wait_js(
        &c,
        "the puzzle's position",
        &format!(
            "return {IDLE} && {stones} === 'd4:black e5:black' \
             && document.querySelector('[data-testid=board]').dataset.size === '9' \
             && document.querySelector('[data-testid=ng-rule]').value === 'renju' \
             && document.querySelector('[data-testid=status]').dataset.toMove === 'black';"
        ),
    )
    .await;

    // 3g. Lines: after an undo another move starts a new line and the old one stays; a click
    // on a move of either shows its board again; a line is made the main line; the tree goes
    // out as SGF with its lines and comes back the same.
    select(&c, "ng-mode", "person-person").await;
    select(&c, "ng-rule", "freestyle").await;
    select(&c, "ng-size", "15").await;
    import(&c, "h8 i9 h9 i10", 4).await;
    click(&c, "btn-undo").await;
    wait_js(
        &c,
        "the undo",
        &format!("return {MOVE_COUNT} === 3 && {IDLE};"),
    )
    .await;
    click_point(&c, "h10").await;
    let list = "document.querySelector('[data-testid=move-list]')";
    wait_js(
        &c,
        "a new line beside the old one",
        &format!(
            "return {MOVE_COUNT} === 4 && !!document.querySelector('[data-stone=h10]') \
             && !document.querySelector('[data-stone=i10]') \
             && !!{list}.querySelector(':scope > .mv[data-move=i10]') \
             && !!{list}.querySelector('[data-testid=variation] > .mv[data-move=h10].current');"
        ),
    )
    .await;
    // the old line, shown again by a click on its move; then the new one
    js(
        &c,
        &format!("{list}.querySelector('.mv[data-move=i10]').click(); return true;"),
    )
    .await;
    wait_js(
        &c,
        "the old line on the board",
        &format!(
            "return {MOVE_COUNT} === 4 && !!document.querySelector('[data-stone=i10]') \
             && !document.querySelector('[data-stone=h10]') \
             && {list}.querySelector('.current').dataset.move === 'i10';"
        ),
    )
    .await;
    js(
        &c,
        &format!("{list}.querySelector('.mv[data-move=h10]').click(); return true;"),
    )
    .await;
    wait_js(
        &c,
        "the new line on the board",
        &format!(
            "return !!document.querySelector('[data-stone=h10]') && !document.querySelector('[data-stone=i10]') \
             && {list}.querySelector('.current').dataset.move === 'h10';"
        ),
    )
    .await;
    // back along the line with the arrow key, forward along the line last shown
    js(
        &c,
        "document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true})); return true;",
    )
    .await;
    wait_js(&c, "a move back", &format!("return {MOVE_COUNT} === 3;")).await;
    click(&c, "nav-next").await;
    wait_js(
        &c,
        "forward along the new line",
        &format!("return {MOVE_COUNT} === 4 && !!document.querySelector('[data-stone=h10]');"),
    )
    .await;
    click(&c, "btn-promote").await;
    wait_js(
        &c,
        "the new line made the main line",
        &format!(
            "return !!{list}.querySelector(':scope > .mv[data-move=h10]') \
             && !!{list}.querySelector('[data-testid=variation] > .mv[data-move=i10]') \
             && document.querySelector('[data-testid=btn-promote]').disabled;"
        ),
    )
    .await;
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-tree.png").await;
    // the tree as SGF, and a new game from it: the same lines
    let shape = format!(
        "return [...{list}.querySelectorAll('.mv')].map(m => {{ let d = 0; \
         for (let e = m.parentElement; e && e !== {list}; e = e.parentElement) d++; \
         return m.dataset.move + '/' + d; }}).join(' ');"
    );
    let before = js(&c, &shape).await;
    click(&c, "io-export-sgf").await;
    wait_js(
        &c,
        "the SGF record in the box",
        "const t = document.querySelector('[data-testid=io-text]').value; \
         return t.startsWith('(;FF[4]GM[4]') && t.includes('(;W[hf]') && t.includes('(;W[if]');",
    )
    .await;
    let old_id = js(&c, "return sessionStorage.getItem('gomoku.game');").await;
    click(&c, "io-import").await;
    wait_js(
        &c,
        "the game from the SGF record",
        &format!(
            "return sessionStorage.getItem('gomoku.game') !== {old_id} && {MOVE_COUNT} === 4 && {IDLE} \
             && !!document.querySelector('[data-stone=h10]');"
        ),
    )
    .await;
    assert_eq!(js(&c, &shape).await, before, "the same tree after the SGF");
    assert_eq!(
        before,
        json!("h8/0 i9/0 h9/0 h10/0 i10/1"),
        "the tree: the main line and one other"
    );

    // 4. A short game to a result against the engine: an open four cannot be stopped.
    select(&c, "ng-mode", "person-engine").await;
    select(&c, "ng-rule", "freestyle").await;
    select(&c, "ng-size", "15").await;
    import(&c, "h8 a1 i8 a15 j8 o1", 6).await;
    click_point(&c, "k8").await;
    wait_js(
        &c,
        "the engine's block",
        &format!("return {MOVE_COUNT} === 8 && {IDLE};"),
    )
    .await;
    let g8_taken = js(&c, "return !!document.querySelector('[data-stone=g8]');").await;
    // where the board and its tools are before the result: they stay there
    let place = "const b = document.querySelector('[data-testid=board]').getBoundingClientRect(); \
                 const t = document.querySelector('[data-testid=controls]').getBoundingClientRect(); \
                 return [b.top, b.left, b.width, t.top];";
    let before = js(&c, place).await;
    click_point(
        &c,
        if g8_taken == Value::Bool(true) {
            "l8"
        } else {
            "g8"
        },
    )
    .await;
    wait_js(
        &c,
        "the result",
        "return !document.querySelector('[data-testid=result]').hidden;",
    )
    .await;
    let result = text(&c, "result").await;
    assert!(result.contains("Black wins"), "result: {result}");
    assert_eq!(
        js(&c, place).await,
        before,
        "nothing moves when the result appears"
    );
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('[data-testid=board] .stone.win').length;"
        )
        .await,
        5,
        "the winning line is highlighted"
    );
    assert!(c.find(Locator::Css("[data-testid=win-line]")).await.is_ok());

    // 4b. The finished game reviewed: the verdicts in the move list, on the stones and in
    // the review panel. White lost, so one of White's moves turned a game not yet lost into
    // a lost one: a blunder.
    click(&c, "btn-review").await;
    wait_js(
        &c,
        "the finished review",
        "const box = document.querySelector('[data-testid=review]'); \
         return !box.hidden && box.dataset.running === 'no' && box.dataset.complete === 'yes';",
    )
    .await;
    let counts = js(
        &c,
        "return [...document.querySelectorAll('#review-counts tr')].map(tr => \
         [tr.dataset.color, ...[...tr.querySelectorAll('td[data-verdict]')].map(td => Number(td.textContent))]);",
    )
    .await;
    let moves_done = js(&c, &format!("return {MOVE_COUNT};")).await;
    let rows = counts.as_array().expect("two rows of counts");
    assert_eq!(rows.len(), 2, "{counts}");
    let total: u64 = rows
        .iter()
        .flat_map(|r| {
            r.as_array().unwrap()[1..]
                .iter()
                .map(|n| n.as_u64().unwrap())
        })
        .sum();
    assert_eq!(json!(total), moves_done, "every move judged: {counts}");
    assert_eq!(rows[1][0], "white");
    assert!(rows[1][5].as_u64() >= Some(1), "a white blunder: {counts}");
    let blunders = js(
        &c,
        "return [...document.querySelectorAll('[data-testid=move-list] [data-verdict=blunder]')]\
         .map(li => [li.dataset.move, li.querySelector('.mark').textContent, \
         !!document.querySelector(`g.review-mark[data-review=\"${li.dataset.move}\"][data-verdict=blunder] rect`), \
         !!document.querySelector(`[data-testid=review-list] li[data-number=\"${li.dataset.number}\"]`)]);",
    )
    .await;
    let blunders = blunders.as_array().expect("the blunders");
    assert!(!blunders.is_empty());
    for b in blunders {
        assert_eq!(b[1], "??", "{b}");
        assert_eq!(b[2], Value::Bool(true), "a badge on the stone: {b}");
        assert_eq!(b[3], Value::Bool(true), "listed in the panel: {b}");
    }
    // the markers differ: the winning five's line, the last move's dot, the verdicts'
    // badges; the legend names each
    let legend = js(
        &c,
        "return [...document.querySelectorAll('[data-testid=legend] li[data-mark]')].map(li => li.dataset.mark);",
    )
    .await;
    assert_eq!(
        legend,
        json!([
            "last",
            "win",
            "hint",
            "best",
            "verdicts",
            "forbidden",
            "excluded",
            "line",
            "heat"
        ])
    );
    assert_eq!(
        js(&c, "return document.querySelectorAll('[data-testid=board] circle.review-mark, [data-testid=board] .review-mark circle').length;").await,
        json!(0),
        "no verdict is a ring"
    );
    // 4c. Looking back: a bad move in the panel shows the position before it, with the
    // engine's choice and the move played marked; the arrow keys and the buttons step; the
    // last button comes back to the end of the game.
    let first = blunders[0][0].as_str().expect("a point").to_string();
    let number = js(
        &c,
        &format!("return Number(document.querySelector('[data-testid=move-list] [data-move=\"{first}\"]').dataset.number);"),
    )
    .await
    .as_u64()
    .expect("a move number");
    js(
        &c,
        &format!("document.querySelector('[data-testid=review-list] li[data-number=\"{number}\"]').click(); return true;"),
    )
    .await;
    let stones = "document.querySelectorAll('[data-testid=board] .stone').length";
    wait_js(
        &c,
        "the position before the blunder",
        &format!("return {stones} === {} && {IDLE};", number - 1),
    )
    .await;
    let shown = js(
        &c,
        &format!(
            "return [{MOVE_COUNT}, \
             !!document.querySelector('[data-stone=\"{first}\"]'), \
             document.querySelector('[data-testid=review-next]').dataset.next, \
             !!document.querySelector('[data-testid=win-line]'), \
             document.querySelector('[data-testid=move-list] .current').dataset.number, \
             document.querySelector('[data-testid=status]').dataset.waits];"
        ),
    )
    .await;
    assert_eq!(
        shown,
        json!([
            number - 1,
            false,
            first,
            false,
            (number - 1).to_string(),
            "yes"
        ]),
        "the position before the blunder, the engine waiting inside the line"
    );
    if js(
        &c,
        "return !!document.querySelector('[data-testid=review-best]');",
    )
    .await
        == Value::Bool(true)
    {
        let best = js(
            &c,
            "return document.querySelector('[data-testid=review-best]').dataset.best;",
        )
        .await;
        assert_ne!(
            best,
            json!(first),
            "the engine's choice differs from the blunder"
        );
    }
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-review.png").await;
    // a click on the board is no move while the engine's side is to move
    click_point(&c, "h1").await;
    wait_js(
        &c,
        "the refusal",
        "return !document.querySelector('[data-testid=error]').hidden;",
    )
    .await;
    assert_eq!(
        js(&c, &format!("return {stones};")).await,
        json!(number - 1)
    );
    js(
        &c,
        "document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true})); return true;",
    )
    .await;
    wait_js(&c, "one move on", &format!("return {stones} === {number};")).await;
    click(&c, "nav-first").await;
    wait_js(&c, "the start", &format!("return {stones} === 0;")).await;
    click(&c, "nav-last").await;
    wait_js(
        &c,
        "the end of the game again",
        &format!(
            "return {MOVE_COUNT} === {moves_done} && {stones} === {moves_done} \
             && !!document.querySelector('[data-testid=win-line]') \
             && !document.querySelector('[data-testid=result]').hidden;"
        ),
    )
    .await;

    // 5. Chinese labels, and back.
    click(&c, "lang-zh").await;
    let zh = text(&c, "result").await;
    assert!(zh.contains("黑方"), "Chinese result: {zh}");
    assert!(text(&c, "engine-info").await.contains("置换表命中"));
    js(&c, "window.scrollTo(0, 0); return true;").await;
    save_screenshot(&c, "web-e2e-zh.png").await;
    click(&c, "lang-en").await;
    assert!(text(&c, "result").await.contains("Black wins"));

    // 6. The screenshot, from the top of the page.
    js(&c, "window.scrollTo(0, 0); return true;").await;
    let path = save_screenshot(&c, "web-e2e.png").await;
    // 6b. Recent games: the game just won heads the list; Open starts it again as a new game
    // (the old one is gone from the server); Clear empties the list.
    let first = "document.querySelector('[data-testid=history-list] li')";
    wait_js(
        &c,
        "the won game in the recent games",
        &format!("return !!{first} && {first}.classList.contains('current') && {first}.textContent.includes('Black wins');"),
    )
    .await;
    let old_id = js(&c, "return sessionStorage.getItem('gomoku.game');").await;
    let saved = js(
        &c,
        "return JSON.parse(localStorage.getItem('gomoku.history')).length;",
    )
    .await;
    assert!(
        saved.as_u64().is_some_and(|n| n >= 3),
        "earlier games are there too: {saved}"
    );
    js(
        &c,
        &format!("{first}.querySelector('[data-open]').click(); return true;"),
    )
    .await;
    wait_js(
        &c,
        "the game opened again",
        &format!(
            "return sessionStorage.getItem('gomoku.game') !== {old_id} && {MOVE_COUNT} === 9 \
             && !document.querySelector('[data-testid=result]').hidden \
             && {first}.classList.contains('current');"
        ),
    )
    .await;
    assert_eq!(
        js(
            &c,
            "return JSON.parse(localStorage.getItem('gomoku.history')).length;"
        )
        .await,
        saved,
        "the same moves are listed once"
    );
    js(
        &c,
        "document.querySelector('[data-testid=history]').scrollIntoView(); return true;",
    )
    .await;
    save_screenshot(&c, "web-e2e-history.png").await;
    click(&c, "btn-history-clear").await;
    wait_js(
        &c,
        "an empty list",
        "return document.querySelectorAll('[data-testid=history-list] li').length === 0 \
         && !document.getElementById('history-empty').hidden;",
    )
    .await;

    // 7. A laptop and a phone: the board, the evaluation and the buttons in view without
    // scrolling, nothing sideways, nothing hidden. The game shown: a game with a line tried,
    // analysed (its heat map).
    select(&c, "ng-mode", "person-person").await;
    import(&c, SHOWN_GAME, 10).await;
    click(&c, "btn-analyze").await;
    wait_js(
        &c,
        "the analysis",
        "return document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length >= 3;",
    )
    .await;
    let id = js(&c, "return sessionStorage.getItem('gomoku.game');").await;
    let id = id.as_str().expect("the game's id").to_string();
    // a laptop's window of 1366x768 (the page gets less of it: the browser's own bars)
    c.set_window_size(1366, 768)
        .await
        .expect("a laptop-sized window");
    js(&c, "window.scrollTo(0, 0); return true;").await;
    wait_js(&c, "the board and its tools in view", FITS).await;
    // exactly 1366x768 and 390x844 of page (emulated screens, the phone's with touch): the
    // screenshots of the acceptance, under target/
    for (width, height, touch) in [(1366, 768, false), (390, 844, true)] {
        let profile = tempfile::tempdir().expect("profile directory");
        let v = connect_emulated(port, profile.path(), width, height, touch).await;
        v.goto(&format!("{url}#game={id}"))
            .await
            .expect("the page opens");
        wait_js(
            &v,
            "the analysed game",
            "return document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length >= 3 \
             && document.querySelectorAll('[data-testid=move-list] [data-testid=variation]').length === 1;",
        )
        .await;
        let size = js(&v, "return [window.innerWidth, window.innerHeight];").await;
        assert_eq!(size, json!([width, height]), "the page's size");
        wait_js(&v, "the board and its tools in view", FITS).await;
        let label = js(
            &v,
            "return document.querySelector('[data-testid=eval-bar]').dataset.label;",
        )
        .await;
        assert!(
            names_a_side(label.as_str().unwrap_or("")),
            "the evaluation in view: {label}"
        );
        let shot = save_screenshot(&v, &format!("web-e2e-{width}x{height}.png")).await;
        eprintln!("web e2e: {}", shot.display());
        if touch {
            // small cells: a tap shows the stone to come, a second tap on it plays it
            select(&v, "ng-mode", "person-person").await;
            start_game(&v, "freestyle", "22", "person-person").await;
            assert_eq!(
                js(
                    &v,
                    "return document.querySelector('[data-testid=board]').dataset.confirm;"
                )
                .await,
                "yes"
            );
            click_point(&v, "k11").await;
            wait_js(
                &v,
                "the stone to come",
                &format!(
                    "return !!document.querySelector('[data-testid=pending][data-pending=k11]') \
                     && document.querySelector('[data-testid=heat-label]').dataset.text.includes('k11') \
                     && {MOVE_COUNT} === 0;"
                ),
            )
            .await;
            save_screenshot(&v, "web-e2e-phone-tap.png").await;
            click_point(&v, "k11").await;
            wait_js(
                &v,
                "the move on the second tap",
                &format!(
                    "return {MOVE_COUNT} === 1 && !!document.querySelector('[data-stone=k11]') \
                     && !document.querySelector('[data-testid=pending]');"
                ),
            )
            .await;
            js(&v, "window.scrollTo(0, 0); return true;").await;
            wait_js(&v, "the board and its tools in view", FITS).await;
        }
        v.close().await.expect("the browser closes");
    }
    eprintln!(
        "web e2e: screenshot {}, {:.1} s",
        path.display(),
        started.elapsed().as_secs_f64()
    );
    c.close().await.expect("the browser closes");
}

// `gomoku serve` itself, without a browser.
mod serve_command {
    use super::*;

    #[test]
    fn a_taken_port_is_a_clear_error() {
        let taken = TcpListener::bind("127.0.0.1:0").expect("a port to occupy");
        let port = taken.local_addr().expect("address").port().to_string();
        let out = common::gomoku(&["serve", "--port", &port, "--no-library"]);
        assert!(!out.status.success());
        let err = common::stderr(&out);
        assert!(
            err.contains(&format!("port {port}")) && err.contains("already in use"),
            "{err}"
        );
    }

    #[test]
    fn serves_the_page_and_the_api_over_tcp() {
        let (_server, url) = start_server();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let get = |path: &str| -> String {
            use std::io::{Read, Write};
            let mut s = TcpStream::connect(addr).expect("connect");
            write!(
                s,
                "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
            )
            .expect("send");
            let mut resp = String::new();
            s.read_to_string(&mut resp).expect("read");
            resp
        };
        let page = get("/");
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
        assert!(page.contains("data-testid=\"board\""));
        let missing = get("/api/games/nope");
        assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
        assert!(missing.contains("\"unknown_game\""));
    }
}
