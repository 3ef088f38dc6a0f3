#!/usr/bin/env python3
"""Compute ops: ours against the program Paddle Inference finally runs.

For every corpus model Paddle Inference loads (../shared/paddle-corpus, and the
control-flow models in tests/corpus/control_flow; with their .pdiparams, or
without parameters when they have none) this compares
- Paddle: the ops of the last program print of Paddle Inference 3.3.1
  (`paddle.inference.Config` with `switch_ir_optim(True)`, `disable_mkldnn()`,
  `switch_ir_debug(True)`), i.e. after all its CPU passes, the passes Paddle
  runs on the bodies of `if`/`while` last included.
  Ops there are mostly kernel ops (`"relu_(phi_kernel)" (...) {...,
  op_name:"pd_op.relu_",...}`); they are counted under their `op_name`;
- ours: the ops of `pir opt MODEL.json -p PIPELINE` (default
  `constant_folding,fold_batch_norm,canonicalize,cse,dce`), read from the JSON
  it writes.
Both sides count ops in nested regions and leave out what does no compute:
parameters, constants, `full`, `full_int_array`, `assign_value(_)`, `data`,
`feed`, `fetch`, `builtin.shadow_output` and `cf.yield` (`builtin.combine`
and `builtin.split` count, on both sides). Paddle's count is not always a
correct program's: its `constant_folding_pass` folds away the `increment_` of
a loop counter that starts as a `full` (inplace_in_loop, rnn_cell_loop), so the
in-place update is lost and the `while` loops never end.

`--record` runs Paddle (one child process per model) and writes
tests/corpus/paddle_inference_ops.json: per model the compute-op count, the
count per op name (`by_op`, compute ops only), the `batch_norm`/`batch_norm_`
ops left, and the medians of 3 `create_predictor` wall times (in the child,
after a warm-up predictor, imports excluded): `create_ms_optim` with
`switch_ir_optim(True)`, `create_ms_no_optim` with `switch_ir_optim(False)`
and the optional passes (OPTIONAL_PASSES) removed by `Config.delete_pass`, since
in 3.3.1 on CPU `switch_ir_optim(False)` alone still runs every pass.
`optimize_ms` is their difference: the time Paddle spends in those passes (on
2 shared cores it is noisy for small models, and may come out negative).
A model Paddle fails on gets `{"error": ...}` instead. With `--models` only
those entries are replaced.

Without `--record` the recorded Paddle counts are compared with ours (Paddle is
not needed): a markdown table, and exit status 1 if ours is above Paddle's for
any model (or `pir opt` fails).

Needs `pip install paddlepaddle==3.3.1` (for `--record`) and
`cargo build --release -p pir-cli` (`PIR_BIN` overrides the binary).
Usage: scripts/paddle_inference_ops.py [--record] [--pipeline P] [--models a,b]
"""

import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_inplace_count import CORPORA, PIR, ROOT  # noqa: E402

RECORD = os.path.join(ROOT, "tests", "corpus", "paddle_inference_ops.json")
PADDLE_VERSION = "3.3.1"
DEFAULT_PIPELINE = "constant_folding,fold_batch_norm,canonicalize,cse,dce"
REPEATS = 3

NON_COMPUTE = frozenset([
    "builtin.parameter", "builtin.constant", "pd_op.full", "pd_op.full_int_array",
    "pd_op.assign_value", "pd_op.assign_value_", "pd_op.data", "pd_op.feed",
    "pd_op.fetch", "builtin.shadow_output", "cf.yield",
])
BATCH_NORM = ("pd_op.batch_norm", "pd_op.batch_norm_")

# Passes of Paddle Inference 3.3.1 (CPU, no oneDNN) that are optional: the
# baseline predictor deletes them. `switch_ir_optim(False)` alone changes
# nothing on this path: Paddle runs exactly the same passes.
OPTIONAL_PASSES = [
    "add_shadow_output_after_dead_parameter_pass", "delete_quant_dequant_linear_op_pass",
    "delete_weight_dequant_linear_op_pass", "transfer_layout_pass",
    "common_subexpression_elimination_pass", "constant_folding_pass",
    "dead_code_elimination_pass", "inplace_pass",
]

