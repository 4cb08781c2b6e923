//! Studying a position: Black's forbidden points under renju, the analysis as a heat map and
//! a list (with points left out of it), and "Find a win".

use super::browser::{names_a_side, run, Page, COUNT_POSTS, IDLE, MOVE_COUNT};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A renju position where h8 is a double three for Black, Black to move.
async fn renju_position(p: &Page) {
    p.start_game("renju", "15", "person-person").await;
    p.import("f8 a1 g8 a3 h6 a5 h7 a7", 8).await;
}

/// Starts the analysis and waits for at least three candidates on the board and in the list.
async fn analyse(p: &Page) {
    p.click("btn-analyze").await;
    p.wait(
        "candidates on the board",
        "return document.querySelectorAll('[data-testid=board] [data-candidate]').length >= 3 \
         && document.querySelectorAll('[data-testid=candidates] li').length >= 3;",
    )
    .await;
}

#[test]
fn a_forbidden_point_is_marked_and_refused() {
    run(async |_, p| {
        renju_position(p).await;
        let kind = "return document.querySelector('[data-forbidden=h8]').dataset.kind;";
        assert_eq!(p.js(kind).await, "double-three");
        // refused on the page: the message at once, and no request that the server would
        // refuse (a refused request is a network error in the browser's console)
        p.js(&format!("{COUNT_POSTS} return true;")).await;
        p.click_point("h8").await;
        p.wait(
            "the refusal",
            "const e = document.querySelector('[data-testid=error]'); \
             return !e.hidden && e.dataset.code === 'forbidden' && e.textContent.includes('forbidden');",
        )
        .await;
        p.click_point("f8").await;
        p.wait(
            "the refusal of a point taken",
            "return document.querySelector('[data-testid=error]').dataset.code === 'occupied';",
        )
        .await;
        assert_eq!(
            p.js("return window.posts;").await,
            json!([]),
            "no request went out"
        );
        assert_eq!(p.moves().await, 8);
    });
}

/// The heat map's cells as the board shows them: `[point, rank, score, chance, fill, best]`.
const CELLS: &str = "[...document.querySelectorAll('[data-testid=heat-map] [data-candidate]')]\
    .map(g => [g.dataset.candidate, Number(g.dataset.rank), Number(g.dataset.score), \
    Number(g.dataset.chance), g.querySelector('rect').getAttribute('fill'), g.classList.contains('best')])";

#[test]
fn the_analysis_is_a_heat_map_and_a_list_that_agree() {
    run(async |_, p| {
        renju_position(p).await;
        analyse(p).await;
        let pressed = "return document.querySelector('[data-testid=btn-analyze]').getAttribute('aria-pressed');";
        assert_eq!(p.js(pressed).await, "true");
        let h8 = "return !!document.querySelector('[data-candidate=h8]');";
        assert_eq!(
            p.js(h8).await,
            json!(false),
            "a forbidden point is no candidate"
        );
        // the board and the list read at once: both follow the live analysis
        let seen = p
            .js(&format!(
                "return [{CELLS}, document.querySelector('[data-testid=candidates] li').dataset.move, \
                 [...document.querySelectorAll('[data-testid=candidates] li .ev')].map(e => e.textContent)];"
            ))
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
            assert!(
                (0.0..=1.0).contains(&m[3].as_f64().expect("a chance")),
                "{marks:?}"
            );
            assert!(
                m[4].as_str().is_some_and(|f| f.starts_with("hsl(")),
                "a colour: {marks:?}"
            );
            assert_eq!(m[5], json!(i == 0), "the best outlined: {marks:?}");
        }
        assert_eq!(
            seen[1], marks[0][0],
            "the list and the board agree on the best move"
        );
        for label in seen[2].as_array().expect("the list's values") {
            assert!(
                names_a_side(label.as_str().unwrap_or("")),
                "a value names its side: {seen}"
            );
        }
        // the value of a candidate under the pointer
        let best = marks[0][0].as_str().expect("a point").to_string();
        assert!(
            p.hover(&format!("[data-testid=board] .hit[data-point=\"{best}\"]"))
                .await
        );
        p.wait(
            "the heat map's value under the pointer",
            &format!(
                "const l = document.querySelector('[data-testid=heat-label]'); \
                 return l.dataset.point === '{best}' && / (Black|White) (\\d+%|wins in \\d+)$/.test(l.dataset.text) \
                 && l.querySelector('text').textContent === l.dataset.text;"
            ),
        )
        .await;
        p.screenshot("web-e2e-heatmap.png").await;
        // the heat map goes with its box unticked, and comes back
        p.click("chk-heat").await;
        p.wait(
            "no heat map",
            "return document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length === 0 \
             && document.querySelectorAll('[data-testid=candidates] li').length >= 3;",
        )
        .await;
        p.click("chk-heat").await;
        p.wait(
            "the heat map again",
            "return document.querySelectorAll('[data-testid=heat-map] [data-candidate]').length >= 3;",
        )
        .await;
        let status = p.text("status").await;
        assert!(status.contains("analysing"), "status: {status}");
        p.screenshot("web-e2e-analysis.png").await;
        // a move: the analysis starts again, for White
        p.click_point(&best).await;
        p.wait(
            "the analysis for White",
            &format!(
                "return {MOVE_COUNT} === 9 && document.querySelector('[data-testid=status]').dataset.toMove === 'white' \
                 && document.querySelectorAll('[data-testid=board] [data-candidate]').length >= 1 \
                 && !document.querySelector('[data-candidate=\"{best}\"]');"
            ),
        )
        .await;
        p.click("btn-analyze").await;
        p.wait(
            "analysis off",
            &format!(
                "return {IDLE} && document.querySelectorAll('[data-candidate]').length === 0 \
                 && document.querySelector('[data-testid=candidates-box]').hidden;"
            ),
        )
        .await;
    });
}

