"""Building programs without writing types: ``pir.ops``, ``InsertionPoint``,
``Block.create_op`` with inferred result types, ``Program.set_input_shapes``."""

import inspect
import subprocess
import sys

import numpy as np
import pytest

import pir
from conftest import model


def small_cnn():
    """data -> conv -> relu -> pool -> flatten -> linear -> softmax -> fetch."""
    program = pir.Program()
    with pir.InsertionPoint(program.block):
        x = pir.ops.data("image", [-1, 3, 8, 8], "float32")
        w = pir.ops.parameter("conv.w", [4, 3, 3, 3])
        b = pir.ops.parameter("conv.b", [4])
        y = pir.ops.conv2d(x, w, [1, 1], [1, 1])
        y = pir.ops.add(y, pir.ops.reshape(b, [1, 4, 1, 1]))
        y = pir.ops.pool2d(pir.ops.relu(y), [2, 2], strides=[2, 2], paddings=[0, 0],
                           ceil_mode=False, exclusive=True, data_format="NCHW",
                           pooling_type="max", global_pooling=False, adaptive=False,
                           padding_algorithm="EXPLICIT")
        y = pir.ops.flatten(y, 1, 3)
        fc = pir.ops.parameter("fc.w", [64, 10])
        out = pir.ops.softmax(pir.ops.matmul(y, fc), -1)
        pir.ops.fetch(out, "probs", 0)
    return program, out


def test_ops_infer_every_type():
    program, out = small_cnn()
    assert out.type == pir.tensor_type("float32", [-1, 10])
    program.verify()
    text = str(program)
    assert "tensor<-1x4x8x8xf32>" in text and "tensor<-1x4x4x4xf32>" in text
    # Python values of tensor-valued attributes become constants, as in Paddle.
    assert '"pd_op.full_int_array" () {dtype:int64,place:Place(cpu),value:[1,4,1,1]}' in text


def test_signatures_follow_paddle():
    assert str(inspect.signature(pir.ops.matmul)) == "(x, y, transpose_x=False, transpose_y=False)"
    assert list(inspect.signature(pir.ops.conv2d).parameters)[:4] == ["input", "filter", "strides",
                                                                       "paddings"]
    assert "pd_op.matmul" in pir.ops.matmul.__doc__
    assert "matmul" in pir.ops.names() and "relu_" in pir.ops.names()
    assert len(pir.ops.names()) >= 800
    with pytest.raises(AttributeError, match="did you mean `matmul`"):
        pir.ops.matmull  # noqa: B018
    # A builtin's name is an op of the module without hiding the builtin.
    assert pir.ops.sum is not sum and pir.ops.all is not all


