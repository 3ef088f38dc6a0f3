#!/usr/bin/env python3
"""In-place ops: ours against Paddle Inference's `inplace_pass`.

For every corpus model with parameters (../shared/paddle-corpus, and the
control-flow models in tests/corpus/control_flow), this counts
- Paddle: the kernel ops marked `is_inplace:true` in the program Paddle
  Inference 3.3.1 finally runs (`paddle.inference.Config` with
  `switch_ir_optim(True)`, `disable_mkldnn()`, `switch_ir_debug(True)`; the
  last "after inplace_pass" print). Paddle runs CSE, constant folding and DCE
  first, and counts ops that were in-place already;
- ours: the in-place `pd_op` ops (with an in-place or view map, e.g. `relu_`,
  `batch_norm_`)
  in `pir opt MODEL.json -p PIPELINE`, nested regions included, for the
  pipeline given (default `canonicalize,cse,dce,inplace`), and how many of
  them were there before.

With `--by-kind`, each model's line is followed by the op kinds whose
counts differ (`add_ ours 3 paddle 6`), and the run ends with the totals by
kind: where the two counts part. `--paddle-dumps DIR` keeps Paddle's final
program of each model in DIR/<model>.txt and reads it from there on later
runs (Paddle takes minutes over the corpus; ours takes seconds).

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`
(or `PIR_BIN=/path/to/pir`).
Usage: scripts/paddle_inplace_count.py [--pipeline P] [--models a,b] [--by-kind]
                                       [--paddle-dumps DIR]
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))
CORPORA = [
    os.path.join(ROOT, "..", "shared", "paddle-corpus"),
    os.path.join(ROOT, "tests", "corpus", "control_flow"),
]
SPEC = os.path.join(ROOT, "..", "shared", "spec", "pd_op_definitions.json")

# Runs in a child process: Paddle prints its IR dumps from C++ to stdout.
PADDLE_CHILD = r"""
import os, sys
os.environ["GLOG_minloglevel"] = "2"
import paddle.inference as inf
cfg = inf.Config(sys.argv[1], sys.argv[2])
cfg.disable_mkldnn()
cfg.switch_ir_optim(True)
cfg.switch_ir_debug(True)
inf.create_predictor(cfg)
"""


def inplace_op_names():
    ops = json.load(open(SPEC))["ops"]
    return {name for name, d in ops.items() if d.get("inplace") or d.get("view")}


def count_ours(path, names):
    """The in-place ops of our program at `path`, by kind."""
    text = subprocess.run([PIR, "print", path], capture_output=True, text=True, check=True).stdout
    return collections.Counter(m.group(1) for m in re.finditer(r'"(pd_op\.[A-Za-z0-9_]+)"', text)
                               if m.group(1) in names)


def paddle_final_program(json_path, params, dumps, name):
    """Paddle's program after its `inplace_pass`, or (None, why not)."""
    cached = os.path.join(dumps, name + ".txt") if dumps else None
    if cached and os.path.exists(cached):
        return open(cached).read(), None
    with tempfile.TemporaryDirectory() as work:
        res = subprocess.run([sys.executable, "-c", PADDLE_CHILD, json_path, params],
                             capture_output=True, text=True, cwd=work)
    out = res.stdout + res.stderr
    marker = "after inplace_pass pass"
    at = out.rfind(marker)
    if at < 0:
        return None, (out.strip().splitlines() or ["no output"])[-1][:200]
    section = out[at:]
    end = section.find("\n}\n")
    section = section[: end if end >= 0 else len(section)]
    if cached:
        os.makedirs(dumps, exist_ok=True)
        with open(cached, "w") as f:
            f.write(section)
    return section, None


def count_paddle(json_path, params, dumps, name):
    """Paddle's in-place kernel ops by the `pd_op` they run, or (None, why not)."""
    section, problem = paddle_final_program(json_path, params, dumps, name)
    if section is None:
        return None, problem
    kinds = collections.Counter()
    for line in section.splitlines():
        if "is_inplace:true" in line:
            m = re.search(r'op_name:"(pd_op\.[A-Za-z0-9_]+)"', line)
            kinds[m.group(1) if m else "?"] += 1
    return kinds, None


def kind_differences(ours, paddle):
    """`kind ours N paddle M` for every kind the two counts disagree on."""
    return ["%s ours %d paddle %d" % (k[len("pd_op."):], ours[k], paddle[k])
            for k in sorted(set(ours) | set(paddle)) if ours[k] != paddle[k]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pipeline", default="canonicalize,cse,dce,inplace")
    ap.add_argument("--models", default="")
    ap.add_argument("--by-kind", action="store_true",
                    help="list the op kinds whose counts differ, per model and in total")
    ap.add_argument("--paddle-dumps", default="",
                    help="keep (and reuse) Paddle's final programs in this folder")
    args = ap.parse_args()
    wanted = set(filter(None, args.models.split(",")))
    names = inplace_op_names()
    rows = []
    for corpus in CORPORA:
        index_path = os.path.join(corpus, "index.json")
        if not os.path.exists(index_path):
            continue
        for entry in json.load(open(index_path))["models"]:
            name = entry["name"]
            src = os.path.join(corpus, name + ".json")
            params = os.path.join(corpus, name + ".pdiparams")
            if (wanted and name not in wanted) or not os.path.exists(params):
                continue
            with tempfile.TemporaryDirectory() as work:
                out = os.path.join(work, "model.json")
                res = subprocess.run([PIR, "opt", src, "-p", args.pipeline, "-o", out],
                                     capture_output=True, text=True)
                if res.returncode != 0:
                    print("FAIL %s: pir opt: %s" % (name, res.stderr.strip()[:300]))
                    continue
                before, after = count_ours(src, names), count_ours(out, names)
            paddle, problem = count_paddle(src, params, args.paddle_dumps, name)
            rows.append((name, before, after, paddle, problem))
            print("%-28s before %3d  ours %3d  paddle %s" % (
                name, sum(before.values()), sum(after.values()),
                sum(paddle.values()) if paddle is not None else "n/a (%s)" % problem))
            if args.by_kind and paddle is not None:
                for line in kind_differences(after, paddle):
                    print("    " + line)
    optimised = [r for r in rows if r[3] is not None]
    totals = [sum((r[i] for r in optimised), collections.Counter()) for i in (1, 2, 3)]
    print("total (models Paddle optimised): before %d, ours %d, paddle %d over %d models"
          % (sum(totals[0].values()), sum(totals[1].values()), sum(totals[2].values()),
             len(optimised)))
    if args.by_kind:
        print("by kind over those models:")
        for line in kind_differences(totals[1], totals[2]):
            print("    " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
