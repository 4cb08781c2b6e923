#!/usr/bin/env python3
"""Plays the shards of a self-play corpus as Ray tasks and joins them into one corpus file.

Each task runs `gomoku selfplay ... --format bin --shard K/N --out <tmp>` on some node and
returns the shard's bytes; the driver writes them in shard order, the header once, so the
result is byte for byte the corpus that the N shards played one after another and joined with
`gomoku corpus cat` make. A game depends only on the binary, the seed, its number and the
settings, so it does not matter which node plays which shard.

usage: scripts/corpus_ray.py --shards N --out FILE [--address ADDR] [--num-cpus N]
                             [--cpus-per-task N] [--gomoku PATH] [--ship]
                             -- SELFPLAY_OPTIONS...
  --address ADDR    the cluster: `auto` (a node of a cluster started with `ray start`) or
                    `ray://HEAD:10001`; without it, a local Ray instance is started
  --num-cpus N      CPUs of the local instance (default: all)
  --shards N        number of shards, one task each
  --cpus-per-task N CPUs a task asks for; it plays that many games at once (default 1)
  --gomoku PATH     the binary, at this path on every node (default: the repository's
                    target/release/gomoku)
  --ship            send the binary to the nodes with the job (Ray's runtime_env
                    working_dir) instead of finding it at PATH there
  SELFPLAY_OPTIONS  passed to every `gomoku selfplay` (--rule, --size, --games, --nodes,
                    --seed, --opening-radius, --set, ...); not --out, --shard, --format or
                    --concurrency, which the driver sets

example: scripts/corpus_ray.py --address auto --shards 64 --out renju.bin -- \\
           --rule renju --games 105000 --nodes 3000 --seed 14 --opening-radius 2,6
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import ray

MAGIC = b"GMKCORP1"
RESERVED = ("--out", "--shard", "--format", "--concurrency")


@ray.remote
def play_shard(gomoku, selfplay_args, k, n, concurrency):
    """Shard k of n of the corpus: the bytes of its GMKCORP1 file."""
    if not os.path.isabs(gomoku) and os.path.exists(os.path.basename(gomoku)):
        # shipped with the job: in the task's working directory (the upload may drop the
        # executable bit)
        gomoku = os.path.abspath(os.path.basename(gomoku))
        os.chmod(gomoku, 0o755)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, f"shard-{k}-of-{n}.bin")
        cmd = [gomoku, "selfplay", *selfplay_args, "--format", "bin", "--shard", f"{k}/{n}",
               "--concurrency", str(concurrency), "--no-progress", "--out", out]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"shard {k}/{n}: {' '.join(cmd)}: {run.stderr.strip()}")
        with open(out, "rb") as f:
            return f.read()


def check_selfplay_args(selfplay_args):
    """Refuses the selfplay options the driver sets itself."""
    for a in selfplay_args:
        if a.split("=", 1)[0] in RESERVED:
            raise SystemExit(f"corpus_ray.py: {a}: the driver sets {', '.join(RESERVED)}")


def gather(gomoku, selfplay_args, shards, out, cpus_per_task=1):
    """Runs the shards as tasks on the Ray instance this process is connected to, and writes
    them in shard order to `out` (through a file beside it, renamed at the end). Returns the
    number of bytes written."""
    check_selfplay_args(selfplay_args)
    task = play_shard.options(num_cpus=cpus_per_task)
    refs = [task.remote(gomoku, list(selfplay_args), k, shards, cpus_per_task)
            for k in range(1, shards + 1)]
    tmp = f"{out}.tmp"
    written = 0
    try:
        with open(tmp, "wb") as f:
            f.write(MAGIC)
            written = len(MAGIC)
            # in shard order; later shards go on playing while earlier ones are written
            for k, ref in enumerate(refs, 1):
                data = ray.get(ref)
                if data[:len(MAGIC)] != MAGIC:
                    raise RuntimeError(f"shard {k}/{shards}: not a corpus")
                f.write(data[len(MAGIC):])
                written += len(data) - len(MAGIC)
                print(f"corpus_ray.py: shard {k}/{shards}: {len(data)} bytes", file=sys.stderr)
        os.replace(tmp, out)
    except BaseException:
        # The shards still running are not cancelled: ray.cancel races with a task that is
        # finishing and can abort the driver inside Ray (its "task that was not pending"
        # check). They end with the job, when the driver disconnects or shuts Ray down.
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Plays the shards of a self-play corpus as Ray tasks and joins them.",
        epilog="Options after -- go to every `gomoku selfplay`.")
    parser.add_argument("--address", help="auto, or ray://HEAD:10001; default: a local instance")
    parser.add_argument("--num-cpus", type=int, help="CPUs of the local instance")
    parser.add_argument("--shards", type=int, required=True)
    parser.add_argument("--cpus-per-task", type=int, default=1)
    parser.add_argument("--gomoku", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "target/release/gomoku"))
    parser.add_argument("--ship", action="store_true",
                        help="send the binary to the nodes with the job")
    parser.add_argument("--out", required=True)
    parser.add_argument("selfplay", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    selfplay_args = args.selfplay[1:] if args.selfplay[:1] == ["--"] else args.selfplay
    check_selfplay_args(selfplay_args)
    if args.shards < 1 or args.cpus_per_task < 1:
        parser.error("--shards and --cpus-per-task must be at least 1")
    gomoku = args.gomoku
    init = {}
    ship_dir = None
    if args.ship:
        # a folder holding the binary alone, uploaded as each task's working directory
        ship_dir = tempfile.mkdtemp(prefix="corpus-ray-")
        shutil.copy2(gomoku, os.path.join(ship_dir, "gomoku"))
        init["runtime_env"] = {"working_dir": ship_dir}
        gomoku = "gomoku"
    else:
        gomoku = os.path.abspath(gomoku)
    if args.address:
        if args.num_cpus is not None:
            parser.error("--num-cpus is for a local instance, not with --address")
        ray.init(address=args.address, **init)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, **init)
    try:
        n = gather(gomoku, selfplay_args, args.shards, args.out, args.cpus_per_task)
    finally:
        ray.shutdown()
        if ship_dir:
            shutil.rmtree(ship_dir, ignore_errors=True)
    print(f"corpus_ray.py: {args.out}: {n} bytes from {args.shards} shards", file=sys.stderr)


if __name__ == "__main__":
    main()
