#!/usr/bin/env python3
"""Tests of scripts/corpus_ray.py on a local Ray instance of two workers: the shards played as
Ray tasks and gathered make the same bytes as the shards played one after another and joined
with `gomoku corpus cat`.

usage: GOMOKU_BIN=target/release/gomoku python3 scripts/test_corpus_ray.py
(GOMOKU_BIN defaults to target/release/gomoku; scripts/test.sh builds it and runs this)
"""

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_ray  # noqa: E402
import ray  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOMOKU = os.path.abspath(os.environ.get("GOMOKU_BIN", os.path.join(ROOT, "target/release/gomoku")))
SHARDS = 4
# a few games of each shard on 9x9, at a few hundred nodes a move
SELFPLAY = ["--rule", "renju", "--size", "9", "--games", "12", "--nodes", "300", "--seed", "6",
            "--opening-radius", "0,3"]


def gomoku(*args):
    run = subprocess.run([GOMOKU, *args], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"gomoku {' '.join(args)}: {run.stderr}")
    return run


class CorpusRayTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(GOMOKU, os.X_OK):
            raise AssertionError(f"{GOMOKU} is missing: cargo build --release -p gomoku")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)

    @classmethod
    def tearDownClass(cls):
        ray.shutdown()

    def test_gathered_shards_are_the_shards_played_in_turn_and_joined(self):
        with tempfile.TemporaryDirectory() as tmp:
            gathered = os.path.join(tmp, "ray.bin")
            n = corpus_ray.gather(GOMOKU, SELFPLAY, SHARDS, gathered)
            parts = []
            for k in range(1, SHARDS + 1):
                part = os.path.join(tmp, f"{k}.bin")
                gomoku("selfplay", *SELFPLAY, "--format", "bin", "--shard", f"{k}/{SHARDS}",
                       "--no-progress", "--out", part)
                parts.append(part)
            joined = os.path.join(tmp, "joined.bin")
            gomoku("corpus", "cat", joined, *parts)
            with open(gathered, "rb") as a, open(joined, "rb") as b:
                got, want = a.read(), b.read()
            self.assertEqual(n, len(got))
            self.assertGreater(len(want), 8 + 12 * 20)
            self.assertEqual(got, want)
            stats = gomoku("corpus", "stats", gathered).stdout
            self.assertIn("games: 12\n", stats)
            self.assertEqual(os.listdir(tmp).count("ray.bin.tmp"), 0)

    def test_a_failing_shard_fails_the_run_and_leaves_no_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "bad.bin")
            with self.assertRaises(Exception) as e:
                corpus_ray.gather(GOMOKU, SELFPLAY + ["--set", "no_such_parameter=1"], 2, out)
            self.assertIn("no_such_parameter", str(e.exception))
            self.assertEqual(os.listdir(tmp), [])

    def test_the_options_the_driver_sets_are_refused(self):
        for reserved in (["--out", "x"], ["--shard=1/2"], ["--format", "text"]):
            with self.assertRaises(SystemExit):
                corpus_ray.check_selfplay_args(SELFPLAY + reserved)


if __name__ == "__main__":
    unittest.main()
