#!/usr/bin/env python3
"""Inference latency: Paddle's own optimisation against ours, both run by Paddle 3.3.1.

For every corpus model with reference inputs (../shared/paddle-corpus and
tests/corpus/control_flow, as found by scripts/paddle_inference_ops.py, those
with a `NAME.inputs.npz`):

  X  the model as saved (`NAME.json` + `NAME.pdiparams`), run by a Paddle
     Inference predictor with Paddle's IR optimisation on
     (`Config.switch_ir_optim(True)`: every CPU pass Paddle 3.3.1 runs);
  Y  `pir opt NAME.json -p PIPELINE -o Y.json` (with the parameters it writes
     beside Y.json, or the model's own file when it writes none), run by a
     predictor with Paddle's optimisation off: `switch_ir_optim(False)` and the
     optional passes (OPTIONAL_PASSES of scripts/paddle_inference_ops.py)
     deleted with `Config.delete_pass`, since in 3.3.1 on CPU
     `switch_ir_optim(False)` alone still runs every pass.

What Paddle still does to Y (checked with `Config.switch_ir_debug`): the two
passes that are not optional, `replace_fetch_with_shadow_output_pass` and
`remove_shadow_feed_pass` (feed/fetch plumbing of the executor), and the
lowering to kernels. No fusion, no folding, no CSE/DCE, no `inplace_pass`:
every compute op Y runs is one `pir opt` wrote, and the run-time work those
passes would do is our pipeline's (its `inplace` pass makes the in-place ops,
its `constant_folding{constants-as-params=true}` turns the constants left
into parameters).

The latter matters most on small models: Paddle's `constant_folding_pass`
replaces every `full`/`full_int_array`/`assign_value` by a variable loaded
once (`builtin.constant`/`builtin.parameter`), while in a program without it
each of them is a kernel launched on every run (and on every iteration of a
`while` body). Before our pipeline did the same, the small models with many
such constants (slicing, cond_if, c_pool_interp, the `while` models) were
those where Y lost most; the op lists of X after Paddle and of Y differed in
little else (`pd_op.fc` for `matmul`+`add`, fewer in-place ops).

Both predictors are CPU ones with one math thread
(`set_cpu_math_library_num_threads(1)`, and OMP/MKL threads 1 in the child's
environment), oneDNN off (`disable_mkldnn()`; `--onednn` turns it on for both,
with which X also gets Paddle's oneDNN fusion passes and Y none).

Each measurement is one child process (Paddle imported afresh, nothing shared):
it creates the predictor, copies the model's own inputs in before every run,
runs `--warmup` untimed runs and then `--runs` timed `predictor.run()` calls,
more while they add up to less than `--min-ms` (200 ms: a 0.03 ms model gets
thousands of runs, whose statistics scatter far less than 100 runs' do),
and reports their median (`--stat median`, the default) or their minimum
(`--stat min`: on a loaded machine most runs of a 0.1 ms model are stretched
by preemption, and the minimum is the run the other processes left alone).
`--batch K` repeats each input whose `data` op has a dynamic leading dim K
times along it, so both sides also run (and must agree) at a batch size the
model was not saved with: a pass that baked the saved batch size into the
program would show there.

Per round the models are measured X, Y, X, Y ... (X then Y for each model,
`--rounds` rounds); with `--paired` one child per model and round creates both
predictors and alternates `--blocks` blocks of X's and Y's runs, so the
machine's drift falls on both sides alike (a fresh process per side cannot
resolve 5 % on a 0.05 ms model; the paired child can); a model's time is the median of its rounds' values. Y's outputs (from its last run) must equal X's: same shapes
and dtypes, `numpy.allclose(y, x, rtol=1e-4, atol=ATOL)` for floats (`--atol`,
default 1e-5, for values that round to about zero) and exact equality
otherwise.

Prints the machine's load average (1 min) at the start and the end (on a
shared machine the timings are only as good as that), then a markdown table:
model, kind (`conv` when the model has a convolution, `linear` when it has a
matmul but no convolution, else `other`),
X ms, Y ms, speedup X/Y (above 1: ours is faster), outputs match; then the
geometric mean of the speedups over the models both sides ran. Models a side
could not run (a Paddle error, a child killed after `--timeout` seconds, `pir
opt` failing) get a row saying so and stay out of the geomean; so do models
whose outputs differ (they are counted, and the exit status is 1).

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`
(`PIR_BIN` overrides the binary).

Usage:
  bench/compare_paddle_predictor.py [--pipeline P] [--models a,b] [--rounds 3]
                                    [--warmup 3] [--runs 10] [--min-ms 200]
                                    [--stat median|min] [--onednn]
                                    [--paired [--blocks 8]] [--batch K]
                                    [--timeout 120] [--atol 1e-5]
"""

