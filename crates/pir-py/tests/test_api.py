"""The Python API: text, walking, editing, building ops, parameters, files
and errors."""

import gc
import json
import pickle

import numpy as np
import pytest

import pir
from conftest import decode_pdiparams, model


@pytest.fixture
def mlp():
    return pir.load(model("mlp_tiny").json)


# ------------------------------------------------------------------ text


def test_parse_reads_paddles_print_and_json():
    m = model("mlp_tiny")
    text = m.file(".txt").read_text()
    program = pir.parse(text)
    assert str(program) == text
    assert pir.parse(m.json.read_text()).to_json() == m.json.read_text()


def test_typed_text_carries_the_header():
    program = pir.load(model("mlp_tiny").json).program
    typed = program.to_text(typed=True)
    assert typed.startswith(f"#pir-typed version={pir.PIR_VERSION} trainable=true\n")
    assert program.to_text() == str(program)
    assert "%" in program.to_text(json_ids=True)


def test_program_save_by_extension(tmp_path, mlp):
    program = mlp.program
    program.save(tmp_path / "p.pir")
    program.save(tmp_path / "p.txt")
    program.save(tmp_path / "p.json")
    assert (tmp_path / "p.txt").read_text() == str(program)
    assert pir.load(tmp_path / "p.pir", params=False).program.to_json() == program.to_json()
    assert (tmp_path / "p.json").read_text() == model("mlp_tiny").json.read_text()
    with pytest.raises(pir.WriteError) as e:
        program.save(tmp_path / "p.json", overwrite=False)
    assert e.value.file == str(tmp_path / "p.json")


# ------------------------------------------------------------------ errors


def test_text_errors_carry_line_and_column():
    with pytest.raises(pir.ParseError) as e:
        pir.parse('{\n    (%0) = "pd_op.relu" (%9) {} : (tensor<f32>) -> tensor<f32>\n}\n')
    err = e.value
    assert isinstance(err, pir.ReadError) and isinstance(err, pir.PirError)
    assert (err.line, err.column) == (2, 26)
    assert err.file is None and err.json_path is None


