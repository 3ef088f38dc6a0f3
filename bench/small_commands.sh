#!/usr/bin/env bash
# Start-up cost of small commands: `pir --version` and `pir verify` of a
# tiny model, where loading the program and building its context is
# nearly all the work. The goal is 1 ms of wall time each on a quiet
# machine.
#
#   bench/small_commands.sh [PIR_BINARY…]    (default target/release/pir)
#
# Several binaries (a baseline and a change) are timed in the same run.
# Wall time with hyperfine when it is installed (200 runs, no shell in
# between), else a loop of 200 runs; then the commands started in turn,
# 1,000 rounds (bench/alternating_runs.py); then the instruction count of one run
# (valgrind's callgrind, when installed), the page faults of one run
# (`perf stat`, when installed), the shared libraries the binary loads and
# the relative relocations it applies as it starts (readelf; the dynamic
# loader's time for them from LD_DEBUG=statistics), which do not depend on
# the machine's load. The floor is timed first:
# `/bin/true` (starting any process) and, when rustc is installed, a Rust
# program that prints a line (the loader, the C library and Rust's runtime
# set up, nothing else).
set -euo pipefail
cd "$(dirname "$0")/.."
pirs=("${@:-target/release/pir}")
model=tests/corpus/mlp_tiny.json

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Each binary is timed from a copy, as it runs once installed: a file the
# linker has just written sits in the page cache in small pages (it is
# written a piece at a time), and starting it took 13 page faults and about
# 0.2 ms more than starting a copy of the same bytes (what `cargo install`
# puts in place).
commands=()
for i in "${!pirs[@]}"; do
    mkdir "$scratch/$i"
    cp "${pirs[$i]}" "$scratch/$i/pir"
    echo "$scratch/$i/pir: a copy of ${pirs[$i]}"
    pirs[i]="$scratch/$i/pir"
    commands+=("${pirs[$i]} --version" "${pirs[$i]} verify $model")
done
floor=(/bin/true)
if command -v rustc >/dev/null &&
    echo 'fn main() { println!("pir 0.1.0"); }' |
    rustc -O -C strip=debuginfo -o "$scratch/hello" - 2>/dev/null; then
    floor+=("$scratch/hello")
fi

uptime
if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 20 --runs 200 "${floor[@]}" "${commands[@]}"
else
    for command in "${commands[@]}"; do
        start=$(date +%s%N)
        for _ in $(seq 200); do $command >/dev/null; done
        end=$(date +%s%N)
        echo "$command: $(((end - start) / 200000)) us per run (with the shell's fork)"
    done
fi
# The same commands started in turn, round after round (hyperfine runs each
# command's runs in a row, and a slow spell of the VM can land on one of
# them): the median above `/bin/true` round by round is the figure the
# machine's load moves least.
if command -v python3 >/dev/null; then
    python3 bench/alternating_runs.py --rounds 1000 "${floor[@]}" "${commands[@]}"
fi
if command -v valgrind >/dev/null; then
    for command in "${floor[@]}" "${commands[@]}"; do
        # On one core: the reader's second thread, which spins while it
        # waits for work, then counts only what it takes from the first.
        taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$scratch/callgrind.out" $command 2>&1 >/dev/null |
            sed -n "s|.*Collected : *|$command: instructions |p"
    done
fi
if command -v perf >/dev/null; then
    for command in "${floor[@]}" "${commands[@]}"; do
        perf stat -x, -e page-faults $command 2>&1 >/dev/null |
            sed -n "s|^\([0-9]*\),.*page-faults.*|$command: page faults \1|p"
    done
fi
for pir in "${pirs[@]}"; do
    if command -v readelf >/dev/null; then
        libraries=$(readelf -dW "$pir" | grep -c '(NEEDED)' || true)
        echo "$pir: shared libraries $libraries$( ((libraries)) || echo ' (static)')"
        # Packed (DT_RELR) ones are listed as "N offsets", the others one a line.
        relocations=$(readelf -rW "$pir")
        packed=$(sed -n 's/^ *\([0-9]*\) offsets$/\1/p' <<<"$relocations")
        unpacked=$(grep -c '_RELATIVE' <<<"$relocations" || true)
        echo "$pir: relative relocations $((${packed:-0} + unpacked)) (${packed:-0} packed as DT_RELR)"
    fi
    # A static binary has no dynamic loader to report.
    LD_DEBUG=statistics "$pir" --version 2>&1 >/dev/null | grep -m1 'time needed for relocation' | sed "s|^ *[0-9]*: *|$pir: |" || true
done
