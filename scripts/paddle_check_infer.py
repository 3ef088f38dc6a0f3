#!/usr/bin/env python3
"""Result-type inference (`pir-infer`), judged by Paddle 3.3.1's InferMeta.

For every pd_op op of `crates/pir-dialects/data/pd_op_definitions.json` that
names an InferMeta function (`runtime.infer_meta_func`) and that
`paddle._pir_ops` exposes, this builds small static programs with Paddle
(`paddle.enable_static()`, one `paddle.static.Program` per case, operands
from `paddle.static.data`) and keeps Paddle's print of each program it
accepts. Paddle runs the op's InferMeta function while building it, so the
printed result types are Paddle's answer; `crates/pir-infer/tests/
paddle_vectors.rs` re-infers every op of those programs and compares.

Cases are sampled, seeded and deterministic (each op's generator is seeded
from `--seed` and the op's name, so one op's cases do not depend on the
others):
  - operand shapes of rank 0 to 4, with and without dynamic (-1) dims,
    equal across operands, broadcastable, or each its own (per-channel
    operands such as `scale` sometimes `[C]`); float32 and, where an op
    takes them, float16, float64, int32, int64 and bool;
  - attributes at the definition's defaults or sampled by kind and name
    (bools both ways, axes in [-rank, rank), int arrays, floats, dtypes,
    strings an op is known to take);
  - mutable attributes given as Python values (Paddle then builds
    `full_int_array` / `full` ops, whose values inference reads) or as
    `paddle.static.data` tensors (values unknown);
  - optional inputs present and absent, vector inputs as 1 to 3 tensors.
A case Paddle refuses (raises) is dropped and counted as a refusal; so is
one whose print holds a dim no tensor has (memory Paddle's function read
past the dims of an operand with fewer dims than it expects). At most
`--cases` cases are kept per op; if the file would pass `--max-bytes`, ops
keep their first cases first (round robin) so every op stays covered.

Paddle runs in one worker process. When it dies (a crash inside Paddle's
C++, which some ops have on odd operands) or hangs, the parent starts a new
worker at the attempt after the one that crashed (at the next op after three
crashes in one op), so one op cannot stop the run. Each op has a time limit
(`--op-seconds`) and at most `--attempts` calls.

Writes `crates/pir-infer/tests/vectors/paddle-3.3.1.txt`: a header of `# `
lines (Paddle version, date, seed, counts), then each case as a line
`=== <op> #<n> | <what the case gives>` followed by Paddle's print of the
program. Prints a summary (ops tried, ops with at least one case, cases,
refusals, crashes; with `--refusals`, each op without a case and Paddle's
first refusal of it); with `--compare` it then runs the Rust test
(`cargo test -p pir-infer --test paddle_vectors`) over the written file and
prints its report (mismatches per op).

Run by hand, never in CI (CI runs only the Rust test over the file in the
repository). Needs Paddle 3.3.1 (CPU) in the Python that runs it:

    /work/venv-paddle/bin/python scripts/paddle_check_infer.py [--compare]
        [--refusals] [--seed 7] [--cases 8] [--attempts 100]
        [--max-bytes 3000000] [--ops add,sum] [--out PATH]

A run takes about two minutes on two cores.
"""

import argparse
import datetime
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFS = os.path.join(ROOT, "crates", "pir-dialects", "data", "pd_op_definitions.json")
OUT = os.path.join(ROOT, "crates", "pir-infer", "tests", "vectors", "paddle-3.3.1.txt")

# Worker lines carry this prefix: Paddle may print to stdout too.
MARK = "@@paddle_check_infer "

# A dim of a printed tensor type (`tensor<2x-1x3xf32>`).
DIM = re.compile(r"(?<=[<x])(-?\d+)(?=x)")

DENSE = "paddle::dialect::DenseTensorType"
VECTOR_DENSE = "pir::VectorType<paddle::dialect::DenseTensorType>"

# Tensor dtypes a case may use; float32 is the usual one.
FLOAT_DTYPES = ["float32", "float16", "float64"]
OTHER_DTYPES = ["int32", "int64", "bool"]
ATTR_DTYPES = ["float32", "float64", "float16", "int32", "int64", "bool"]

