#!/usr/bin/env python3
"""Can a PIR file with `onednn_op` ops be run by Paddle 3.3.1? (It cannot.)

The question behind it: Paddle's oneDNN pipeline fuses conv models further
(`onednn_op.fused_conv2d` with its bias and activation, `onednn_op.fc`), and
oneDNN's convolutions are faster on CPU; should `pir opt -p inference` emit
such ops? Only if Paddle can load a file that holds them.

For each model (default: `lenet`, `resnet18_w16` of ../shared/paddle-corpus),
this script
  1. has Paddle itself write its oneDNN-optimised program: a predictor with
     `enable_mkldnn()`, `switch_ir_optim(True)` and
     `enable_save_optim_model(True)` writes `_optimized.json` and
     `_optimized.pdiparams` into a temporary directory;
  2. counts the `onednn_op` ops in that file (their names are written out in
     full, "onednn_op.fused_conv2d", while pd_op ones use the dialect id "1");
  3. loads the file again with a predictor (oneDNN on, IR optimisation off)
     and with `paddle.static.load_inference_model`, and prints what happens.

Paddle 3.3.1 writes the file and then refuses it: its deserializer knows the
dialect ids of builtin, pd_op, cf, custom_op and dist only
(`DialectIdMap` in paddle/fluid/pir/serialize_deserialize/src/schema.cc) and
fails with "Unknown id onednn_op for decompress dialect". So no file we
write with `onednn_op` ops can run in this Paddle, and our pipeline does not
emit them. Exit status 0 when every load failed that way (the finding
holds), 1 when a load succeeded (a newer Paddle: time to revisit).

Needs `pip install paddlepaddle==3.3.1` (the CPU wheel has oneDNN).

Usage: scripts/paddle_onednn_roundtrip.py [--models a,b]
"""

import argparse
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "paddle-corpus")
REFUSAL = "Unknown id onednn_op"


def onednn_ops(path):
    """The number of ops named `onednn_op.*` in a PIR JSON file, at any depth."""
    count = 0

    def walk(node):
        nonlocal count
        if isinstance(node, dict):
            if str(node.get("#", "")).startswith("onednn_op."):
                count += 1
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    with open(path) as f:
        walk(json.load(f))
    return count


def attempt(what, load):
    """Runs `load`; returns True when it was refused for the onednn dialect."""
    try:
        load()
    except Exception as e:  # Paddle raises ValueError/RuntimeError alike
        text = str(e).strip().splitlines()
        refused = REFUSAL in str(e)
        print(f"  {what}: {'refused' if refused else 'failed'}: {text[0] if text else e}")
        return refused
    print(f"  {what}: loaded")
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="lenet,resnet18_w16")
    args = ap.parse_args()
    os.environ.setdefault("GLOG_minloglevel", "2")
    import paddle
    import paddle.inference as inf

    paddle.enable_static()
    all_refused = True
    for name in args.models.split(","):
        with tempfile.TemporaryDirectory() as work:
            cfg = inf.Config(os.path.join(CORPUS, name + ".json"), os.path.join(CORPUS, name + ".pdiparams"))
            cfg.enable_mkldnn()
            cfg.switch_ir_optim(True)
            cfg.disable_glog_info()
            cfg.enable_save_optim_model(True)
            cfg.set_optim_cache_dir(work)
            inf.create_predictor(cfg)
            model = os.path.join(work, "_optimized.json")
            params = os.path.join(work, "_optimized.pdiparams")
            print(f"{name}: Paddle wrote {onednn_ops(model)} onednn_op ops")

            def predictor():
                c = inf.Config(model, params)
                c.enable_mkldnn()
                c.switch_ir_optim(False)
                c.disable_glog_info()
                inf.create_predictor(c)

            def static_load():
                exe = paddle.static.Executor(paddle.CPUPlace())
                paddle.static.load_inference_model(os.path.join(work, "_optimized"), exe)

            for what, load in (("predictor", predictor), ("load_inference_model", static_load)):
                all_refused &= attempt(what, load)
    print("finding holds: Paddle cannot load onednn_op files" if all_refused else "a load succeeded: revisit")
    return 0 if all_refused else 1


if __name__ == "__main__":
    sys.exit(main())
