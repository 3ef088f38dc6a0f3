"""The checks the package makes as the `pir` command does: files of the
wrong kind, refused overwrites, undeclared attributes, models missing their
parameters, readable definitions, and signatures that agree with the
stubs."""

import ast
import importlib.metadata
import inspect
import re
import shutil
from pathlib import Path

import pytest

import pir
from conftest import REPO, model

# ------------------------------------------------------------ file kinds


def test_a_parameter_file_is_not_a_model():
    params = model("mlp_tiny").file(".pdiparams")
    with pytest.raises(pir.FileKindError) as e:
        pir.load(params)
    assert isinstance(e.value, pir.ReadError)
    assert str(e.value) == f"{params} is a parameter file (.pdiparams), not a model"
    assert e.value.file == str(params)


def test_a_pickle_is_not_a_model():
    pickle = model("train_mlp_adam").file(".pdparams")
    with pytest.raises(pir.FileKindError, match=r"is a parameter pickle \(\.pdparams\), not a model"):
        pir.load(pickle)


def test_a_model_is_not_parameters():
    m = model("mlp_tiny")
    with pytest.raises(pir.FileKindError) as e:
        pir.load_params(m.json)
    assert str(e.value) == f"{m.json} is a Paddle JSON model, not a parameter file (.pdiparams)"
    assert e.value.file == str(m.json)
    with pytest.raises(pir.FileKindError, match="not a parameter file"):
        pir.load(m.json, params=m.json)
    with pytest.raises(pir.FileKindError, match=r"is a parameter file \(\.pdiparams\), not a parameter pickle"):
        pir.load_state_dict(m.file(".pdiparams"))
    with pytest.raises(pir.FileKindError, match="is a Paddle JSON model, not a parameter pickle"):
        pir.load_state_dict(m.json)


