#!/usr/bin/env python3
"""Compares `pir shapes` with Paddle 3.3.1's symbolic shape analysis.

For each model JSON given, Paddle (CPU, no CINN) deserializes the program and runs
`libpaddle.pir.infer_symbolic_shape_pass`; the text ShapeOptimizationPass logs at
`GLOG_vmodule=shape_optimization_pass=3` (the program with every op's
`{ (shape[...], data[...]) }`) is taken when two runs agree. `pir shapes` must print
the same bytes. Prints one line per model (OK, DIFF with the first differing line,
or SKIP when Paddle gives no text or its runs differ) and an N/N summary; exits 1
on any DIFF.

Usage:
  PY scripts/paddle_check_shapes.py [--pir PATH] [--save DIR] MODEL.json ...

PY is a Python with paddlepaddle==3.3.1 (/work/venv-paddle/bin/python here);
--pir defaults to target/debug/pir; --save DIR writes Paddle's text as
DIR/NAME.symshape.txt (ground truth for models the corpus lacks).
"""
import argparse
import os
import subprocess
import sys

SYM = r'''
import sys, os, paddle
from paddle.base import libpaddle
paddle.enable_static()
prog = paddle.static.Program()
paddle.base.core.deserialize_pir_program(sys.argv[1], prog, 1)
pm = libpaddle.pir.PassManager()
libpaddle.pir.infer_symbolic_shape_pass(pm, prog)
pm.run(prog)
sys.stdout.flush(); sys.stderr.flush()
os._exit(0)
'''


def paddle_text(path):
    """The annotated program Paddle logs, or None."""
    env = dict(os.environ, GLOG_vmodule="shape_optimization_pass=3")
    try:
        p = subprocess.run([sys.executable, "-c", SYM, path], capture_output=True,
                           text=True, env=env, timeout=300)
    except subprocess.TimeoutExpired:
        return None
    i = p.stderr.find("ShapeOptimizationPass Program")
    if i < 0:
        return None
    rest = p.stderr[i:]
    j = rest.find("\n{\n")
    k = rest.find("\n}\n", j)
    if j < 0 or k < 0:
        return None
    return rest[j + 1:k + 3]


def first_difference(ours, theirs):
    a, b = ours.splitlines(), theirs.splitlines()
    for n, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {n + 1}:\n    pir:    {x[:400]}\n    paddle: {y[:400]}"
    return f"{len(a)} lines against {len(b)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pir", default="target/debug/pir")
    ap.add_argument("--save")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    ok = compared = 0
    for path in args.models:
        name = os.path.basename(path)[: -len(".json")] if path.endswith(".json") else path
        a, b = paddle_text(path), paddle_text(path)
        if not a or a != b:
            print(f"SKIP {path}: {'no text' if not a else 'Paddle runs differ'}", flush=True)
            continue
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            with open(os.path.join(args.save, name + ".symshape.txt"), "w") as f:
                f.write(a)
        p = subprocess.run([args.pir, "shapes", path], capture_output=True, text=True)
        compared += 1
        if p.returncode == 0 and p.stdout == a:
            ok += 1
            print(f"OK   {path}", flush=True)
        else:
            why = p.stderr.strip() if p.returncode else first_difference(p.stdout, a)
            print(f"DIFF {path}: {why}", flush=True)
    print(f"pir shapes equal to Paddle's: {ok}/{compared}")
    sys.exit(0 if ok == compared else 1)


if __name__ == "__main__":
    main()