# Inputs that hold one value per channel (`[C]`, C the first operand's dim 1).
PER_CHANNEL = {"scale", "bias", "mean", "variance", "running_mean", "running_var", "mean_out", "variance_out"}

# Strings some attributes take, by attribute name: a sampled value is one
# of these (besides the default), so that cases stay ones Paddle accepts.
STRING_CHOICES = {
    "data_format": ["NCHW", "NHWC"],
    "data_layout": ["NCHW", "NHWC"],
    "padding_algorithm": ["EXPLICIT", "SAME", "VALID"],
    "pooling_type": ["max", "avg"],
    "reduction": ["none", "mean", "sum"],
    "mode": None,  # too op-specific: keep the default
}


# ----------------------------------------------------------------- sampling


def op_inputs(op):
    """(tensor inputs, mutable-attribute inputs) of a definition."""
    tensors = [i for i in op["inputs"] if not i["mutable_attribute"]]
    mutable = {i["name"]: i for i in op["inputs"] if i["mutable_attribute"]}
    return tensors, mutable


def arg_order(op):
    """Argument names in the Python API's order.

    `paddle._pir_ops.<op>` takes the op's inputs, then its attributes
    (mutable ones included) in the yaml's order (Paddle's
    `op_generator/python_c_gen.py`). The definitions' `build_args` is the
    C++ `Build` order, which is that same order; without it, the inputs and
    then the attributes, the mutable ones first as their input order says.
    """
    tensors, mutable = op_inputs(op)
    names = [i["name"] for i in tensors]
    build = op.get("build_args")
    if build and build[: len(names)] == names:
        return build
    return names + list(mutable) + [a["name"] for a in op["attributes"]]


def supported(op):
    """Whether every input of the op is something `paddle.static.data` makes."""
    tensors, _ = op_inputs(op)
    return all(i["type"] in (DENSE, VECTOR_DENSE) for i in tensors)


def is_axis_name(name):
    return name in ("axis", "axes", "dim", "dims", "reduce_dim", "reduce_axis") or name.endswith("_axis")


def tensor_dtype(name, base, rng):
    """The dtype of an input: index-like inputs take integers, masks bools."""
    n = name.lower()
    if any(k in n for k in ("index", "indices", "ids", "label", "lengths", "seq_len")):
        return rng.choice(["int64", "int64", "int32"])
    if n in ("mask", "condition", "cond"):
        return "bool"
    return base


def sample_shape(rng, rank, dynamic):
    dims = [rng.choice([2, 3, 4, 5, 6]) for _ in range(rank)]
    if dynamic and rank > 0:
        for _ in range(rng.randint(1, rank)):
            dims[rng.randrange(rank)] = -1
    return dims


def broadcast_of(rng, shape):
    """A shape that broadcasts with `shape`: leading dims dropped, some 1."""
    out = list(shape[rng.randint(0, len(shape)) :]) if shape else []
    for i in range(len(out)):
        if rng.random() < 0.3:
            out[i] = 1
    return out


def sample_axis(rng, rank):
    r = max(rank, 1)
    return rng.randrange(-r, r)


def sample_axes(rng, rank):
    r = max(rank, 1)
    k = rng.randint(1, min(2, r))
    picked = sorted(rng.sample(range(r), k))
    # Negative axes some of the time: inference must normalise them.
    return [a - r if rng.random() < 0.3 else a for a in picked]


