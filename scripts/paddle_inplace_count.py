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

Needs `pip install paddlepaddle==3.3.1` and `cargo build --release -p pir-cli`.
Usage: scripts/paddle_inplace_count.py [--pipeline P] [--models a,b]
"""

import argparse
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
    text = subprocess.run([PIR, "print", path], capture_output=True, text=True, check=True).stdout
    return sum(1 for m in re.finditer(r'"(pd_op\.[A-Za-z0-9_]+)"', text) if m.group(1) in names)


def count_paddle(json_path, params):
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
    return section.count("is_inplace:true"), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pipeline", default="canonicalize,cse,dce,inplace")
    ap.add_argument("--models", default="")
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
            paddle, problem = count_paddle(src, params)
            rows.append((name, before, after, paddle, problem))
            print("%-28s before %3d  ours %3d  paddle %s" % (
                name, before, after, paddle if paddle is not None else "n/a (%s)" % problem))
    total = lambda i: sum(r[i] for r in rows if r[3] is not None)
    print("total (models Paddle optimised): before %d, ours %d, paddle %d over %d models"
          % (total(1), total(2), total(3), sum(1 for r in rows if r[3] is not None)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