# Runs in a child process: Paddle prints its IR dumps from C++ to stdout. The
# first (printing) predictor also warms Paddle up; the timed ones log nothing.
PADDLE_CHILD = r"""
import json, os, sys, time
os.environ["GLOG_minloglevel"] = "2"
import paddle.inference as inf
model, params, timings, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
optional = sys.argv[5].split(",")

def config(optim, debug):
    cfg = inf.Config(model, params)
    cfg.disable_mkldnn()
    cfg.switch_ir_optim(optim)
    cfg.switch_ir_debug(debug)
    if not debug:
        cfg.disable_glog_info()
    if not optim:
        for name in optional:
            cfg.delete_pass(name)
    return cfg

inf.create_predictor(config(True, True))
sys.stdout.flush()
times = {"optim": [], "no_optim": []}
for _ in range(repeats):
    for key, optim in (("optim", True), ("no_optim", False)):
        cfg = config(optim, False)
        start = time.perf_counter()
        predictor = inf.create_predictor(cfg)
        times[key].append((time.perf_counter() - start) * 1000.0)
        del predictor
with open(timings, "w") as f:
    json.dump(times, f)
"""

# `(%1, %2) = "name" ...` or `() = "name" ...`: one op per line in Paddle's print.
PRINTED_OP = re.compile(r'^\s*\([^)]*\) = "([^"]+)"', re.M)
KERNEL_OP_NAME = re.compile(r'\bop_name:"([^"]+)"')
PRINT_AFTER = re.compile(r"IRPrinting on \S+ after \S+ pass")
JSON_PREFIXES = {"0": "builtin", "1": "pd_op", "2": "cf", "3": "custom_op", "4": "pd_dist"}


def models(wanted):
    """(name, model.json, params) of the corpus models Paddle Inference can load:
    with their .pdiparams file, or without parameters at all (params "");
    training checkpoints (.pdparams pickles) are left out."""
    for corpus in CORPORA:
        index_path = os.path.join(corpus, "index.json")
        if not os.path.exists(index_path):
            continue
        for entry in json.load(open(index_path))["models"]:
            name = entry["name"]
            params = os.path.join(corpus, name + ".pdiparams")
            if not os.path.exists(params):
                if os.path.exists(os.path.join(corpus, name + ".pdparams")):
                    continue
                params = ""
            if wanted and name not in wanted:
                continue
            yield name, os.path.join(corpus, name + ".json"), params


def summarise(counts):
    """Compute-op count, per-name counts and batch norms of an op-name Counter."""
    by_op = {name: n for name, n in sorted(counts.items()) if name not in NON_COMPUTE}
    return {
        "compute_ops": sum(by_op.values()),
        "by_op": by_op,
        "batch_norm": sum(counts.get(name, 0) for name in BATCH_NORM),
    }


def paddle_counts(printed):
    """Op-name Counter of one printed program; kernel ops go by their op_name."""
    counts = collections.Counter()
    for m in PRINTED_OP.finditer(printed):
        name = m.group(1)
        if "(" in name:  # a kernel op, e.g. "relu_(phi_kernel)"
            line_end = printed.find("\n", m.end())
            line = printed[m.end(): line_end if line_end >= 0 else len(printed)]
            kernel = KERNEL_OP_NAME.search(line)
            name = kernel.group(1) if kernel else name
        counts[name] += 1
    return counts