def sample_int_array(rng, name, default, rank, shape):
    """A value for an int-array attribute, chosen by its name."""
    n = name.lower()
    if is_axis_name(n):
        return sample_axes(rng, rank)
    if n in ("perm", "axis_perm"):
        perm = list(range(rank))
        rng.shuffle(perm)
        return perm
    if n in ("shape", "target_shape", "out_shape"):
        known = [d for d in shape if d > 0]
        total = 1
        for d in known:
            total *= d
        choices = [[-1], [total, -1] if total > 1 else [-1, 1], [0, -1] if shape else [-1]]
        if -1 not in shape:
            choices.append([total])
        return rng.choice(choices)
    length = len(default) if isinstance(default, list) and default else 2
    if any(k in n for k in ("kernel", "ksize", "size", "window")):
        return [rng.randint(1, 3) for _ in range(length)]
    if "stride" in n or "dilation" in n:
        return [rng.randint(1, 2) for _ in range(length)]
    if "padding" in n:
        return [rng.randint(0, 1) for _ in range(length)]
    if n == "infer_flags":
        return [1] * len(default) if isinstance(default, list) and default else [1]
    if n == "decrease_axis":
        return []
    if n in ("starts", "start"):
        return [rng.randint(0, 1) for _ in range(rng.randint(1, 2))]
    if n in ("ends", "end"):
        return [rng.randint(2, 4) for _ in range(rng.randint(1, 2))]
    if n in ("repeat_times", "expand_times"):
        return [rng.randint(1, 3) for _ in range(max(rank, 1))]
    if isinstance(default, list):
        return default
    return [rng.randint(1, 3) for _ in range(length)]


def dtype_value(paddle, text):
    """A `DataTypeAttribute` value from its definition text."""
    from paddle.base import core

    if text is None or str(text).startswith("Undefined"):
        return core.DataType.UNDEFINED
    return getattr(paddle, str(text))


def place_value(paddle, default):
    """A `PlaceAttribute` value: `[kind, device, ""]` (0 undefined, 1 CPU)."""
    from paddle.base import core

    if isinstance(default, list) and default and default[0] == 0:
        return core.Place()
    return paddle.CPUPlace()


class Case:
    """One sampled call: Python arguments plus a one-line description."""

    def __init__(self):
        self.args = []
        self.words = []

    def describe(self):
        return "; ".join(self.words)


def tensor_text(dtype, shape):
    return "%s[%s]" % (dtype, ",".join(str(d) for d in shape))


def sample_case(paddle, op, rng, attempt):
    """Builds the arguments of one call inside the current program guard.

    The first attempts keep every attribute at its default on plain static
    shapes (the likeliest to be accepted); later ones vary everything.
    """
    tensors, mutable = op_inputs(op)
    attrs = {a["name"]: a for a in op["attributes"]}
    plain = attempt < 2
    rank = [4, 2][attempt] if plain else rng.choice([0, 1, 2, 2, 3, 3, 4, 4])
    dynamic = (not plain) and rng.random() < 0.35
    base_shape = sample_shape(rng, rank, dynamic)
    if plain or rng.random() < 0.6:
        base_dtype = "float32"
    else:
        base_dtype = rng.choice(FLOAT_DTYPES[1:] + OTHER_DTYPES)
    # How the operands after the first relate to it: the same shape,
    # broadcastable ones, or shapes of their own (ops whose operands differ
    # in rank: filters, indices, matrices).
    mode = "equal" if plain else rng.choice(["equal"] * 9 + ["broadcast"] * 5 + ["mixed"] * 4)
    # Per-channel operands (batch norm's scale, mean, ...) as `[C]` some of the time.
    per_channel = (not plain) and rng.random() < 0.5
    case = Case()
    values = {}
    first_tensor = True

    def shape_of(name, later):
        if per_channel and name in PER_CHANNEL and base_shape:
            return [base_shape[1] if len(base_shape) > 1 else base_shape[0]]
        if not later or mode == "equal":
            return base_shape
        if mode == "broadcast":
            return broadcast_of(rng, base_shape)
        return sample_shape(rng, rng.choice([0, 1, 2, 3, 4]), dynamic)

    for inp in tensors:
        name = inp["name"]
        if inp["optional"] and not plain and rng.random() < 0.4:
            values[name] = None
            case.words.append("%s=None" % name)
            continue
        dtype = tensor_dtype(name, base_dtype, rng)
        if inp["type"] == VECTOR_DENSE:
            count = rng.randint(1, 3) if not plain else 2
            items = []
            for k in range(count):
                shape = shape_of(name, k > 0)
                items.append(paddle.static.data("%s_%d" % (name, k), shape, dtype))
                case.words.append("%s[%d]:%s" % (name, k, tensor_text(dtype, shape)))
            values[name] = items
        else:
            shape = shape_of(name, not first_tensor)
            values[name] = paddle.static.data(name, shape, dtype)
            case.words.append("%s:%s" % (name, tensor_text(dtype, shape)))
        first_tensor = False
    mutable_defs = {m["name"]: m for m in op["mutable_attributes"]}
    for name in arg_order(op):
        if name in values:
            case.args.append(values[name])
            continue
        if name in mutable:
            value, word = sample_mutable(paddle, name, mutable[name], mutable_defs.get(name, {}), rng, plain, rank, base_shape)
        elif name in attrs:
            value, word = sample_attr(paddle, attrs[name], rng, plain, rank, base_shape, base_dtype)
        else:
            raise ValueError("argument %s is neither input nor attribute" % name)
        case.args.append(value)
        case.words.append(word)
    return case


