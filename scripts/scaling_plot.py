#!/usr/bin/env python3
"""Draws the engine's score against Rapfi as a function of the time a move (docs/scaling.png).

Reads docs/figures/matches.tsv (the record of every match on the eval openings) and, for each
rule asked for, draws a line for every engine (builds that play the same engine, see
`same_engine`) measured at three times a move or more without a game clock (`--min-times`),
each labelled with its build; a rule with no such engine gets the line of the one measured at
the most times. Each time's matches of an engine are pooled into one point. Each
point is the score with its 95% interval (from the games' wins, losses and draws); a flat line
means the engine gains from time as much as Rapfi does, a falling one that Rapfi gains more.

usage: scripts/scaling_plot.py [--rules freestyle,standard,renju] [--board 15x15]
                               [--tsv docs/figures/matches.tsv] [--out docs/scaling.png]
                               [--min-times 3] [--name COMMIT=TEXT ...]
Needs matplotlib (scripts/requirements-plot.txt); prints the points it drew.
"""
import argparse
import csv
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_matches(path):
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f if not l.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def interval(wins, losses, draws):
    """The score and the half width of its 95% interval, in percent."""
    n = wins + losses + draws
    mean = (wins + draws / 2) / n
    second = (wins + draws / 4) / n
    sd = math.sqrt(max(second - mean * mean, 0.0) / n)
    return 100 * mean, 100 * 1.96 * sd


# What a build's engine plays with: its source (comments aside) and its compiled-in weights. The time manager
# is left out: the plot's matches have no game clock, and a move of a clockless match gets its
# plain move time whatever the manager does with a clock (a change to the plain move time
# calls for new runs, not pooled ones).
ENGINE_PATHS = ["crates/engine/src", "crates/engine/weights",
                ":(exclude)crates/engine/src/search/time.rs"]


def only_comments(diff):
    """Whether a `git diff -U0` output changes nothing but Rust line comments and blank lines
    (a binary file, a new, deleted or renamed file, or any other line is a change)."""
    in_hunk = False  # file headers come before a file's first "@@", changed lines after it
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            in_hunk = False
        elif line.startswith("@@"):
            in_hunk = True
        elif in_hunk and line.startswith(("+", "-")):
            body = line[1:].strip()
            if body != "" and not body.startswith("//"):
                return False
        elif in_hunk or not line.startswith(("index ", "--- ", "+++ ")):
            return False
    return True


def same_engine(a, b):
    """Whether commits `a` and `b` build the same engine (git finds no change between them in
    ENGINE_PATHS but to comments). Unknown commits, dirty builds and a machine without git
    pool nothing."""
    if a == b:
        return True
    if a.endswith("-dirty") or b.endswith("-dirty"):
        return False
    try:
        r = subprocess.run(["git", "-C", ROOT, "diff", "-U0", a, b, "--", *ENGINE_PATHS],
                           capture_output=True, text=True, errors="replace")
    except OSError:  # no git: nothing to compare the builds with
        return False
    return r.returncode == 0 and only_comments(r.stdout)


def engines(rows, same):
    """The rows grouped by the engine their builds play, in the order of each engine's first
    row."""
    groups = []
    for r in rows:
        for g in groups:
            if same(g[0]["commit"], r["commit"]):
                g.append(r)
                break
        else:
            groups.append([r])
    return groups


def clockless(rows, rule, board):
    """The clockless matches of a rule and board on eval openings: the plot's records."""
    return [r for r in rows
            if r["rule"] == rule and r["board"] == board and r["match_s"] == "0"
            and r["openings"].startswith("eval-")]


def engine_points(group):
    """(turn_ms, score, half width, games, commits) per time a move of one engine's matches:
    at each time, its last clockless match pooled with its earlier ones there."""
    by_time = {}
    for r in group:
        by_time.setdefault(int(r["turn_ms"]), []).append(r)
    out = []
    for ms in sorted(by_time):
        pool = by_time[ms]
        w, l, d = (sum(int(r[k]) for r in pool) for k in ("wins", "losses", "draws"))
        score, half = interval(w, l, d)
        commits = "+".join(dict.fromkeys(r["commit"] for r in pool))
        out.append((ms, score, half, w + l + d, commits))
    return out


def times(group):
    return len({r["turn_ms"] for r in group})


def most_measured(groups):
    """The engine measured at the most times a move (of two as many, the later)."""
    return max(reversed(groups), key=times)


def points(rows, rule, board, same=same_engine):
    """The points of one engine: the one measured at the most times a move."""
    groups = engines(clockless(rows, rule, board), same)
    return engine_points(most_measured(groups)) if groups else []


def curves(rows, rule, board, same=same_engine, min_times=3):
    """The points of every engine measured at `min_times` times a move or more, in the order
    of their first matches; with none, those of the engine `points` draws."""
    groups = engines(clockless(rows, rule, board), same)
    chosen = [g for g in groups if times(g) >= min_times]
    if not chosen and groups:
        chosen = [most_measured(groups)]
    return [engine_points(g) for g in chosen]


def label(ms):
    return f"{ms} ms" if ms < 1000 else f"{ms / 1000:g} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="freestyle,standard,renju")
    ap.add_argument("--board", default="15x15")
    ap.add_argument("--tsv", default=os.path.join(ROOT, "docs/figures/matches.tsv"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs/scaling.png"))
    ap.add_argument("--min-times", type=int, default=3,
                    help="draw every engine of a rule measured at this many times a move or more")
    ap.add_argument("--name", action="append", default=[], metavar="COMMIT=TEXT",
                    help="the legend's name of the engine whose last build is COMMIT")
    args = ap.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("scaling_plot.py: needs matplotlib (pip install -r scripts/requirements-plot.txt)")

    rows = read_matches(args.tsv)
    names = {}
    for item in args.name:
        commit, sep, text = item.partition("=")
        if not sep or not commit or not text:
            sys.exit(f"scaling_plot.py: --name takes COMMIT=TEXT, got {item!r}")
        names[commit] = text
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    ticks = set()
    drawn = 0
    for rule, shift in zip(args.rules.split(","), (0.97, 1.0, 1.03)):
        lines = curves(rows, rule, args.board, min_times=args.min_times)
        for pts in lines:
            drawn += 1
            build = pts[-1][4].split("+")[-1]
            name = rule if len(lines) == 1 else f"{rule}, {names.get(build, build)}"
            xs = [ms * shift for ms, *_ in pts]
            ax.errorbar(xs, [p[1] for p in pts], yerr=[p[2] for p in pts], marker="o",
                        capsize=4, label=name)
            for (ms, score, half, games, commit), x in zip(pts, xs):
                ticks.add(ms)
                ax.annotate(f"{games}", (x, score), textcoords="offset points", xytext=(6, -4),
                            fontsize=7, color="gray")
                print(f"{rule}\t{args.board}\t{label(ms)}\t{score:.1f}% +-{half:.1f}\t"
                      f"{games} games\t{commit}")
    if not drawn:
        sys.exit(f"scaling_plot.py: no clockless {args.board} match in {args.tsv}")
    ax.axhline(50, color="gray", linewidth=0.8, linestyle="--")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(ticks), [label(ms) for ms in sorted(ticks)])
    ax.set_xlim(min(ticks) / 1.6, max(ticks) * 1.6)
    ax.minorticks_off()
    ax.set_ylim(0, 100)
    ax.set_xlabel("time a move")
    ax.set_ylabel("score against Rapfi-classical (%)")
    ax.set_title(f"{args.board}, eval openings, 95% intervals (gray: games)", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
