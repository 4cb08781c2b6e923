//! The opening rules on the board: swap2 against the engine, Soosõrv-8 against the engine
//! and between two people.

use super::browser::{run, Page, IDLE, INSIDE, LAPTOP, MOVE_COUNT};
use serde_json::{json, Value};

/// The opening's log, as text.
const LOG: &str = "return document.querySelector('[data-testid=log]').textContent;";

/// The renju rules' panel.
const RENJU: &str = "document.querySelector('[data-testid=renju]')";

/// Plays the person's steps of the renju opening on the page until it is over, the engine
/// acting in between: keep at a swap, two offers declared, ten at Taraguchi-10's 5th, the
/// first offer chosen, and stones and offers on the free points nearest the centre (the next
/// one when the rule refuses a point).
/// The game's version on the page and the number of messages shown so far.
const MARK: &str = "return [document.querySelector('[data-testid=status]').dataset.version, \
    document.querySelector('[data-testid=error]').dataset.count || '0'];";

/// Waits until the page took the step sent after `before` (a mark of [`MARK`]): a new state
/// of the game, or a message refusing it. (Until then the page still shows the step before,
/// which must not be taken for the next one.)
async fn settled(p: &Page, before: &Value) {
    p.wait(
        "the step taken or refused",
        &format!(
            "const now = (() => {{ {MARK} }})(); \
             return now[0] !== {v} || now[1] !== {n};",
            v = before[0],
            n = before[1]
        ),
    )
    .await;
}

/// At each of the person's steps, `each_step` (a script) must return true.
async fn play_renju_opening(p: &Page, each_step: &str) {
    let mut points: Vec<(usize, String)> = Vec::new();
    for x in 0..15usize {
        for y in 0..15usize {
            let ring = x.abs_diff(7).max(y.abs_diff(7)) * 100 + x.abs_diff(7) + y.abs_diff(7);
            points.push((ring, format!("{}{}", (b'a' + x as u8) as char, 15 - y)));
        }
    }
    points.sort();
    for _ in 0..60 {
        p.wait(
            "the person's step in the opening",
            &format!("return {IDLE} && ({RENJU}.hidden || {RENJU}.dataset.actor === 'person');"),
        )
        .await;
        let ok = p.js(each_step).await;
        assert_eq!(ok, json!(true), "at a step of the opening: {each_step}");
        if p.js(&format!("return {RENJU}.hidden;")).await == json!(true) {
            return;
        }
        let step = p.js(&format!("return {RENJU}.dataset.step;")).await;
        let before = p.js(MARK).await;
        match step.as_str().unwrap_or("") {
            "swap" => p.click("renju-keep").await,
            "declare" => {
                p.select("renju-count", "2").await;
                p.click("renju-declare").await;
            }
            "fifth" => p.click("renju-ten").await,
            "choose" => {
                let first = p
                    .js("return document.querySelector('[data-offer]').dataset.offer;")
                    .await;
                p.click_point(first.as_str().expect("an offer")).await;
            }
            _ => {
                put_next_stone(p, &points).await;
                continue;
            }
        }
        settled(p, &before).await;
    }
    panic!("the renju opening did not end");
}

/// A stone or an offer of the renju opening: the first free point of `points` the rule takes
/// (each refused one's message waited for before the next is tried).
async fn put_next_stone(p: &Page, points: &[(usize, String)]) {
    let taken = p
        .js(
            "return [...document.querySelectorAll('[data-stone], [data-offer]')]\
             .map((e) => e.dataset.stone || e.dataset.offer);",
        )
        .await;
    for (_, point) in points {
        if taken.as_array().is_some_and(|t| t.contains(&json!(point))) {
            continue;
        }
        let before = p.js(MARK).await;
        p.click_point(point).await;
        settled(p, &before).await;
        if p.js(MARK).await[0] != before[0] {
            return;
        }
    }
    panic!("no point of the board was taken");
}

