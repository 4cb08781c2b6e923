#!/usr/bin/env python3
"""Resident size of `gomoku serve` over N engine-against-engine games played at once, once they
are over, and after they are deleted (issue 57: the memory of finished games given back).

Usage: scripts/serve-memory.py [GOMOKU_BINARY] [--games N] [--time-ms T] [-- SERVE ARGS...]
(default: target/release/gomoku, 30 games at 200 ms a move, `serve --port 0`; Linux only, it
reads /proc). Prints VmRSS (resident now) and VmHWM (the peak) at each step.
"""
import argparse
import json
import subprocess
import time
import urllib.request

ap = argparse.ArgumentParser()
ap.add_argument("binary", nargs="?", default="target/release/gomoku")
ap.add_argument("--games", type=int, default=30)
ap.add_argument("--time-ms", type=int, default=200)
ap.add_argument("serve_args", nargs="*")
args = ap.parse_args()

server = subprocess.Popen([args.binary, "serve", "--port", "0", *args.serve_args],
                          stdout=subprocess.PIPE, text=True)
url = next(w for w in server.stdout.readline().split() if w.startswith("http://")).rstrip("/")


def memory():
    status = dict(l.split(":", 1) for l in open(f"/proc/{server.pid}/status"))
    return f"resident {status['VmRSS'].strip()}, peak {status['VmHWM'].strip()}"


def api(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=60) as resp:
        text = resp.read()
        return json.loads(text) if text else None


try:
    print(f"started: {memory()}", flush=True)
    body = {"black": "engine", "white": "engine", "time_ms": args.time_ms}
    ids = [api("POST", "/api/games", body)["id"] for _ in range(args.games)]
    start = time.time()
    while time.time() - start < 1800:
        over = sum(1 for i in ids if api("GET", f"/api/games/{i}")["result"] is not None)
        if over == len(ids):
            break
        time.sleep(2)
    print(f"{over} of {len(ids)} games over after {time.time() - start:.0f} s: {memory()}",
          flush=True)
    for i in ids:
        api("DELETE", f"/api/games/{i}")
    time.sleep(5)
    print(f"5 s after deleting them: {memory()}", flush=True)
finally:
    server.kill()