def sample_mutable(paddle, name, inp, info, rng, plain, rank, shape):
    """A mutable attribute: a Python value, or a tensor of unknown value."""
    is_array = inp["type"] == "paddle::dialect::IntArrayAttribute"
    default = info.get("default")
    if is_array:
        if plain and default is not None:
            value = default
        else:
            value = sample_int_array(rng, name, default, rank, shape)
        if not plain and rng.random() < 0.25:
            dtype = rng.choice(["int64", "int32"])
            t = paddle.static.data(name, [len(value)], dtype)
            return t, "%s:%s (tensor)" % (name, tensor_text(dtype, [len(value)]))
        return value, "%s=%s" % (name, value)
    cpp = info.get("cpp_type") or "float"
    if plain and default is not None:
        value = default
    elif is_axis_name(name.lower()):
        value = sample_axis(rng, rank)
    elif cpp in ("int", "int64_t"):
        value = rng.choice([default if default is not None else 1, 1, 2, 0, -1])
    elif cpp == "bool":
        value = rng.random() < 0.5
    else:
        value = rng.choice([default if default is not None else 1.0, 0.5, 1.0, 2.0])
    if cpp in ("int", "int64_t"):
        value = int(value)
    elif cpp in ("float", "double"):
        value = float(value)
    if not plain and rng.random() < 0.25:
        dtype = {"int": "int32", "int64_t": "int64", "bool": "bool"}.get(cpp, "float32")
        tshape = rng.choice([[], [1]])
        t = paddle.static.data(name, tshape, dtype)
        return t, "%s:%s (tensor)" % (name, tensor_text(dtype, tshape))
    return value, "%s=%r" % (name, value)


