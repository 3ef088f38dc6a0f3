#!/usr/bin/env python3
"""Legacy models through pir, run in Paddle: translation and passes together.

For every Paddle 2.x model of ../shared/legacy-corpus and tests/corpus/legacy
(made by scripts/make_legacy_models.py) (`NAME.pdmodel` +
`NAME.pdiparams`, with `NAME.inputs.npz` and Paddle 2.6.2's outputs
`NAME.ref.npz`; feeds with a LoD get it from `NAME.legacy.json`), this runs `pir opt NAME.pdmodel -p PIPELINE -o OUT.json` (the
translation pir does, then the passes; default pipeline
`constant_folding,fold_batch_norm,canonicalize,cse,dce`; `-p none` for the
translation alone), loads OUT.json + OUT.pdiparams in Paddle 3.3.1
(`paddle.static.load_inference_model`), runs it on the inputs and compares
with the reference (rtol 1e-4, atol 1e-5). Prints one line per model and
`N passed, M failed`; exits 1 on any failure.

`--batch K` (K > 1) checks the passes at a batch size the model was not saved
with, where Paddle 2.6.2 left no reference: every input whose feed has a
dynamic leading dim is repeated K times along it (a LoD input gets its
sequences K times), and OUT is compared with the translation alone (`pir
convert`), both run by Paddle 3.3.1 on those inputs. A pass that baked the
saved batch size into the program fails here and nowhere else. A model whose
translation alone cannot run at that batch (inputs whose batches are tied in
ways a repeat breaks) is skipped and counted; an output the translation alone
gives differently in two runs at that batch is left out and named.

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`.
Usage: scripts/paddle_check_legacy.py [--pipeline P] [--models a,b] [--corpus DIR ...] [--batch K]
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))
CORPORA = [
    os.path.join(ROOT, "..", "shared", "legacy-corpus"),
    os.path.join(ROOT, "tests", "corpus", "legacy"),
]

# Runs in a child process so that a crash in Paddle is one model's failure.
# Exit status SKIPPED: at --batch K, the translation alone cannot run either.
SKIPPED = 3
PADDLE_CHILD = r"""
import json, os, sys
os.environ["GLOG_minloglevel"] = "2"
import warnings; warnings.filterwarnings("ignore")
import numpy as np
import paddle
paddle.enable_static()
prefix, inputs, ref, meta, scripts, times, dynamic = sys.argv[1:8]
times, dynamic = int(times), set(filter(None, dynamic.split(",")))
SKIPPED = 3
sys.path.insert(0, scripts)
from make_legacy_models import feed_of
lod = None
if os.path.exists(meta):
    with open(meta) as f:
        lod = json.load(f).get("lod")
arrays = dict(np.load(inputs))
if times > 1:
    for key in list(arrays):
        name = key.split("_", 1)[1]
        if name in dynamic and arrays[key].ndim > 0:
            arrays[key] = np.concatenate([arrays[key]] * times, axis=0)
    # Sequences repeated: each level's offsets continue past its last one.
    lod = {name: [[0] + [o + i * level[-1] for i in range(times) for o in level[1:]]
                  for level in levels]
           for name, levels in (lod or {}).items()} or None

def run(prefix):
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    outs = exe.run(prog, feed=feed_of(paddle, arrays, lod), fetch_list=fetches, return_numpy=False)
    return [np.asarray(o) for o in outs]

if times > 1:
    try:
        expected = run(ref)  # the translation alone, at the same batch
    except Exception as e:  # the inputs do not make a batch of this size
        lines = [l.strip() for l in str(e).splitlines() if "Error" in l] or [str(e).strip()]
        print("the translation alone cannot run at batch x%d: %s" % (times, lines[0][:200]))
        sys.exit(SKIPPED)
    what = "the translation alone at batch x%d" % times
    # An output the translation alone does not give twice alike (a kernel
    # reading past an input whose batch the repeat left behind) says nothing.
    again = run(ref)
    unsteady = {i for i, (a, b) in enumerate(zip(expected, again))
                if a.shape != b.shape or not np.array_equal(a, b, equal_nan=True)}
    outs = run(prefix)
else:
    outs = run(prefix)
    unsteady = set()
    loaded = np.load(ref)
    missing = [i for i in range(len(outs)) if "arr_%d" % i not in loaded.files]
    if missing:
        print("output %d: not in the reference" % missing[0])
        sys.exit(1)
    expected = [loaded["arr_%d" % i] for i in range(len(outs))]
    what = "the reference"
if len(outs) != len(expected):
    print("%d outputs, %s has %d" % (len(outs), what, len(expected)))
    sys.exit(1)
