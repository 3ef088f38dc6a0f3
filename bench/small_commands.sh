#!/usr/bin/env bash
# Start-up cost of small commands: `pir --version` and `pir verify` of a
# tiny model, where loading the program and building its context is
# nearly all the work. The goal is 1 ms of wall time each on a quiet
# machine.
#
#   bench/small_commands.sh [PIR_BINARY]    (default target/release/pir)
#
# Wall time with hyperfine when it is installed (200 runs, no shell in
# between), else a loop of 200 runs; then the instruction count of one run
# (valgrind's callgrind, when installed), the page faults of one run
# (`perf stat`, when installed) and the loader's relocations
# (LD_DEBUG=statistics; none for a statically linked executable), which
# do not depend on the machine's load. `/bin/true` is timed first: what starting any process costs here.
set -euo pipefail
cd "$(dirname "$0")/.."
pir="${1:-target/release/pir}"
model=tests/corpus/mlp_tiny.json
commands=("$pir --version" "$pir verify $model")

uptime
if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 20 --runs 200 /bin/true "${commands[@]}"
else
    for command in "${commands[@]}"; do
        start=$(date +%s%N)
        for _ in $(seq 200); do $command >/dev/null; done
        end=$(date +%s%N)
        echo "$command: $(((end - start) / 200000)) us per run (with the shell's fork)"
    done
fi
if command -v valgrind >/dev/null; then
    for command in "${commands[@]}"; do
        out=$(mktemp)
        # On one core: the reader's second thread, which spins while it
        # waits for work, then counts only what it takes from the first.
        taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$out" $command 2>&1 >/dev/null |
            sed -n "s|.*Collected : *|$command: instructions |p"
        rm -f "$out"
    done
fi
if command -v perf >/dev/null; then
    for command in "${commands[@]}"; do
        perf stat -x, -e page-faults $command 2>&1 >/dev/null |
            sed -n "s|^\([0-9]*\),.*page-faults.*|$command: page faults \1|p"
    done
fi
LD_DEBUG=statistics "$pir" --version 2>&1 >/dev/null | grep -m1 'relative relocations' | sed 's/^ *[0-9]*: *//' || true