def sample_attr(paddle, attr, rng, plain, rank, shape, base_dtype):
    """An attribute value: its default, or one sampled by kind and name."""
    name, kind = attr["name"], attr["type"]
    has_default = "default" in attr
    default = attr.get("default")
    keep = has_default and (plain or rng.random() < 0.4)
    n = name.lower()
    if kind == "pir::BoolAttribute":
        value = default if keep else rng.random() < 0.5
    elif kind in ("pir::Int32Attribute", "pir::Int64Attribute"):
        if keep:
            value = default
        elif is_axis_name(n):
            value = sample_axis(rng, rank)
        elif has_default:
            value = rng.choice([default, default, 1, 2, 0, -1])
        else:
            value = rng.choice([1, 1, 2, 0])
    elif kind in ("pir::FloatAttribute", "pir::DoubleAttribute"):
        value = default if keep else rng.choice([default if has_default else 1.0, 0.5, 1.0, 2.0])
    elif kind == "pir::StrAttribute":
        choices = STRING_CHOICES.get(name)
        if keep or not choices:
            value = default if has_default else ""
        else:
            value = rng.choice(choices)
            # Keep a 3-d layout for ops that take one.
            if isinstance(default, str) and "D" in default and value in ("NCHW", "NHWC"):
                value = value[:2] + "D" + value[2:]
    elif kind == "paddle::dialect::DataTypeAttribute":
        text = default if keep else rng.choice(ATTR_DTYPES + [base_dtype])
        value = dtype_value(paddle, text)
        return value, "%s=%s" % (name, text if text is not None else "undefined")
    elif kind == "paddle::dialect::PlaceAttribute":
        value = place_value(paddle, default)
        return value, "%s=%s" % (name, "undefined" if default and default[0] == 0 else "cpu")
    elif kind in (
        "pir::ArrayAttribute<pir::Int32Attribute>",
        "pir::ArrayAttribute<pir::Int64Attribute>",
        "paddle::dialect::IntArrayAttribute",
    ):
        value = default if keep else sample_int_array(rng, name, default, rank, shape)
    elif kind in ("pir::ArrayAttribute<pir::FloatAttribute>", "pir::ArrayAttribute<pir::DoubleAttribute>"):
        value = default if keep else rng.choice([[], [1.0], [0.5, 2.0]])
    elif kind == "pir::ArrayAttribute<pir::StrAttribute>":
        value = default if has_default else []
    elif kind == "pir::ArrayAttribute<paddle::dialect::ScalarAttribute>":
        value = [1.0]
    elif kind == "paddle::dialect::ScalarAttribute":
        value = default if keep else rng.choice([0.5, 1.0, 2.0])
        if attr.get("cpp_type") in ("int", "int64_t"):
            value = int(value)
    else:
        raise ValueError("attribute %s: kind %s is not sampled" % (name, kind))
    return value, "%s=%r" % (name, value)


# ------------------------------------------------------------------- worker


class OpTimeout(Exception):
    pass


def on_alarm(signum, frame):
    raise OpTimeout()


def emit(msg):
    sys.stdout.write(MARK + json.dumps(msg) + "\n")
    sys.stdout.flush()


def run_op(paddle, op, index, args, resume, have):
    """Samples and builds one op's cases, reporting each as it goes.

    Every attempt is announced before Paddle builds it, so that when Paddle
    crashes the parent knows where, and a new worker can go on from the
    next attempt (`resume`): the earlier attempts are sampled again without
    being built, so the generator is where it was.
    """
    fn = getattr(paddle._pir_ops, op["yaml_op_name"])
    rng = random.Random(args.seed * 1000003 + zlib.crc32(op["name"].encode()))
    done = {"done": index, "refusals": 0, "first_refusal": None, "other_op": 0, "garbage": 0}
    seen = set()
    signal.setitimer(signal.ITIMER_REAL, args.op_seconds)
    try:
        for attempt in range(args.attempts):
            if have >= args.cases:
                break
            main = paddle.static.Program()
            if attempt < resume:
                with paddle.static.program_guard(main, paddle.static.Program()):
                    sample_case(paddle, op, rng, attempt)
                continue
            emit({"attempt": attempt})
            try:
                with paddle.static.program_guard(main, paddle.static.Program()):
                    case = sample_case(paddle, op, rng, attempt)
                    fn(*case.args)
                text = str(main).strip()
            except OpTimeout:
                raise
            except Exception as e:  # Paddle raises many kinds; any is a refusal.
                done["refusals"] += 1
                if done["first_refusal"] is None:
                    lines = str(e).strip().splitlines()
                    done["first_refusal"] = (type(e).__name__ + ": " + (lines[0] if lines else ""))[:300]
                continue
            # A yaml name can stand for several ops (a sparse kernel's op
            # shares its dense op's name); keep only programs with this one.
            if '"%s"' % op["name"] not in text:
                done["other_op"] += 1
                continue
            # A dim no tensor has is memory Paddle read past a tensor's dims
            # (an operand of fewer dims than the op expects): not a result.
            if any(abs(int(d)) > 2**31 for d in DIM.findall(text)):
                done["garbage"] += 1
                continue
            if text in seen:
                continue
            seen.add(text)
            have += 1
            emit({"case": {"what": case.describe(), "program": text}})
    except OpTimeout:
        done["timeout"] = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    emit(done)


