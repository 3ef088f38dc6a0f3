#!/usr/bin/env python3
"""Time Paddle's own C++ PIR reader, writer and printer against pir-rs on the same files.

Runs, in one session and interleaved (Paddle, pir-rs, Paddle, pir-rs, ...), ROUNDS rounds of:
  Paddle:  paddle.base.core.deserialize_pir_program (load), str(program) (print),
           paddle.base.core.serialize_pir_program (save) -- medians of REPEAT calls each
  pir-rs:  `pir time FILE --repeat REPEAT` (medians of the same three, in-process), on every
           core, then with PIR_LOAD_THREADS=1 (one thread)
and prints, per file, the median over rounds of each median and the ratio Paddle / pir-rs
(`--stat min`: the minimum over rounds, on both sides);
`load` is on every core (files of 4 KiB and more are read on two threads), `load 1t` on one.
A context keeps the texts it formatted for a print or a save, so our repeated print and save
reuse them; `first save` is our first save of the file in a fresh context (`first_save_ms`:
every type and attribute encoded), against the same Paddle median (Paddle keeps nothing
between saves); `fresh save` the median of such saves in fresh contexts of the warm process
(`fresh_save_ms`: the code run before, as in Paddle's median). Paddle's save writes its file; ours writes to memory.

Also checks that Paddle loads every file pir-rs writes (`pir convert`), and that Paddle's
own re-save of the file equals ours up to attribute order inside A/OA lists.

Paddle runs in a child process of its own for each file and round (its import is not timed),
which exits before ours starts: Paddle's thread pools keep spinning for a while after a call,
and in this process they would hold the second core while `pir time` reads on two threads.

Needs: `pip install paddlepaddle==3.3.1` and a release build of the CLI
(`cargo build --release -p pir-cli`). Files: model JSONs given on the command line; with
--synthetic N also a synthetic model of N ops written by pir-rs (Paddle loads what we write).

With --print-only, times only the print (Paddle's `str(program)` against `pir time`'s
first_print_ms, fresh_print_ms and print_ms), interleaved the same way, on FILES or every
model of the corpus's index.json, with the load average beside the table (the goal is 15x
on every file, for the first print too). The first print is that of a freshly loaded
program: ours in a fresh context, once in the process (what `pir print FILE` does, the
printer's code run for the first time) and as the median of such prints in fresh contexts
of the warm process; Paddle's the median of the first str() of programs freshly
deserialized in one process; the repeated print is of programs loaded into one context
(ours keeps the texts of types and attributes between them; Paddle keeps nothing).

REPEAT is 31 unless given: a small model loads in a few microseconds, and on a 2-core VM of
this machine kind the median of 7 such loads came out about twice that of 101. Our reads into
one context settle only after a few (the second learns the context's templates, the fifth on
two threads matches them), while Paddle keeps nothing from one call to the next: for the
synthetic programs, where Paddle's 31 saves of 100k ops take minutes, --paddle-repeat gives
Paddle fewer calls than ours.

The sides run in an order that rotates from round to round (a process started right after
Paddle's child ran slower in some runs). On a 2-core VM of this machine kind a whole process
sometimes runs up to 60 % slower than the next, one core slow while the other is not, so a
small model's median over 3 rounds can be a slow process's; `--stat min` takes each side's
fastest round instead, as bench/compare_paddle_legacy.py does.

Usage: bench/compare_paddle.py [FILES...] [--rounds 5] [--repeat 31] [--paddle-repeat N]
                               [--synthetic 20000 100000] [--stat median|min]
       bench/compare_paddle.py --print-only [FILES...] [--rounds 5] [--repeat 21] [--stat median|min]
"""

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("GLOG_minloglevel", "2")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIR = os.environ.get("PIR_BIN", os.path.join(ROOT, "target", "release", "pir"))
CORPUS = os.path.join(ROOT, "..", "shared", "paddle-corpus")
STATS = {"median": statistics.median, "min": min}


def canonical(obj):
    if isinstance(obj, dict):
        out = {k: canonical(v) for k, v in obj.items()}
        for key in ("A", "OA"):
            items = out.get(key)
            if isinstance(items, list) and all(isinstance(e, dict) and "N" in e for e in items):
                out[key] = sorted(items, key=lambda e: e["N"])
        return out
    if isinstance(obj, list):
        return [canonical(x) for x in obj]
    return obj