#[test]
fn swap2_against_the_engine() {
    run(async |_, p| {
        p.select("ng-opening", "swap2").await;
        p.select("ng-level", "easy").await;
        p.select("ng-time", "200").await;
        p.start_game("freestyle", "15", "person-engine").await;
        let opening = "document.querySelector('[data-testid=opening]')";
        let shown = p
            .js(&format!(
                "return [{opening}.hidden, {opening}.dataset.stage];"
            ))
            .await;
        assert_eq!(shown, json!([false, "three"]));
        for (i, point) in ["h8", "j9", "i7"].iter().enumerate() {
            p.click_point(point).await;
            // (the engine may answer the third stone at once)
            p.wait("the stone", &format!("return {MOVE_COUNT} >= {};", i + 1))
                .await;
        }
        p.wait(
            "the engine's swap2 decision",
            &format!(
                "return {IDLE} && ({opening}.hidden || {opening}.dataset.actor === 'person');"
            ),
        )
        .await;
        p.screenshot("web-e2e-swap2.png").await;
        if p.js(&format!("return {opening}.hidden;")).await == json!(false) {
            // two more stones: our choice of colour
            assert_eq!(
                p.js(&format!("return {opening}.dataset.stage;")).await,
                "choice5"
            );
            let more =
                "return getComputedStyle(document.querySelector('[data-testid=op-more]')).display;";
            assert_eq!(
                p.js(more).await,
                "none",
                "no third choice after five stones"
            );
            p.click("op-white").await;
            p.wait("the opening's end", &format!("return {opening}.hidden;"))
                .await;
        }
        let display = p
            .js(&format!("return getComputedStyle({opening}).display;"))
            .await;
        assert_eq!(display, "none", "the banner goes once the opening is over");
        let log = p.js(LOG).await;
        assert!(
            log.as_str().is_some_and(|l| l.contains("took")),
            "the swap2 log: {log}"
        );
    });
}

#[test]
fn soosorv8_against_the_engine() {
    run(async |_, p| {
        p.select("ng-level", "easy").await;
        p.select("ng-time", "200").await;
        p.select("ng-opening", "soosorv8").await;
        let rule = p
            .js("return document.querySelector('[data-testid=ng-rule]').value;")
            .await;
        assert_eq!(rule, "renju", "a renju opening rule chooses the renju rule");
        p.start_game("renju", "15", "person-engine").await;
        let panel =
            format!("return [{RENJU}.hidden, {RENJU}.dataset.step, {RENJU}.dataset.actor];");
        assert_eq!(p.js(&panel).await, json!([false, "stone", "person"]));
        // a stone off the centre is refused with the rule's reason
        p.click_point("a1").await;
        p.wait(
            "the refusal",
            "const e = document.querySelector('[data-testid=error]'); \
             return !e.hidden && e.textContent.includes('goes on the centre');",
        )
        .await;
        assert_eq!(p.moves().await, 0);
        // the three stones are named, then every step of the rule as it comes (ours by click
        // or button, the engine's by search) to the sixth move
        for (i, point) in ["h8", "h9", "i9"].iter().enumerate() {
            p.click_point(point).await;
            p.wait("the stone", &format!("return {MOVE_COUNT} >= {};", i + 1))
                .await;
        }
        let name = p.text("opening-name").await;
        assert!(
            name.contains("Kagetsu") && name.contains("花月") && name.contains("4D"),
            "{name}"
        );
        play_renju_opening(p, "return true;").await;
        assert!(p.moves().await >= 5, "the game goes on from the sixth move");
        assert!(p.text("opening-name").await.contains("Kagetsu"));
        // the log in the players' words: who did what, the engine's reading named by side,
        // and nothing of the engine's own terms
        let log = p.js(LOG).await;
        let log = log.as_str().unwrap_or("").to_string();
        assert!(log.contains("The opening is over."), "the log: {log}");
        assert!(
            log.contains("You put down stone 1 (Black) on h8."),
            "the log: {log}"
        );
        assert!(
            log.contains("(engine: Black ") || log.contains("(engine: White "),
            "{log}"
        );
        for engine_terms in ["soosorv8", "depth", "value", "+", "now plays"] {
            assert!(
                !log.contains(engine_terms),
                "'{engine_terms}' in the log: {log}"
            );
        }
        // and in Chinese: no English word but the points
        p.click("lang-zh").await;
        let zh = p.js(LOG).await;
        let zh = zh.as_str().unwrap_or("").to_string();
        assert!(zh.contains("开局结束") && zh.contains("引擎："), "{zh}");
        let words: Vec<&str> = zh
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() > 1)
            .collect();
        assert!(
            words.is_empty(),
            "English in the Chinese log: {words:?} in {zh}"
        );
    });
}

