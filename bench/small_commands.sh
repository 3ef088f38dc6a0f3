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
# (valgrind's callgrind, when installed) and the loader's relocations
# (LD_DEBUG=statistics), which do not depend on the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
pir="${1:-target/release/pir}"
model=tests/corpus/mlp_tiny.json
commands=("$pir --version" "$pir verify $model")

uptime
if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 20 --runs 200 "${commands[@]}"
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
        valgrind --tool=callgrind --callgrind-out-file="$out" $command 2>&1 >/dev/null |
            sed -n "s|.*Collected : *|$command: instructions |p"
        rm -f "$out"
    done
fi
LD_DEBUG=statistics "$pir" --version 2>&1 >/dev/null | grep -m1 'relative relocations' | sed 's/^ *[0-9]*: *//'