worst = 0.0
for i, (out, want) in enumerate(zip(outs, expected)):
    if i in unsteady:
        continue
    if out.shape != want.shape:
        print("output %d: shape %s, %s %s" % (i, out.shape, what, want.shape))
        sys.exit(1)
    if out.dtype == np.bool_ or want.dtype == np.bool_:
        out, want = out.astype(np.int8), want.astype(np.int8)
    diff = float(np.abs(out.astype(np.float64) - want).max()) if out.size else 0.0
    if not np.allclose(out, want, rtol=1e-4, atol=1e-5):
        print("output %d differs from %s (max abs %g)" % (i, what, diff))
        sys.exit(1)
    worst = max(worst, diff)
skipped = " (outputs %s left out: the translation alone gives them differently from run to run)" % sorted(unsteady) if unsteady else ""
print("%d outputs match %s (max abs diff %g)%s" % (len(outs) - len(unsteady), what, worst, skipped))
"""


FEED = re.compile(r'"pd_op\.(?:feed|data)" \(\) \{[^}]*\bname:"([^"]+)"[^}]*\} : \(\) -> tensor<-1x')


def translation_alone(pdmodel, stem, name, work):
    """`pir convert` of `pdmodel` into `work/alone/`: (its path prefix, the names of
    its feeds with a dynamic leading dim joined by commas, problem or None)."""
    alone = os.path.join(work, "alone")
    os.makedirs(alone, exist_ok=True)
    out = os.path.join(alone, name + ".json")
    res = subprocess.run([PIR, "convert", pdmodel, out, "--force"], capture_output=True, text=True)
    if res.returncode != 0:
        return None, "", res.stderr.strip()[:300]
    if os.path.exists(stem + ".pdiparams"):
        shutil.copy(stem + ".pdiparams", os.path.join(alone, name + ".pdiparams"))
    text = subprocess.run([PIR, "print", out], capture_output=True, text=True).stdout
    return os.path.join(alone, name), ",".join(sorted(set(FEED.findall(text)))), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pipeline", default="constant_folding,fold_batch_norm,canonicalize,cse,dce")
    ap.add_argument("--models", default="")
    ap.add_argument("--corpus", action="append", default=None,
                    help="a folder of NAME.pdmodel + NAME.inputs.npz + NAME.ref.npz "
                         "(repeatable; default: the two legacy corpora)")
    ap.add_argument("--batch", type=int, default=1,
                    help="run at K times the saved batch and compare with the translation alone")
    args = ap.parse_args()
    if args.batch < 1:
        ap.error("--batch must be at least 1")
    wanted = set(filter(None, args.models.split(",")))
    passed = failed = skipped = 0
    models = []
    for corpus in args.corpus or CORPORA:
        models += sorted(glob.glob(os.path.join(corpus, "*.pdmodel")))
    for pdmodel in models:
        name = os.path.basename(pdmodel)[:-len(".pdmodel")]
        if wanted and name not in wanted:
            continue
        stem = pdmodel[:-len(".pdmodel")]
        with tempfile.TemporaryDirectory() as work:
            out = os.path.join(work, name + ".json")
            cmd = [PIR, "opt", pdmodel, "-p", args.pipeline, "-o", out, "--force"]
            if args.pipeline == "none":
                cmd = [PIR, "convert", pdmodel, out, "--force"]
            res = subprocess.run(cmd, capture_output=True, text=True)
            if res.returncode != 0:
                print("FAIL %s: pir: %s" % (name, res.stderr.strip()[:300]))
                failed += 1
                continue
            if args.pipeline == "none" and os.path.exists(stem + ".pdiparams"):
                shutil.copy(stem + ".pdiparams", os.path.join(work, name + ".pdiparams"))
            ref, dynamic = stem + ".ref.npz", ""
            if args.batch > 1:
                ref, dynamic, problem = translation_alone(pdmodel, stem, name, work)
                if problem:
                    print("FAIL %s: pir convert: %s" % (name, problem))
                    failed += 1
                    continue
            run = subprocess.run(
                [sys.executable, "-c", PADDLE_CHILD, os.path.join(work, name),
                 stem + ".inputs.npz", ref, stem + ".legacy.json",
                 os.path.dirname(os.path.abspath(__file__)), str(args.batch), dynamic],
                capture_output=True, text=True, timeout=300)
            lines = (run.stdout.strip() or run.stderr.strip()[-300:]).splitlines()
            message = lines[-1] if lines else "exit %d" % run.returncode
            if run.returncode == SKIPPED:
                skipped += 1
                print("SKIP %s [%s]: %s" % (name, args.pipeline, message))
            elif run.returncode == 0:
                passed += 1
                print("PASS %s [%s]: %s" % (name, args.pipeline, message))
            else:
                failed += 1
                print("FAIL %s [%s]: %s" % (name, args.pipeline, message))
    print("%d passed, %d failed" % (passed, failed) + (", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