def test_upgrade_reads_models_only(tmp_path):
    params = model("mlp_tiny").file(".pdiparams")
    with pytest.raises(pir.FileKindError, match="not a model"):
        pir.upgrade(params, tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


def test_parameters_are_told_by_content_not_extension(tmp_path):
    m = model("mlp_tiny")
    renamed = tmp_path / "weights.bin"
    shutil.copy(m.file(".pdiparams"), renamed)
    loaded = pir.load(m.json, params=renamed)
    assert len(loaded.params) == len(loaded.parameter_names())


def test_an_unreadable_parameter_file_stays_a_params_error(tmp_path):
    with pytest.raises(pir.ParamsError) as e:
        pir.load_params(tmp_path / "none.pdiparams")
    assert e.value.file == str(tmp_path / "none.pdiparams")


# ------------------------------------------------------------ names


def test_the_distribution_is_pir_rs():
    assert importlib.metadata.version("pir-rs") == pir.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", pir.__version__)
    assert "pir-rs" in pir.__doc__ and "import pir" in pir.__doc__
    readme = (REPO / "crates" / "pir-py" / "README.md").read_text()
    assert "pip install ./crates/pir-py" in readme and "pir-rs" in readme
    pyproject = (REPO / "crates" / "pir-py" / "pyproject.toml").read_text()
    description = re.search(r'^description = "(.*)"$', pyproject, re.M).group(1)
    assert "pir-rs" in description and "`pir`" in description


# ------------------------------------------------------------ overwriting


def test_save_refuses_to_overwrite_by_default(tmp_path):
    loaded = pir.load(model("mlp_tiny").json)
    loaded.save(tmp_path / "m")
    before = (tmp_path / "m.json").read_bytes()
    loaded.program.walk("pd_op.scale")[0].set_attr("bias", 0.25)
    with pytest.raises(pir.WriteError) as e:
        loaded.save(tmp_path / "m")
    assert "overwrite=True" in str(e.value)
    assert e.value.file in (str(tmp_path / "m.json"), str(tmp_path / "m.pdiparams"))
    assert (tmp_path / "m.json").read_bytes() == before
    loaded.save(tmp_path / "m", overwrite=True)
    assert (tmp_path / "m.json").read_bytes() != before


def test_program_save_refuses_to_overwrite_by_default(tmp_path):
    program = pir.load(model("mlp_tiny").json).program
    program.save(tmp_path / "p.txt")
    with pytest.raises(pir.WriteError, match=r"already exists \(pass overwrite=True"):
        program.save(tmp_path / "p.txt")
    program.save(tmp_path / "p.txt", overwrite=True)


def test_save_makes_the_folders(tmp_path):
    loaded = pir.load(model("mlp_tiny").json)
    loaded.save(tmp_path / "new" / "deeper" / "m")
    assert (tmp_path / "new" / "deeper" / "m.json").is_file()
    assert (tmp_path / "new" / "deeper" / "m.pdiparams").is_file()


# ------------------------------------------------------------ attributes


def test_undeclared_attributes_are_refused(mlp_program):
    relu = mlp_program.walk("pd_op.relu")[0]
    with pytest.raises(pir.EditError) as e:
        relu.set_attr("bogus", 3)
    message = str(e.value)
    assert "`pd_op.relu`" in message and "`bogus`" in message
    assert "declares no attributes" in message
    assert "bogus" not in relu.attributes
    matmul = mlp_program.walk("pd_op.matmul")[0]
    with pytest.raises(pir.EditError) as e:
        matmul.set_attr("transpose_z", True)
    message = str(e.value)
    assert "did you mean `transpose_x`?" in message or "did you mean `transpose_y`?" in message
    assert "transpose_x (bool), transpose_y (bool)" in message
    scale = mlp_program.walk("pd_op.scale")[0]
    with pytest.raises(pir.EditError, match="did you mean `bias`"):
        scale.set_attr("bais", 0.5)               # two letters swapped
    # Attributes every op may carry, and the declared ones, are taken.
    relu.set_attr("struct_name", "/Net/")
    matmul.set_attr("transpose_y", True)
    block = mlp_program.block
    x = matmul.operands[0]
    with pytest.raises(pir.EditError, match="`pd_op.relu` has no attribute `alpha`"):
        block.create_op("pd_op.relu", [x], {"alpha": 0.1}, [x.type])
    # Ops without a registration take any name.
    custom = block.create_op("my.op", [x], {"anything": 1}, [x.type])
    custom.set_attr("more", "yes")
    assert custom.attributes == {"anything": 1, "more": "yes"}


@pytest.fixture
def mlp_program():
    return pir.load(model("mlp_tiny").json).program


def test_definitions_spell_kinds_for_people():
    full = pir.op_definition("pd_op.full")
    kinds = {a["name"]: a["kind"] for a in full["attributes"]}
    assert kinds == {"shape": "IntArray", "value": "Scalar(float64)", "dtype": "DataType",
                     "place": "Place"}
    assert full["outputs"][0]["kind"] == "DenseTensor"
    assert pir.op_definition("pd_op.concat")["inputs"][0]["kind"] == "DenseTensor[]"
    assert pir.op_definition("pd_op.transpose")["attributes"][0]["kind"] == "int32[]"
    seen = set()
    for name in ["pd_op.matmul", "pd_op.conv2d", "pd_op.batch_norm_", "pd_op.slice",
                 "pd_op.layer_norm", "pd_op.fetch", "pd_op.scale", "pd_op.cast"]:
        d = pir.op_definition(name)
        seen |= {a["kind"] for a in d["attributes"]}
        seen |= {v["kind"] for v in d["inputs"] + d["outputs"]}
    word = r"[A-Za-z][A-Za-z0-9]*"
    for kind in seen:
        assert re.fullmatch(rf"{word}(\[\]|\({word}\))?", kind), kind


# ------------------------------------------------------------ parameters


def test_opt_refuses_a_model_missing_its_parameters(tmp_path):
    m = model("mlp_tiny")
    shutil.copy(m.json, tmp_path / "m.json")
    loaded = pir.load(tmp_path / "m.json")
    text = str(loaded.program)
    with pytest.raises(pir.MissingParamsError) as e:
        loaded.opt("constant_folding,canonicalize,cse,dce")
    assert isinstance(e.value, pir.PassError)
    message = str(e.value)
    assert f"{tmp_path / 'm.pdiparams'} was not found" in message
    assert "pir.load(path, params=False)" in message
    assert e.value.file == str(tmp_path / "m.pdiparams")
    assert str(loaded.program) == text
    # Read without parameters on purpose: the passes run.
    alone = pir.load(tmp_path / "m.json", params=False)
    assert [r["pass"] for r in alone.opt("cse,dce")] == ["cse", "dce"]
    # Parameters assigned since loading count.
    loaded.params.update(pir.load(m.json).params)
    loaded.opt("dce")


def test_opt_applies_a_rule_file(tmp_path):
    rules = tmp_path / "relu.drr"
    rules.write_text(
        "rule relu_relu {\n"
        "    %a = pd_op.relu(%x)\n"
        "    %out = pd_op.relu(%a)\n"
        "    =>\n"
        "    %out = %a\n"
        "}\n"
    )
    program = pir.parse(
        "{\n"
        '    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),'
        "shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>\n"
        '    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>\n'
        '    (%2) = "pd_op.relu" (%1) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>\n'
        '    (%3) = "pd_op.fetch" (%2) {col:0,name:"out",persistable:[true],'
        "stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>\n"
        "}\n"
    )
    m = pir.Model(program)
    records = m.opt("dce", rules=rules)
    assert [r["pass"] for r in records] == ["drr", "dce"]
    assert len(program.walk("pd_op.relu")) == 1
    with pytest.raises(ValueError, match="pipeline"):
        m.opt()


# ------------------------------------------------------------ signatures

STUB = Path(pir.__file__).parent / "_pir.pyi"


def _stub_params(fn):
    """`(name, kind, default)` of a stub function's parameters, `self` dropped."""
    args = fn.args
    out = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for a, d in zip(positional, defaults):
        out.append((a.arg, "positional", d))
    if args.vararg:
        out.append((args.vararg.arg, "*", None))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append((a.arg, "keyword", d))
    if args.kwarg:
        out.append((args.kwarg.arg, "**", None))
    if out and out[0][0] in ("self", "cls"):
        out = out[1:]
    return out


def _runtime_params(obj):
    kinds = {
        inspect.Parameter.POSITIONAL_ONLY: "positional",
        inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional",
        inspect.Parameter.KEYWORD_ONLY: "keyword",
        inspect.Parameter.VAR_POSITIONAL: "*",
        inspect.Parameter.VAR_KEYWORD: "**",
    }
    params = list(inspect.signature(obj).parameters.values())
    if params and params[0].name == "self":
        params = params[1:]
    return [(p.name, kinds[p.kind], p.default) for p in params]


def _check(label, runtime, stub_fn):
    got = _runtime_params(runtime)
    want = _stub_params(stub_fn)
    assert [(n, k) for n, k, _ in got] == [(n, k) for n, k, _ in want], label
    for (name, _, default), (_, _, stub_default) in zip(got, want):
        if stub_default is None:
            assert default is inspect.Parameter.empty, f"{label}: {name} has a default"
        else:
            assert default == ast.literal_eval(stub_default), f"{label}: default of {name}"


def _is_property(fn):
    return any(getattr(d, "id", None) == "property" for d in fn.decorator_list)


OPS_STUB = Path(pir.__file__).parent / "ops.pyi"


def test_every_signature_agrees_with_the_stubs():
    stub = ast.parse(STUB.read_text())
    functions = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in stub.body if isinstance(n, ast.ClassDef)}
    # `pir.InsertionPoint` is `pir.ops.InsertionPoint`, described with `pir.ops`.
    ops_stub = ast.parse(OPS_STUB.read_text())
    classes.update((n.name, n) for n in ops_stub.body if isinstance(n, ast.ClassDef))
    checked = 0
    for name in pir.__all__:
        obj = getattr(pir, name)
        if isinstance(obj, type) and issubclass(obj, BaseException):
            assert name in classes, name
            continue
        if isinstance(obj, type):
            node = classes[name]
            methods = {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
            attributes = {f.target.id for f in node.body if isinstance(f, ast.AnnAssign)}
            if "__init__" in methods:
                _check(f"{name}()", obj, methods["__init__"])
                checked += 1
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                stub_fn = methods.get(attr)
                if inspect.isdatadescriptor(value):
                    assert attr in attributes or (stub_fn and _is_property(stub_fn)), \
                        f"{name}.{attr} is a property the stub lacks"
                    continue
                assert stub_fn is not None and not _is_property(stub_fn), \
                    f"{name}.{attr} is a method the stub lacks"
                if isinstance(value, (classmethod, staticmethod)):
                    value = getattr(obj, attr)  # bound: `cls` dropped
                _check(f"{name}.{attr}", value, stub_fn)
                checked += 1
            for attr in methods:
                if not attr.startswith("_"):
                    assert attr in vars(obj), f"the stub's {name}.{attr} does not exist"
        elif callable(obj):
            assert name in functions, f"{name} is missing from the stub"
            _check(name, obj, functions[name])
            checked += 1
    for name in functions:
        assert name in pir.__all__, f"the stub's {name} is not exported"
    assert checked > 40


def test_the_ops_helpers_agree_with_their_stub():
    stub = ast.parse(OPS_STUB.read_text())
    functions = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    for name in ("names", "parameter"):
        _check(f"pir.ops.{name}", getattr(pir.ops, name), functions[name])
    assert "__getattr__" in functions


def test_no_signature_shows_an_ellipsis():
    for name in pir.__all__:
        obj = getattr(pir, name)
        if callable(obj) and not isinstance(obj, type):
            assert "Ellipsis" not in str(inspect.signature(obj)), name
