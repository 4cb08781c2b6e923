#!/usr/bin/env python3
"""Corpus lines (the format `gomoku train` reads) from the games of a match against Rapfi.

Usage: scripts/anchor-games.py RULE TURN_MS DIR... >> crates/engine/weights/anchor-games/RULE.txt

Each DIR is a `../shared/anchors/match.sh --out DIR` folder: `games.sgf` (the moves, the opening
stones marked as such, how each game ended) and `msg.txt` (both engines' MESSAGE lines; ours
carry the search's value of each of our moves). A line holds every move, the result, and a
value for every move after the opening: ours where our engine reported one, `?` for Rapfi's
moves (training then uses the result alone there). Games lost on time before a move, or that
ended otherwise than by a five or a full board, are left out.
"""
import re
import sys


def our_values(msg_path):
    """Our engine's value of each of its moves, by game and ply: a number, W or L."""
    values, game = {}, None
    with open(msg_path, errors="replace") as f:
        for line in f:
            m = re.match(r"Game ID: (\d+)", line)
            if m:
                game = int(m.group(1))
                values[game] = {}
                continue
            m = re.match(r"(\d+)\) ours: .*? eval (\S+)", line)
            if m and game is not None:
                e = m.group(2)
                if e.startswith("win") or e.startswith("+M"):
                    v = "W"
                elif e.startswith("loss") or e.startswith("-M"):
                    v = "L"
                else:
                    try:
                        v = str(int(e))
                    except ValueError:
                        continue
                values[game][int(m.group(1))] = v
    return values


def lines_of(rule, turn_ms, folder):
    values = our_values(f"{folder}/msg.txt")
    with open(f"{folder}/games.sgf") as f:
        text = f.read()
    for g in text.split("(;")[1:]:
        ending = re.search(r"TE\[([^]]*)\]", g).group(1)
        if "five" not in ending and "Draw" not in ending:
            continue
        number = int(re.search(r"GN\[(\d+)\]", g).group(1))
        size = int(re.search(r"SZ\[(\d+)\]", g).group(1))
        moves = re.findall(r";[BW]\[([a-z]{2})\](C\[([^]]*)\])?", g)
        opening = sum(1 for m in moves if m[2] == "opening move")
        # SGF counts rows from the top, our notation from the bottom: a mirror image, which
        # changes nothing about the game
        points = [f"{m[0][0]}{size - (ord(m[0][1]) - ord('a'))}" for m in moves]
        if "Black win" in ending:
            result = "black"
        elif "White win" in ending:
            result = "white"
        else:
            result = "draw"
        ours = values.get(number, {})
        vals = [ours.get(n, "?") for n in range(opening + 1, len(points) + 1)]
        yield (
            f"{size} {rule} {' '.join(points)} | opponent=rapfi-classical turn_ms={turn_ms} "
            f"opening_plies={opening} result={result} values={','.join(vals)}"
        )


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("freestyle", "standard", "renju"):
        sys.exit(__doc__)
    rule = sys.argv[1]
    if not sys.argv[2].isdigit():
        sys.exit(f"anchor-games.py: TURN_MS '{sys.argv[2]}' is not a number of milliseconds")
    turn_ms = int(sys.argv[2])
    for folder in sys.argv[3:]:
        try:
            lines = list(lines_of(rule, turn_ms, folder))
        except (OSError, AttributeError, ValueError) as e:
            sys.exit(f"anchor-games.py: {folder}: not a match folder ({e})")
        for line in lines:
            print(line)


if __name__ == "__main__":
    main()
