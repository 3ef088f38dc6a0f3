#!/usr/bin/env python3
"""Time writing a legacy `.pdmodel`: Paddle 2.6.2 against pir-rs.

For each `.pdmodel` of ../shared/legacy-corpus and ../shared/paddle-corpus
(or the files given), interleaved (Paddle, pir-rs, Paddle, ...), ROUNDS
rounds of:
  Paddle 2.6.2 (/work/venv-paddle262): the model loaded once with
    `load_inference_model`, then, median of REPEAT calls,
    `paddle.static.serialize_program(feeds, fetches, program=prog)` (the
    program half of `save_inference_model`: normalize and serialize), and
    `paddle.static.save_inference_model(prefix, feeds, fetches, exe,
    program=prog)` (program and parameters to disk);
  pir-rs: `crates/pir/examples/time_write.rs` (`pir_legacy::write::to_bytes` of the
    translated program, median of REPEAT);
and prints per file the medians over rounds and the ratios
serialize_program / write and save_inference_model / write, then their
geometric means.

Needs /work/venv-paddle262 and
`cargo build --release -p pir --example time_write`.
Usage: /work/venv-paddle262/bin/python bench/compare_paddle26_save.py [FILES...] [--rounds 3] [--repeat 20]
"""

import argparse
import glob
import math
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared")
TIMER = os.environ.get("PIR_TIME_WRITE", os.path.join(ROOT, "target", "release", "examples", "time_write"))
PADDLE262 = os.environ.get("PADDLE262", "/work/venv-paddle262/bin/python")

PADDLE = r"""
import os, sys, time, statistics, tempfile
os.environ["GLOG_minloglevel"] = "3"
import warnings; warnings.filterwarnings("ignore")
import paddle
paddle.enable_static()
model, repeat = sys.argv[1], int(sys.argv[2])
exe = paddle.static.Executor(paddle.CPUPlace())
prog, feeds, fetches = paddle.static.load_inference_model(model[:-len(".pdmodel")], exe)
block = prog.global_block()
feed_vars = [block.var(n) for n in feeds]
def ser():
    paddle.static.serialize_program(feed_vars, fetches, program=prog)
out = tempfile.mkdtemp()
def save():
    paddle.static.save_inference_model(os.path.join(out, "m"), feed_vars, fetches, exe, program=prog)
res = []
for f in (ser, save):
    f()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter(); f(); ts.append((time.perf_counter() - t) * 1e3)
    res.append(statistics.median(ts))
print("%.4f %.4f" % tuple(res))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(SHARED, "legacy-corpus", "*.pdmodel"))
                                 + glob.glob(os.path.join(SHARED, "paddle-corpus", "*.pdmodel")))
    rows = []
    for f in files:
        ser, save, ours = [], [], []
        for _ in range(args.rounds):
            r = subprocess.run([PADDLE262, "-c", PADDLE, f, str(args.repeat)], capture_output=True, text=True)
            if r.returncode != 0:
                print("%s: Paddle failed: %s" % (f, r.stderr.strip().splitlines()[-1:]))
                break
            a, b = map(float, r.stdout.split())
            ser.append(a)
            save.append(b)
            r = subprocess.run([TIMER, "--repeat", str(args.repeat), f], capture_output=True, text=True)
            if r.returncode != 0:
                print("%s: time_write failed: %s" % (f, r.stderr.strip()))
                break
            ours.append(float(r.stdout.split("write_ms=")[1].split()[0]))
        if not ours or len(ser) != len(ours):
            continue
        s, v, o = statistics.median(ser), statistics.median(save), statistics.median(ours)
        rows.append((os.path.basename(f), s, v, o))
        print("%-28s serialize_program %8.3f ms  save_inference_model %8.3f ms  pir write %7.3f ms  x%.0f / x%.0f"
              % (os.path.basename(f), s, v, o, s / o, v / o))
        sys.stdout.flush()
    if rows:
        g1 = math.exp(sum(math.log(s / o) for _, s, _, o in rows) / len(rows))
        g2 = math.exp(sum(math.log(v / o) for _, _, v, o in rows) / len(rows))
        print("geometric mean: serialize_program / write x%.1f, save_inference_model / write x%.1f (%d files)"
              % (g1, g2, len(rows)))


if __name__ == "__main__":
    main()
