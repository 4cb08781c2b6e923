//! A game to its result, reviewed: the result in place of the status (nothing moves), the
//! winning five, the verdicts on the moves, looking back at a blunder, the Chinese labels.

use super::browser::{run, Page, IDLE, MOVE_COUNT};
use serde_json::{json, Value};

/// Plays a short game to Black's win against the engine (an open four cannot be stopped) and
/// returns its number of moves.
async fn win_against_the_engine(p: &Page) -> u64 {
    p.select("ng-level", "easy").await;
    p.select("ng-time", "500").await;
    p.start_game("freestyle", "15", "person-engine").await;
    p.import("h8 a1 i8 a15 j8 o1", 6).await;
    p.click_point("k8").await;
    p.wait_moves("the engine's block", 8).await;
    let g8_taken = p
        .js("return !!document.querySelector('[data-stone=g8]');")
        .await;
    // where the board and its tools are before the result: they stay there
    let place = "const b = document.querySelector('[data-testid=board]').getBoundingClientRect(); \
                 const t = document.querySelector('[data-testid=controls]').getBoundingClientRect(); \
                 return [b.top, b.left, b.width, t.top];";
    let before = p.js(place).await;
    p.click_point(if g8_taken == json!(true) { "l8" } else { "g8" })
        .await;
    p.wait(
        "the result",
        "return !document.querySelector('[data-testid=result]').hidden;",
    )
    .await;
    let result = p.text("result").await;
    assert!(result.contains("Black wins"), "result: {result}");
    assert_eq!(
        p.js(place).await,
        before,
        "nothing moves when the result appears"
    );
    // the evaluation under the board says the result, not a value searched before it
    let bar = p
        .js("return document.querySelector('[data-testid=eval-bar]').dataset.label;")
        .await;
    assert_eq!(bar, json!(result), "the evaluation once the game is over");
    assert!(
        !p.text("eval-text").await.contains("best"),
        "no best move after the end"
    );
    let ringed = "return document.querySelectorAll('[data-testid=board] .stone.win').length;";
    assert_eq!(p.js(ringed).await, 5, "the winning line is highlighted");
    assert!(
        p.js("return !!document.querySelector('[data-testid=win-line]');")
            .await
            == json!(true)
    );
    p.moves().await
}

/// Reviews the game and waits for the review to finish.
async fn review(p: &Page) {
    p.click("btn-review").await;
    p.wait(
        "the finished review",
        "const box = document.querySelector('[data-testid=review]'); \
         return !box.hidden && box.dataset.running === 'no' && box.dataset.complete === 'yes';",
    )
    .await;
}

/// The blunders of the move list: `[point, mark, badge on the stone, listed in the panel]`.
const BLUNDERS: &str = "return [...document.querySelectorAll('[data-testid=move-list] [data-verdict=blunder]')]\
    .map(li => [li.dataset.move, li.querySelector('.mark').textContent, \
    !!document.querySelector(`g.review-mark[data-review=\"${li.dataset.move}\"][data-verdict=blunder] rect`), \
    !!document.querySelector(`[data-testid=review-list] li[data-number=\"${li.dataset.number}\"]`)]);";

#[test]
fn a_won_game_reviewed_marks_the_loser_s_blunder() {
    run(async |_, p| {
        let moves = win_against_the_engine(p).await;
        review(p).await;
        let counts = p
            .js("return [...document.querySelectorAll('#review-counts tr')].map(tr => \
                 [tr.dataset.color, ...[...tr.querySelectorAll('td[data-verdict]')].map(td => Number(td.textContent))]);")
            .await;
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
        assert_eq!(total, moves, "every move judged: {counts}");
        // White lost, so one of White's moves turned a game not yet lost into a lost one
        assert_eq!(rows[1][0], "white");
        assert!(rows[1][5].as_u64() >= Some(1), "a white blunder: {counts}");
        let blunders = p.js(BLUNDERS).await;
        let blunders = blunders.as_array().expect("the blunders");
        assert!(!blunders.is_empty());
        for b in blunders {
            assert_eq!(b[1], "??", "{b}");
            assert_eq!(b[2], json!(true), "a badge on the stone: {b}");
            assert_eq!(b[3], json!(true), "listed in the panel: {b}");
        }
        // the markers differ (the winning five's line, the last move's dot, the verdicts'
        // badges), and the legend names each
        let legend = p
            .js("return [...document.querySelectorAll('[data-testid=legend] li[data-mark]')].map(li => li.dataset.mark);")
            .await;
        let marks = [
            "last",
            "win",
            "hint",
            "best",
            "verdicts",
            "forbidden",
            "excluded",
            "line",
            "heat",
        ];
        assert_eq!(legend, json!(marks));
        let rings = "return document.querySelectorAll('[data-testid=board] circle.review-mark, \
                     [data-testid=board] .review-mark circle').length;";
        assert_eq!(p.js(rings).await, json!(0), "no verdict is a ring");
        p.screenshot("web-e2e.png").await;
    });
}