#[test]
fn soosorv8_between_two_people_up_to_white_s_choice() {
    run(async |_, p| {
        p.select("ng-opening", "soosorv8").await;
        p.start_game("renju", "15", "person-person").await;
        let step = |kind: &str| format!("return {RENJU}.dataset.step === '{kind}';");
        // each click waited for: the page refuses a point the step on the page does not take
        for point in ["h8", "h9", "j10"] {
            let before = p.js(MARK).await;
            p.click_point(point).await;
            settled(p, &before).await;
        }
        p.wait("the swap step", &step("swap")).await;
        p.click("renju-keep").await;
        p.wait("the 4th stone", &step("stone")).await;
        p.click_point("j8").await;
        p.wait("the declaration", &step("declare")).await;
        p.select("renju-count", "3").await;
        p.click("renju-declare").await;
        p.wait("the second swap", &step("swap")).await;
        p.click("renju-keep").await;
        for point in ["i10", "g7", "k9"] {
            p.wait("an offer", &step("offer")).await;
            let before = p.js(MARK).await;
            p.click_point(point).await;
            settled(p, &before).await;
        }
        p.wait("the choice", &step("choose")).await;
        let offers =
            "return [...document.querySelectorAll('[data-offer]')].map((e) => e.dataset.offer);";
        assert_eq!(p.js(offers).await, json!(["i10", "g7", "k9"]));
        // the pointer on the panel, so that the picture previews no stone on the board (only
        // the picture depends on it)
        p.hover("[data-testid=renju-text]").await;
        p.screenshot("web-e2e-renju.png").await;
        p.click_point("g7").await;
        p.wait(
            "the end of the opening",
            &format!("return {RENJU}.hidden && {MOVE_COUNT} === 5;"),
        )
        .await;
    });
}

/// True when the board (and its bottom edge) and the renju panel are in the window and the
/// board is `width` pixels wide.
fn board_in_view(width: f64) -> String {
    format!(
        "{INSIDE} const b = document.querySelector('[data-testid=board]'); \
         const panel = document.querySelector('[data-testid=renju]'); \
         return inside(b) && Math.abs(b.getBoundingClientRect().width - {width}) < 0.5 \
         && (panel.hidden || inside(panel));"
    )
}

#[test]
fn a_laptop_keeps_the_board_in_view_through_a_soosorv8_opening() {
    run(async |world, _| {
        let p = world.open(LAPTOP, "").await;
        p.select("ng-level", "easy").await;
        p.select("ng-time", "200").await;
        p.select("ng-opening", "soosorv8").await;
        p.start_game("renju", "15", "person-engine").await;
        let width =
            "return document.querySelector('[data-testid=board]').getBoundingClientRect().width;";
        let width = p.js(width).await.as_f64().expect("the board's width");
        let in_view = board_in_view(width);
        assert_eq!(
            p.js(&in_view).await,
            json!(true),
            "at the start, {width} px"
        );
        for point in ["h8", "h9", "i9"] {
            p.click_point(point).await;
            p.wait("the stone, the board in view", &in_view).await;
        }
        // every step of the opening, the board neither moves nor changes size
        play_renju_opening(&p, &in_view).await;
        assert_eq!(p.js(&in_view).await, json!(true), "after the opening");
        p.screenshot("web-e2e-renju-laptop.png").await;
        p.close().await;
    });
}
