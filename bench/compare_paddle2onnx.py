#!/usr/bin/env python3
"""ONNX conversion time: `pir` against paddle2onnx 2.1 (Paddle 3.3.1), timed the
same way on both sides, in one interleaved run.

Usage (from the repository root; `pir` built with the release profile into a
venv — e.g. `cd crates/pir-py && VIRTUAL_ENV=$PWD/../../target/pydev maturin
develop --release` — and `cargo build --release -p pir-cli`; paddle2onnx in
the Paddle venv):

    python3 bench/compare_paddle2onnx.py [--models resnet50,mobilenet_v2,...]
        [--rounds 5] [--ways inprocess,process] [--p2o-tool None]
        [--pir-python target/pydev/bin/python] [--pir target/release/pir]
        [--paddle-python /work/venv-paddle/bin/python] [--json]

Two ways, each the same on both sides:

- ``inprocess``: one long-lived interpreter per side, started and warmed up
  (imports done, one conversion of each model) before timing; each timed call
  converts one model from its files to an ONNX file on disk:
  ``pir.load(JSON).export_onnx(OUT, 17, overwrite=True)`` (program and
  parameters read, prepared, exported, written and synced) against
  ``paddle2onnx.export(JSON, PDIPARAMS, OUT, opset_version=17,
  enable_onnx_checker=False, optimize_tool=TOOL)``.
- ``process``: a fresh process per conversion, startup included:
  ``pir export JSON -o OUT -f --opset 17`` against paddle2onnx's command
  (``paddle2onnx --model_dir ... --enable_onnx_checker False
  --optimize_tool TOOL``).

``--p2o-tool`` is the Python-side pass paddle2onnx runs on its result before
writing (``polygraphy`` constant folding plus a full ONNX check is its
default; ``None``, the default here, writes what its C++ converter made: the
least work paddle2onnx can be asked to do, so the strictest comparison).
Rounds alternate which side goes first; each figure is the median over the
rounds. Models are looked up in /tmp/pir_zoo (made by
scripts/paddle_check_zoo.py) and /work/shared/paddle-corpus; every output
file is checked to be non-empty. The machine's load average is printed with
the table: the figures are wall-clock times.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MODELS = ["resnet50", "mobilenet_v2", "densenet121", "huge_5000ops", "resnet18_w16",
          "mobilenet_v2_x025"]
DIRS = ["/tmp/pir_zoo", "/work/shared/paddle-corpus", f"{REPO}/tests/corpus"]

# A server: reads one JSON job a line, converts, answers with the seconds the
# conversion took. `CONVERT` is the side's conversion of (model, params, out).
SERVER = r"""
import json, os, sys, time, warnings, logging
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)
{setup}
for line in sys.stdin:
    job = json.loads(line)
    try:
        if os.path.exists(job["out"]):
            os.remove(job["out"])
        t = time.perf_counter()
        convert(job["model"], job["params"], job["out"])
        dt = time.perf_counter() - t
        ok = os.path.exists(job["out"]) and os.path.getsize(job["out"]) > 0
        print(json.dumps({{"ok": ok, "seconds": dt}}), flush=True)
    except BaseException as e:
        print(json.dumps({{"ok": False, "error": (type(e).__name__ + ": " + str(e))[:300]}}), flush=True)
"""

PIR_SETUP = r"""
import pir
def convert(model, params, out):
    pir.load(model).export_onnx(out, 17, overwrite=True)
"""

P2O_SETUP = r"""
import paddle2onnx
def convert(model, params, out):
    paddle2onnx.export(model, params, out, opset_version=17, enable_onnx_checker=False,
                       verbose=False, optimize_tool={tool!r})