import argparse
import collections
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from paddle_inference_ops import (  # noqa: E402
    OPTIONAL_PASSES, PIR, json_counts, models)

# Until `pir opt` knows an `inference` pipeline, pass an existing one with
# `--pipeline`, e.g. constant_folding,fold_batch_norm,canonicalize,cse,dce.
DEFAULT_PIPELINE = "inference"
# Models Paddle Inference 3.3.1 cannot run as saved.
SKIP = {"infer_untrainable": "Paddle 3.3.1 cannot run its own file"}
CONV_OPS = ("pd_op.conv2d", "pd_op.depthwise_conv2d", "pd_op.conv2d_transpose",
            "pd_op.conv3d", "pd_op.depthwise_conv2d_transpose")
LINEAR_OPS = ("pd_op.matmul", "pd_op.fc", "pd_op.bmm")
RESULT = "@@result "

# One measurement, in its own process, of one side or of both (`--paired`):
#   argv: inputs.npz onednn(0/1) warmup runs deleted-passes min-ms blocks
#         then, per side: model.json params optim(0/1) outputs.npz
# Each side gets its predictor; the sides take turns, `blocks` blocks of runs
# each, so that drift of the machine (other processes, frequency) falls on
# them alike. Prints `@@result [[ms...], ...]` (every timed run, per side) and
# writes each side's outputs of its last run.
CHILD = r"""
import json, os, sys, time
os.environ["GLOG_minloglevel"] = "2"
import numpy as np
import paddle.inference as inf
(inputs, onednn, warmup, runs, deleted, min_ms, blocks) = sys.argv[1:8]
onednn, warmup, runs, blocks = onednn == "1", int(warmup), int(runs), int(blocks)
min_ms = float(min_ms)
rest = sys.argv[8:]
specs = [rest[i:i + 4] for i in range(0, len(rest), 4)]
npz = np.load(inputs)
by_name = {k.split("_", 1)[1]: npz[k] for k in npz.files}

def predictor(model, params, optim):
    cfg = inf.Config(model, params)
    if onednn:
        cfg.enable_mkldnn()
    else:
        cfg.disable_mkldnn()
    cfg.set_cpu_math_library_num_threads(1)
    cfg.switch_ir_optim(optim)
    cfg.disable_glog_info()
    if not optim:
        for name in filter(None, deleted.split(",")):
            cfg.delete_pass(name)
    pred = inf.create_predictor(cfg)
    names = pred.get_input_names()
    missing = [n for n in names if n not in by_name]
    if missing:
        raise SystemExit("inputs %s not in %s" % (missing, inputs))
    return pred, [(pred.get_input_handle(n), by_name[n]) for n in names]

def run(side):
    pred, handles = side
    for handle, array in handles:  # fresh inputs every run: an in-place op may write them
        handle.reshape(array.shape)
        handle.copy_from_cpu(array)
    start = time.perf_counter()
    pred.run()
    return (time.perf_counter() - start) * 1000.0

sides = [predictor(model, params, optim == "1") for model, params, optim, _ in specs]
for _ in range(warmup):
    for side in sides:
        run(side)
# Runs per block: at least `runs` in all, and enough that the blocks add up to
# `min_ms` (a 0.03 ms model gets thousands of runs, whose statistics scatter
# far less than 100 runs' do).
once = max(min(run(side) for side in sides), 1e-3)
per_block = max(-(-runs // blocks), int(min_ms / len(sides) / blocks / once), 1)
times = [[] for _ in sides]
for _ in range(blocks):
    for i, side in enumerate(sides):
        times[i].extend(run(side) for _ in range(per_block))
for (pred, _), spec in zip(sides, specs):
    np.savez(spec[3], **{"out%d" % i: pred.get_output_handle(n).copy_to_cpu()
                         for i, n in enumerate(pred.get_output_names())})
sys.stdout.write("@@result " + json.dumps(times) + "\n")
"""