def test_json_errors_carry_file_and_json_path(tmp_path):
    doc = json.loads(model("mlp_tiny").json.read_text())
    doc["program"]["regions"][0]["blocks"][0]["ops"][5]["O"][0]["TT"] = {"#": "0.t_nope"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(pir.ReadError) as e:
        pir.load(path)
    assert e.value.file == str(path)
    assert e.value.json_path.startswith("program.regions[0].blocks[0].ops[5].O[0].TT")
    assert str(path) in str(e.value)


def test_malformed_json_is_a_parse_error_with_position(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"base_code": {"magic": "pir",\n  "version": 4,,}}')
    with pytest.raises(pir.ParseError) as e:
        pir.load(path)
    assert (e.value.file, e.value.line) == (str(path), 2)


def test_missing_file_is_a_read_error(tmp_path):
    with pytest.raises(pir.ReadError) as e:
        pir.load(tmp_path / "nothing.json")
    assert e.value.file == str(tmp_path / "nothing.json")


def test_a_prefix_ending_like_a_model_file_finds_its_json(tmp_path):
    # `m.pir` names no file: it is the prefix of `m.pir.json`, whose
    # parameters are `m.pir.pdiparams`.
    m = model("mlp_tiny")
    (tmp_path / "m.pir.json").write_bytes(m.json.read_bytes())
    (tmp_path / "m.pir.pdiparams").write_bytes(m.file(".pdiparams").read_bytes())
    loaded = pir.load(tmp_path / "m.pir")
    assert loaded.path == str(tmp_path / "m.pir.json")
    assert list(loaded.params) == sorted(pir.load(m.json).params)
    assert len(loaded.params) == len(loaded.params.keys()) > 0


def test_corrupt_parameters_name_file_and_offset(tmp_path):
    m = model("mlp_tiny")
    (tmp_path / "m.json").write_bytes(m.json.read_bytes())
    (tmp_path / "m.pdiparams").write_bytes(m.file(".pdiparams").read_bytes()[:-10])
    with pytest.raises(pir.ParamsError) as e:
        pir.load(tmp_path / "m.json")
    assert e.value.file == str(tmp_path / "m.pdiparams")
    assert e.value.offset is not None
    assert pir.load(tmp_path / "m.json", params=False).params.keys() == []


def test_hostile_pickle_is_refused_without_running_it(tmp_path):
    class Boom:
        def __reduce__(self):
            return (print, ("executed",))

    path = tmp_path / "evil.pdparams"
    path.write_bytes(pickle.dumps({"w": Boom()}, protocol=4))
    with pytest.raises(pir.ParamsError) as e:
        pir.load_state_dict(path)
    assert "print" in str(e.value) and e.value.offset is not None


def test_verify_lists_failures(mlp):
    program = mlp.program
    program.verify()
    relu = program.walk("pd_op.relu")[0]
    relu.set_operand(0, None)
    with pytest.raises(pir.VerifyError) as e:
        program.verify()
    assert e.value.errors and all(len(pair) == 2 for pair in e.value.errors)


# ------------------------------------------------------------------ walking


def test_walk_ops_values_and_uses(mlp):
    program = mlp.program
    ops = program.ops
    assert [op.name for op in ops][:4] == ["builtin.parameter"] * 4
    assert program.num_ops == len(program.walk()) == len(ops)
    matmul = program.walk("pd_op.matmul")[0]
    x, w = matmul.operands
    assert matmul.operand("x") == x and matmul.operand("y") == w == matmul.operand(-1)
    assert x.defining_op.name == "pd_op.data" and x.shape == [-1, 8] and x.dtype == "float32"
    assert w.defining_op.attributes["parameter_name"] == "linear_0.w_0"
    out = matmul.result("out")
    assert out is not None and out == matmul.results[0] and out.index == 0
    assert [u.owner.name for u in out.uses] == ["pd_op.add"] and out.uses[0].index == 0
    assert out.users == [matmul.next]
    assert matmul.parent_block == program.block and matmul.parent_op == program.module
    assert matmul.attributes == {
        "transpose_x": False, "transpose_y": False,
        "struct_name": "/Linear/", "stop_gradient": [False],
    }
    assert str(out.type) == "tensor<-1x16xf32>" and out.type.kind == "builtin.dense_tensor"
    assert matmul in set(program.walk()) and hash(matmul) == hash(program.walk("pd_op.matmul")[0])
    assert '"pd_op.matmul"' in str(matmul)
    with pytest.raises(IndexError):
        matmul.operand(2)
    with pytest.raises(KeyError):
        matmul.result("nope")


def test_regions_and_blocks_of_control_flow():
    program = pir.load(model("cond_if").json).program
    cond = program.walk("pd_op.if")[0]
    assert len(cond.regions) == 2
    for region in cond.regions:
        (block,) = region.blocks
        assert block.parent_op == cond and region.parent_op == cond
        assert block.ops[-1].name == "cf.yield"
        assert all(op.parent_op == cond for op in block)
    inner = cond.walk()
    assert inner and all(op in program.walk() for op in inner)
    loop = pir.load(model("while_loop").json).program.walk("pd_op.while")[0]
    body = loop.regions[0].blocks[0]
    assert len(body.args) == len(loop.operands) - 1
    assert all(arg.is_block_arg and arg.block == body for arg in body.args)


def test_attributes_of_every_kind_come_back_as_python_values():
    program = pir.load(model("mlp_tiny").json).program
    full = program.walk("pd_op.full")[0]
    attrs = full.attributes
    assert attrs["shape"] == [1] and attrs["value"] == 2.0 and attrs["dtype"] == "float32"
    place = attrs["place"]
    assert isinstance(place, pir.Attribute) and str(place) == "Place(cpu)"
    assert place.kind == "pd_op.place" and place == full.attr("place")
    assert full.attr("nope", 7) == 7


# ------------------------------------------------------------------ editing


def test_set_attr_keeps_the_kind(mlp):
    program = mlp.program
    full = program.walk("pd_op.full")[0]
    full.set_attr("value", 3)            # a double stays a double
    full.set_attr("shape", [1])          # an int array stays an int array
    full.set_attr("dtype", "float64")
    full.set_attr("place", "cpu")
    assert "value:3" in str(full) and "dtype:float64" in str(full)
    data = program.walk("pd_op.data")[0]
    data.set_attr("stop_gradient", [True])
    data.set_attr("struct_name", "/Net/")      # an attribute every op may carry
    assert data.attributes["struct_name"] == "/Net/" and data.del_attr("struct_name")
    with pytest.raises(TypeError):
        full.set_attr("shape", "not a list")
    with pytest.raises(ValueError):
        program.walk("pd_op.fetch")[0].set_attr("col", 2**40)   # an int32
    program.verify()


def test_erase_and_replace_uses(mlp):
    program = mlp.program
    relu = program.walk("pd_op.relu")[0]
    with pytest.raises(pir.EditError):
        relu.erase()                      # its result is used
    relu.results[0].replace_all_uses_with(relu.operands[0])
    relu.erase()
    assert relu.is_erased and relu.parent_block is None
    with pytest.raises(pir.EditError):
        relu.set_attr("x", 1)
    program.verify()
    assert "pd_op.relu" not in [op.name for op in program.ops][:8]
    # replace_with: scale's result becomes the relu's input.
    scale = program.walk("pd_op.scale")[0]
    scale.replace_with([scale.operands[0]])
    program.verify()
    with pytest.raises(pir.EditError):
        program.module.erase()


def test_handles_of_another_program_are_refused(mlp):
    other = pir.load(model("mlp_tiny").json).program
    relu = mlp.program.walk("pd_op.relu")[0]
    with pytest.raises(pir.EditError):
        relu.set_operand(0, other.walk("pd_op.data")[0].results[0])


def test_an_op_cannot_move_into_its_own_region():
    program = pir.load(model("cond_if").json).program
    cond = program.walk("pd_op.if")[0]
    inner = cond.regions[0].blocks[0].ops[0]
    with pytest.raises(pir.EditError):
        cond.move_before(inner)
    before = cond.prev
    inner.move_before(cond)               # hoisting is allowed
    assert inner.next == cond and inner.prev == before


def test_build_ops_through_their_definitions(mlp):
    program = mlp.program
    block = program.block
    matmul = program.walk("pd_op.matmul")[0]
    x, w = matmul.operands
    fetch = program.walk("pd_op.fetch")[0]
    # Defaults fill the attributes, in Paddle's order.
    mm = block.create_op("pd_op.matmul", {"x": x, "y": w},
                         result_types=[matmul.results[0].type], before=fetch)
    assert list(mm.attributes) == ["transpose_x", "transpose_y"]
    assert mm.next == fetch and mm.attributes["transpose_y"] is False
    t = pir.tensor_type("float32", [-1, 16])
    relu = block.create_op("pd_op.relu", [mm.results[0]], {"stop_gradient": [False]}, [t],
                           after=mm)
    assert relu.prev == mm and relu.result(0).type == t == mm.results[0].type
    full = block.create_op("pd_op.full", [], {"shape": [2, 3], "value": 1.5, "dtype": "float32",
                                              "place": "cpu"},
                           [pir.tensor_type("float32", [2, 3])], before=fetch)
    assert "value:1.5" in str(full)
    program.verify()
    with pytest.raises(ValueError, match="takes 2 operands"):
        block.create_op("pd_op.matmul", [x], result_types=[t])
    with pytest.raises(ValueError, match="result types"):
        block.create_op("pd_op.matmul", [x, w], result_types=[])
    with pytest.raises(KeyError):
        block.create_op("pd_op.matmul", {"x": x, "z": w}, result_types=[t])
    with pytest.raises(ValueError, match="needs attribute `value`"):
        block.create_op("pd_op.full_int_array", [], {}, [t])
    # Unregistered ops take what they are given.
    custom = block.create_op("my.op", [x], {"k": 3, "f": 0.5, "names": ["a"]}, [t], regions=1)
    assert len(custom.regions) == 1 and not custom.is_registered
    assert custom.attributes == {"k": 3, "f": 0.5, "names": ["a"]}
    (body,) = [custom.regions[0].add_block()]
    arg = body.add_arg(t)
    assert arg.is_block_arg and body.args == [arg]
    assert pir.op_definition("pd_op.matmul")["inputs"][1]["name"] == "y"
    assert matmul.definition["attributes"][0] == {"name": "transpose_x", "kind": "bool",
                                                   "default": False}


def test_edited_model_saves_and_reloads(tmp_path, mlp):
    program = mlp.program
    scale = program.walk("pd_op.scale")[0]
    scale.set_attr("bias", 0.25)
    mlp.save(tmp_path / "m")
    back = pir.load(tmp_path / "m")
    assert back.program.walk("pd_op.scale")[0].attributes["bias"] == 0.25
    assert str(back.program) == str(program)
    for name in mlp.params:
        assert np.array_equal(back.params[name], mlp.params[name])


def test_model_saves_as_legacy_pdmodel(tmp_path, mlp):
    mlp.save(tmp_path / "out" / "m.pdmodel")
    assert (tmp_path / "out" / "m.pdiparams").exists()
    back = pir.load(tmp_path / "out" / "m.pdmodel")
    assert back.parameter_names() == mlp.parameter_names()
    for name in mlp.params:
        assert np.array_equal(back.params[name], mlp.params[name])


def test_a_program_with_no_legacy_form_writes_no_pdmodel(tmp_path):
    m = pir.load(model("train_mlp_adam").json)
    with pytest.raises(pir.WriteError, match="_grad"):
        m.save(tmp_path / "m.pdmodel")
    assert not (tmp_path / "m.pdmodel").exists()
    assert not (tmp_path / "m.pdiparams").exists()


# ------------------------------------------------------------------ passes


def test_opt_runs_pipelines_with_parameters(tmp_path):
    m = model("resblock")
    loaded = pir.load(m.json)
    before = loaded.program.num_ops
    records = loaded.opt("constant_folding,fold_batch_norm,canonicalize,cse,dce")
    assert [r["pass"] for r in records] == [
        "constant_folding", "fold_batch_norm", "canonicalize", "cse", "dce"]
    assert loaded.program.num_ops < before
    assert "pd_op.batch_norm_" not in {op.name for op in loaded.program.walk()}
    loaded.verify()
    loaded.save(tmp_path / "out")
    back = pir.load(tmp_path / "out")
    assert list(back.params) == back.parameter_names() and len(back.params) > 0
    assert [name for name, _ in pir.passes()][:2] == ["dce", "cse"]


def test_a_failed_pipeline_leaves_the_program_as_it_was(mlp):
    text = str(mlp.program)
    with pytest.raises(pir.PassError):
        mlp.opt("cse,no_such_pass")
    assert str(mlp.program) == text


# ------------------------------------------------------------------ parameters


def test_parameters_are_views_of_the_file(mlp):
    array = mlp.params["linear_0.w_0"]
    assert not array.flags.writeable and isinstance(array.base, pir.TensorBuffer)
    assert array.base.is_mapped and array.base.dtype == "float32"
    with pytest.raises(ValueError):
        array[0, 0] = 1.0
    view = memoryview(array)
    assert view.readonly and view.nbytes == array.nbytes
    # The view outlives the model that gave it.
    expected = array.copy()
    del mlp
    gc.collect()
    assert np.array_equal(array, expected)


def test_parameter_buffers_are_left_out_of_the_cycle_collector(mlp):
    # A buffer holds no Python object, so it is in no cycle: the collector
    # need not walk a model's thousands of them. Asking again for an array
    # of an untracked buffer, and freeing it, must stay sound.
    first = mlp.params["linear_0.w_0"]
    again = mlp.params["linear_0.w_0"]
    assert not gc.is_tracked(first.base) and not gc.is_tracked(again.base)
    expected = first.copy()
    del mlp, again
    gc.collect()
    assert np.array_equal(first, expected)
    del first
    gc.collect()


def test_arrays_of_every_element_type_view_the_file(tmp_path):
    arrays = {
        "a_bool": np.array([[True, False, True]]),
        "b_int8": np.arange(-3, 3, dtype=np.int8).reshape(2, 3),
        "c_uint8": np.arange(7, dtype=np.uint8),
        "d_int16": np.arange(6, dtype=np.int16).reshape(1, 2, 3),
        "e_int32": np.array([7], dtype=np.int32),
        "f_int64": np.zeros((2, 0, 3), dtype=np.int64),        # no elements
        "g_float16": np.linspace(0, 1, 5).astype(np.float16),
        "h_float32": np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5),
        "i_float64": np.array([1.5, -2.25]),
        "j_complex64": np.array([1 + 2j, 3 - 4j], dtype=np.complex64),
        "k_complex128": np.array([[5 - 6j]]),
        "l_bfloat16": np.array([0x3F80, 0x4000], dtype=np.uint16),
    }
    path = tmp_path / "all.pdiparams"
    pir.save_params(path, arrays, dtypes={"l_bfloat16": "bfloat16"})
    back = pir.load_params(path, sorted(arrays))
    for name, want in arrays.items():
        got = back[name]
        assert got.dtype == want.dtype and got.shape == want.shape, name
        assert np.array_equal(got, want), name
        assert not got.flags.writeable and got.flags.c_contiguous, name
        assert isinstance(got.base, pir.TensorBuffer) and got.base.is_mapped, name
        assert got.base.dtype == ("bfloat16" if name == "l_bfloat16" else want.dtype.name)
        # The buffer still hands NumPy its bytes through the array interface.
        assert np.array_equal(np.asarray(got.base), want), name
        with pytest.raises(ValueError):
            got.flags.writeable = True
    del back
    gc.collect()