def median_ms(fn, repeat, setup=None):
    arg = setup() if setup else None
    fn(arg)
    times = []
    for _ in range(repeat):
        arg = setup() if setup else None
        t0 = time.perf_counter()
        fn(arg)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def time_paddle(path, repeat):
    import paddle
    from paddle.base import core

    def load(prog):
        core.deserialize_pir_program(path, prog)

    res = {"load_ms": median_ms(load, repeat, setup=paddle.static.Program)}
    prog = paddle.static.Program()
    trainable = core.deserialize_pir_program(path, prog)
    res["print_ms"] = median_ms(lambda _: str(prog), repeat)
    out = os.path.join(tempfile.gettempdir(), "compare_paddle_%d.json" % os.getpid())
    res["save_ms"] = median_ms(lambda _: core.serialize_pir_program(prog, out, True, False, bool(trainable)), repeat)
    os.remove(out)
    return res


def in_paddle_child(function, *args):
    """Runs `function(*args)` (a function of this file) in a fresh Python process and returns
    its JSON answer, so none of Paddle's threads outlive the call."""
    code = ("import json, sys; sys.path.insert(0, %r); import compare_paddle as m; "
            "print('@@' + json.dumps(m.%s(*json.loads(sys.argv[1]))))" % (os.path.dirname(os.path.abspath(__file__)),
                                                                          function))
    res = subprocess.run([sys.executable, "-c", code, json.dumps(args)], capture_output=True, text=True)
    answers = [line[2:] for line in res.stdout.splitlines() if line.startswith("@@")]
    if res.returncode != 0 or not answers:
        raise SystemExit("Paddle's %s failed on %s: %s" % (function, args[0], res.stderr.strip()[-2000:]))
    return json.loads(answers[-1])


def time_ours(path, repeat, threads=None):
    env = dict(os.environ)
    env.pop("PIR_LOAD_THREADS", None)
    if threads:
        env["PIR_LOAD_THREADS"] = str(threads)
    out = subprocess.run([PIR, "time", path, "--repeat", str(repeat)], check=True, capture_output=True, text=True,
                         env=env)
    return json.loads(out.stdout)


def paddle_resave_matches_ours(path):
    """Paddle loads our rewrite of `path`; its own re-save equals ours canonically."""
    import paddle
    from paddle.base import core

    tmp = tempfile.mkdtemp()
    ours = os.path.join(tmp, "ours.json")
    subprocess.run([PIR, "convert", path, ours], check=True)
    prog = paddle.static.Program()
    trainable = core.deserialize_pir_program(ours, prog)
    theirs = os.path.join(tmp, "paddle.json")
    core.serialize_pir_program(prog, theirs, True, False, bool(trainable))
    a = canonical(json.load(open(ours)))
    b = canonical(json.load(open(theirs)))
    return a == b


def synthetic(n_ops):
    """A synthetic model written by pir-rs (`pir synth`), shaped like huge_5000ops."""
    path = os.path.join(tempfile.gettempdir(), "pir_synthetic_%d.json" % n_ops)
    subprocess.run([PIR, "synth", str(n_ops), path, "--force"], check=True)
    return path


def time_paddle_print(path, repeat):
    """Paddle's print times: (first, repeated). First: the median over REPEAT programs freshly
    deserialized in this process of the first str() of each. Repeated: the median of REPEAT
    further str() of one program (Paddle keeps nothing from one print for the next, so the
    two differ only by what the machine's caches hold)."""
    import paddle
    from paddle.base import core

    def fresh():
        prog = paddle.static.Program()
        core.deserialize_pir_program(path, prog)
        return prog

    first = median_ms(str, repeat, setup=fresh)
    prog = fresh()
    return first, median_ms(lambda _: str(prog), repeat)


def in_turn(runs, rounds):
    """Calls each of `runs` (a dict of side -> function) once a round, `rounds` times, in an
    order that rotates from round to round (see the module's note); returns side -> results."""
    order = list(runs)
    results = {side: [] for side in order}
    for r in range(rounds):
        k = r % len(order)
        for side in order[k:] + order[:k]:
            results[side].append(runs[side]())
    return results


