//! The browser tests' fixture: for each scenario, a `gomoku serve` of its own, chromedriver,
//! and the page open in headless Chromium (Debian's `chromium` and `chromium-driver`;
//! `scripts/test.sh` installs them when missing). Scenarios run one at a time, whatever the
//! test harness's threads: two Chromiums at once on a small machine make both slow.

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a wait for the page lasts before the scenario fails: long, because a loaded
/// machine makes everything slow, and a wait that succeeds returns at once.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// A child process that is killed when the scenario ends, however it ends.
pub struct Proc(Child);

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

/// Starts `gomoku serve --port 0` without a library and reads the address it prints.
pub fn start_server() -> (Proc, String) {
    serve("0", None).unwrap_or_else(|| panic!("gomoku serve did not start"))
}

/// Starts `gomoku serve --port port` with the library `library` (none without one), and reads
/// the address it prints; `None` when it stops before that (the port is taken).
fn serve(port: &str, library: Option<&Path>) -> Option<(Proc, String)> {
    let mut args = vec!["serve", "--port", port, "--hash-mb", "8"];
    let path;
    match library {
        Some(p) => {
            path = p.display().to_string();
            args.extend(["--library", &path]);
        }
        None => args.push("--no-library"),
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_gomoku"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("gomoku serve starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let proc = Proc(child);
    // (with a library, it says first where the library is)
    let url = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|line| {
            line.split_whitespace()
                .find(|w| w.starts_with("http://"))
                .map(str::to_string)
        })?;
    Some((proc, url))
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
    // scenario fails before closing its session (they would otherwise outlive the test)
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
        assert!(start.elapsed() < PATIENCE, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (proc, port)
}

/// The screen of a session: a window of 1400x1000 (`Desktop`, the browser's bars take some of
/// it), or a page of exactly `width` x `height` pixels (Chromium's emulation of a screen, with
/// touch for a phone).
#[derive(Clone, Copy, Debug)]
pub enum Screen {
    Desktop,
    Emulated {
        width: u32,
        height: u32,
        touch: bool,
    },
}

/// A laptop's screen, 1366x768 of page.
pub const LAPTOP: Screen = Screen::Emulated {
    width: 1366,
    height: 768,
    touch: false,
};

/// A phone's screen, 390x844 of page, with touch.
pub const PHONE: Screen = Screen::Emulated {
    width: 390,
    height: 844,
    touch: true,
};

async fn connect(driver_port: u16, profile: &Path, screen: Screen) -> Client {
    let chromium = find_program("CHROMIUM", &["chromium", "chromium-browser"])
        .unwrap_or_else(|| missing("chromium"));
    let mut args: Vec<String> = CHROME_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut options = json!({ "binary": chromium.display().to_string(), "args": args });
    if let Screen::Emulated {
        width,
        height,
        touch,
    } = screen
    {
        options["mobileEmulation"] = json!({ "deviceMetrics": {
            "width": width, "height": height, "pixelRatio": 1.0, "touch": touch, "mobile": touch,
        } });
    }
    let Value::Object(caps) = json!({ "browserName": "chrome", "goog:chromeOptions": options })
    else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("a WebDriver session with headless Chromium")
}

/// The server and chromedriver of one scenario, and the server's library (a file of a
/// temporary folder) when it keeps one.
pub struct World {
    pub url: String,
    driver_port: u16,
    _driver: Proc,
    server: Mutex<Option<Proc>>,
    library: Option<tempfile::TempDir>,
}

/// Scenarios take turns.
static TURN: Mutex<()> = Mutex::new(());

/// Runs `scenario` with the page open at 1400x1000 in a world of its own (a server without a
/// library), after the scenarios before it in this test binary are done.
pub fn run(scenario: impl AsyncFnOnce(&World, &Page)) {
    run_in(false, scenario);
}

/// Runs `scenario` as [`run`] does, with a server that keeps a library in a new file.
pub fn run_with_library(scenario: impl AsyncFnOnce(&World, &Page)) {
    run_in(true, scenario);
}

fn run_in(with_library: bool, scenario: impl AsyncFnOnce(&World, &Page)) {
    let _turn = TURN.lock().unwrap_or_else(PoisonError::into_inner);
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let library = with_library.then(|| tempfile::tempdir().expect("a library folder"));
        let file = library.as_ref().map(|d| d.path().join("library.sqlite"));
        let (server, url) = serve("0", file.as_deref()).expect("gomoku serve starts");
        let (driver, driver_port) = start_chromedriver();
        let world = World {
            url,
            driver_port,
            _driver: driver,
            server: Mutex::new(Some(server)),
            library,
        };
        let page = world.open(Screen::Desktop, "").await;
        scenario(&world, &page).await;
        page.close().await;
    });
    eprintln!("web e2e: {:.1} s", started.elapsed().as_secs_f64());
}