def test_small_and_large_parameter_files_are_both_viewed_without_a_copy(tmp_path):
    # Under 256 KiB a file is read whole into one buffer, from there on it is
    # memory-mapped: either way every array views the file's bytes.
    for n in (10, 100_000):
        arrays = {"a": np.arange(n, dtype=np.float32), "b": np.array([1.5, 2.5])}
        path = tmp_path / f"p{n}.pdiparams"
        pir.save_params(path, arrays)
        back = pir.load_params(path, sorted(arrays))
        path.unlink()  # the arrays hold the bytes, not the file name
        for name, want in arrays.items():
            got = back[name]
            assert got.base.is_mapped and not got.flags.writeable, (n, name)
            assert np.array_equal(got, want), (n, name)
        # one file's arrays share one allocation: b follows a in the file
        # (a 4-byte-element stream header apart, whatever the file's size)
        gap = back["b"].ctypes.data - back["a"].ctypes.data
        assert 0 < gap < back["a"].nbytes + 256, (n, gap)
        a = back["a"]
        del back
        gc.collect()
        assert a[-1] == n - 1


def test_params_is_one_mapping_per_model(mlp):
    assert mlp.params is mlp.params
    assert {n: mlp.params[n] for n in mlp.params}.keys() == set(mlp.parameter_names())