#[test]
fn looking_back_at_a_blunder_and_forward_to_the_end() {
    run(async |_, p| {
        let moves = win_against_the_engine(p).await;
        review(p).await;
        let blunder = p.js(BLUNDERS).await;
        let first = blunder[0][0]
            .as_str()
            .expect("a blunder's point")
            .to_string();
        let number = p
            .js(&format!("return Number(document.querySelector('[data-testid=move-list] [data-move=\"{first}\"]').dataset.number);"))
            .await
            .as_u64()
            .expect("a move number");
        // a bad move in the panel shows the position before it, the engine's choice and the
        // move played marked, the engine waiting inside the line
        p.js(&format!("document.querySelector('[data-testid=review-list] li[data-number=\"{number}\"]').click(); return true;"))
            .await;
        let stones = "document.querySelectorAll('[data-testid=board] .stone').length";
        p.wait(
            "the position before the blunder",
            &format!("return {stones} === {} && {IDLE};", number - 1),
        )
        .await;
        let shown = p
            .js(&format!(
                "return [{MOVE_COUNT}, !!document.querySelector('[data-stone=\"{first}\"]'), \
                 document.querySelector('[data-testid=review-next]').dataset.next, \
                 !!document.querySelector('[data-testid=win-line]'), \
                 document.querySelector('[data-testid=move-list] .current').dataset.number, \
                 document.querySelector('[data-testid=status]').dataset.waits];"
            ))
            .await;
        let expected = json!([
            number - 1,
            false,
            first,
            false,
            (number - 1).to_string(),
            "yes"
        ]);
        assert_eq!(shown, expected, "the position before the blunder");
        let best = p
            .js("return document.querySelector('[data-testid=review-best]')?.dataset.best ?? null;")
            .await;
        assert_ne!(
            best,
            json!(first),
            "the engine's choice differs from the blunder"
        );
        p.screenshot("web-e2e-review.png").await;
        // a click on the board is no move while the engine's side is to move
        p.click_point("h1").await;
        p.wait(
            "the refusal",
            "return !document.querySelector('[data-testid=error]').hidden;",
        )
        .await;
        assert_eq!(p.js(&format!("return {stones};")).await, json!(number - 1));
        // the arrow keys and the buttons step; the last button comes back to the end
        p.key("ArrowRight").await;
        p.wait("one move on", &format!("return {stones} === {number};"))
            .await;
        p.click("nav-first").await;
        p.wait("the start", &format!("return {stones} === 0;"))
            .await;
        p.click("nav-last").await;
        p.wait(
            "the end of the game again",
            &format!(
                "return {MOVE_COUNT} === {moves} && {stones} === {moves} \
                 && !!document.querySelector('[data-testid=win-line]') \
                 && !document.querySelector('[data-testid=result]').hidden;"
            ),
        )
        .await;
    });
}

#[test]
fn chinese_labels_and_back() {
    run(async |_, p| {
        p.start_game("freestyle", "15", "person-person").await;
        p.import("h8 a1 i8 a15 j8 o1 k8 o15 l8", 9).await;
        p.click("lang-zh").await;
        let zh = p.text("result").await;
        assert!(zh.contains("黑方"), "Chinese result: {zh}");
        assert!(p.text("engine-info").await.contains("置换表命中"));
        let lang = p.js("return document.documentElement.lang;").await;
        assert_eq!(lang, Value::from("zh-CN"));
        p.screenshot("web-e2e-zh.png").await;
        p.click("lang-en").await;
        assert!(p.text("result").await.contains("Black wins"));
    });
}
