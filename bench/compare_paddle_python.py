#!/usr/bin/env python3
"""Import and load times from Python: the `pir` package against Paddle 3.3.1,
in one interleaved run.

Usage (from the repository root; Paddle in the system Python, `pir` installed
in a venv that sees it, built with the release profile as README's command
builds it):

    python3 -m venv --system-site-packages target/paddle-check
    target/paddle-check/bin/pip install ./crates/pir-py
    target/paddle-check/bin/python bench/compare_paddle_python.py [--rounds N] [CORPUS_DIR]

Each round starts one fresh interpreter per side, alternating sides so that
machine load hits both alike, and measures inside it:

- ``import``: ``import pir`` against ``import paddle`` (wall time of the
  import statement in a fresh process);
- ``program``: reading a model's program — ``pir.load(json, params=False)``
  against ``paddle.base.core.deserialize_pir_program`` into a
  ``paddle.static.Program`` — median of 5 reads in the process;
- ``model``: program and parameters ready to use — ``pir.load(json)`` plus
  one NumPy array per parameter (zero-copy views of the memory-mapped file)
  against ``paddle.static.load_inference_model`` (program and every tensor
  loaded into the scope) — median of 5.

Prints the medians over the rounds per model and side, and the ratios, as a
table; ``--json`` prints them as JSON.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MODELS = ["huge_5000ops", "deep_mlp_ln200", "resnet18_w16", "mobilenet_v2_x025"]

# Shared by both children: the median of `n` timed calls.
MEDIAN = r"""
import time
def median(f, n=5):
    times = []
    for _ in range(n):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return sorted(times)[n // 2]
"""

PIR_CHILD = r"""
import json, sys, time
t = time.perf_counter()
import pir
out = {"import": time.perf_counter() - t}
for prefix in sys.argv[1:]:
    def program():
        pir.load(prefix + ".json", params=False)
    def model():
        m = pir.load(prefix + ".json")
        arrays = [m.params[n] for n in m.params]
    out[prefix] = {"program": median(program), "model": median(model)}
print(json.dumps(out))
"""

PADDLE_CHILD = r"""
import json, os, sys, time, warnings
warnings.filterwarnings("ignore")
t = time.perf_counter()
import paddle
out = {"import": time.perf_counter() - t}
from paddle.base import core
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
for prefix in sys.argv[1:]:
    def program():
        core.deserialize_pir_program(prefix + ".json", paddle.static.Program(), -1)
    def model():
        with paddle.static.scope_guard(paddle.static.Scope()):
            paddle.static.load_inference_model(prefix, exe)
    entry = {"program": median(program)}
    if os.path.exists(prefix + ".pdiparams"):
        entry["model"] = median(model)
    out[prefix] = entry
print(json.dumps(out))
"""


def run(code, prefixes):
    res = subprocess.run([sys.executable, "-c", MEDIAN + code, *prefixes],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(res.stderr[-2000:])
    return json.loads(res.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=os.path.join(REPO, "..", "shared", "paddle-corpus"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    try:
        import paddle  # noqa: F401
        import pir  # noqa: F401
    except ImportError as e:
        print(f"skipped: {e} (see the usage in this script's docstring)")
        return 0
    prefixes = [os.path.join(args.corpus, m) for m in MODELS
                if os.path.exists(os.path.join(args.corpus, m + ".json"))]
    samples = {"pir": [], "paddle": []}
    for r in range(args.rounds):
        order = [("pir", PIR_CHILD), ("paddle", PADDLE_CHILD)]
        if r % 2:
            order.reverse()
        for side, code in order:
            samples[side].append(run(code, prefixes))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)

    def med(side, *keys):
        values = []
        for s in samples[side]:
            v = s
            for k in keys:
                v = v.get(k) if isinstance(v, dict) else None
            if v is not None:
                values.append(v)
        return statistics.median(values) if values else None

    rows = [("import", med("pir", "import"), med("paddle", "import"))]
    for p in prefixes:
        name = os.path.basename(p)
        rows.append((f"{name} program", med("pir", p, "program"), med("paddle", p, "program")))
        rows.append((f"{name} model", med("pir", p, "model"), med("paddle", p, "model")))
    if args.json:
        print(json.dumps([{"what": w, "pir_s": a, "paddle_s": b} for w, a, b in rows], indent=1))
        return 0
    print(f"{'what':32} {'pir':>10} {'paddle':>10} {'ratio':>8}")
    for what, a, b in rows:
        if a is None or b is None:
            continue
        print(f"{what:32} {a * 1e3:9.2f}ms {b * 1e3:9.2f}ms {b / a:7.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
