#!/usr/bin/env python3
"""Times the symbolic shape analysis: Paddle 3.3.1's infer_symbolic_shape_pass
against pir-shape's `ShapeAnalysis::run`, on the same files, alternately.

For each round and each model, Paddle deserializes the program and runs the pass
(one PassManager run, timed with perf_counter around `pm.run`, median of R runs on
freshly loaded programs), then `time_analysis` (the pir-shape example, release
build) reports its in-process median. Prints one JSON line per measurement and
the medians per model with the ratio.

Usage:
  cargo build --release -p pir-shape --example time_analysis
  PY scripts/paddle_time_shapes.py [--rounds 3] [--runs 5] MODEL.json ...

PY is a Python with paddlepaddle==3.3.1. A synthetic model: `pir synth 20000 X.json`.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

PADDLE = r'''
import sys, os, time, json, statistics, paddle
from paddle.base import libpaddle
paddle.enable_static()
times = []
for _ in range(int(sys.argv[2])):
    prog = paddle.static.Program()
    paddle.base.core.deserialize_pir_program(sys.argv[1], prog, 1)
    pm = libpaddle.pir.PassManager()
    libpaddle.pir.infer_symbolic_shape_pass(pm, prog)
    t = time.perf_counter()
    pm.run(prog)
    times.append(time.perf_counter() - t)
print(json.dumps({"median_ms": statistics.median(times) * 1e3}))
sys.stdout.flush()
os._exit(0)
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tool", default="target/release/examples/time_analysis")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    results = {m: {"paddle": [], "pir": []} for m in args.models}
    env = dict(os.environ, GLOG_minloglevel="2")
    for r in range(args.rounds):
        for m in args.models:
            p = subprocess.run([sys.executable, "-c", PADDLE, m, str(args.runs)],
                               capture_output=True, text=True, env=env, timeout=1800)
            line = [l for l in p.stdout.splitlines() if l.startswith("{")]
            if not line:
                print(f"{m}: Paddle gave no timing: {p.stderr[-500:]}", file=sys.stderr)
                continue
            paddle_ms = json.loads(line[-1])["median_ms"]
            q = subprocess.run([args.tool, m, "21"], capture_output=True, text=True, check=True)
            ours = json.loads(q.stdout)
            results[m]["paddle"].append(paddle_ms)
            results[m]["pir"].append(ours["median_ms"])
            print(json.dumps({"round": r, "model": m, "ops": ours["ops"],
                              "paddle_ms": round(paddle_ms, 3), "pir_ms": ours["median_ms"]}),
                  flush=True)
    for m, v in results.items():
        if v["paddle"] and v["pir"]:
            a, b = statistics.median(v["paddle"]), statistics.median(v["pir"])
            print(f"{os.path.basename(m)}: Paddle {a:.2f} ms, pir-shape {b:.3f} ms, {a / b:.0f}x")


if __name__ == "__main__":
    main()
