#!/usr/bin/env python3
"""Numerical equivalence of pass pipelines, checked by Paddle 3.3.1 itself.

For every model and every pipeline: `pir opt MODEL.json -p PIPELINE -o OUT.json
--statistics`, then Paddle loads OUT.json with the model's own `.pdiparams` (when it has
one: `paddle.jit.load`), runs it on the model's reference input (`NAME.inputs.npz`) and
compares the outputs with `NAME.meta.json`'s `reference_output` (shape, sum, abs_sum,
first8; relative tolerance 1e-5; the comparison of `crates/pir-params/scripts/paddle_roundtrip.py`).
Each (model, pipeline) gives one line

    PASS <model> [<pipeline>]: <changes> changes, outputs match reference_output
    FAIL <model> [<pipeline>]: pir opt: <pir's error> | paddle: <Paddle's error> | output i: ...

and the run ends with the line `N passed, M failed` (exit code 0 when M is 0, else 1).

Models: the shared corpus (`../shared/paddle-corpus`, its `index.json`; every model with
`NAME.inputs.npz` and a `reference_output` but `infer_untrainable`, which Paddle cannot
run, and `train_mlp_adam`, a training program) and the
control-flow / in-place models of `tests/corpus/control_flow` (`index.json`, made by
`scripts/make_control_flow_models.py`).

Pipelines: `--pipeline P` (repeatable; a pipeline is pir's text, e.g. `canonicalize,cse,dce`)
or the default list `cse`, `canonicalize`, `dce`, `canonicalize,cse,dce`. The pipeline
`none` runs the original file without `pir opt` (the baseline: every model must pass it).
A pass `pir` does not know (yet) is a FAIL carrying pir's error, so new passes
(`de_inplace`, `inplace`, `to_vtensor`...) plug in by name.

`--fixed-inputs` gives every input the shape of its reference input first
(`pir opt --input-shape NAME=DIMS`, the `set_input_shapes` pass: dims fixed and followed
through the program by type inference), then runs the pipeline (`none`: the shapes alone);
each line then also tells the compute ops left (ops other than data, parameters, constants
and fetches), for comparing a pipeline over fixed shapes with the same over dynamic ones.

Paddle runs in a worker process (restarted after a crash, a hang is killed after
`--timeout` seconds), so a program that crashes Paddle is one FAIL line, not the end of
the run.

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli` (or
`PIR_BIN=/path/to/pir`).

Usage:
  scripts/paddle_check_passes.py [--pipeline P]... [--models a,b] [--keep DIR]
                                 [--corpus shared|control_flow|all] [--timeout S]
                                 [--fixed-inputs]
  --models a,b   only these models (names from either corpus)
  --keep DIR     keep what was run: DIR/<model>.<pipeline>.json (+ .pdiparams), with
                 `,` in the pipeline written `+`
"""

import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("GLOG_minloglevel", "2")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))
SHARED = os.path.join(ROOT, "..", "shared", "paddle-corpus")
CONTROL_FLOW = os.path.join(ROOT, "tests", "corpus", "control_flow")
DEFAULT_PIPELINES = ["cse", "canonicalize", "dce", "canonicalize,cse,dce"]
# Shared-corpus models Paddle cannot run through jit.load (see that corpus' README).
SKIP = {"infer_untrainable": "Paddle 3.3.1 cannot run its own file",
        "train_mlp_adam": "a training program saved with paddle.static.save"}
RESULT = "@@result "