def worker(args):
    """Builds the cases of ops `--start` onwards, reporting on stdout."""
    import warnings

    warnings.filterwarnings("ignore")
    import paddle

    paddle.enable_static()
    signal.signal(signal.SIGALRM, on_alarm)
    ops = select_ops(args, paddle)
    emit({"version": paddle.__version__, "ops": [op["name"] for op in ops]})
    resume, have = args.resume, args.have
    for index in range(args.start, len(ops)):
        emit({"start": index})
        run_op(paddle, ops[index], index, args, resume, have)
        resume, have = 0, 0


def select_ops(args, paddle=None):
    """The ops to try, in name order: InferMeta ops `paddle._pir_ops` has,
    whose inputs `paddle.static.data` can make."""
    with open(DEFS) as f:
        defs = json.load(f)["ops"]
    ops = []
    for name in sorted(defs):
        op = defs[name]
        if op.get("dialect") != "pd_op" or not (op.get("runtime") or {}).get("infer_meta_func"):
            continue
        if args.ops and name not in args.ops and op.get("yaml_op_name") not in args.ops:
            continue
        if paddle is not None and not hasattr(paddle._pir_ops, op.get("yaml_op_name") or ""):
            continue
        if not supported(op):
            continue
        ops.append(op)
    return ops


# ------------------------------------------------------------------- parent


def read_lines(stream, queue):
    for line in stream:
        queue.put(line)
    queue.put(None)


def collect(args):
    """Runs workers until every op is done; returns records by op index,
    the ops Paddle crashed on and Paddle's version."""
    import queue as queues
    import threading

    records = {}
    crashed = []
    header = {}
    start, resume = 0, 0
    # A worker silent for this long is stuck (the op time limit cannot
    # interrupt Paddle's C++; a crash handler can hang): it is killed.
    silence = args.op_seconds + 10
    while True:
        have = len(records[start]["cases"]) if start in records else 0
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--start", str(start),
               "--resume", str(resume), "--have", str(have)] + passthrough(args)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines = queues.Queue()
        threading.Thread(target=read_lines, args=(proc.stdout, lines), daemon=True).start()
        current, attempt = None, None
        while True:
            try:
                line = lines.get(timeout=silence)
            except queues.Empty:
                proc.kill()
                break
            if line is None:
                break
            if not line.startswith(MARK):
                continue
            msg = json.loads(line[len(MARK):])
            if "version" in msg:
                header = msg
            elif "start" in msg:
                current, attempt = msg["start"], None
                records.setdefault(current, {"op": header["ops"][current], "cases": [], "refusals": 0, "crashes": 0})
            elif "attempt" in msg:
                attempt = msg["attempt"]
            elif "case" in msg:
                cases = records[current]["cases"]
                # A worker resumed after a crash may build a case again.
                if all(c["program"] != msg["case"]["program"] for c in cases):
                    cases.append(msg["case"])
            elif "done" in msg:
                r = records[current]
                r["refusals"] += msg["refusals"]
                r["first_refusal"] = r.get("first_refusal") or msg["first_refusal"]
                r["timeout"] = msg.get("timeout", False)
                r["garbage"] = r.get("garbage", 0) + msg.get("garbage", 0)
                current = None
                if len(records) % 100 == 0:
                    print("  %d ops done (%s)" % (len(records), r["op"]), file=sys.stderr, flush=True)
        proc.wait()
        if current is None:
            break
        # The worker died (or hung) building attempt `attempt` of op
        # `current`: go on from the next attempt, or the next op after two
        # crashes in one op.
        r = records[current]
        r["crashes"] += 1
        if r["crashes"] == 1:
            crashed.append(r["op"])
        if attempt is not None and r["crashes"] < 3:
            start, resume = current, attempt + 1
        else:
            start, resume = current + 1, 0
    if not header:
        raise SystemExit("the Paddle worker printed nothing: is Paddle 3.3.1 installed in %s?" % sys.executable)
    return records, crashed, header["version"]


def passthrough(args):
    out = ["--seed", str(args.seed), "--cases", str(args.cases), "--attempts", str(args.attempts),
           "--op-seconds", str(args.op_seconds)]
    if args.ops:
        out += ["--ops", ",".join(sorted(args.ops))]
    return out


