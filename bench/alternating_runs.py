#!/usr/bin/env python3
"""Wall time of short commands started in turn: round after round, each
command once, so that a slow spell of the machine lands on all of them
alike.

hyperfine runs each command's runs in a row; on a 2-core VM of this machine
kind start-up times move 10-20% within minutes at the same load, so a slow
spell can land on one command only and order two commands differently from
one run to the next. Here every round starts each command once, in an order
that rotates from round to round, by `posix_spawn` with its output sent to
/dev/null, and times it to its exit. Prints, per command, the median and
mean over the rounds and the median of its difference from the first
command round by round (the floor, e.g. `/bin/true`), which is the figure
least moved by the machine. The absolute times include what spawning and
reaping a process costs this interpreter (more than hyperfine's figures);
the differences do not.

Usage: bench/alternating_runs.py [--rounds 1000] [--warmup 20] COMMAND...
       (each COMMAND one argument, split at spaces:
        bench/alternating_runs.py /bin/true "target/release/pir --version")
"""

import argparse
import os
import statistics
import sys
import time


def run_once(argv, devnull):
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter_ns() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("%s exited with %d" % (" ".join(argv), os.waitstatus_to_exitcode(status)))
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("commands", nargs="+")
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--warmup", type=int, default=20)
    args = ap.parse_args()
    argvs = [c.split() for c in args.commands]
    for argv in argvs:
        if not os.access(argv[0], os.X_OK):
            raise SystemExit("not an executable: %s (give a path)" % argv[0])
    times = [[] for _ in argvs]
    devnull = os.open(os.devnull, os.O_WRONLY)
    n = len(argvs)
    for r in range(args.warmup + args.rounds):
        for k in range(n):
            i = (r + k) % n
            t = run_once(argvs[i], devnull)
            if r >= args.warmup:
                times[i].append(t)
    floor = times[0]
    print("%d rounds, each command once a round in rotating order; load average %s" % (
        args.rounds, " ".join("%.2f" % x for x in os.getloadavg())))
    for command, ts in zip(args.commands, times):
        above = statistics.median(t - f for t, f in zip(ts, floor))
        print("%-60s median %7.1f us  mean %7.1f us  above the first, median by round %+7.1f us" % (
            command[:60], statistics.median(ts) / 1e3, statistics.mean(ts) / 1e3, above / 1e3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
