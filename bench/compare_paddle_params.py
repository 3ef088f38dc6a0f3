#!/usr/bin/env python3
"""Parameter reading: Paddle 3.3.1's `load_combine` against pir-rs, in GB/s.

For each model given (`NAME.json` with `NAME.pdiparams` beside it; by default
a ResNet-50 made with `--make DIR`, about 100 MB of float32 parameters, and
resnet18_w16 of ../shared/paddle-corpus), interleaved in one run (Paddle,
pir-rs, Paddle, ...), ROUNDS rounds of:

  Paddle:  `core.load_combine_func(NAME.pdiparams, names, tensors, False,
           CPUPlace())` (what `paddle.jit.load` and the predictor run) and
           then a float64 sum of every tensor (`numpy.asarray(t).sum()`),
           median of REPEAT calls in one process; the load alone is reported
           too;
  pir-rs:  `pir time NAME.json --params --repeat REPEAT`: the file mapped,
           every tensor located and checked, and summed (`params_ms`).

The names come from the model (`pir params NAME.pdiparams --json`), in file
order, for both. Both sides read the file from the page cache after the first
round; the ratio is what reading costs once the bytes are in memory. GB/s are
of the file's size.

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`.
Usage: bench/compare_paddle_params.py --make /tmp/params   (once: writes resnet50.json/.pdiparams)
       bench/compare_paddle_params.py [MODEL.json ...] [--dir /tmp/params] [--rounds 5] [--repeat 5]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))
SHARED = os.path.join(ROOT, "..", "shared")

MAKE_CHILD = r"""
import os, sys
os.environ["GLOG_minloglevel"] = "2"
import warnings; warnings.filterwarnings("ignore")
import paddle
paddle.seed(0)
model = paddle.vision.models.resnet50()
model.eval()
spec = [paddle.static.InputSpec([None, 3, 224, 224], "float32", "x")]
paddle.jit.save(model, os.path.join(sys.argv[1], "resnet50"), input_spec=spec)
"""

PADDLE_CHILD = r"""
import os, sys, time, json, statistics
os.environ["GLOG_minloglevel"] = "2"
import warnings; warnings.filterwarnings("ignore")
import numpy as np
import paddle
from paddle.base import core
path, repeat, names = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
place = paddle.CPUPlace()
load, total = [], []
for _ in range(repeat + 1):
    owners = [paddle.empty([1], "float32") for _ in names]  # keep alive
    tensors = [o.get_tensor() for o in owners]
    start = time.perf_counter()
    core.load_combine_func(path, names, tensors, False, place)
    loaded = time.perf_counter()
    s = sum(float(np.asarray(t).sum(dtype=np.float64)) for t in tensors)
    end = time.perf_counter()
    load.append((loaded - start) * 1e3)
    total.append((end - start) * 1e3)
print(json.dumps({"load_ms": statistics.median(load[1:]), "ms": statistics.median(total[1:]), "sum": s}))
"""


def names_of(model):
    params = model[:-len(".json")] + ".pdiparams"
    res = subprocess.run([PIR, "params", params, "--json"], capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit("pir params failed on %s: %s" % (params, res.stderr.strip()))
    return [t["name"] for t in json.loads(res.stdout)]


def paddle_ms(model, repeat, names):
    params = model[:-len(".json")] + ".pdiparams"
    res = subprocess.run([sys.executable, "-c", PADDLE_CHILD, params, str(repeat), json.dumps(names)],
                         capture_output=True, text=True)
    lines = [l for l in res.stdout.splitlines() if l.startswith("{")]
    if res.returncode != 0 or not lines:
        raise SystemExit("Paddle failed on %s: %s" % (params, res.stderr.strip()[-2000:]))
    out = json.loads(lines[-1])
    return out["load_ms"], out["ms"]


def ours_ms(model, repeat):
    res = subprocess.run([PIR, "time", model, "--params", "--repeat", str(repeat)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit("pir time failed on %s: %s" % (model, res.stderr.strip()))
    out = json.loads(res.stdout)
    return out["params_ms"], out["params_bytes"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*")
    ap.add_argument("--make", metavar="DIR", help="write DIR/resnet50.json and .pdiparams, then stop")
    ap.add_argument("--dir", default="/tmp/params", help="where --make wrote resnet50 (default /tmp/params)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if args.make:
        os.makedirs(args.make, exist_ok=True)
        subprocess.run([sys.executable, "-c", MAKE_CHILD, args.make], check=True)
        print("wrote", os.path.join(args.make, "resnet50.json"), "and .pdiparams")
        return
    models = args.models or [m for m in (os.path.join(args.dir, "resnet50.json"),
                                         os.path.join(SHARED, "paddle-corpus", "resnet18_w16.json"))
                             if os.path.exists(m)]
    print("load average (1 min): %.2f" % os.getloadavg()[0])
    print("| model | MB | Paddle load (ms) | Paddle load + sum (ms) | GB/s | pir-rs map + sum (ms) | GB/s | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for model in models:
        names = names_of(model)
        p_load, p_total, ours, size = [], [], [], 0
        for _ in range(args.rounds):
            load, total = paddle_ms(model, args.repeat, names)
            p_load.append(load)
            p_total.append(total)
            o, size = ours_ms(model, args.repeat)
            ours.append(o)
        pl, pt, o = statistics.median(p_load), statistics.median(p_total), statistics.median(ours)
        gb = size / 1e9
        print("| %s | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f× |"
              % (os.path.basename(model)[:-len(".json")], size / 1e6, pl, pt, gb / (pt / 1e3),
                 o, gb / (o / 1e3), pt / o))
    print("load average (1 min): %.2f" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