def test_assigning_parameters_copies(tmp_path, mlp):
    params = mlp.params
    w = params["linear_0.w_0"].copy()
    w[0, 0] = 42.0
    params["linear_0.w_0"] = w
    w[0, 0] = 0.0
    assert params["linear_0.w_0"][0, 0] == 42.0 and not params.is_mapped("linear_0.w_0")
    # The copy is made once, on assignment: every array read back views it.
    assert np.shares_memory(params["linear_0.w_0"], params["linear_0.w_0"])
    with pytest.raises(pir.ParamsError):
        params["linear_0.w_0"] = np.zeros((3, 3), np.float32)
    with pytest.raises(pir.ParamsError):
        params["linear_0.w_0"] = np.zeros((8, 16), np.float64)
    with pytest.raises(KeyError):
        params["nope"] = w
    params["linear_0.w_0"] = w.astype(">f4")       # byte order is converted
    assert params["linear_0.w_0"].dtype == np.dtype("<f4")
    mlp.save(tmp_path / "m")
    names = mlp.parameter_names()
    reference = dict(zip(names, decode_pdiparams(tmp_path / "m.pdiparams")))
    assert np.array_equal(reference["linear_0.w_0"], w)
    assert "linear_0.w_0" in params and 4 not in params and len(params) == 4
    assert dict(params.items()).keys() == set(names)
    del params["linear_0.b_0"]
    assert "linear_0.b_0" not in params and params.get("linear_0.b_0") is None
    with pytest.raises(pir.ParamsError):
        mlp.save(tmp_path / "again")                # one parameter has no data