def error_line(text, limit=240):
    """The most telling line of a child's output: pir's `error: ...`, Paddle's `XxxError: ...`."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if l.startswith("error:"):
            return l[len("error:"):].strip()[:limit]
    for l in reversed(lines):
        head = l.split(":", 1)[0]
        if head.endswith("Error") and " " not in head:
            return l[:limit]
    return (lines[-1] if lines else "no output")[:limit]


STATS = {"median": statistics.median, "min": min}


def measure(sides, inputs, args):
    """(per side its timed runs' `--stat`, None) of one child, or (None, problem).
    `sides`: (model.json, params, optim, outputs.npz) each."""
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", GLOG_minloglevel="2")
    cmd = [sys.executable, "-c", CHILD, inputs, "1" if args.onednn else "0", str(args.warmup),
           str(args.runs), ",".join(OPTIONAL_PASSES), str(args.min_ms),
           str(args.blocks if len(sides) > 1 else 1)]
    for model, params, optim, outputs in sides:
        cmd += [model, params, "1" if optim else "0", outputs]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=env,
                             cwd=os.path.dirname(sides[0][3]))
    except subprocess.TimeoutExpired:
        return None, "no answer after %d s (killed)" % args.timeout
    for line in res.stdout.splitlines():
        if line.startswith(RESULT):
            return [STATS[args.stat](ms) for ms in json.loads(line[len(RESULT):])], None
    return None, "exit %d: %s" % (res.returncode, error_line(res.stderr + res.stdout))


def outputs_problem(x_path, y_path, atol):
    """None when Y's outputs equal X's, else what differs."""
    import numpy as np
    x, y = np.load(x_path), np.load(y_path)
    if sorted(x.files) != sorted(y.files):
        return "%d outputs, expected %d" % (len(y.files), len(x.files))
    for k in sorted(x.files, key=lambda k: int(k[3:])):
        a, b = x[k], y[k]
        if a.shape != b.shape or a.dtype != b.dtype:
            return "%s: %s %s, expected %s %s" % (k, b.dtype, b.shape, a.dtype, a.shape)
        if a.dtype.kind in "fc":
            if not np.allclose(b, a, rtol=1e-4, atol=atol, equal_nan=True):
                worst = float(np.max(np.abs(b.astype(np.float64) - a.astype(np.float64))))
                return "%s: max abs difference %.3g" % (k, worst)
        elif not np.array_equal(a, b):
            return "%s: %d elements differ" % (k, int(np.sum(a != b)))
    return None


def kind_of(counts):
    if any(counts.get(op) for op in CONV_OPS):
        return "conv"
    if any(counts.get(op) for op in LINEAR_OPS):
        return "linear"
    return "other"


def dynamic_batch_inputs(path):
    """Names of the `pd_op.data` inputs of a PIR JSON model whose leading dim is -1."""
    names = set()
    for op in json.load(open(path))["program"]["regions"][0]["blocks"][0]["ops"]:
        if op["#"] != "1.data":
            continue
        attrs = {a["N"]: a["AT"].get("D") for a in op.get("A", [])}
        shape = attrs.get("shape")
        if isinstance(shape, list) and shape and shape[0] == -1:
            names.add(attrs.get("name"))
    return names


def batched_inputs(name, src, inputs, times, work):
    """`inputs`, with the arrays of dynamic-batch inputs repeated `times` times along
    their leading dim (written to `work`); `inputs` itself when `times` is 1."""
    if times == 1:
        return inputs
    import numpy as np
    dynamic = dynamic_batch_inputs(src)
    npz = np.load(inputs)
    arrays = {k: (np.concatenate([npz[k]] * times, axis=0)
                  if k.split("_", 1)[1] in dynamic and npz[k].ndim > 0 else npz[k])
              for k in npz.files}
    out = os.path.join(work, "%s.batch%d.inputs.npz" % (name, times))
    np.savez(out, **arrays)
    return out


def optimise(name, src, params, pipeline, work):
    """(Y.json, Y params) written by `pir opt`, or (None, problem)."""
    out = os.path.join(work, name + ".opt.json")
    res = subprocess.run([PIR, "opt", src, "-p", pipeline, "-o", out, "--force"],
                         capture_output=True, text=True)
    if res.returncode != 0:
        return None, "pir opt: " + error_line(res.stderr or res.stdout)
    written = os.path.splitext(out)[0] + ".pdiparams"
    if os.path.exists(written):
        return (out, written), None
    return (out, params), None  # no parameters written: the result names the model's own or none


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    ap.add_argument("--models", default="", help="comma-separated model names (default: all)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--min-ms", type=float, default=200.0,
                    help="keep running past --runs until the timed runs add up to this")
    ap.add_argument("--stat", choices=sorted(STATS), default="median",
                    help="what a child reports of its timed runs")
    ap.add_argument("--onednn", action="store_true", help="oneDNN on for both predictors")
    ap.add_argument("--paired", action="store_true",
                    help="X and Y in one process, alternating blocks of runs (steadier on small "
                         "models than a fresh process per side)")
    ap.add_argument("--blocks", type=int, default=8,
                    help="with --paired: how many times the sides alternate per round")
    ap.add_argument("--batch", type=int, default=1,
                    help="repeat the inputs of dynamic batch size this many times along their "
                         "leading dim (a batch size the model was not saved with)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds one measurement may take")
    ap.add_argument("--atol", type=float, default=1e-5)
    args = ap.parse_args()
    if min(args.rounds, args.runs, args.blocks, args.batch) < 1 or args.warmup < 0:
        ap.error("--rounds, --runs, --blocks and --batch must be at least 1, --warmup at least 0")
    if not os.path.exists(PIR):
        print("error: %s not found: run `cargo build --release -p pir-cli` or set PIR_BIN" % PIR,
              file=sys.stderr)
        return 2
    try:
        import warnings
        warnings.filterwarnings("ignore")  # Paddle warns on import (no ccache, ...)
        import numpy  # noqa: F401
        import paddle  # noqa: F401
    except ImportError:
        print("paddlepaddle is not installed: pip install paddlepaddle==3.3.1", file=sys.stderr)
        return 2
    wanted = set(filter(None, args.models.split(",")))

    load_start = os.getloadavg()[0]  # timings mean little on a busy machine; the table says how busy
    work = tempfile.mkdtemp(prefix="compare_paddle_predictor_")
    try:
        entries = []  # name, kind, X (json, params), Y (json, params) or None, inputs, note
        for name, src, params in models(wanted):
            inputs = os.path.join(os.path.dirname(src), name + ".inputs.npz")
            if name in SKIP or not os.path.exists(inputs):
                continue
            inputs = batched_inputs(name, src, inputs, args.batch, work)
            y, note = optimise(name, src, params, args.pipeline, work)
            entries.append((name, kind_of(json_counts(src)), (src, params), y, inputs, note))
        if entries and all(e[3] is None for e in entries):  # e.g. a pipeline pir does not know
            print("error: `pir opt -p %s` failed on every model; first: %s"
                  % (args.pipeline, entries[0][5]), file=sys.stderr)
            return 2
        if wanted and len(wanted) != len({e[0] for e in entries}):
            unknown = wanted - {e[0] for e in entries}
            print("unknown model(s) or without inputs: %s" % ", ".join(sorted(unknown)), file=sys.stderr)
            return 2

        times = collections.defaultdict(lambda: {"x": [], "y": []})
        problems = {}
        for _ in range(args.rounds):
            for name, _kind, x, y, inputs, note in entries:
                if name in problems:
                    continue
                outs = {side: os.path.join(work, "%s.%s.outputs.npz" % (name, side)) for side in "xy"}
                sides = [("x", x, True), ("y", y, False)]
                groups = [sides] if args.paired and y is not None else [[s] for s in sides]
                for group in groups:
                    group = [(side, files, optim) for side, files, optim in group if files]
                    if not group:
                        continue
                    ms, problem = measure([(files[0], files[1], optim, outs[side])
                                           for side, files, optim in group], inputs, args)
                    if ms is None:
                        who = "both" if len(group) > 1 else (
                            "Paddle-optimised" if group[0][0] == "x" else "ours")
                        problems[name] = "%s: %s" % (who, problem)
                        break
                    for (side, _, _), t in zip(group, ms):
                        times[name][side].append(t)

        print("pipeline `%s`; Paddle Inference 3.3.1, CPU, 1 thread, oneDNN %s; "
              "X: Paddle's optimisation, Y: ours with Paddle's off; %d rounds x %d runs (+%d warm-up), "
              "%s of a round's runs%s%s; "
              "load average %.1f at the start, %.1f at the end on %d CPUs\n"
              % (args.pipeline, "on" if args.onednn else "off", args.rounds, args.runs, args.warmup,
                 args.stat,
                 ", X and Y alternating in one process (%d blocks)" % args.blocks if args.paired else "",
                 ", dynamic-batch inputs repeated %d times" % args.batch if args.batch > 1 else "",
                 load_start, os.getloadavg()[0], os.cpu_count() or 0))
        print("| model | kind | X ms | Y ms | speedup | outputs |")
        print("|---|---|---:|---:|---:|---|")
        speedups, mismatches, notes = [], 0, []
        for name, kind, x, y, inputs, note in entries:
            problem = note or problems.get(name)
            if problem:
                tx = times[name]["x"]
                print("| %s | %s | %s | n/a | n/a | not run |" % (
                    name, kind, "%.3f" % statistics.median(tx) if tx else "n/a"))
                notes.append("%s: %s" % (name, problem))
                continue
            tx, ty = statistics.median(times[name]["x"]), statistics.median(times[name]["y"])
            diff = outputs_problem(os.path.join(work, name + ".x.outputs.npz"),
                                   os.path.join(work, name + ".y.outputs.npz"), args.atol)
            speedup = tx / ty if ty > 0 else float("inf")
            if diff is None:
                speedups.append(speedup)
            else:
                mismatches += 1
                notes.append("%s: outputs differ: %s" % (name, diff))
            print("| %s | %s | %.3f | %.3f | %.2f | %s |" % (
                name, kind, tx, ty, speedup, "equal" if diff is None else "**differ**"))
        if speedups:
            geomean = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
            print("\ngeomean speedup X/Y over %d models with equal outputs: %.3f" % (len(speedups), geomean))
        for n in notes:
            print("- " + n)
        return 1 if mismatches else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
