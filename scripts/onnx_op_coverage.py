#!/usr/bin/env python3
"""The Paddle 3.3.1 ops `pir export` maps to ONNX beside the ones paddle2onnx 2.1.0
converts.

    python3 scripts/onnx_op_coverage.py [--so PATH] [--json] [--missing]

Ours: the op names of `TABLE` in crates/pir-onnx/src/mappers/mod.rs and the ops the
walker handles itself (`STRUCTURAL` in crates/pir-onnx/src/lib.rs, `pd_op.if` and
`pd_op.while` included through the table).

Theirs: paddle2onnx registers one generator class per mapper (`<op>Generator` for
the legacy program path, `<op>PirGenerator` for PIR programs); the installed shared
library keeps their type names (RTTI `N11paddle2onnx<len><op>PirGeneratorE`), which
this script reads (default: the paddle2onnx of /work/venv-paddle). A PIR op reaches a
mapper by its name without `pd_op.`, renamed by paddle2onnx's fixed table
(`RENAMED` below: `multiply` -> `elementwise_mul`, `topk` -> `top_k_v2`, ...;
`builtin.combine` -> `builtin_combine`). So the pd_op ops paddle2onnx converts are
the ops of /work/shared/spec/pd_op_definitions.json whose (renamed) name has a
`PirGenerator`, plus the ones its exporter walks itself (`pd_op.data`, `feed`,
`fetch`, `if`, `while`, `builtin.parameter`, `cf.yield`). The legacy-path mappers
(`<op>Generator` without a PIR twin) are listed too, mapped to pd_op names through
the legacy -> PIR renames of Paddle's op_compat.yaml (crates/pir-legacy/data/
op_compat.txt): they convert `.pdmodel` files only.

Prints the counts (theirs, ours, both), then the ops paddle2onnx converts that pir
does not (`--missing` prints only those, one a line), and with `--json` all lists as
JSON. Needs no Paddle: only the paddle2onnx shared library file.
"""

import argparse
import glob
import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = "/work/shared/spec/pd_op_definitions.json"
DEFAULT_SO = "/work/venv-paddle/lib/python3*/site-packages/paddle2onnx/paddle2onnx_cpp2py_export*.so"

# paddle2onnx 2.1.0's renames of PIR op names (without `pd_op.`) to the mapper
# names it registers (its `convert_pir_op_name`); with a repeated key the first wins.
RENAMED = {
    "matmul": "matmul_v2",
    "batch_norm_": "batch_norm",
    "topk": "top_k_v2",
    "repeat_interleave_with_tensor_index": "repeat_interleave",
    "expand": "expand_v2",
    "assign_value_": "assign_value",
    "flatten": "flatten_contiguous_range",
    "unsqueeze": "unsqueeze2",
    "arange": "range",
    "argmax": "arg_max",
    "argmin": "arg_min",
    "floor_divide": "elementwise_floordiv",
    "subtract": "elementwise_sub",
    "multiply": "elementwise_mul",
    "divide": "elementwise_div",
    "remainder": "elementwise_mod",
    "minimum": "elementwise_min",
    "maximum": "elementwise_max",
    "min": "reduce_min",
    "max": "reduce_max",
    "mean": "reduce_mean",
    "sum": "reduce_sum",
    "prod": "reduce_prod",
    "any": "reduce_any",
    "all": "reduce_all",
    "numel": "size",
    "hardswish": "hard_swish",
    "hardsigmoid": "hard_sigmoid",
    "add": "elementwise_add",
    "add_n": "sum",
    "grid_sample": "grid_sampler",
    "nonzero": "where_index",
}

# Ops paddle2onnx's PIR exporter handles without a mapper.
THEIR_STRUCTURAL = ["builtin.parameter", "pd_op.data", "pd_op.feed", "pd_op.fetch",
                    "pd_op.if", "pd_op.while", "cf.yield"]