def print_only(files, rounds, repeat, over_rounds):
    """Print times only: Paddle's str(program) against pir's in-process print, per file: the
    first print of a freshly loaded program in a fresh context (`pir time`'s first_print_ms,
    what `pir print FILE` does; one per process, median (or --stat) over rounds), the first
    print of the program loaded into a fresh context of that warm process (fresh_print_ms,
    the median of REPEAT: every type and attribute formatted as in the first, the code run
    before, as Paddle's first prints are medians in a process that printed before) and the
    repeated print (print_ms: programs loaded again into that context, their texts kept)."""
    if not files:
        index = json.load(open(os.path.join(CORPUS, "index.json")))
        files = [os.path.join(CORPUS, m["name"] + ".json") for m in index["models"]]
    print("load average: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    print("%-28s %7s | %-27s | %-27s | %-27s" % ("file", "ops", "first print paddle/ours = x",
                                              "fresh context paddle/ours = x", "print ms paddle/ours = x"))
    worst = {"first": float("inf"), "fresh": float("inf"), "repeated": float("inf")}
    for path in files:
        got = in_turn({"paddle": lambda: in_paddle_child("time_paddle_print", path, repeat),
                       "ours": lambda: time_ours(path, repeat)}, rounds)
        paddle_first = [first for first, _ in got["paddle"]]
        paddle_ms = [repeated for _, repeated in got["paddle"]]
        ours_first, ours_fresh, ours_ms = ([o[key] for o in got["ours"]]
                                           for key in ("first_print_ms", "fresh_print_ms", "print_ms"))
        ops = got["ours"][0]["ops"]
        cols = []
        for kind, theirs, mine in (("first", paddle_first, ours_first), ("fresh", paddle_first, ours_fresh),
                                   ("repeated", paddle_ms, ours_ms)):
            p, o = over_rounds(theirs), over_rounds(mine)
            ratio = p / o if o else float("inf")
            worst[kind] = min(worst[kind], ratio)
            cols.append("%9.4f/%8.4f = %6.1fx" % (p, o, ratio))
        print("%-28s %7d | %s | %s | %s" % (os.path.basename(path)[:28], ops, *cols))
    print("lowest ratio: first %.1fx, fresh context %.1fx, repeated %.1fx; load average: %s" % (
        worst["first"], worst["fresh"], worst["repeated"], " ".join("%.2f" % x for x in os.getloadavg())))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=31)
    ap.add_argument("--paddle-repeat", type=int, help="Paddle's calls per median (default: --repeat)")
    ap.add_argument("--synthetic", type=int, nargs="*", default=[])
    ap.add_argument("--print-only", action="store_true", help="time only the print, on every corpus model")
    ap.add_argument("--stat", choices=tuple(STATS), default="median",
                    help="statistic over rounds, the same on both sides (default median)")
    args = ap.parse_args()
    over_rounds = STATS[args.stat]
    if importlib.util.find_spec("paddle") is None:
        print("paddlepaddle is not installed: pip install paddlepaddle==3.3.1", file=sys.stderr)
        return 2
    if not os.path.exists(PIR):
        print("build the CLI first: cargo build --release -p pir-cli", file=sys.stderr)
        return 2
    print("over rounds: the %s on both sides" % args.stat)
    if args.print_only:
        return print_only(args.files, args.rounds, args.repeat, over_rounds)
    files = args.files or [os.path.join(CORPUS, n + ".json") for n in
                           ("huge_5000ops", "deep_mlp_ln200", "mobilenet_v2_x025", "resnet18_w16", "mlp_tiny")]
    files += [synthetic(n) for n in args.synthetic]
    print("load average: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    print("%-28s %7s %9s | %-23s | %-23s | %-23s | %-23s | %-23s | %-23s | %s" % (
        "file", "ops", "bytes", "load ms paddle/ours = x", "load 1t paddle/ours = x", "print ms paddle/ours = x",
        "save ms paddle/ours = x", "first save paddle/ours", "fresh save paddle/ours", "resave"))
    for path in files:
        rounds = in_turn({"paddle": lambda: in_paddle_child("time_paddle", path, args.paddle_repeat or args.repeat),
                          "ours": lambda: time_ours(path, args.repeat),
                          "ours_1t": lambda: time_ours(path, args.repeat, threads=1)}, args.rounds)
        ops = rounds["ours"][0]["ops"]
        cols = []
        # Paddle keeps nothing from one save to the next, so its median save
        # stands against our first save in a fresh context as well (the
        # process's first, and the median of saves in fresh contexts of the
        # warm process).
        for key, ours, ours_key in (("load_ms", "ours", "load_ms"), ("load_ms", "ours_1t", "load_ms"),
                                    ("print_ms", "ours", "print_ms"), ("save_ms", "ours", "save_ms"),
                                    ("save_ms", "ours", "first_save_ms"), ("save_ms", "ours", "fresh_save_ms")):
            p = over_rounds([r[key] for r in rounds["paddle"]])
            o = over_rounds([r[ours_key] for r in rounds[ours]])
            cols.append("%8.3f/%7.4f = %5.1fx" % (p, o, p / o if o else float("inf")))
        same = "equal" if in_paddle_child("paddle_resave_matches_ours", path) else "DIFFERENT"
        print("%-28s %7d %9d | %s | %s | %s | %s | %s | %s | %s" % (
            os.path.basename(path)[:28], ops, os.path.getsize(path), *cols, same))
    print("load average: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