def test_op_functions_are_made_on_first_use():
    # `import pir` makes none of them, nor imports what making them needs.
    code = ("import sys, pir; "
            "print(sorted(m for m in ('inspect', 'difflib', 'collections') if m in sys.modules)); "
            "print(len(pir.ops._FUNCTIONS))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "0"]
    # Every name is there all the same: `__all__`, `dir`, `import *`.
    names = set(pir.ops.names())
    assert names <= set(pir.ops.__all__) and names <= set(dir(pir.ops))
    assert {"InsertionPoint", "parameter", "names"} <= set(pir.ops.__all__)
    scope = {}
    exec("from pir.ops import *", scope)
    assert scope["matmul"] is pir.ops.matmul and scope["relu_"] is pir.ops.relu_
    # Ops with regions are built with `Block.create_op`, not here.
    assert "if" not in names and "while" not in names
    # What Python looks up on any module is not an op (and costs no search).
    assert not hasattr(pir.ops, "__path__") and not hasattr(pir.ops, "__wrapped__")


def test_lists_and_several_results():
    program = pir.Program()
    with pir.InsertionPoint(program.block):
        x = pir.ops.data("x", [2, 6], "float32")
        joined = pir.ops.concat([x, x], 0)
        parts = pir.ops.split(joined, [1, 3], 0)
        top = pir.ops.topk(x, 2, -1)
    assert joined.type == pir.tensor_type("float32", [4, 6])
    assert [p.type for p in parts] == [pir.tensor_type("float32", [1, 6]),
                                       pir.tensor_type("float32", [3, 6])]
    assert isinstance(top, tuple) and top[1].type == pir.tensor_type("int64", [2, 2])
    ops = [op.name for op in program.ops]
    assert ops.count("builtin.combine") == 1 and ops.count("builtin.split") == 1


def test_refusals_are_infer_errors_and_leave_nothing():
    program = pir.Program()
    with pir.InsertionPoint(program.block):
        x = pir.ops.data("x", [2, 3], "float32")
        y = pir.ops.data("y", [4, 5], "float32")
        before = len(program.block)
        with pytest.raises(pir.InferError, match="pd_op.matmul"):
            pir.ops.matmul(x, y)
        assert len(program.block) == before
        with pytest.raises(TypeError):
            pir.ops.matmul(x)
    with pytest.raises(RuntimeError, match="insertion point"):
        pir.ops.relu(x)
    assert issubclass(pir.InferError, pir.PirError)


def test_insertion_points_keep_order():
    program = pir.Program()
    block = program.block
    with pir.InsertionPoint(block):
        x = pir.ops.data("x", [2, 3], "float32")
        fetch = pir.ops.fetch(x, "out", 0)
    with pir.InsertionPoint.before(fetch.defining_op):
        r = pir.ops.relu(x)
        e = pir.ops.exp(r)
    with pir.InsertionPoint.after(x.defining_op):
        a = pir.ops.abs(x)
        n = pir.ops.neg(a) if "neg" in pir.ops.names() else pir.ops.scale(a, -1.0, 0.0, True)
    names = [op.name for op in program.ops]
    assert names.index("pd_op.abs") == 1
    assert names.index("pd_op.relu") < names.index("pd_op.exp") < names.index("pd_op.fetch")
    assert pir.InsertionPoint.current() is None
    assert e.type == r.type == n.type == x.type


def test_create_op_infers_when_no_types_are_given():
    program = pir.Program()
    block = program.block
    full = block.create_op("pd_op.full", [], {"shape": [2, 3], "value": 1.0, "dtype": "float32"})
    assert full.results[0].type == pir.tensor_type("float32", [2, 3])
    t = block.create_op("pd_op.transpose", [full.results[0]], {"perm": [1, 0]})
    assert t.results[0].type == pir.tensor_type("float32", [3, 2])
    shape = block.create_op("pd_op.full_int_array", [], {"value": [7], "dtype": "int64"})
    with pytest.raises(pir.InferError, match="reshape"):
        block.create_op("pd_op.reshape", [full.results[0], shape.results[0]])   # 6 into 7
    assert len(block) == 3


def test_built_model_saves_and_reloads(tmp_path):
    program, _ = small_cnn()
    m = pir.Model(program)
    rng = np.random.default_rng(0)
    for name, shape in [("conv.w", (4, 3, 3, 3)), ("conv.b", (4,)), ("fc.w", (64, 10))]:
        m.params[name] = rng.standard_normal(shape).astype(np.float32)
    m.save(tmp_path / "cnn")
    back = pir.load(tmp_path / "cnn")
    assert str(back.program) == str(program)
    assert np.array_equal(back.params["fc.w"], m.params["fc.w"])


def test_set_input_shapes_follows_through():
    program, out = small_cnn()
    assert list(program.inputs) == ["image"]
    done = program.set_input_shapes({"image": [5, 3, 8, 8]})
    assert done["inputs"] == 1 and done["retyped"] > 5
    assert out.type == pir.tensor_type("float32", [5, 10])
    program.verify()
    before = str(program)
    with pytest.raises(pir.InferError, match="pd_op.matmul"):
        program.set_input_shapes({"image": [5, 3, 16, 16]})   # 256 features for 64
    assert str(program) == before                             # left as it was
    with pytest.raises(pir.InferError, match="did you mean `image`"):
        program.set_input_shapes({"imag": [5, 3, 8, 8]})


def test_set_input_shapes_on_a_corpus_model():
    m = model("lenet")
    loaded = pir.load(m.json)
    name = next(iter(loaded.program.inputs))
    loaded.program.set_input_shapes({name: [3, 1, 28, 28]})
    assert "tensor<3x10xf32>" in str(loaded.program)
    loaded.opt("inference")


def test_saving_for_an_older_release(tmp_path):
    program, _ = small_cnn()
    with pir.InsertionPoint(program.block):
        x = program.inputs["image"]
        pir.ops.leaky_relu(x, 0.1)            # a float attribute 3.3 writes as double
    m = pir.Model(program)
    rng = np.random.default_rng(0)
    for name, shape in [("conv.w", (4, 3, 3, 3)), ("conv.b", (4,)), ("fc.w", (64, 10))]:
        m.params[name] = rng.standard_normal(shape).astype(np.float32)
    m.save(tmp_path / "new")
    m.save(tmp_path / "old", version="3.2")
    new = (tmp_path / "new.json").read_text()
    old = (tmp_path / "old.json").read_text()
    assert '"version":4' in new and '"version":3' in old
    assert '"0.a_f64"' in new.split('"1.leaky_relu"')[1][:400]
    assert '"0.a_f32"' in old.split('"1.leaky_relu"')[1][:400]
    assert str(pir.load(tmp_path / "old").program) == str(pir.load(tmp_path / "new").program)
    with pytest.raises(ValueError, match="not a Paddle release"):
        m.save(tmp_path / "bad", version="2.6")
