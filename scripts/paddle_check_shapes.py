#!/usr/bin/env python3
"""Compares `pir shapes` with Paddle 3.3.1's symbolic shape analysis.

For each model JSON given, Paddle (CPU, no CINN) deserializes the program and runs
`libpaddle.pir.infer_symbolic_shape_pass`; the text ShapeOptimizationPass logs at
`GLOG_vmodule=shape_optimization_pass=3` (the program with every op's
`{ (shape[...], data[...]) }`) is taken when two runs agree. `pir shapes` must print
the same bytes. Prints one line per model (OK, DIFF with the first differing line,
SKIP when Paddle gives no text or its runs differ, TIMEOUT when Paddle or `pir`
does not finish within --timeout seconds) and an N/N summary; exits 1 on any
DIFF.

Each run is its own process group (session), read through files rather than
pipes, and the whole group is killed at the timeout: a Paddle pass that never
returns, or a child it started, cannot hold the check up.

Usage:
  PY scripts/paddle_check_shapes.py [--pir PATH] [--save DIR] [--timeout S] MODEL.json ...

PY is a Python with paddlepaddle==3.3.1 (/work/venv-paddle/bin/python here);
--pir defaults to target/debug/pir; --save DIR writes Paddle's text as
DIR/NAME.symshape.txt (ground truth for models the corpus lacks); --timeout
bounds each run (default 300 s).
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile

SYM = r'''
import sys, os, paddle
from paddle.base import libpaddle
paddle.enable_static()
prog = paddle.static.Program()
paddle.base.core.deserialize_pir_program(sys.argv[1], prog, 1)
pm = libpaddle.pir.PassManager()
libpaddle.pir.infer_symbolic_shape_pass(pm, prog)
try:
    pm.run(prog)
    code = 0
except BaseException:
    import traceback
    traceback.print_exc()
    code = 1
# Paddle's interpreter teardown after a failed pass can block: leave at once.
sys.stdout.flush(); sys.stderr.flush()
os._exit(code)
'''


class Timeout(Exception):
    """A run did not finish in time (its process group was killed)."""


def run_bounded(argv, timeout, env=None):
    """Runs `argv` in a new session with its output in temporary files;
    kills the whole process group when it outlives `timeout` seconds.
    Returns (returncode, stdout, stderr) or raises Timeout."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             env=env, start_new_session=True)
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            raise Timeout()
        finally:
            # Children left behind by a finished run go too.
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        out.seek(0)
        err.seek(0)
        decode = lambda b: b.decode("utf-8", "replace")
        return p.returncode, decode(out.read()), decode(err.read())


def paddle_text(path, timeout):
    """(the annotated program Paddle logs or None, Paddle's last error line);
    raises Timeout."""
    env = dict(os.environ, GLOG_vmodule="shape_optimization_pass=3")
    code, _, stderr = run_bounded([sys.executable, "-c", SYM, path], timeout, env)
    error = ""
    if code:
        lines = [l for l in stderr.splitlines() if "Error" in l or "error" in l]
        error = lines[-1].strip()[:300] if lines else f"exit code {code}"
    i = stderr.find("ShapeOptimizationPass Program")
    if i < 0:
        return None, error
    rest = stderr[i:]
    j = rest.find("\n{\n")
    k = rest.find("\n}\n", j)
    if j < 0 or k < 0:
        return None, error
    return rest[j + 1:k + 3], error


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
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    ok = compared = timeouts = 0
    for path in args.models:
        name = os.path.basename(path)[: -len(".json")] if path.endswith(".json") else path
        try:
            a, error = paddle_text(path, args.timeout)
            b = paddle_text(path, args.timeout)[0] if a else None
        except Timeout:
            timeouts += 1
            print(f"TIMEOUT {path}: Paddle ran past {args.timeout:g} s", flush=True)
            continue
        if not a or a != b:
            why = f"no text ({error or 'no log'})" if not a else "Paddle runs differ"
            print(f"SKIP {path}: {why}", flush=True)
            continue
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            with open(os.path.join(args.save, name + ".symshape.txt"), "w") as f:
                f.write(a)
        compared += 1
        try:
            code, out, err = run_bounded([args.pir, "shapes", path], args.timeout)
        except Timeout:
            print(f"DIFF {path}: pir shapes ran past {args.timeout:g} s", flush=True)
            continue
        if code == 0 and out == a:
            ok += 1
            print(f"OK   {path}", flush=True)
        else:
            why = err.strip() if code else first_difference(out, a)
            print(f"DIFF {path}: {why}", flush=True)
    if timeouts:
        print(f"Paddle timed out on {timeouts} model(s)")
    print(f"pir shapes equal to Paddle's: {ok}/{compared}")
    sys.exit(0 if ok == compared else 1)


if __name__ == "__main__":
    main()
