#!/usr/bin/env python3
"""Time legacy `.pdmodel` reading + translation: Paddle 3.3.1 against pir-rs.

For each `.pdmodel` of ../shared/paddle-corpus, ../shared/legacy-corpus and
tests/corpus/legacy (or the files given), interleaved in one run (Paddle,
pir-rs, Paddle, ...), ROUNDS rounds of:
  Paddle:  `core.ProgramDesc(bytes)` + `paddle.pir.translate_to_pir(desc)`,
           median of REPEAT calls in one process (bytes already in memory);
  pir-rs:  `pir time FILE --repeat REPEAT` (`load_ms`: decode + translate from
           the bytes in memory, median of REPEAT);
and prints per file the median over rounds and the ratio Paddle / pir-rs,
then the geometric mean of the ratios. `--baseline PIR` times a second `pir`
binary (an older build) in the same rounds, for a before/after table.

`--stat min` takes the minimum over rounds instead of the median, on both
sides: on a 2-core VM of this machine kind a whole process sometimes runs
up to 60 % slower than the next (the same binary, pinned to one core,
without address randomisation), so a file's median over 3 rounds can be a
slow process's; the minimum is each side's undisturbed process. A last
line gives the geometric mean by the other statistic, from the same
rounds.

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`.
Usage: bench/compare_paddle_legacy.py [FILES...] [--rounds 3] [--repeat 20]
       [--stat median|min] [--baseline PATH/TO/OLD/pir]
"""

import argparse
import glob
import json
import math
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))
SHARED = os.path.join(ROOT, "..", "shared")

PADDLE_CHILD = r"""
import os, sys, time, json, statistics
os.environ["GLOG_minloglevel"] = "2"
import warnings; warnings.filterwarnings("ignore")
import paddle
from paddle.base import core
path, repeat = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
times = []
for _ in range(repeat + 1):
    start = time.perf_counter()
    desc = core.ProgramDesc(data)
    program = paddle.pir.translate_to_pir(desc)
    times.append((time.perf_counter() - start) * 1000.0)
print(json.dumps({"ms": statistics.median(times[1:])}))
"""


def paddle_ms(path, repeat):
    res = subprocess.run([sys.executable, "-c", PADDLE_CHILD, path, str(repeat)],
                         capture_output=True, text=True)
    lines = [l for l in res.stdout.splitlines() if l.startswith("{")]
    return json.loads(lines[-1])["ms"] if res.returncode == 0 and lines else None


def ours_ms(path, repeat, pir=PIR):
    res = subprocess.run([pir, "time", path, "--repeat", str(repeat)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit("pir time failed on %s: %s" % (path, res.stderr.strip()))
    out = json.loads(res.stdout)
    return out["load_ms"], out["ops"]


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20,
                    help="runs per median (small files take 20-60 us: fewer scatter)")
    ap.add_argument("--baseline", help="an older `pir` binary to time as well")
    ap.add_argument("--stat", choices=["median", "min"], default="median",
                    help="what a file's time is of its rounds (both sides)")
    args = ap.parse_args()
    over_rounds = statistics.median if args.stat == "median" else min
    files = args.files or sorted(
        glob.glob(os.path.join(SHARED, "paddle-corpus", "*.pdmodel"))
        + glob.glob(os.path.join(SHARED, "legacy-corpus", "*.pdmodel"))
        + glob.glob(os.path.join(ROOT, "tests", "corpus", "legacy", "*.pdmodel")))
    base = args.baseline
    if base:
        print("| model | ops | Paddle read + translate (ms) | baseline (ms) | ratio | pir-rs (ms) | ratio |")
        print("|---|---:|---:|---:|---:|---:|---:|")
    else:
        print("| model | ops | Paddle read + translate (ms) | pir-rs (ms) | ratio |")
        print("|---|---:|---:|---:|---:|")
    ratios, base_ratios = [], []
    # Each file's rounds, for the geomean by the other statistic too (one
    # run gives both, from the same processes).
    kept = []
    for path in files:
        paddle, ours, before, ops = [], [], [], 0
        for _ in range(args.rounds):
            t = paddle_ms(path, args.repeat)
            if t is not None:
                paddle.append(t)
            if base:
                before.append(ours_ms(path, args.repeat, base)[0])
            o, ops = ours_ms(path, args.repeat)
            ours.append(o)
        name = os.path.basename(path)[:-len(".pdmodel")]
        o = over_rounds(ours)
        b = over_rounds(before) if before else None
        if not paddle:
            print("| %s | %d | failed | %s%.3f | |" % (name, ops, "%.3f | | " % b if base else "", o))
            continue
        p = over_rounds(paddle)
        kept.append((paddle, before, ours))
        ratios.append(p / o if o else 0)
        if base:
            base_ratios.append(p / b if b else 0)
            print("| %s | %d | %.3f | %.3f | %.1f× | %.3f | %.1f× |"
                  % (name, ops, p, b, p / b if b else 0, o, p / o if o else 0))
        else:
            print("| %s | %d | %.3f | %.3f | %.1f× |" % (name, ops, p, o, p / o if o else 0))
    if base:
        print("| geomean | | | | %.1f× | | %.1f× |" % (geomean(base_ratios), geomean(ratios)))
    else:
        print("| geomean | | | | %.1f× |" % geomean(ratios))
    other = "min" if args.stat == "median" else "median"
    stat = min if other == "min" else statistics.median
    ours_other = geomean([stat(p) / stat(o) for p, _, o in kept if stat(o)])
    if base:
        base_other = geomean([stat(p) / stat(b) for p, b, _ in kept if b and stat(b)])
        print("| geomean (%s over rounds) | | | | %.1f× | | %.1f× |" % (other, base_other, ours_other))
    else:
        print("| geomean (%s over rounds) | | | | %.1f× |" % (other, ours_other))


if __name__ == "__main__":
    main()
