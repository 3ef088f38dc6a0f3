#!/usr/bin/env python3
"""What Paddle 3.3.1 makes of a legacy block declaring a variable's name twice.

Builds two small `.pdmodel` programs (feed x -> elementwise_add(x, w) ->
fetch y) whose top block declares a name twice, translates each with
`paddle.pir.translate_to_pir(core.ProgramDesc(bytes))`, saves the result with
`serialize_pir_program(prog, path, True, False, True)`, reads it back and
prints the lines the test `a_name_declared_twice_is_its_last_declaration`
(crates/pir-legacy/tests/translate.rs) checks:
  1. `w` declared [4] not persistable, then [1] persistable: the parameter
     is persistable and of type tensor<1xf32> (the last declaration);
  2. `x` declared [-1, 4], then [2, 4]: `pd_op.feed` gives tensor<2x4xf32>.
Paddle's `BlockDesc` keeps one variable a name, the last its proto declares.
With DIR given, the two programs are also written there (NAME.pdmodel) to
compare with `pir print DIR/NAME.pdmodel`.

Needs `pip install paddlepaddle==3.3.1`.
Usage: scripts/paddle_duplicate_vars.py [DIR]
"""

import os
import sys
import tempfile

os.environ.setdefault("GLOG_minloglevel", "2")

import paddle  # noqa: E402
from paddle.base import core  # noqa: E402
from paddle.base.proto import framework_pb2 as pb  # noqa: E402

TYPE = pb.VarType.Type.Value
FP32 = TYPE("FP32")


def program(declared):
    """A ProgramDesc whose top block declares `declared` (name, dims, persistable)."""
    prog = pb.ProgramDesc()
    block = prog.blocks.add()
    block.idx, block.parent_idx = 0, -1
    for name, ty in (("feed", "FEED_MINIBATCH"), ("fetch", "FETCH_LIST")):
        var = block.vars.add()
        var.name, var.type.type, var.persistable = name, TYPE(ty), True
    for name, dims, persistable in declared:
        var = block.vars.add()
        var.name, var.persistable = name, persistable
        var.type.type = TYPE("DENSE_TENSOR")
        var.type.dense_tensor.tensor.data_type = FP32
        var.type.dense_tensor.tensor.dims.extend(dims)

    def op(ty, inputs, outputs, attrs):
        o = block.ops.add()
        o.type = ty
        for slots, given in ((o.inputs, inputs), (o.outputs, outputs)):
            for parameter, args in given:
                slot = slots.add()
                slot.parameter = parameter
                slot.arguments.extend(args)
        for name, value in attrs:
            a = o.attrs.add()
            a.name, a.type, a.i = name, pb.INT, value

    op("feed", [("X", ["feed"])], [("Out", ["x"])], [("col", 0)])
    op("elementwise_add", [("X", ["x"]), ("Y", ["w"])], [("Out", ["y"])], [("axis", -1)])
    op("fetch", [("X", ["y"])], [("Out", ["fetch"])], [("col", 0)])
    return prog.SerializeToString()


CASES = {
    "parameter_declared_twice": [
        ("x", [-1, 4], False), ("w", [4], False), ("w", [1], True), ("y", [-1, 4], False),
    ],
    "input_declared_twice": [
        ("x", [-1, 4], False), ("x", [2, 4], False), ("w", [4], True), ("y", [-1, 4], False),
    ],
}


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory() as tmp:
        for name, declared in CASES.items():
            data = program(declared)
            if out_dir:
                with open(os.path.join(out_dir, name + ".pdmodel"), "wb") as f:
                    f.write(data)
            translated = paddle.pir.translate_to_pir(core.ProgramDesc(data))
            path = os.path.join(tmp, name + ".json")
            core.serialize_pir_program(translated, path, True, False, True)
            back = paddle.pir.Program()
            core.deserialize_pir_program(path, back, 1)
            print("==", name)
            for line in str(back).splitlines():
                if "builtin.parameter" in line or "pd_op.feed" in line:
                    print(line.strip())


if __name__ == "__main__":
    main()