"""


class Server:
    """A long-lived interpreter converting models on request."""

    def __init__(self, python, setup):
        code = SERVER.format(setup=setup)
        self.proc = subprocess.Popen([python, "-c", code], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def convert(self, model, params, out):
        self.proc.stdin.write(json.dumps({"model": model, "params": params, "out": out}) + "\n")
        self.proc.stdin.flush()
        # The converter may print to stdout (paddle2onnx's C++ side does):
        # the answer is the last line that is our JSON.
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return {"ok": False, "error": "the interpreter exited"}
            line = line.strip()
            if line.startswith("{") and ('"seconds"' in line or '"error"' in line):
                return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def find(name):
    for d in DIRS:
        model = f"{d}/{name}.json"
        if os.path.exists(model):
            return model, f"{d}/{name}.pdiparams"
    sys.exit(f"no model {name}.json in {', '.join(DIRS)}")


def p2o_command(python, model, params, out, tool):
    d = os.path.dirname(model)
    return [os.path.join(os.path.dirname(python), "paddle2onnx"), "--model_dir", d,
            "--model_filename", os.path.basename(model), "--params_filename",
            os.path.basename(params), "--save_file", out, "--opset_version", "17",
            "--enable_onnx_checker", "False", "--optimize_tool", tool]


def timed_process(cmd, out):
    if os.path.exists(out):
        os.remove(out)
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t
    ok = p.returncode == 0 and os.path.exists(out) and os.path.getsize(out) > 0
    return {"ok": ok, "seconds": dt, "error": p.stderr.strip()[-300:]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ways", default="inprocess,process")
    ap.add_argument("--p2o-tool", default="None", choices=["None", "polygraphy", "onnxoptimizer"])
    ap.add_argument("--pir-python", default=f"{REPO}/target/pydev/bin/python")
    ap.add_argument("--pir", default=f"{REPO}/target/release/pir")
    ap.add_argument("--paddle-python", default="/work/venv-paddle/bin/python")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    names = args.models.split(",")
    ways = args.ways.split(",")
    files = {n: find(n) for n in names}
    tmp = tempfile.mkdtemp(prefix="pir_p2o_bench_")
    out = {n: {"pir": f"{tmp}/{n}.pir.onnx", "p2o": f"{tmp}/{n}.p2o.onnx"} for n in names}
    times = {(w, n, side): [] for w in ways for n in names for side in ("pir", "p2o")}

    servers = {}
    if "inprocess" in ways:
        servers = {"pir": Server(args.pir_python, PIR_SETUP),
                   "p2o": Server(args.paddle_python, P2O_SETUP.format(tool=args.p2o_tool))}
        # Warm-up: imports and one conversion of each model per side.
        for n in names:
            for side, server in servers.items():
                r = server.convert(*files[n], out[n][side])
                if not r.get("ok"):
                    sys.exit(f"{side} cannot convert {n}: {r.get('error')}")

    for k in range(args.rounds):
        order = ("pir", "p2o") if k % 2 == 0 else ("p2o", "pir")
        for n in names:
            model, params = files[n]
            for side in order:
                if "inprocess" in ways:
                    r = servers[side].convert(model, params, out[n][side])
                    if not r.get("ok"):
                        sys.exit(f"{side} failed on {n}: {r.get('error')}")
                    times[("inprocess", n, side)].append(r["seconds"])
                if "process" in ways:
                    cmd = ([args.pir, "export", model, "-o", out[n][side], "-f", "--opset", "17"]
                           if side == "pir"
                           else p2o_command(args.paddle_python, model, params, out[n][side], args.p2o_tool))
                    r = timed_process(cmd, out[n][side])
                    if not r["ok"]:
                        sys.exit(f"{side} (process) failed on {n}: {r['error']}")
                    times[("process", n, side)].append(r["seconds"])
    for server in servers.values():
        server.close()

    load = os.getloadavg()
    rows = []
    for w in ways:
        for n in names:
            pir_t = statistics.median(times[(w, n, "pir")])
            p2o_t = statistics.median(times[(w, n, "p2o")])
            rows.append({"way": w, "model": n, "pir_s": pir_t, "p2o_s": p2o_t, "ratio": p2o_t / pir_t})
    if args.json:
        print(json.dumps({"load": load, "p2o_tool": args.p2o_tool, "rounds": args.rounds, "rows": rows}))
        return 0
    print(f"paddle2onnx optimize_tool={args.p2o_tool}, {args.rounds} rounds, medians; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("\n| way | model | pir (ms) | paddle2onnx (ms) | paddle2onnx / pir |")
    print("|---|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['way']} | {r['model']} | {r['pir_s'] * 1e3:.1f} | {r['p2o_s'] * 1e3:.1f} | {r['ratio']:.1f}x |")
    for w in ways:
        rs = [r for r in rows if r["way"] == w]
        total = sum(r["p2o_s"] for r in rs) / sum(r["pir_s"] for r in rs)
        print(f"{w}: total {total:.1f}x, median {statistics.median(r['ratio'] for r in rs):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