#[test]
fn a_candidate_in_the_list_shows_its_line_on_the_board() {
    run(async |_, p| {
        renju_position(p).await;
        analyse(p).await;
        // The list is redrawn on every report of the live analysis, so the entry found can be
        // replaced before the driver reaches it, and the candidates can change places: found
        // afresh and pointed at again, up to five times
        let mut last = Value::Null;
        for _ in 0..5 {
            let second = "[data-testid=candidates] li:nth-child(2)";
            let hovered = p
                .js(&format!(
                    "return document.querySelector('{second}')?.dataset.move;"
                ))
                .await;
            let Some(hovered) = hovered.as_str().map(str::to_string) else {
                continue;
            };
            if !p.hover(&format!("{second}[data-move=\"{hovered}\"]")).await {
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
            while start.elapsed() < Duration::from_secs(3) {
                last = p.js(&check).await;
                if last[0].as_str().is_some_and(|l| l.starts_with(&hovered))
                    && last[0] == last[1]
                    && last[2] == json!(0)
                {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        panic!("the hovered candidate's line on the board, and no values under it: {last}");
    });
}

#[test]
fn points_left_out_of_the_analysis_and_back() {
    run(async |_, p| {
        renju_position(p).await;
        analyse(p).await;
        // the × of a candidate
        let left_out = p
            .js(
                "const b = document.querySelector('[data-testid=candidates] li [data-exclude]'); \
                 b.click(); return b.dataset.exclude;",
            )
            .await;
        let left_out = left_out.as_str().expect("a candidate's point").to_string();
        p.wait(
            "the candidate left out",
            &format!(
                "return !document.querySelector('[data-testid=excluded-box]').hidden \
                 && document.querySelector('[data-testid=excluded-list]').textContent === '{left_out}' \
                 && !!document.querySelector('[data-testid=board] [data-excluded=\"{left_out}\"]') \
                 && document.querySelectorAll('[data-testid=candidates] li').length >= 1 \
                 && !document.querySelector('[data-testid=candidates] li[data-move=\"{left_out}\"]') \
                 && !document.querySelector('[data-candidate=\"{left_out}\"]');"
            ),
        )
        .await;
        // a right-click on the board, and no browser menu over it
        let prevented = p
            .js(
                "const h = document.querySelector('[data-testid=board] .hit[data-point=o15]'); \
                 const e = new MouseEvent('contextmenu', { bubbles: true, cancelable: true }); \
                 h.dispatchEvent(e); return e.defaultPrevented;",
            )
            .await;
        assert_eq!(prevented, json!(true), "no browser menu over the board");
        p.wait(
            "a point left out by a right-click",
            &format!(
                "return document.querySelector('[data-testid=excluded-list]').textContent === '{left_out} o15' \
                 && !!document.querySelector('[data-excluded=o15]');"
            ),
        )
        .await;
        p.screenshot("web-e2e-excluded.png").await;
        p.click("btn-include-all").await;
        p.wait(
            "every point back in the analysis",
            "return document.querySelector('[data-testid=excluded-box]').hidden \
             && !document.querySelector('[data-excluded]') \
             && document.querySelectorAll('[data-testid=candidates] li').length >= 1;",
        )
        .await;
    });
}

#[test]
fn find_a_win_draws_the_line_and_a_stopped_search_may_go_again() {
    run(async |_, p| {
        p.start_game("freestyle", "15", "person-person").await;
        p.import("h8 a1 i8 a3 j8 a5", 6).await;
        p.click("btn-solve").await;
        p.wait(
            "the solver's answer",
            &format!(
                "const box = document.querySelector('[data-testid=solution]'); \
                 return {IDLE} && !box.hidden && box.dataset.solved === 'yes';"
            ),
        )
        .await;
        let line = p
            .js("return [...document.querySelectorAll('[data-testid=solution-line] [data-step]')].map(g => g.dataset.solution);")
            .await;
        let first = line[0].clone();
        assert!(first == json!("g8") || first == json!("k8"), "{line}");
        // the whole line to the five: the open four, a block, the five
        assert_eq!(line.as_array().map(Vec::len), Some(3), "{line}");
        let words = p.text("solution").await;
        assert!(
            words.starts_with("Black wins by VC") && words.contains(" in 2:"),
            "{words}"
        );
        let solve_off = "return document.querySelector('[data-testid=btn-solve]').disabled;";
        assert_eq!(p.js(solve_off).await, json!(true), "solved already");
        p.screenshot("web-e2e-solve.png").await;
        // a move clears the answer
        p.click_point(first.as_str().expect("a point")).await;
        p.wait(
            "the answer gone after the move",
            &format!(
                "return {MOVE_COUNT} === 7 && document.querySelector('[data-testid=solution]').hidden \
                 && !document.querySelector('[data-testid=solution-line]');"
            ),
        )
        .await;
        // a solve of a quiet position (10 s: twice the 5 s per move) ends at Stop, and may be
        // asked again
        p.select("ng-time", "5000").await;
        p.import("h8 h7 j6 i7 f7 g7", 6).await;
        p.click("btn-solve").await;
        p.wait(
            "the solve under way",
            "return !document.querySelector('[data-testid=btn-stop]').disabled;",
        )
        .await;
        p.click("btn-stop").await;
        p.wait(
            "the stopped solve",
            &format!(
                "const box = document.querySelector('[data-testid=solution]'); \
                 return {IDLE} && !box.hidden && box.dataset.stopped === 'yes';"
            ),
        )
        .await;
        let words = p.text("solution").await;
        assert!(words.starts_with("Stopped after"), "{words}");
        assert_eq!(
            p.js(solve_off).await,
            json!(false),
            "a stopped solve may be asked again"
        );
    });
}

#[test]
fn a_proven_win_s_line_goes_on_to_the_five() {
    run(async |_, p| {
        p.start_game("freestyle", "15", "person-person").await;
        p.import("h8 a1 i8 a3 j8 a5", 6).await;
        p.click("btn-analyze").await;
        // the open four wins in 2: the line shows the block and the five too, not the four
        // alone, and the value says so
        p.wait(
            "the open four's whole line",
            "const li = document.querySelector('[data-testid=candidates] li[data-move=g8]'); \
             return !!li && li.dataset.line.split(' ').length === 3 \
             && li.querySelector('.ev').textContent === 'Black wins in 2';",
        )
        .await;
        assert!(p.hover("[data-testid=candidates] li[data-move=g8]").await);
        p.wait(
            "the line on the board",
            "return [...document.querySelectorAll('[data-testid=pv-line] [data-pv]')].length === 3;",
        )
        .await;
    });
}
