"""Hostile inputs raise exceptions: a small file that asks for gigabytes or
for unbounded work is a ``pir.PirError``, never an abort of the interpreter,
and an internal panic is a ``pir.InternalError``, never pyo3's
``PanicException`` (a ``BaseException`` that ``except Exception`` misses).

The cases that would exhaust memory or run without end if a bound were
missing run in a child interpreter whose address space is limited, with a
timeout: a missing bound fails that test, not the whole suite."""

import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pir

MIB = 1 << 20
UNPACK = "UnpackBigParamInfor@@"


def run_isolated(code, timeout=300):
    """Runs `code` in a child interpreter limited to 4 GiB of address space;
    its output, or a description of how it died."""
    prelude = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", prelude + textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout} s"
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr[-2000:]}"
    return done.stdout


# ------------------------------------------------------------ the boundary


def test_a_panic_is_an_internal_error():
    with pytest.raises(pir.InternalError, match="a deliberate panic") as info:
        pir._pir._check_panic_boundary()
    assert isinstance(info.value, pir.PirError)
    assert isinstance(info.value, Exception)
    assert "this is a bug in pir" in str(info.value)
    assert info.value.file is None


# ------------------------------------------------------------ pickles


def _write(tmp_path, name, obj, protocol=4):
    path = tmp_path / name
    path.write_bytes(pickle.dumps(obj, protocol=protocol))
    return path


@pytest.mark.parametrize("protocol", [2, 4])
def test_one_slice_named_four_thousand_times(tmp_path, protocol):
    # the list holds one string object 4,000 times: a memo reference each
    state = {
        "w@@.0": np.zeros(MIB, np.uint8),
        UNPACK: {"w": {"OriginShape": (4000 * MIB,), "slices": ["w@@.0"] * 4000}},
    }
    path = _write(tmp_path, "sliced.pdparams", state, protocol)
    assert path.stat().st_size < 2 * MIB + 100_000
    with pytest.raises(pir.ParamsError, match="slice `w@@.0` is listed more than once"):
        pir.load_state_dict(path)


def test_four_thousand_slices_of_one_array(tmp_path):
    a = np.zeros(MIB, np.uint8)  # one object: pickled once, then referenced
    state = {f"w@@.{i}": a for i in range(4000)}
    state[UNPACK] = {
        "w": {"OriginShape": (4000 * MIB,), "slices": [f"w@@.{i}" for i in range(4000)]}
    }
    path = _write(tmp_path, "shared.pdparams", state)
    assert path.stat().st_size < 2 * MIB
    with pytest.raises(pir.ParamsError, match="reassembling an array from its slices") as info:
        pir.load_state_dict(path)
    assert info.value.file == str(path)


def test_a_list_of_references_to_one_buffer(tmp_path):
    path = _write(tmp_path, "refs.pdparams", {"x": [bytes(MIB)] * 4000})
    with pytest.raises(pir.ParamsError, match="copying the entry's strings and bytes"):
        pir.load_state_dict(path)


def test_the_hostile_pickles_fail_in_a_bounded_child(tmp_path):
    # the same files through `pir.load`'s parameter binding, in a child
    # limited to 4 GiB: before the copy budget, each needed 4 GB
    a = np.zeros(MIB, np.uint8)
    state = {f"w@@.{i}": a for i in range(4000)}
    state[UNPACK] = {
        "w": {"OriginShape": (4000 * MIB,), "slices": [f"w@@.{i}" for i in range(4000)]}
    }
    params = _write(tmp_path, "m.pdparams", state)
    model = tmp_path / "m.txt"
    model.write_text(
        "{\n"
        '    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],'
        'need_clip:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],'
        "trainable:[true]} : () -> tensor<4194304000xu8>\n"
        "}\n"
    )
    out = run_isolated(
        f"""
        import pir
        try:
            pir.load({str(model)!r}, params={str(params)!r})
        except pir.PirError as e:
            print(type(e).__name__, e)
        """
    )
    assert out.startswith("ParamsError"), out
    assert "reassembling an array from its slices" in out, out