def test_params_follow_edits_of_the_program(mlp):
    params = mlp.params
    names = list(params)
    assert names == mlp.parameter_names()
    w = params["linear_0.w_0"].copy()
    del params["linear_0.w_0"]
    assert list(params) == [n for n in names if n != "linear_0.w_0"]
    params["linear_0.w_0"] = w
    assert list(params) == names                    # the file's order again
    op = [
        op for op in mlp.program.walk("builtin.parameter")
        if op.attributes["parameter_name"] == "linear_0.w_0"
    ][0]
    op.set_attr("parameter_name", "linear_9.w_0")   # declares a name without data
    assert list(params) == [n for n in names if n != "linear_0.w_0"]
    assert "linear_9.w_0" in mlp.parameter_names() and len(params) == len(names) - 1
    op.set_attr("parameter_name", "linear_0.w_0")
    assert list(params) == names


def test_params_is_a_mutable_mapping(mlp):
    import collections.abc

    assert isinstance(mlp.params, collections.abc.MutableMapping)
    mlp.params.update({"linear_1.b_0": np.ones(4, np.float32)})
    assert mlp.params["linear_1.b_0"].sum() == 4


def test_state_dicts_round_trip(tmp_path):
    state = {
        "w": np.arange(6, dtype=np.float32).reshape(2, 3),
        "b": np.array([True, False]),
        "step": 3,
        "meta": {"lr": 0.1, "names": ["a", "b"]},
    }
    path = tmp_path / "s.pdparams"
    pir.save_state_dict(path, state)
    with open(path, "rb") as f:
        reference = pickle.load(f)
    back = pir.load_state_dict(path)
    for got in (reference, back):
        assert np.array_equal(got["w"], state["w"]) and got["w"].dtype == np.float32
        assert np.array_equal(got["b"], state["b"])
        assert got["step"] == 3 and got["meta"] == state["meta"]


