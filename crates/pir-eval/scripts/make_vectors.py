#!/usr/bin/env python3
"""Writes the Paddle reference vectors of pir-eval's kernels.

Usage (from anywhere; Paddle 3.3.1 CPU build for python3):

    python3 crates/pir-eval/scripts/make_vectors.py [elementwise|shape|nn ...]

For every kernel the evaluator implements, this runs the Paddle kernel in
dygraph mode on the CPU (`paddle._C_ops.<op>`, the same phi kernels a PIR
program runs) on small deterministic inputs, once per dtype, and writes
`crates/pir-eval/tests/vectors/<op>.json`:

    {"op": "pd_op.add", "paddle": "3.3.1",
     "cases": [{"name": ..., "inputs": [TENSOR...],
                "attrs": [[name, kind, value]...], "outputs": [TENSOR...],
                "operands": [...]?, "vector_out": true?}],
     "unsupported": [dtype...], "promoted": [dtype...]?}

TENSOR is {"dtype": "float32", "dims": [2, 3], "data": [...]}, row-major.
Float data is written with Python's repr of the exact value held (float16,
bfloat16 and float32 values are exactly representable as doubles, so repr
round-trips; integral values are written as integers); non-finite values are
the strings "nan", "inf", "-inf". Attribute kinds: f64, f32, i32, i64, bool,
str, dtype, int_array (pd_op.IntArray), i64_array / i32_array / f64_array
(builtin arrays). Operands that are attributes in Paddle's Python API but
operands in PIR (scale's scale, reshape's shape, sum's axis...) are written
as input tensors, as a PIR program holds them. "operands" groups the inputs
by operand when they are not one tensor each (1 a tensor, 0 an absent
optional operand, [n] a vector of n tensors); "vector_out" marks a single
vector result (split) whose elements are the outputs.

"unsupported" lists the dtypes the Paddle CPU kernel rejects; "promoted" the
integer dtypes dygraph casts to float32 before the kernel (so the integer
kernel is never run): the Rust test checks that the evaluator rejects both.

The inputs come from a numpy generator seeded by the op's name, so
re-running the scripts reproduces the files byte for byte with the same
Paddle build, and adding an op changes no other file.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import vectors_lib  # noqa: E402

PARTS = ["elementwise", "shape", "nn"]


def main():
    os.makedirs(vectors_lib.OUT, exist_ok=True)
    if not vectors_lib.paddle.__version__.startswith("3.3"):
        print(f"warning: vectors are meant to come from Paddle 3.3.1, not {vectors_lib.paddle.__version__}",
              file=sys.stderr)
    for part in sys.argv[1:] or PARTS:
        if part not in PARTS:
            sys.exit(f"unknown part {part}; choose from {PARTS}")
        __import__(f"vectors_{part}").main()
    # Skip interpreter teardown: destroying Paddle's static programs at exit
    # can abort.
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
