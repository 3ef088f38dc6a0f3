#!/usr/bin/env python3
"""Writes `%g` reference vectors with Python's formatting (glibc-compatible, correctly rounded).

Output lines have the format of ../testdata/cpp_ostream.txt:

    d <16 hex digits of the double> <'%g' % v>
    f <8 hex digits of the float>   <'%g' % float(f)>

Usage: python3 printf_g_python.py COUNT SEED > vectors.txt
then:  PIR_JSON_OSTREAM_VECTORS=vectors.txt cargo test -p pir-json --release --test number_vectors

NaN is left out: C++ streams print a NaN with its sign bit set as "-nan" (glibc), while
Python's '%g' always prints "nan".
"""

import math
import random
import struct
import sys


def double_bits(v: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def float_bits_and_value(bits: int):
    v = struct.unpack("<f", struct.pack("<I", bits))[0]
    return bits, v


def pick_double(rng: random.Random) -> float:
    kind = rng.randrange(8)
    if kind <= 1:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if kind == 2:  # nice decimals
        digits = rng.randrange(1, 18)
        return float(f"{rng.randrange(10 ** digits)}e{rng.randrange(-40, 40)}")
    if kind == 3:  # exact ties at the 7th significant digit (when representable)
        n = rng.randrange(100000, 1000000) * 10 + 5
        return math.ldexp(float(n), rng.randrange(-8, 8))
    if kind == 4:  # dyadic rationals: decimal expansions ending in 5
        return math.ldexp(float(rng.randrange(1, 1 << 24)), -rng.randrange(0, 40))
    if kind == 5:  # subnormals
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(52)))[0]
    if kind == 6:  # around the fixed/exponent switch points
        return rng.choice([9.999995, 999999.5, 0.00009999995, 99999.95, 1e-5, 1e6]) * (
            1 + rng.uniform(-1e-9, 1e-9)
        )
    return rng.uniform(-1e6, 1e6)


def main() -> None:
    count = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]))
    out = sys.stdout
    written = 0
    while written < count:
        if rng.randrange(3) == 0:
            bits, v = float_bits_and_value(rng.getrandbits(32))
            if math.isnan(v):
                continue
            out.write(f"f {bits:08x} {'%g' % v}\n")
        else:
            v = pick_double(rng)
            if rng.randrange(2):
                v = -v
            if math.isnan(v):
                continue
            out.write(f"d {double_bits(v):016x} {'%g' % v}\n")
        written += 1


if __name__ == "__main__":
    main()