impl World {
    /// The library's file (the scenario's server keeps one).
    pub fn library(&self) -> PathBuf {
        let dir = self.library.as_ref().expect("a server with a library");
        dir.path().join("library.sqlite")
    }

    /// Kills the server (SIGKILL, as a crash would) and starts it again on the same port with
    /// the same library.
    pub async fn restart_server(&self) {
        let file = self.library();
        let port = self
            .url
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .expect("a port");
        let old = self
            .server
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(old);
        let start = Instant::now();
        // (the port may take a moment to be free again)
        let (proc, url) = loop {
            if let Some(started) = serve(port, Some(&file)) {
                break started;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "the server did not start again on port {port}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        assert_eq!(url, self.url, "the same address");
        *self.server.lock().unwrap_or_else(PoisonError::into_inner) = Some(proc);
    }

    /// Opens the page (at `url` + `fragment`) in a new browser on `screen`, and waits until
    /// the board is drawn.
    pub async fn open(&self, screen: Screen, fragment: &str) -> Page {
        // a fresh profile directory, removed at the end
        let profile = tempfile::tempdir().expect("profile directory");
        let c = connect(self.driver_port, profile.path(), screen).await;
        c.goto(&format!("{}{fragment}", self.url))
            .await
            .expect("the page opens");
        c.wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css("[data-testid=board] .hit[data-point=h8]"))
            .await
            .expect("the board is drawn");
        Page {
            c,
            _profile: profile,
        }
    }
}

/// The page in one browser.
pub struct Page {
    pub c: Client,
    _profile: tempfile::TempDir,
}

/// Number of moves on the board (not a set-up position's stones).
pub const MOVE_COUNT: &str = "Number(document.querySelector('[data-testid=status]').dataset.moves)";

/// True when nobody is thinking and the person may click.
pub const IDLE: &str = "document.querySelector('[data-testid=status]').dataset.thinking === 'no'";

/// A function `inside(e)` of the page's scripts: whether element `e` is shown, all of it in
/// the window.
pub const INSIDE: &str = "const inside = (e) => { const r = e.getBoundingClientRect(); \
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; };";

/// A script's start that counts the page's requests to the server that change a game
/// (`window.posts`, each `[path, body]`), so that a test can see a click go out or not.
pub const COUNT_POSTS: &str = "window.posts = []; const f = window.fetch; \
    window.fetch = (url, o) => { if (o && o.method === 'POST') window.posts.push([String(url), o.body]); \
    return f(url, o); };";

/// True when the board, the evaluation under it and every button of the board are in the
/// window, and nothing reaches past its right edge.
pub const FITS: &str = "const inside = (e) => { const r = e.getBoundingClientRect(); \
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }; \
    return ['board', 'eval-bar', 'controls'].every(t => inside(document.querySelector(`[data-testid=${t}]`))) \
    && [...document.querySelectorAll('[data-testid=controls] button')].every(inside) \
    && document.documentElement.scrollWidth <= window.innerWidth;";

impl Page {
    pub async fn close(self) {
        self.c.close().await.expect("the browser closes");
    }