def final_print(text):
    """Paddle's last print of the program after a pass.

    Passes on the bodies of `pd_op.if`/`pd_op.while` (`IRPrinting on pd_op.while
    after inplace_pass pass`) run after those on the module and print the whole
    program too, so the last print is the final program.
    """
    starts = [m.end() for m in PRINT_AFTER.finditer(text)]
    if not starts:
        return None
    start = text.find("\n{", starts[-1])
    if start < 0:
        return None
    end = text.find("\n}\n", start)  # nested regions close indented
    return text[start: end if end >= 0 else len(text)]


def paddle_error(text):
    """The error summary and innermost C++ frames of a failed child, if any."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    frames = [l for l in lines if re.match(r"\d+\s+\S", l)]
    errors = [l for l in lines if re.match(r"[A-Za-z]*Error\b|[A-Za-z]+Error:", l)]
    parts = ([errors[-1]] if errors else [lines[-1] if lines else "no output"])
    if frames:
        parts.append("in " + " > ".join(f.split(None, 1)[1] for f in frames[-2:]))
    return " ".join(parts)[:300]


def run_paddle(json_path, params):
    """The summary of Paddle's final program and its timings, or an error string."""
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "paddle.log")
        timings = os.path.join(work, "timings.json")
        with open(log, "w") as out:
            res = subprocess.run(
                [sys.executable, "-c", PADDLE_CHILD, json_path, params, timings, str(REPEATS),
                 ",".join(OPTIONAL_PASSES)],
                stdout=out, stderr=subprocess.STDOUT, cwd=work)
        text = open(log, errors="replace").read()
        printed = final_print(text)
        if res.returncode != 0 or printed is None or not os.path.exists(timings):
            return None, "exit %d: %s" % (res.returncode, paddle_error(text))
        times = json.load(open(timings))
    entry = summarise(paddle_counts(printed))
    optim = statistics.median(times["optim"])
    no_optim = statistics.median(times["no_optim"])
    entry.update({
        "create_ms_optim": round(optim, 1),
        "create_ms_no_optim": round(no_optim, 1),
        "optimize_ms": round(optim - no_optim, 1),
    })
    return entry, None


def json_op_name(compressed):
    if compressed == "p":
        return "builtin.parameter"
    head, dot, tail = compressed.partition(".")
    return JSON_PREFIXES.get(head, head) + dot + tail


def json_counts(path):
    """Op-name Counter of a PIR JSON model, ops in nested regions included."""
    counts = collections.Counter()
    regions = list(json.load(open(path))["program"]["regions"])
    while regions:
        for block in regions.pop()["blocks"]:
            for op in block["ops"]:
                counts[json_op_name(op["#"])] += 1
                regions.extend(op.get("regions", []))
    return counts


def known_passes():
    res = subprocess.run([PIR, "opt", "--list-passes"], capture_output=True, text=True)
    if res.returncode != 0:
        return None
    return {line.split()[0] for line in res.stdout.splitlines() if line.strip()}


def check_pipeline(pipeline):
    """A message if the binary is missing or does not know a pass of PIPELINE."""
    if not os.path.exists(PIR):
        return "%s not found: run `cargo build --release -p pir-cli` or set PIR_BIN" % PIR
    known = known_passes()
    if known is None:
        return None  # let `pir opt` report it
    names = [p.split("{")[0].strip() for p in pipeline.split(",") if p.strip()]
    unknown = [n for n in names if n not in known]
    if unknown:
        return "pass(es) %s unknown to %s (it knows: %s)" % (
            ", ".join(unknown), PIR, ", ".join(sorted(known)))
    return None


def run_ours(src, pipeline):
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "model.json")
        res = subprocess.run([PIR, "opt", src, "-p", pipeline, "-o", out, "--force"],
                             capture_output=True, text=True)
        if res.returncode != 0:
            return None, (res.stderr.strip().splitlines() or ["exit %d" % res.returncode])[0][:300]
        return summarise(json_counts(out)), None


