#!/usr/bin/env python3
"""Import and load times from Python: the `pir` package against Paddle 3.3.1,
in one interleaved run.

Usage (from the repository root; `pir` built with the release profile, as
README's command builds it, e.g. `maturin develop --release` into a venv):

    python3 bench/compare_paddle_python.py --pir-python target/pydev/bin/python \
        --paddle-python /work/venv-paddle/bin/python [--rounds N] [CORPUS_DIR] [MODEL ...]

Both interpreters default to the one running this script (a venv that has
both packages). The models are every ``NAME.json`` of the corpus with a
``NAME.pdiparams`` beside it, or the names given.

Each round starts one fresh interpreter per side, alternating sides so that
machine load hits both alike, and measures inside it:

- ``import``: ``import pir`` against ``import paddle`` (wall time of the
  import statement in a fresh process);
- ``program``: reading a model's program — ``pir.load(json, params=False)``
  against ``paddle.base.core.deserialize_pir_program`` into a
  ``paddle.static.Program`` — median of 5 reads in the process, after
  an untimed one;
- ``model``: the program and every parameter as a NumPy array in the
  user's hand, a dict from name to array — ``pir.load(json)`` then
  ``{name: model.params[name] for name in model.params}`` (read-only arrays
  viewing the file's bytes, mapped or, when small, read whole: what
  ``model.params`` gives) against
  ``paddle.static.load_inference_model(prefix, exe)`` into a fresh scope
  then ``{name: numpy.array(scope.find_var(name).get_tensor()) for name in
  scope.local_var_names()}`` (Paddle's tensors hand NumPy a copy; there is
  no zero-copy view of a scope's tensor) — median of 5 after an untimed one;
- ``files``: the model's files read whole and nothing else (``os.open``,
  ``os.fstat``, ``os.read``, ``os.close`` of ``NAME.json`` and
  ``NAME.pdiparams``, the four system calls a file ``pir.load`` makes), in
  the ``pir`` interpreter (the calls themselves cost a few percent of it): the
  floor of any load of those files, printed against Paddle's ``model`` time
  as the highest ratio a load could reach. (``pir.load`` maps a parameter
  file of 256 KiB or more, which the floor reads whole.)

Prints the medians over the rounds per model and side, and the ratios, as a
table with the load average beside it; ``--json`` prints them as JSON.

Small models: ``model`` maps the parameter file and unmaps it when the model
is dropped. Once NumPy is imported its BLAS threads make the process
multi-threaded, and unmapping then flushes the other CPUs' address
translations; on some virtual machines that costs more than the rest of a
small load. The children inherit the environment, so
``OPENBLAS_NUM_THREADS=1`` before the command shows the load without it
(both sides alike).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Shared by both children: the median of `n` timed calls after one
# untimed call, which pays each side's once-per-process costs (pir imports
# NumPy at its first array; both sides fault in fresh memory), as the other
# bench scripts leave out the first call.
MEDIAN = r"""
import time
def median(f, n=5):
    f()
    times = []
    for _ in range(n):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return sorted(times)[n // 2]
"""

PIR_CHILD = r"""
import json, os, sys, time
t = time.perf_counter()
import pir
out = {"import": time.perf_counter() - t}
def read_whole(path):
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)
for prefix in sys.argv[1:]:
    def program():
        pir.load(prefix + ".json", params=False)
    def model():
        m = pir.load(prefix + ".json")
        arrays = {n: m.params[n] for n in m.params}
    paths = [prefix + ".json"] + [prefix + ".pdiparams"] * os.path.exists(prefix + ".pdiparams")
    def files():
        for path in paths:
            read_whole(path)
    out[prefix] = {"program": median(program), "model": median(model), "files": median(files)}
print(json.dumps(out))
"""

PADDLE_CHILD = r"""
import json, os, sys, time, warnings
warnings.filterwarnings("ignore")
t = time.perf_counter()
import paddle
out = {"import": time.perf_counter() - t}
import numpy as np
from paddle.base import core
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
for prefix in sys.argv[1:]:
    def program():
        core.deserialize_pir_program(prefix + ".json", paddle.static.Program(), -1)
    def model():
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            paddle.static.load_inference_model(prefix, exe)
        arrays = {n: np.array(scope.find_var(n).get_tensor()) for n in scope.local_var_names()}
    entry = {"program": median(program)}
    if os.path.exists(prefix + ".pdiparams"):
        entry["model"] = median(model)
    out[prefix] = entry
print(json.dumps(out))
"""


def run(python, code, prefixes):
    res = subprocess.run([python, "-c", MEDIAN + code, *prefixes],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(res.stderr[-2000:])
    return json.loads(res.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=os.path.join(REPO, "..", "shared", "paddle-corpus"))
    ap.add_argument("models", nargs="*", help="model names (default: every NAME.json with NAME.pdiparams)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pir-python", default=sys.executable, help="the interpreter that imports pir")
    ap.add_argument("--paddle-python", default=sys.executable, help="the interpreter that imports paddle")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    for python, module in ((args.pir_python, "pir"), (args.paddle_python, "paddle")):
        if subprocess.run([python, "-c", "import " + module], capture_output=True).returncode:
            print(f"skipped: {python} cannot import {module} (see the usage in this script's docstring)")
            return 0
    names = args.models or sorted(
        f[:-len(".pdiparams")] for f in os.listdir(args.corpus)
        if f.endswith(".pdiparams") and os.path.exists(os.path.join(args.corpus, f[:-len(".pdiparams")] + ".json")))
    prefixes = [os.path.join(args.corpus, m) for m in names
                if os.path.exists(os.path.join(args.corpus, m + ".json"))]
    load_before = os.getloadavg()[0]
    samples = {"pir": [], "paddle": []}
    for r in range(args.rounds):
        order = [("pir", args.pir_python, PIR_CHILD), ("paddle", args.paddle_python, PADDLE_CHILD)]
        if r % 2:
            order.reverse()
        for side, python, code in order:
            samples[side].append(run(python, code, prefixes))
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
    load = (load_before, os.getloadavg()[0])
    if args.json:
        print(json.dumps({"load_average": load,
                          "rows": [{"what": w, "pir_s": a, "paddle_s": b} for w, a, b in rows]}, indent=1))
        return 0
    print("load average (1 min) before and after: %.2f, %.2f" % load)
    print(f"{'what':36} {'pir':>10} {'paddle':>10} {'ratio':>8}")
    for what, a, b in rows:
        if a is None or b is None:
            continue
        print(f"{what:36} {a * 1e3:9.2f}ms {b * 1e3:9.2f}ms {b / a:7.1f}x")
    # The floor of a small model's load: its files' bytes read and nothing
    # else (four system calls a file, as `pir.load` makes), against
    # Paddle's whole load; no reader of those files can reach a higher ratio.
    print("\nreading the files alone (open, fstat, read, close each), against Paddle's model load:")
    for p in prefixes:
        floor, paddle_model = med("pir", p, "files"), med("paddle", p, "model")
        if floor and paddle_model:
            print(f"{os.path.basename(p) + ' files':36} {floor * 1e3:9.3f}ms {paddle_model * 1e3:9.2f}ms "
                  f"{paddle_model / floor:7.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