def trim(records, max_bytes):
    """Keeps every op's first case, then every op's second, ... within `max_bytes`."""
    kept = {i: 0 for i in records}
    size = 0
    depth = 0
    grew = True
    while grew:
        grew = False
        for i in sorted(records):
            cases = records[i]["cases"]
            if depth < len(cases):
                c = cases[depth]
                cost = len(c["program"]) + len(c["what"]) + len(records[i]["op"]) + 32
                if size + cost > max_bytes:
                    return kept, size
                size += cost
                kept[i] = depth + 1
                grew = True
        depth += 1
    return kept, size


def write_vectors(path, records, kept, args, version):
    ops_with = sum(1 for i in records if kept[i] > 0)
    cases = sum(kept.values())
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("# Result types of pd_op ops as Paddle %s's InferMeta gives them.\n" % version)
        f.write("# Written by scripts/paddle_check_infer.py; checked by tests/paddle_vectors.rs.\n")
        f.write("# paddle %s, date %s, seed %d, ops tried %d, ops with cases %d, cases %d\n" % (
            version, datetime.date.today().isoformat(), args.seed, len(records), ops_with, cases))
        for i in sorted(records):
            r = records[i]
            for n, c in enumerate(r["cases"][: kept[i]], 1):
                f.write("=== %s #%d | %s\n" % (r["op"], n, c["what"]))
                f.write(c["program"] + "\n")
    return ops_with, cases


def compare(path):
    """Runs the Rust test over the written file and prints its report."""
    env = dict(os.environ, PIR_PADDLE_VECTORS=path, RUST_BACKTRACE="0")
    cmd = ["cargo", "test", "-q", "-p", "pir-infer", "--test", "paddle_vectors", "--", "--nocapture"]
    print("\n$ " + " ".join(cmd), flush=True)
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    for line in (run.stderr + run.stdout).splitlines():
        if line.strip() and not line.startswith(("running", "test result", "warning", "   Compiling", "    Finished")):
            print(line)
    return run.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cases", type=int, default=8, help="cases kept per op")
    parser.add_argument("--attempts", type=int, default=100, help="calls tried per op")
    parser.add_argument("--op-seconds", type=float, default=5.0, help="time limit per op")
    parser.add_argument("--max-bytes", type=int, default=3_000_000, help="bound on the written file")
    parser.add_argument("--ops", type=lambda s: set(s.split(",")), default=None, help="only these ops (pd_op or yaml names)")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--compare", action="store_true", help="run the Rust check over the result")
    parser.add_argument("--refusals", action="store_true",
                        help="list the ops without an accepted case, with Paddle's first refusal")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--resume", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--have", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return 0
    began = time.time()
    records, crashes, version = collect(args)
    kept, _ = trim(records, args.max_bytes)
    ops_with, cases = write_vectors(args.out, records, kept, args, version)
    built = sum(len(r["cases"]) for r in records.values())
    refusals = sum(r["refusals"] for r in records.values())
    timeouts = [r["op"] for r in records.values() if r.get("timeout")]
    garbage = sum(r.get("garbage", 0) for r in records.values())
    print("paddle %s, seed %d, %.0f s" % (version, args.seed, time.time() - began))
    print("ops tried: %d" % len(records))
    print("ops with >= 1 accepted case: %d" % ops_with)
    print("cases: %d written (%d built, %d bytes), refusals %d" % (cases, built, os.path.getsize(args.out), refusals))
    if garbage:
        print("cases dropped for dims read past a tensor's rank: %d" % garbage)
    if timeouts:
        print("ops over the time limit: %s" % ", ".join(timeouts))
    if crashes:
        print("ops that crashed Paddle: %s" % ", ".join(crashes))
    if args.refusals:
        print("ops without an accepted case:")
        for i in sorted(records):
            r = records[i]
            if not r["cases"]:
                print("  %s: %s" % (r["op"], r.get("first_refusal") or "no refusal recorded"))
    print("written: %s" % os.path.relpath(args.out, ROOT))
    if args.compare:
        return compare(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