def record(wanted):
    data = {"paddle": PADDLE_VERSION, "models": {}}
    if wanted and os.path.exists(RECORD):
        data = json.load(open(RECORD))
    failed = 0
    for name, src, params in models(wanted):
        entry, problem = run_paddle(src, params)
        if entry is None:
            failed += 1
            data["models"][name] = {"error": problem}
            print("%-26s Paddle failed: %s" % (name, problem))
            continue
        data["models"][name] = entry
        print("%-26s compute ops %4d  batch_norm %3d  optimise %7.1f ms (create %.1f / %.1f)" % (
            name, entry["compute_ops"], entry["batch_norm"], entry["optimize_ms"],
            entry["create_ms_optim"], entry["create_ms_no_optim"]))
    with open(RECORD, "w") as f:
        json.dump(data, f, sort_keys=True, indent=1)
        f.write("\n")
    print("wrote %s (%d models, %d failed)" % (os.path.relpath(RECORD, ROOT), len(data["models"]), failed))
    return 0


def op_differences(paddle_by_op, ours_by_op):
    """Ours minus Paddle per op name, in-place twins (`relu_`) merged with `relu`."""
    diff = collections.Counter()
    for name, n in ours_by_op.items():
        diff[name.rstrip("_")] += n
    for name, n in paddle_by_op.items():
        diff[name.rstrip("_")] -= n
    return ", ".join("%s %+d" % (name, n) for name, n in sorted(diff.items()) if n)


def compare(wanted, pipeline):
    problem = check_pipeline(pipeline)
    if problem:
        print("error: " + problem, file=sys.stderr)
        return 2
    if not os.path.exists(RECORD):
        print("error: %s missing: run with --record first" % RECORD, file=sys.stderr)
        return 2
    recorded = json.load(open(RECORD))["models"]
    print("pipeline `%s`, Paddle Inference %s\n" % (pipeline, PADDLE_VERSION))
    print("| model | Paddle | ours | ours ≤ Paddle | batch_norm left (Paddle / ours) |")
    print("|---|---:|---:|:---:|---:|")
    bad = []
    totals = [0, 0, 0, 0]
    notes = []
    for name, src, _ in models(wanted):
        paddle = recorded.get(name) or {"error": "not recorded"}
        ours, problem = run_ours(src, pipeline)
        if ours is None:
            bad.append(name)
            print("| %s | %s | pir opt failed | no | |" % (name, paddle.get("compute_ops", "n/a")))
            notes.append("%s: pir opt: %s" % (name, problem))
            continue
        if "compute_ops" not in paddle:
            print("| %s | n/a | %d | | - / %d |" % (name, ours["compute_ops"], ours["batch_norm"]))
            notes.append("%s: no Paddle count (%s)" % (name, paddle["error"]))
            continue
        ok = ours["compute_ops"] <= paddle["compute_ops"]
        if not ok:
            bad.append(name)
            notes.append("%s: ours - Paddle by op: %s" % (
                name, op_differences(paddle["by_op"], ours["by_op"])))
        totals = [t + v for t, v in zip(totals, (
            paddle["compute_ops"], ours["compute_ops"], paddle["batch_norm"], ours["batch_norm"]))]
        print("| %s | %d | %d | %s | %d / %d |" % (
            name, paddle["compute_ops"], ours["compute_ops"], "yes" if ok else "**no**",
            paddle["batch_norm"], ours["batch_norm"]))
    print("| **total** | %d | %d | %s | %d / %d |" % (
        totals[0], totals[1], "yes" if not bad else "**%d no**" % len(bad), totals[2], totals[3]))
    if notes:
        print()
        for note in notes:
            print("- " + note)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--record", action="store_true",
                    help="run Paddle Inference and write %s" % os.path.relpath(RECORD, ROOT))
    ap.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    ap.add_argument("--models", default="", help="comma-separated model names")
    args = ap.parse_args()
    wanted = set(filter(None, args.models.split(",")))
    if args.record:
        return record(wanted)
    return compare(wanted, args.pipeline)


if __name__ == "__main__":
    sys.exit(main())