def error_line(text, limit=300):
    """The most telling line of an error text: Paddle's `XxxError: ...` line, pir's `error: ...` line."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if l.startswith("error:"):
            return l[len("error:"):].strip()[:limit]
    for l in lines:
        head = l.split(":", 1)[0]
        if head.endswith("Error") and " " not in head and ":" in l:
            return l[:limit]
    for l in lines:
        if "Error" in l or "error" in l:
            return l[:limit]
    return (lines[-1] if lines else "(no message)")[:limit]


# ---------------------------------------------------------------------------------------
# worker: runs in its own process, imports paddle once, one job per stdin line


def worker():
    sys.path.insert(0, os.path.join(ROOT, "crates", "pir-params", "scripts"))
    import numpy as np
    import paddle
    from paddle_roundtrip import compare_outputs, flatten  # the same comparison as the parameter checks

    out = sys.stdout
    sys.stdout = sys.stderr  # anything Paddle prints stays off the result channel
    for line in sys.stdin:
        job = json.loads(line)
        try:
            layer = paddle.jit.load(job["prefix"])
            npz = np.load(job["inputs"])
            keys = sorted(npz.files, key=lambda k: int(k[3:].split("_")[0]))
            inputs = [paddle.to_tensor(npz[k]) for k in keys]
            reference = job["reference"]
            for ref in reference["outputs"]:  # bool outputs carry no abs_sum in the corpus schema
                if ref.get("dtype") == "bool" and "abs_sum" not in ref:
                    ref["abs_sum"] = ref["sum"]
            problem = compare_outputs(flatten(layer(*inputs)), reference)
        except Exception as e:  # a Paddle failure is a failed check, reported
            problem = "paddle: %s" % error_line(str(e) or type(e).__name__)
        out.write(RESULT + json.dumps({"problem": problem}) + "\n")
        out.flush()


class Worker:
    def __init__(self, timeout):
        self.timeout = timeout
        self.proc = None
        self.log = None

    def start(self):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     text=True, bufsize=1)

    def stop(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None

    def run(self, job):
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        try:
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        deadline = time.time() + self.timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                self.stop()
                return "paddle: no answer after %d s (killed)" % self.timeout
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                continue
            line = self.proc.stdout.readline()
            if not line:  # the worker died
                code = self.proc.wait()
                self.log.seek(0)
                tail = self.log.read()[-4000:]
                self.proc = None
                return "paddle crashed (exit %d): %s" % (code, error_line(tail))
            if line.startswith(RESULT):
                return json.loads(line[len(RESULT):])["problem"]


# ---------------------------------------------------------------------------------------


def corpus_models(which):
    """(name, folder, meta) of every model to check, shared corpus first."""
    folders = []
    if which in ("shared", "all"):
        if os.path.exists(os.path.join(SHARED, "index.json")):
            folders.append(SHARED)
        else:
            print("note: %s not found; the shared corpus is not checked" % SHARED, file=sys.stderr)
    if which in ("control_flow", "all"):
        folders.append(CONTROL_FLOW)
    models = []
    for folder in folders:
        index = json.load(open(os.path.join(folder, "index.json")))
        for entry in index["models"]:
            name = entry["name"]
            if name in SKIP and folder == SHARED:
                continue
            meta_path = os.path.join(folder, name + ".meta.json")
            if not os.path.exists(os.path.join(folder, name + ".inputs.npz")) or not os.path.exists(meta_path):
                continue
            meta = json.load(open(meta_path))
            if "reference_output" not in meta:
                continue
            models.append((name, folder, meta))
    return models


CHANGE_WORDS = ("erased", "merged", "applied", "converted", "forwarded", "moved", "copied", "dropped", "rewritten", "hoisted", "folded", "trimmed")


def changes_of(stderr):
    """Ops the passes changed, from `pir opt --statistics` counter lines."""
    return sum(int(l.split()[0]) for l in stderr.splitlines()
               if l.strip() and l.split()[0].isdigit() and any(w in l for w in CHANGE_WORDS))


def input_shape_args(folder, name):
    """`--input-shape NAME=DIMS` for each reference input (`argK_NAME` in the npz)."""
    import numpy as np

    args = []
    with np.load(os.path.join(folder, name + ".inputs.npz")) as inputs:
        for key in inputs.files:
            input_name = key.split("_", 1)[1] if key.startswith("arg") and "_" in key else key
            dims = ",".join(str(d) for d in inputs[key].shape)
            args += ["--input-shape", "%s=%s" % (input_name, dims)]
    return args


NOT_COMPUTE = ("builtin.parameter", "builtin.constant", "builtin.shadow_output", "pd_op.data",
               "pd_op.feed", "pd_op.fetch", "pd_op.full", "pd_op.full_int_array")


def compute_ops(path):
    """Ops of the program at `path` other than inputs, parameters, constants and fetches."""
    res = subprocess.run([PIR, "print", path], capture_output=True, text=True)
    count = 0
    for line in res.stdout.splitlines():
        quoted = line.split('"')
        if len(quoted) >= 3 and ("=" in quoted[0] or not quoted[0].strip()) and "." in quoted[1]:
            count += quoted[1] not in NOT_COMPUTE
    return count


def check(worker, name, folder, meta, pipeline, work, keep, fixed=False):
    src = os.path.join(folder, name + ".json")
    params = os.path.join(folder, name + ".pdiparams")
    tag = pipeline.replace(",", "+").replace("/", "_").replace(" ", "")
    prefix = os.path.join(work, "%s.%s" % (name, tag))
    shapes = input_shape_args(folder, name) if fixed else []
    if pipeline == "none" and not shapes:
        shutil.copy(src, prefix + ".json")
        changes = 0
    else:
        steps = [] if pipeline == "none" else ["-p", pipeline]
        res = subprocess.run([PIR, "opt", src] + shapes + steps + ["-o", prefix + ".json", "--statistics"],
                             capture_output=True, text=True)
        if res.returncode != 0:
            return "pir opt: %s" % error_line(res.stderr or res.stdout), 0, 0
        changes = changes_of(res.stderr)
    # pir opt writes the parameters the result uses beside it; else use the model's own file.
    if os.path.exists(params) and not os.path.exists(prefix + ".pdiparams"):
        shutil.copy(params, prefix + ".pdiparams")
    if keep:
        for ext in (".json", ".pdiparams"):
            if os.path.exists(prefix + ext):
                shutil.copy(prefix + ext, os.path.join(keep, os.path.basename(prefix) + ext))
    problem = worker.run({"prefix": prefix, "inputs": os.path.join(folder, name + ".inputs.npz"),
                          "reference": meta["reference_output"]})
    return problem, changes, compute_ops(prefix + ".json")


def main():
    ap = argparse.ArgumentParser(description="Run pass pipelines with pir and check the results in Paddle 3.3.1.")
    ap.add_argument("--pipeline", action="append", default=None,
                    help="a pass pipeline (repeatable; `none` = the original file); default: %s"
                    % " ".join(DEFAULT_PIPELINES))
    ap.add_argument("--models", default="", help="comma-separated model names (default: all)")
    ap.add_argument("--keep", default=None, help="folder where the files that were run are kept")
    ap.add_argument("--corpus", default="all", choices=["shared", "control_flow", "all"])
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds Paddle may take per model run (a broken loop may never end)")
    ap.add_argument("--fixed-inputs", action="store_true",
                    help="give every input its reference input's shape first (pir opt --input-shape)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return 0
    try:
        import numpy  # noqa: F401
        import paddle  # noqa: F401
    except ImportError:
        print("paddlepaddle is not installed: pip install paddlepaddle==3.3.1", file=sys.stderr)
        return 2
    if not os.path.exists(PIR):
        print("%s not found: cargo build --release -p pir-cli (or set PIR_BIN)" % PIR, file=sys.stderr)
        return 2
    pipelines = args.pipeline or DEFAULT_PIPELINES
    models = corpus_models(args.corpus)
    if args.models:
        wanted = [m for m in args.models.split(",") if m]
        known = {m[0] for m in models}
        unknown = [m for m in wanted if m not in known]
        if unknown:
            print("unknown model(s): %s" % ", ".join(unknown), file=sys.stderr)
            return 2
        models = [m for m in models if m[0] in wanted]
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)

    work = tempfile.mkdtemp(prefix="paddle_check_passes_")
    w = Worker(args.timeout)
    passed = failed = 0
    try:
        for name, folder, meta in models:
            for pipeline in pipelines:
                problem, changes, ops = check(w, name, folder, meta, pipeline, work, args.keep,
                                              args.fixed_inputs)
                if problem is None:
                    print("PASS %s [%s]: %d changes, %d compute ops, outputs match reference_output"
                          % (name, pipeline, changes, ops))
                    passed += 1
                else:
                    print("FAIL %s [%s]: %s" % (name, pipeline, problem))
                    failed += 1
                sys.stdout.flush()
    finally:
        w.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