    /// Runs a script in the page and returns its value.
    pub async fn js(&self, script: &str) -> Value {
        self.c
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Waits until `script` returns true; on timeout, fails with the page's status for context.
    pub async fn wait(&self, what: &str, script: &str) {
        let start = Instant::now();
        loop {
            if self.js(script).await == Value::Bool(true) {
                return;
            }
            if start.elapsed() > PATIENCE {
                let state = self
                    .js(
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

    /// The number of moves on the board.
    pub async fn moves(&self) -> u64 {
        self.js(&format!("return {MOVE_COUNT};"))
            .await
            .as_u64()
            .expect("a number of moves")
    }

    /// Waits until the board holds `n` moves and nobody thinks.
    pub async fn wait_moves(&self, what: &str, n: usize) {
        self.wait(what, &format!("return {MOVE_COUNT} === {n} && {IDLE};"))
            .await;
    }

    pub async fn text(&self, testid: &str) -> String {
        self.c
            .find(Locator::Css(&format!("[data-testid={testid}]")))
            .await
            .unwrap_or_else(|e| panic!("no [data-testid={testid}]: {e}"))
            .text()
            .await
            .expect("text")
    }

    /// Opens the dialog that holds `[data-testid=testid]` when it is in a closed one (by the
    /// header's button, as a person would); true when it opened one.
    async fn open_its_dialog(&self, testid: &str) -> bool {
        let opened = self
            .js(&format!(
                "const d = document.querySelector('[data-testid={testid}]')?.closest('dialog'); \
                 if (!d || d.open) return false; \
                 document.querySelector(`[data-opens=\"${{d.id}}\"]`).click(); return d.open;"
            ))
            .await;
        opened == json!(true)
    }

    /// Closes the dialog that holds `[data-testid=testid]`, by its × button, when it is open.
    async fn close_its_dialog(&self, testid: &str) {
        self.js(&format!(
            "const d = document.querySelector('[data-testid={testid}]')?.closest('dialog'); \
             if (d && d.open) d.querySelector('[data-close]').click(); return true;"
        ))
        .await;
    }

    /// Clicks `[data-testid=testid]`; one in a dialog with the dialog opened first, and closed
    /// again after the click when the click did not close it.
    pub async fn click(&self, testid: &str) {
        let opened = self.open_its_dialog(testid).await;
        self.c
            .find(Locator::Css(&format!("[data-testid={testid}]")))
            .await
            .unwrap_or_else(|e| panic!("no [data-testid={testid}]: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {testid}: {e}"));
        if opened {
            self.close_its_dialog(testid).await;
        }
    }

    /// Clicks a point of the board. The board is drawn afresh on every state the server
    /// sends, so the point found may be replaced before the click reaches it: found afresh
    /// and clicked again, up to three times.
    pub async fn click_point(&self, point: &str) {
        let css = format!("[data-testid=board] .hit[data-point=\"{point}\"]");
        for tries in 0.. {
            let clicked = self
                .c
                .find(Locator::Css(&css))
                .await
                .unwrap_or_else(|e| panic!("no point {point} on the board: {e}"))
                .click()
                .await;
            match clicked {
                Ok(()) => return,
                Err(e) if tries == 2 => panic!("cannot click {point}: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Chooses `value` in the list `[data-testid=testid]` (in a dialog: opened and closed
    /// again).
    pub async fn select(&self, testid: &str, value: &str) {
        let opened = self.open_its_dialog(testid).await;
        self.c
            .find(Locator::Css(&format!("[data-testid={testid}]")))
            .await
            .unwrap_or_else(|e| panic!("no [data-testid={testid}]: {e}"))
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("cannot select {value} in {testid}: {e}"));
        if opened {
            self.close_its_dialog(testid).await;
        }
    }

    /// Moves the pointer onto the element `css` finds; false when it was replaced first.
    pub async fn hover(&self, css: &str) -> bool {
        let Ok(element) = self.c.find(Locator::Css(css)).await else {
            return false;
        };
        let to = MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        self.c.perform_actions(to).await.is_ok()
    }

    /// Presses Ctrl (and Shift) with `key` on the page; true when the page took it.
    pub async fn ctrl_key(&self, key: &str, shift: bool) -> bool {
        let script = format!(
            "const e = new KeyboardEvent('keydown', {{ key: '{key}', ctrlKey: true, shiftKey: {shift}, \
             bubbles: true, cancelable: true }}); document.body.dispatchEvent(e); return e.defaultPrevented;"
        );
        self.js(&script).await == json!(true)
    }

    /// Presses `key` on the page.
    pub async fn key(&self, key: &str) {
        self.js(&format!(
            "document.body.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}', bubbles: true}})); return true;"
        ))
        .await;
    }

    /// Starts a game of `rule` on a `size` board between `mode` (`person-engine`...), with the
    /// other settings as the form has them.
    pub async fn start_game(&self, rule: &str, size: &str, mode: &str) {
        self.select("ng-rule", rule).await;
        self.select("ng-size", size).await;
        self.select("ng-mode", mode).await;
        let before = self.game_id().await;
        self.click("ng-start").await;
        self.wait(
            "the new game",
            &format!(
                "return sessionStorage.getItem('gomoku.game') !== {before} \
                 && document.querySelector('[data-testid=board]').dataset.size === '{size}' \
                 && {MOVE_COUNT} === 0 && {IDLE};"
            ),
        )
        .await;
    }

    /// Types `text` into the field `[data-testid=testid]` (in a dialog: opened first, and left
    /// open), in place of what it held.
    pub async fn type_into(&self, testid: &str, text: &str) {
        self.open_its_dialog(testid).await;
        let field = self
            .c
            .find(Locator::Css(&format!("[data-testid={testid}]")))
            .await
            .unwrap_or_else(|e| panic!("no [data-testid={testid}]: {e}"));
        field.clear().await.expect("clear");
        field.send_keys(text).await.expect("type");
    }

    /// Chooses the files `paths` in the file field `[data-testid=testid]`, as a person picking
    /// them would (in a dialog: opened first, and left open).
    pub async fn upload(&self, testid: &str, paths: &[PathBuf]) {
        self.open_its_dialog(testid).await;
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        self.c
            .find(Locator::Css(&format!("[data-testid={testid}]")))
            .await
            .unwrap_or_else(|e| panic!("no [data-testid={testid}]: {e}"))
            .send_keys(&names.join("\n"))
            .await
            .unwrap_or_else(|e| panic!("cannot choose {names:?}: {e}"));
    }

    /// Puts `text` in the import box (its dialog left open).
    pub async fn type_import(&self, text: &str) {
        self.open_its_dialog("io-text").await;
        let area = self
            .c
            .find(Locator::Css("[data-testid=io-text]"))
            .await
            .expect("import box");
        area.clear().await.expect("clear");
        area.send_keys(text).await.expect("type");
    }

    /// Imports `position` (a new game with the form's settings) and waits for its `moves`.
    pub async fn import(&self, position: &str, moves: usize) {
        self.type_import(position).await;
        let before = self.game_id().await;
        self.click("io-import").await;
        self.wait(
            "the imported game",
            &format!(
                "return sessionStorage.getItem('gomoku.game') !== {before} \
                 && {MOVE_COUNT} === {moves} && {IDLE};"
            ),
        )
        .await;
    }

    /// The id of the game this tab plays.
    pub async fn game_id(&self) -> Value {
        self.js("return sessionStorage.getItem('gomoku.game');")
            .await
    }

    /// Saves a screenshot of the page, from its top, as `name` in the test's temporary
    /// directory (or at `GOMOKU_E2E_SCREENSHOT` for `web-e2e.png`).
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        self.js("window.scrollTo(0, 0); return true;").await;
        self.screenshot_as_is(name).await
    }

    /// Saves a screenshot of the page as it is scrolled.
    pub async fn screenshot_as_is(&self, name: &str) -> PathBuf {
        let png = self.c.screenshot().await.expect("a screenshot");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000);
        let path = match std::env::var_os("GOMOKU_E2E_SCREENSHOT") {
            Some(p) if name == "web-e2e.png" => PathBuf::from(p),
            _ => Path::new(env!("CARGO_TARGET_TMPDIR")).join(name),
        };
        std::fs::write(&path, &png).expect("the screenshot is saved");
        eprintln!("web e2e: {}", path.display());
        path
    }
}

/// Whether `text` starts with an evaluation that names its side: "Black 64%", "White wins
/// in 5".
pub fn names_a_side(text: &str) -> bool {
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

/// A number of the engine panel ("1,234").
pub fn number(s: &str) -> u64 {
    s.replace(',', "")
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("'{s}' is not a number"))
}
