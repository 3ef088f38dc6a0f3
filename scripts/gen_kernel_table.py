#!/usr/bin/env python3
"""Writes crates/pir-kernel/data/phi_kernels.tsv: every phi kernel Paddle registers.

Paddle is the judge of which kernels exist: this script asks a running
Paddle 3.3.1 (CPU wheel) for its kernel factory's contents
(`paddle.base.core._get_registered_phi_kernels("all")`) and writes one line
per registered kernel key:

    kernel_name <TAB> backend <TAB> layout <TAB> dtype

sorted, with a `#` header naming the Paddle version. The lowering
(`pir lower`, crate pir-kernel) reads this file to know whether a kernel
exists for the (backend, dtype) it chose.

Usage: /work/venv-paddle/bin/python scripts/gen_kernel_table.py [OUT]
"""
import os
import re
import sys

import paddle
from paddle.base import core

KEY = re.compile(r"^\((\w+), ([^,]+), (\w+)\)$")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        here, "..", "crates", "pir-kernel", "data", "phi_kernels.tsv")
    kernels = core._get_registered_phi_kernels("all")
    rows = set()
    for name, keys in kernels.items():
        for key in keys:
            m = KEY.match(key)
            if not m:
                raise SystemExit(f"unexpected kernel key {key!r} of {name}")
            rows.add((name, m.group(1), m.group(2), m.group(3)))
    with open(out, "w") as f:
        f.write(f"# phi kernels registered by Paddle {paddle.__version__} "
                f"(scripts/gen_kernel_table.py): name, backend, layout, dtype\n")
        for row in sorted(rows):
            f.write("\t".join(row) + "\n")
    print(f"{out}: {len(rows)} kernel keys of {len(kernels)} kernels")


if __name__ == "__main__":
    main()