def test_pdiparams_files_read_and_write(tmp_path):
    m = model("mlp_tiny")
    names = pir.load(m.json).parameter_names()
    blind = pir.load_params(m.file(".pdiparams"))
    named = pir.load_params(m.file(".pdiparams"), names)
    assert list(named) == names and len(blind) == len(names)
    pir.save_params(tmp_path / "p.pdiparams", dict(reversed(list(named.items()))))
    assert (tmp_path / "p.pdiparams").read_bytes() == m.file(".pdiparams").read_bytes()
    bf16 = {"x": np.array([0x3F80, 0x4000], dtype=np.uint16)}
    pir.save_params(tmp_path / "b.pdiparams", bf16, dtypes={"x": "bfloat16"})
    (back,) = decode_pdiparams(tmp_path / "b.pdiparams")
    assert np.array_equal(back, bf16["x"])


def test_types():
    t = pir.tensor_type("bfloat16", [2, -1])
    assert str(t) == "tensor<2x-1xbf16>" and t.shape == [2, -1] and t.dtype == "bfloat16"
    v = pir.vector_type([t, t])
    assert v.elements == [t, t] and v.shape is None
    with pytest.raises(ValueError):
        pir.tensor_type("float33", [1])


def test_the_stubs_describe_the_module():
    import ast
    from pathlib import Path

    stub = ast.parse((Path(pir.__file__).parent / "_pir.pyi").read_text())
    for node in stub.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            assert hasattr(pir, node.name), node.name
        if isinstance(node, ast.ClassDef) and not issubclass(getattr(pir, node.name), Exception):
            cls = getattr(pir, node.name)
            for item in node.body:
                name = getattr(item, "name", None) or getattr(getattr(item, "target", None), "id", None)
                if name and not name.startswith("__"):
                    assert hasattr(cls, name), f"{node.name}.{name}"
    assert (Path(pir.__file__).parent / "py.typed").exists()


def test_ops_cannot_nest_without_bound(mlp):
    block = mlp.program.block
    t = pir.tensor_type("float32", [1])
    with pytest.raises(pir.EditError, match="nest"):
        for _ in range(1000):
            op = block.create_op("my.nest", [], {}, [t], regions=1)
            block = op.regions[0].add_block()
    assert str(mlp.program).count("my.nest") > 100


def test_export_onnx_writes_a_file_and_leaves_the_model(tmp_path):
    from conftest import CORPUS

    m = pir.load(CORPUS / "mlp_tiny.json")
    before = str(m.program)
    out = tmp_path / "m.onnx"
    m.export_onnx(out, input_shapes={"x": [2, 8]} if "x" in m.program.inputs else None)
    data = out.read_bytes()
    assert len(data) > 100 and b"pir" in data[:64]
    assert str(m.program) == before, "exporting works on a copy"
    with pytest.raises(pir.WriteError):
        m.export_onnx(out)  # exists
    m.export_onnx(out, opset=13, overwrite=True, optimize=False)
    with pytest.raises(pir.WriteError, match="opset"):
        m.export_onnx(tmp_path / "bad.onnx", opset=5)
    assert not (tmp_path / "bad.onnx").exists()
