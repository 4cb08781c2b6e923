#!/usr/bin/env python3
"""Tests of scripts/scaling_plot.py: which match records become points, and their intervals.

Runs without matplotlib; with it, the plot is drawn to a temporary file too.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("scaling_plot", os.path.join(HERE, "scaling_plot.py"))
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)

HEAD = ("date\trule\tboard\tturn_ms\tmatch_s\tmemory_mb\topenings\tgames\twins\tlosses\tdraws\t"
        "score\telo\telo_low\telo_high\tcommit\tnote\n")


def row(rule, board, turn_ms, match_s, openings, w, l, d, commit):
    n = w + l + d
    return (f"2026-12-02\t{rule}\t{board}\t{turn_ms}\t{match_s}\t64\t{openings}\t{n}\t{w}\t{l}\t"
            f"{d}\t0\t0\t0\t0\t{commit}\t-\n")


RECORDS = "# a comment line\n" + HEAD + "".join([
    row("freestyle", "15x15", 1000, 0, "eval-freestyle.txt", 10, 10, 0, "old"),
    row("freestyle", "15x15", 1000, 0, "eval-freestyle.txt", 30, 10, 0, "new"),
    row("freestyle", "15x15", 250, 0, "eval-freestyle.txt", 20, 20, 0, "new"),
    row("freestyle", "15x15", 250, 0, "eval-freestyle.txt", 15, 5, 0, "twin"),
    row("freestyle", "15x15", 5000, 120, "eval-freestyle.txt:1-12", 12, 9, 3, "clock"),
    row("freestyle", "20x20", 30000, 0, "freestyle20-piskvork.txt", 1, 1, 0, "other"),
    row("renju", "15x15", 1000, 0, "eval-renju.txt", 48, 0, 0, "renju"),
])


class ScalingPlot(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tsv = os.path.join(self.dir.name, "matches.tsv")
        with open(self.tsv, "w", encoding="utf-8") as f:
            f.write(RECORDS)

    def tearDown(self):
        self.dir.cleanup()

    def test_each_time_pools_the_clockless_eval_matches_of_the_engine(self):
        # "new" and "twin" build the same engine, "old" another one
        def same(a, b):
            return a == b or {a, b} == {"new", "twin"}

        pts = plot.points(plot.read_matches(self.tsv), "freestyle", "15x15", same)
        self.assertEqual([(ms, games, commit) for ms, _, _, games, commit in pts],
                         [(250, 60, "new+twin"), (1000, 40, "new")])
        self.assertAlmostEqual(pts[0][1], 100 * 35 / 60)
        self.assertAlmostEqual(pts[1][1], 75.0)

    def test_the_engine_measured_at_the_most_times_is_drawn(self):
        # "net", a later engine measured at 1 s alone, does not replace the line of "new"
        def same(a, b):
            return a == b or {a, b} == {"new", "twin"}

        rows = plot.read_matches(self.tsv)
        rows.append(dict(rows[1], commit="net", wins="5", losses="35"))
        pts = plot.points(rows, "freestyle", "15x15", same)
        self.assertEqual([(ms, commit) for ms, _, _, _, commit in pts],
                         [(250, "new+twin"), (1000, "new")])
        # measured at as many times, the later engine
        rows.append(dict(rows[2], commit="net"))
        pts = plot.points(rows, "freestyle", "15x15", same)
        self.assertEqual([(ms, commit) for ms, _, _, _, commit in pts],
                         [(250, "net"), (1000, "net")])

    def test_every_engine_measured_at_three_times_gets_a_line(self):
        def same(a, b):
            return a == b or {a, b} == {"new", "twin"}

        rows = plot.read_matches(self.tsv)
        # no engine at three times: the line of the one `points` draws
        self.assertEqual([[(ms, c) for ms, _, _, _, c in pts]
                          for pts in plot.curves(rows, "freestyle", "15x15", same)],
                         [[(250, "new+twin"), (1000, "new")]])
        # "old" and "new" measured at 4 s too: both drawn, in the order of their first matches
        rows.append(dict(rows[0], turn_ms="4000"))
        rows.append(dict(rows[0], turn_ms="250"))
        rows.append(dict(rows[1], turn_ms="4000", wins="1", losses="1"))
        lines = plot.curves(rows, "freestyle", "15x15", same)
        self.assertEqual([[(ms, c) for ms, _, _, _, c in pts] for pts in lines],
                         [[(250, "old"), (1000, "old"), (4000, "old")],
                          [(250, "new+twin"), (1000, "new"), (4000, "new")]])
        self.assertAlmostEqual(lines[1][2][1], 50.0)
        # at two times enough, the same two; at four, none qualifies and the fallback draws
        self.assertEqual(len(plot.curves(rows, "freestyle", "15x15", same, min_times=2)), 2)
        self.assertEqual(len(plot.curves(rows, "freestyle", "15x15", same, min_times=4)), 1)
        self.assertEqual(plot.curves(rows, "standard", "15x15", same), [])

    def test_unknown_or_dirty_builds_pool_only_with_themselves(self):
        self.assertTrue(plot.same_engine("abc1234-dirty", "abc1234-dirty"))
        self.assertFalse(plot.same_engine("abc1234-dirty", "abc1234"))
        self.assertFalse(plot.same_engine("not-a-commit", "neither"))

    def test_a_change_to_comments_alone_is_the_same_engine(self):
        head = "diff --git a/x.rs b/x.rs\nindex 1..2 100644\n--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n"
        for body, same in [
            ("-// 59.4% over 48\n+// 62.0% over 96\n", True),
            ("-    /// a doc line\n+    //! a module line\n+\n", True),
            ("-const PCT: i32 = 50;\n+const PCT: i32 = 75;\n", False),
            ("-    let x = 1; // same comment\n+    let x = 2; // same comment\n", False),
            ("--- x;\n", False),  # a removed line that looks like a file header
        ]:
            self.assertEqual(plot.only_comments(head + body), same, body)
        self.assertTrue(plot.only_comments(""))
        binary = "diff --git a/w.bin b/w.bin\nindex 1..2 100644\nBinary files a/w.bin and b/w.bin differ\n"
        self.assertFalse(plot.only_comments(binary))
        self.assertFalse(plot.only_comments("diff --git a/n.rs b/n.rs\nnew file mode 100644\n"))

    def test_other_boards_and_openings_are_left_out(self):
        rows = plot.read_matches(self.tsv)
        self.assertEqual(plot.points(rows, "freestyle", "20x20"), [])
        self.assertEqual(plot.points(rows, "standard", "15x15"), [])

    def test_intervals(self):
        # all won: no spread
        self.assertEqual(plot.interval(48, 0, 0), (100.0, 0.0))
        # one win, one loss: 50% with a standard deviation of a half a game over 2 games
        score, half = plot.interval(1, 1, 0)
        self.assertAlmostEqual(score, 50.0)
        self.assertAlmostEqual(half, 100 * 1.96 * 0.5 / 2 ** 0.5)
        # draws only: 50% with no spread
        self.assertEqual(plot.interval(0, 0, 4), (50.0, 0.0))

    def test_labels(self):
        self.assertEqual([plot.label(ms) for ms in (250, 1000, 4000, 1500)],
                         ["250 ms", "1 s", "4 s", "1.5 s"])

    def test_the_plot_is_drawn_when_matplotlib_is_there(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("matplotlib is not installed (scripts/requirements-plot.txt)")
        out = os.path.join(self.dir.name, "s.png")
        r = subprocess.run([sys.executable, os.path.join(HERE, "scaling_plot.py"), "--tsv", self.tsv,
                            "--out", out], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        # the fixture's commits are unknown to git: each is an engine of its own, and "new",
        # measured at two times a move, is drawn
        self.assertIn("freestyle\t15x15\t250 ms\t50.0%", r.stdout)
        self.assertIn("freestyle\t15x15\t1 s\t75.0%", r.stdout)
        with open(out, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