def generators(so_path):
    """(legacy mapper names, PIR mapper names) registered in the library."""
    data = open(so_path, "rb").read()
    legacy, pir = set(), set()
    for m in re.finditer(rb"N11paddle2onnx(\d+)([A-Za-z0-9_]+)E", data):
        n = int(m.group(1))
        body = m.group(2)
        if len(body) < n:
            continue
        name = body[:n].decode()
        if name.endswith("PirGenerator"):
            pir.add(name[: -len("PirGenerator")])
        elif name.endswith("Generator"):
            legacy.add(name[: -len("Generator")])
    # The base classes (`Generator`, `PirGenerator`) are no mappers.
    legacy -= {"", "Pir"}
    pir.discard("")
    return legacy, pir


def mapper_name(op):
    """The paddle2onnx mapper name a PIR op name is looked up by."""
    if op.startswith("pd_op."):
        short = op[len("pd_op."):]
        return RENAMED.get(short, short)
    if op.startswith("builtin."):
        return "builtin_" + op[len("builtin."):]
    return op


def legacy_to_pir():
    """Legacy op type -> PIR name (without dialect), from op_compat.txt."""
    out = {}
    with open(f"{REPO}/crates/pir-legacy/data/op_compat.txt") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0] == "name":
                out[parts[1]] = parts[2]
    return out


def ours():
    """The ops `pir export` maps: the mapper table and the walker's own ops."""
    src = open(f"{REPO}/crates/pir-onnx/src/mappers/mod.rs").read()
    table = src[src.index("const TABLE"):]
    names = set(re.findall(r'\(\s*"((?:pd_op|cf|builtin)\.[A-Za-z0-9_]+)",', table))
    lib = open(f"{REPO}/crates/pir-onnx/src/lib.rs").read()
    block = lib[lib.index("const STRUCTURAL"):]
    block = block[: block.index("];")]
    names |= set(re.findall(r'"((?:pd_op|cf|builtin)\.[A-Za-z0-9_]+)"', block))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--so", default=None, help="paddle2onnx's shared library")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--missing", action="store_true")
    args = ap.parse_args()
    so = args.so or next(iter(sorted(glob.glob(DEFAULT_SO))), None)
    if not so or not os.path.exists(so):
        sys.exit("paddle2onnx's shared library not found: pass --so")
    legacy, pir = generators(so)
    defined = set(json.load(open(SPEC))["ops"])
    theirs = {op for op in defined if mapper_name(op) in pir} | set(THEIR_STRUCTURAL)
    # PIR mappers no Paddle 3.3.1 op reaches (names of ops that are gone).
    reached = {mapper_name(op) for op in theirs}
    unreached = sorted(pir - reached)
    renames = legacy_to_pir()
    legacy_only = sorted(legacy - pir)
    legacy_as_pir = {}
    for name in legacy_only:
        pir_name = "pd_op." + renames.get(name, name)
        legacy_as_pir[name] = pir_name if pir_name in defined else None
    mine = ours()
    both = theirs & mine
    missing = sorted(theirs - mine)
    if args.missing:
        print("\n".join(missing))
        return 0
    if args.json:
        print(json.dumps({"paddle2onnx": sorted(theirs), "pir": sorted(mine), "both": sorted(both),
                          "missing": missing, "pir_only": sorted(mine - theirs),
                          "paddle2onnx_unreached_mappers": unreached,
                          "paddle2onnx_legacy_only": legacy_as_pir}, indent=1))
        return 0
    print(f"paddle2onnx ({os.path.basename(so)}): {len(pir)} PIR mappers, {len(legacy)} legacy mappers")
    print(f"pd_op ops paddle2onnx converts (PIR programs, walker ops included): {len(theirs)}")
    print(f"pd_op ops pir maps (walker ops included): {len(mine)}")
    print(f"both: {len(both)}; paddle2onnx only: {len(missing)}; pir only: {len(mine - theirs)}")
    if unreached:
        print(f"PIR mappers no Paddle 3.3.1 op name reaches: {', '.join(unreached)}")
    extra = sorted({p for p in legacy_as_pir.values() if p and p not in theirs})
    print(f"legacy-path mappers without a PIR twin: {len(legacy_only)} "
          f"(as pd_op ops not in the list above: {', '.join(extra) or 'none'}; "
          f"pir maps {sum(p in mine for p in extra)} of them)")
    print("\npaddle2onnx converts, pir does not:")
    for op in missing:
        print(f"  {op}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
