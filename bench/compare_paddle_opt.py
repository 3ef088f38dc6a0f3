#!/usr/bin/env python3
"""Time the deployment pipeline against Paddle Inference's own optimisation.

For each model, interleaved in one run (Paddle, pir-rs, Paddle, pir-rs, ...):
  Paddle:  the time `paddle.inference.create_predictor` spends in its CPU
           passes -- a predictor with `switch_ir_optim(True)` minus one with
           the optional passes deleted (scripts/paddle_inference_ops.py explains
           why `switch_ir_optim(False)` alone is not a baseline in 3.3.1);
           medians of REPEAT predictors each;
  pir-rs:  `pir opt MODEL.json -p PIPELINE -o OUT.json --timing`: the passes'
           total (load and save excluded, as Paddle's baseline predictor also
           loads) and the whole command's wall time, medians of REPEAT runs;
and prints, per model, the medians over rounds and the ratio Paddle / pir-rs.

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`.
Usage: bench/compare_paddle_opt.py [--models resnet18_w16,huge_5000ops]
                                   [--rounds 3] [--repeat 3] [--pipeline P]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from paddle_inference_ops import (  # noqa: E402
    DEFAULT_PIPELINE, OPTIONAL_PASSES, PADDLE_CHILD, PIR, models)

TOTAL = re.compile(r"^\s*([0-9.]+)\s+100\.0%\s+total", re.M)


def paddle_optimise_ms(src, params, repeat):
    with tempfile.TemporaryDirectory() as work:
        timings = os.path.join(work, "t.json")
        res = subprocess.run(
            [sys.executable, "-c", PADDLE_CHILD, src, params, timings, str(repeat),
             ",".join(OPTIONAL_PASSES)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
        if res.returncode != 0 or not os.path.exists(timings):
            return None
        t = json.load(open(timings))
    return statistics.median(t["optim"]) - statistics.median(t["no_optim"])


def ours_ms(src, pipeline, repeat):
    passes, wall = [], []
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out.json")
        for _ in range(repeat):
            start = time.perf_counter()
            res = subprocess.run([PIR, "opt", src, "-p", pipeline, "-o", out, "--force",
                                  "--timing"], capture_output=True, text=True)
            wall.append((time.perf_counter() - start) * 1000.0)
            m = TOTAL.search(res.stderr)
            if res.returncode != 0 or not m:
                raise SystemExit("pir opt failed on %s: %s" % (src, res.stderr[-300:]))
            passes.append(float(m.group(1)))
    return statistics.median(passes), statistics.median(wall)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="resnet18_w16,mobilenet_v2_x025,huge_5000ops")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    args = ap.parse_args()
    wanted = set(args.models.split(","))
    print("pipeline `%s`, Paddle Inference 3.3.1 (CPU, no oneDNN), %d rounds"
          % (args.pipeline, args.rounds))
    print("| model | Paddle passes (ms) | ours, passes (ms) | ratio | ours, whole command (ms) |")
    print("|---|---:|---:|---:|---:|")
    for name, src, params in models(wanted):
        paddle, passes, wall = [], [], []
        for _ in range(args.rounds):
            t = paddle_optimise_ms(src, params, args.repeat)
            if t is not None:
                paddle.append(t)
            p, w = ours_ms(src, args.pipeline, args.repeat)
            passes.append(p)
            wall.append(w)
        if not paddle:
            print("| %s | failed | %.2f | | %.1f |" % (name, statistics.median(passes),
                                                     statistics.median(wall)))
            continue
        pd, ps = statistics.median(paddle), statistics.median(passes)
        print("| %s | %.1f | %.2f | %.0f× | %.1f |" % (name, pd, ps, pd / ps if ps else 0,
                                                     statistics.median(wall)))


if __name__ == "__main__":
    main()
