#!/usr/bin/env python3
"""`pir lower` against Paddle 3.3.1's executor: the kernel program Paddle runs on the CPU.

For each model NAME.json in each DIR that has NAME.inputs.npz (its inputs in feed order:
keys `arg0_x`, `arg1_n`, ...), this runs the model in Paddle's static executor on the CPU
with `FLAGS_print_ir=1` (`load_inference_model` of NAME with NAME.pdiparams, then `run`
on the inputs) and takes the program it prints as `IR after lowering`. Paddle numbers ops
with a process-wide counter, so the numbers (`[id:N]`, `origin_id:N`) are shifted to
make the first op of the program printed before lowering 0, as `pir lower` numbers them.
A text is kept only when two runs of Paddle print the same.

Then `pir lower NAME.json` must print that text byte for byte. Prints one line per model
(`ok`, `DIFF` with the first differing line, `no-paddle` when Paddle did not run it) and
`N/M equal`; exit 1 when any differs.

  --write   also write Paddle's text as NAME.lowered.txt beside the model (the ground
            truth the Rust test crates/pir-kernel/tests/paddle_lowered.rs compares with)
  --json-from SUFFIX  read NAME.SUFFIX as the model (e.g. `translated.json` for the
            legacy translations of tests/corpus/legacy); Paddle is given a copy as
            NAME.json in a temporary folder

Needs `pip install paddlepaddle==3.3.1` and `cargo build -p pir-cli` (`PIR_BIN`
overrides the binary).

Usage: scripts/paddle_check_lower.py [--write] [--json-from SUFFIX] DIR [DIR ...]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

RUN = r'''
import sys, numpy as np, paddle
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
prog, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
inputs = np.load(sys.argv[1] + ".inputs.npz")
order = sorted(inputs.files, key=lambda k: int(k[3:].split("_")[0]))
exe.run(prog, feed=dict(zip(feeds, [inputs[k] for k in order])), fetch_list=fetches)
'''

HERE = os.path.dirname(os.path.abspath(__file__))
PIR = os.environ.get("PIR_BIN", os.path.join(HERE, "..", "target", "debug", "pir"))


def printed_program(text, title):
    """The program printed after `title` (up to its closing brace at column 0)."""
    start = text.find(title)
    if start < 0:
        return None
    start = text.index("\n", start) + 1
    end = text.find("\n}\n", start)
    return None if end < 0 else "{\n" + text[start:end] + "\n}\n"


def paddle_lowered(base):
    """Paddle's `IR after lowering` of model `base`, renumbered; None if it did not run."""
    env = dict(os.environ, FLAGS_print_ir="1", GLOG_minloglevel="2")
    run = subprocess.run([sys.executable, "-c", RUN, base], capture_output=True, text=True,
                         env=env, timeout=600)
    before = printed_program(run.stdout, "IR before lowering = ")
    after = printed_program(run.stdout, "IR after lowering = ")
    if not before or not after:
        return None
    numbers = [int(n) for n in re.findall(r"\[id:(\d+)\]", before)]
    if not numbers:
        return None
    first = min(numbers)
    return re.sub(r"(\[id:|origin_id:)(\d+)",
                  lambda m: f"{m.group(1)}{int(m.group(2)) - first}", after)


def first_difference(ours, theirs):
    for i, (a, b) in enumerate(zip(ours.splitlines(), theirs.splitlines())):
        if a != b:
            return f"line {i + 1}:\n    pir:    {a[:300]}\n    paddle: {b[:300]}"
    return f"{len(ours.splitlines())} lines against {len(theirs.splitlines())}"


def check(folder, name, json_from, write):
    model = os.path.join(folder, f"{name}.{json_from}")
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, name)
        shutil.copy(model, base + ".json")
        shutil.copy(os.path.join(folder, f"{name}.inputs.npz"), base + ".inputs.npz")
        params = os.path.join(folder, f"{name}.pdiparams")
        if os.path.exists(params):
            shutil.copy(params, base + ".pdiparams")
        first, second = paddle_lowered(base), paddle_lowered(base)
    if first is None or first != second:
        return "no-paddle", ""
    if write:
        with open(os.path.join(folder, f"{name}.lowered.txt"), "w") as f:
            f.write(first)
    ours = subprocess.run([PIR, "lower", model], capture_output=True, text=True)
    if ours.returncode != 0:
        return "ERROR", ours.stderr.strip()
    if ours.stdout == first:
        return "ok", ""
    return "DIFF", first_difference(ours.stdout, first)


def main():
    args = sys.argv[1:]
    write = "--write" in args
    json_from = "json"
    if "--json-from" in args:
        i = args.index("--json-from")
        json_from = args[i + 1]
        del args[i:i + 2]
    folders = [a for a in args if a != "--write"]
    if not folders:
        print(__doc__)
        return 2
    equal = total = 0
    for folder in folders:
        for name in sorted(f[: -len(".inputs.npz")] for f in os.listdir(folder)
                           if f.endswith(".inputs.npz")):
            if not os.path.exists(os.path.join(folder, f"{name}.{json_from}")):
                continue
            verdict, detail = check(folder, name, json_from, write)
            print(f"{name}: {verdict}" + (f"\n  {detail}" if detail else ""), flush=True)
            if verdict == "no-paddle":
                continue
            total += 1
            equal += verdict == "ok"
    print(f"{equal}/{total} equal")
    return 0 if equal == total else 1


if __name__ == "__main__":
    sys.exit(main())