def test_an_honest_split_pickle_loads(tmp_path):
    parts = [np.arange(6, dtype=np.float32), np.arange(6, 12, dtype=np.float32)]
    state = {
        "w@@.0": parts[0],
        "w@@.1": parts[1],
        "b": np.ones(3, np.float32),
        UNPACK: {"w": {"OriginShape": (3, 4), "slices": ["w@@.0", "w@@.1"]}},
    }
    loaded = pir.load_state_dict(_write(tmp_path, "split.pdparams", state, 2))
    assert sorted(loaded) == ["b", "w"]
    np.testing.assert_array_equal(loaded["w"], np.arange(12, dtype=np.float32).reshape(3, 4))


# ------------------------------------------------------------ passes and legacy models

# A rule whose result matches it again: each application adds a relu.
GROWING_RULE = """\
rule grow {
    %y = pd_op.relu(%x)
    =>
    %t = pd_op.relu(%x)
    %y = pd_op.relu(%t)
}
"""

RELU_PROGRAM = (
    "{\n"
    '    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),'
    "shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>\n"
    '    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>\n'
    '    (%2) = "pd_op.fetch" (%1) {col:0,name:"out",persistable:[true],'
    "stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>\n"
    "}\n"
)


def test_a_growing_rule_is_a_pass_error(tmp_path):
    rules = tmp_path / "grow.drr"
    rules.write_text(GROWING_RULE)
    out = run_isolated(
        f"""
        import pir
        m = pir.Model(pir.parse({RELU_PROGRAM!r}))
        try:
            m.opt("dce", rules={str(rules)!r})
            print("no error, relus:", len(m.program.walk("pd_op.relu")))
        except pir.PirError as e:
            print(type(e).__name__, e)
            print("relus after:", len(m.program.walk("pd_op.relu")))
        """
    )
    assert out.startswith("PassError"), out
    # the program is left as it was
    assert out.rstrip().endswith("relus after: 1"), out


def _varint(n):
    n &= (1 << 64) - 1  # negative int32 fields are sign-extended to 64 bits
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(tag, value):
    """A protobuf field: an int as a varint, bytes/str length-delimited."""
    if isinstance(value, int):
        return _varint(tag << 3) + _varint(value)
    if isinstance(value, str):
        value = value.encode()
    return _varint(tag << 3 | 2) + _varint(len(value)) + value


def _doubling_pdmodel(depth):
    """A ProgramDesc whose block i runs block i + 1 twice (two
    `conditional_block` ops): 2^depth translations of the last block."""

    def var(name, args):  # OpDesc.Var
        return _field(1, name) + b"".join(_field(2, a) for a in args)

    def cond_block(sub):
        attr = _field(1, "sub_block") + _field(2, 8) + _field(12, sub)  # BLOCK
        return (
            _field(1, var("Cond", ["c"]))
            + _field(1, var("Input", []))
            + _field(2, var("Out", []))
            + _field(2, var("Scope", []))
            + _field(3, "conditional_block")
            + _field(4, attr)
        )

    def block(idx, parent, vars_, ops):
        return (
            _field(1, idx)
            + _field(2, parent)
            + b"".join(_field(3, v) for v in vars_)
            + b"".join(_field(4, o) for o in ops)
        )

    # VarDesc c: DENSE_TENSOR (7) of bool (0), dims [1]
    tensor_desc = _field(1, 0) + _field(2, 1)
    var_type = _field(1, 7) + _field(3, _field(1, tensor_desc))
    c = _field(1, "c") + _field(2, var_type) + _field(3, 0)
    blocks = [block(0, -1, [c], [cond_block(1), cond_block(1)])]
    for i in range(1, depth):
        blocks.append(block(i, i - 1, [], [cond_block(i + 1), cond_block(i + 1)]))
    blocks.append(block(depth, depth - 1, [], []))
    return b"".join(_field(1, b) for b in blocks)


def test_a_fan_out_pdmodel_is_a_legacy_error(tmp_path):
    path = tmp_path / "fan_out.pdmodel"
    path.write_bytes(_doubling_pdmodel(40))
    assert path.stat().st_size < 10_000
    out = run_isolated(
        f"""
        import pir
        try:
            pir.load({str(path)!r}, params=False)
            print("no error")
        except pir.PirError as e:
            print(type(e).__name__, e)
        """
    )
    assert out.startswith("LegacyError"), out
