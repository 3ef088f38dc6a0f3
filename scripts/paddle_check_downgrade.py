#!/usr/bin/env python3
"""Files written for an older release, judged by that release: Paddle 3.2.2 runs them.

For every model with a reference input (`NAME.inputs.npz`) and `reference_output` in
`NAME.meta.json` — the shared corpus' Paddle 3.3.1 models and its compat models of
3.0.0/3.1.1/3.2.2 — and every release asked for (`--to`, default 3.2):
`pir downgrade MODEL.json OUT/NAME.json --to R` (which writes `OUT/NAME.pdiparams` beside
it when the model has parameters), then Paddle 3.2.2 loads the result
(`paddle.jit.load(OUT/NAME)`), runs it on the reference input and compares the outputs
with `reference_output` (shape, sum, abs_sum, first8; relative tolerance 1e-5: the
comparison of `crates/pir-params/scripts/paddle_roundtrip.py`, as in
`scripts/paddle_check_passes.py`). Paddle 3.2.2 writes PIR version 3 and reads 1-3, so
`--to 3.0`/`3.1` files are also upgraded by its own patches on loading.

Each (model, release) gives one line

    PASS <model> [3.2]: outputs match reference_output
    PASS <model> [3.2]: as Paddle 3.2.2 runs the original file (<how both differ>)
    FAIL <model> [3.2]: pir: <pir's error> | paddle: <Paddle's error> | output i: ...
    SKIP <model> [3.2]: <why>

and the run ends with `N passed, M failed, K skipped` (exit code 0 when M is 0, else 1).
A model pir refuses to write for the release (an attribute the release has no place
for) is a FAIL carrying pir's error.

A model whose outputs miss the reference is run again from its original file: when
Paddle 3.2.2 gives that the same miss (a near-zero sum computed otherwise than 3.3.1
did, e.g. `deep_mlp_ln200`), the downgrade is not the cause and the line is a PASS saying
so.

Each model runs in its own Paddle process (a crash or a hang — killed after
`--timeout` seconds — is one FAIL line). Not run in CI: it needs Paddle 3.2.2 in its own
environment and a `pir` binary:

    python3 -m venv /work/venv-paddle322
    /work/venv-paddle322/bin/pip install paddlepaddle==3.2.2
    cargo build --release -p pir-cli

Usage:
  scripts/paddle_check_downgrade.py [--to 3.0|3.1|3.2]... [--models a,b] [--keep DIR]
                                    [--python PATH] [--timeout S]
  --python PATH  the Python with Paddle 3.2.2 (default $PADDLE322_PYTHON, else
                 /work/venv-paddle322/bin/python)
  --keep DIR     keep the files run: DIR/<release>/<label>.json (+ .pdiparams)
  PIR_BIN        the pir binary (default target/release/pir)
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))
SHARED = os.path.join(ROOT, "..", "shared", "paddle-corpus")
DEFAULT_PYTHON = os.environ.get("PADDLE322_PYTHON", "/work/venv-paddle322/bin/python")
# Models Paddle cannot run through jit.load (see the shared corpus' README).
SKIP = {"infer_untrainable": "Paddle cannot run its own file",
        "train_mlp_adam": "a training program saved with paddle.static.save"}
RESULT = "@@result "

# The same reading of an error text as the pass checks (this script's folder
# is on the import path when it runs).
from paddle_check_passes import error_line  # noqa: E402


def run_one(prefix, inputs, meta_path):
    """In the Paddle 3.2.2 process: load, run, compare; prints the result line."""
    sys.path.insert(0, os.path.join(ROOT, "crates", "pir-params", "scripts"))
    os.environ.setdefault("GLOG_minloglevel", "2")
    import numpy as np
    import paddle
    from paddle_roundtrip import compare_outputs, flatten

    out = sys.stdout
    sys.stdout = sys.stderr  # anything Paddle prints stays off the result channel
    try:
        reference = json.load(open(meta_path))["reference_output"]
        for ref in reference["outputs"]:  # bool outputs carry no abs_sum in the corpus schema
            if ref.get("dtype") == "bool" and "abs_sum" not in ref:
                ref["abs_sum"] = ref["sum"]
        layer = paddle.jit.load(prefix)
        npz = np.load(inputs)
        keys = sorted(npz.files, key=lambda k: int(k[3:].split("_")[0]))
        problem = compare_outputs(flatten(layer(*[paddle.to_tensor(npz[k]) for k in keys])), reference)
        problem = problem and ("paddle %s: %s" % (paddle.__version__, problem))
    except Exception as e:  # a Paddle failure is a failed check, reported
        problem = "paddle: %s" % error_line(str(e) or type(e).__name__)
    out.write(RESULT + json.dumps({"problem": problem}) + "\n")
    out.flush()


def models():
    """(label, folder, name) of every model with a reference input and output."""
    index_path = os.path.join(SHARED, "index.json")
    if not os.path.exists(index_path):
        sys.exit("%s not found: the models come from the shared corpus" % index_path)
    index = json.load(open(index_path))
    found = []
    for section in ("models", "compat"):
        for entry in index.get(section, []):
            name = entry["name"]
            release = entry.get("saved_by")
            folder = os.path.join(SHARED, "compat", release) if release else SHARED
            label = "%s/%s" % (release, name) if release else name
            found.append((label, folder, name))
    return found


def check(label, folder, name, release, work, python, timeout):
    """One (model, release): None when it passes, else what went wrong; or ('skip', why)."""
    if name in SKIP and folder == SHARED:
        return ("skip", SKIP[name])
    inputs = os.path.join(folder, name + ".inputs.npz")
    meta = os.path.join(folder, name + ".meta.json")
    if not os.path.exists(inputs) or not os.path.exists(meta):
        return ("skip", "no reference input")
    if "reference_output" not in json.load(open(meta)):
        return ("skip", "no reference_output")
    out_dir = os.path.join(work, release, os.path.dirname(label))
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, name + ".json")
    pir = subprocess.run([PIR, "downgrade", os.path.join(folder, name + ".json"), out,
                          "--to", release, "--force"], capture_output=True, text=True)
    if pir.returncode != 0:
        return "pir: %s" % error_line(pir.stderr)
    problem = paddle_run(python, out[:-len(".json")], inputs, meta, timeout)
    # Paddle 3.2.2 computes some near-zero sums otherwise than 3.3.1 did for the
    # reference: the same result from the original file is not the downgrade's doing.
    if problem and not problem.startswith("pir:"):
        # A copy alone: the corpus folder may hold a .pdmodel of the name, which
        # jit.load would take instead.
        base_dir = os.path.join(work, "original", os.path.dirname(label))
        os.makedirs(base_dir, exist_ok=True)
        for ext in (".json", ".pdiparams"):
            if os.path.exists(os.path.join(folder, name + ext)):
                shutil.copy(os.path.join(folder, name + ext), os.path.join(base_dir, name + ext))
        if paddle_run(python, os.path.join(base_dir, name), inputs, meta, timeout) == problem:
            return ("same", problem)
    return problem


def paddle_run(python, prefix, inputs, meta, timeout):
    """Runs `prefix` in a Paddle 3.2.2 process: None when the outputs match, else the problem."""
    try:
        run = subprocess.run([python, os.path.abspath(__file__), "--run", prefix, inputs, meta],
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "paddle: no answer after %d s (killed)" % timeout
    for line in run.stdout.splitlines():
        if line.startswith(RESULT):
            return json.loads(line[len(RESULT):])["problem"]
    return "paddle crashed (exit %d): %s" % (run.returncode, error_line(run.stderr[-4000:]))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--run":
        return run_one(*sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--to", action="append", choices=["3.0", "3.1", "3.2"])
    ap.add_argument("--models", help="only these models (names or labels, comma-separated)")
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("--python", default=DEFAULT_PYTHON)
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    if not os.path.exists(PIR):
        sys.exit("%s not found: cargo build --release -p pir-cli (or set PIR_BIN)" % PIR)
    wanted = set(args.models.split(",")) if args.models else None
    work = args.keep or tempfile.mkdtemp(prefix="pir-downgrade-")
    passed = failed = skipped = 0
    try:
        for release in args.to or ["3.2"]:
            for label, folder, name in models():
                if wanted and name not in wanted and label not in wanted:
                    continue
                result = check(label, folder, name, release, work, args.python, args.timeout)
                if isinstance(result, tuple) and result[0] == "same":
                    passed += 1
                    print("PASS %s [%s]: as Paddle 3.2.2 runs the original file (%s)"
                          % (label, release, result[1]), flush=True)
                elif isinstance(result, tuple):
                    skipped += 1
                    print("SKIP %s [%s]: %s" % (label, release, result[1]), flush=True)
                elif result:
                    failed += 1
                    print("FAIL %s [%s]: %s" % (label, release, result), flush=True)
                else:
                    passed += 1
                    print("PASS %s [%s]: outputs match reference_output" % (label, release), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
