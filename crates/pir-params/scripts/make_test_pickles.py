#!/usr/bin/env python3
"""Writes the pickle fixtures of crates/pir-params/tests/data/.

Usage: python3 crates/pir-params/scripts/make_test_pickles.py [OUT_DIR]

Two kinds of files:

* ``evil_*.pkl`` — malicious or malformed pickles that the allow-listed reader
  must reject (each built with the standard ``pickle`` module or by hand, never
  loaded here). Needs only the standard library.
* ``paddle_*.pdparams`` — real ``paddle.save`` outputs (protocol 2 and 4,
  ``StructuredToParameterName@@``, nested tensors as ``builtins.tuple``, bf16 as
  uint16) plus a hand-made ``UnpackBigParamInfor@@`` dict. Written only when
  ``paddle`` and ``numpy`` are importable (``pip install paddlepaddle==3.3.1``).

The fixtures are committed; re-running this script is only needed to change them.
"""

import io
import os
import pickle
import struct
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data")


class Reduce:
    """An object whose pickle calls ``func(*args)`` on load."""

    def __init__(self, func, args):
        self.func, self.args = func, args

    def __reduce__(self):
        return (self.func, self.args)


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")


def sg(module, name):
    """Protocol-4 STACK_GLOBAL of module.name."""
    m, n = module.encode(), name.encode()
    return b"\x8c" + bytes([len(m)]) + m + b"\x8c" + bytes([len(n)]) + n + b"\x93"


def evil():
    import subprocess

    write("evil_os_system_p2.pkl", b"\x80\x02cos\nsystem\nq\x00X\x04\x00\x00\x00trueq\x01\x85q\x02Rq\x03.")
    write("evil_posix_system_p4.pkl", pickle.dumps(Reduce(os.system, ("true",)), protocol=4))
    write("evil_eval_p4.pkl", pickle.dumps(Reduce(eval, ("1+1",)), protocol=4))
    write("evil_popen_p4.pkl", pickle.dumps(Reduce(subprocess.Popen, (["true"],)), protocol=4))
    # Paddle's DenseTensor encoding: eval('data', {'data': ...})
    write("evil_eval_dict_p4.pkl", pickle.dumps(Reduce(eval, ("data", {"data": 1})), protocol=4))
    # getattr(__import__('os'), 'system')('true') via nested REDUCE
    nested = (
        b"\x80\x04" + sg("builtins", "getattr") + sg("builtins", "__import__")
        + b"\x8c\x02os\x85R\x8c\x06system\x86R\x8c\x04true\x85R."
    )
    write("evil_nested_reduce.pkl", nested)
    # an allowed callable's result used as a callable: tuple(())(...)
    write("evil_reduce_on_result.pkl", b"\x80\x04" + sg("builtins", "tuple") + b"))\x85R)R.")
    write("evil_inst.pkl", b"\x80\x02(ios\nsystem\n.")
    write("evil_obj.pkl", b"\x80\x02(" + b"cnumpy\nndarray\n" + b"o.")
    write("evil_newobj.pkl", b"\x80\x04" + sg("numpy", "ndarray") + b")\x81.")
    write("evil_numpy_lookalike.pkl", b"\x80\x04" + sg("numpy.ctypeslib", "load_library") + b"\x8c\x01x\x8c\x01y\x86R.")
    write("evil_numpy_testing.pkl", b"\x80\x04" + sg("numpy.testing._private.utils", "runstring") + b"\x8c\x01x\x85R.")
    # memo bomb: a = []; a = [a, a] 64 times -> 2^64 nodes when expanded
    bomb = bytearray(b"\x80\x04]\x94")
    for i in range(64):
        bomb += b"h" + bytes([i]) + b"h" + bytes([i]) + b"\x86\x94"
    bomb += b"."
    write("evil_memo_bomb.pkl", bytes(bomb))
    # a 1 TB array: shape (2**40,) of uint8 with 3 bytes of data
    tb = (
        b"\x80\x04" + sg("numpy._core.multiarray", "_reconstruct") + sg("numpy", "ndarray")
        + b"K\x00\x85C\x01b\x87R(K\x01\x8a\x06\x00\x00\x00\x00\x00\x01\x85"
        + sg("numpy", "dtype") + b"\x8c\x02u1\x89\x88\x87R(K\x03\x8c\x01|NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb"
        + b"\x89C\x03abctb."
    )
    write("evil_1tb_array.pkl", tb)
    write("evil_protocol5.pkl", pickle.dumps({"a": b"x"}, protocol=5))
    write("evil_object_dtype.pkl", b"\x80\x04" + sg("numpy", "dtype") + b"\x8c\x02O8\x89\x88\x87R.")


def paddle_files():
    try:
        import numpy as np
        import paddle
    except ImportError:
        print("paddle/numpy not importable: skipping paddle_* fixtures")
        return
    paddle.seed(1)
    lin = paddle.nn.Linear(2, 3)
    for proto in (2, 4):
        path = os.path.join(OUT, f"paddle_linear_p{proto}.pdparams")
        paddle.save(lin.state_dict(), path, protocol=proto)
        print(path)
    t = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    bf = paddle.to_tensor(np.array([1.0, -2.0, 0.5], dtype="float32")).astype("bfloat16")
    paddle.save({"list": [t, 3], "bf16": bf, "n": 7}, os.path.join(OUT, "paddle_nested_p4.pdparams"), protocol=4)
    paddle.save({"bf16": bf}, os.path.join(OUT, "paddle_bf16_p4.pdparams"), protocol=4)
    # the layout paddle.static.save uses for > 2^30-byte arrays under protocol 2/3
    w = np.arange(6, dtype="float32")
    big = {
        "b": np.ones(3, dtype="int64"),
        "w@@.0": w[:4],
        "w@@.1": w[4:],
        "UnpackBigParamInfor@@": {"w": {"OriginShape": (2, 3), "slices": ["w@@.0", "w@@.1"]}},
    }
    write("paddle_unpack_big_p2.pdparams", pickle.dumps(big, protocol=2))
    print(open(os.path.join(OUT, "paddle_linear_p4.pdparams"), "rb").read()[:2])


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    evil()
    paddle_files()
