// Reference vector generator for pir-json's number formatting.
//
// Prints, for a deterministic pseudo-random selection of doubles and floats,
// what the C++ reference implementations write:
//
//   gen_vectors nlohmann COUNT SEED   ->  "<16 hex digits of the double> <json(v).dump()>"
//   gen_vectors ostream  COUNT SEED   ->  "d <16 hex digits> <std::ostream << double>"
//                                         "f <8 hex digits>  <std::ostream << float>"
//
// Build: g++ -O2 -std=c++17 -o gen_vectors gen_vectors.cpp   (needs nlohmann-json3-dev)
// See README.md in this folder for how the committed files in ../testdata were made.

#include <nlohmann/json.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

static std::uint64_t bits_of(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}
static double double_of(std::uint64_t b) {
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}
static std::uint32_t bits_of_f(float v) {
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}
static float float_of(std::uint32_t b) {
    float v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

// One double from one of several families, chosen by the generator.
static double pick_double(std::mt19937_64& rng, bool allow_non_finite) {
    std::uint64_t r = rng();
    switch (rng() % 12) {
        case 0:
        case 1: {  // random bit pattern
            double v = double_of(r);
            if (!allow_non_finite && !std::isfinite(v)) return double_of(r & 0x7fefffffffffffffULL);
            return v;
        }
        case 2: {  // "nice" decimal: few digits times a power of ten, parsed like a reader would
            int digits = 1 + static_cast<int>(rng() % 17);
            std::uint64_t m = rng() % static_cast<std::uint64_t>(std::pow(10.0, digits));
            int e = static_cast<int>(rng() % 80) - 40;
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s%" PRIu64 "e%d", (rng() & 1) ? "-" : "", m, e);
            return std::strtod(buf, nullptr);
        }
        case 3: {  // nice decimal over the whole exponent range
            int digits = 1 + static_cast<int>(rng() % 17);
            std::uint64_t m = 1 + rng() % static_cast<std::uint64_t>(std::pow(10.0, digits));
            int e = static_cast<int>(rng() % 640) - 330;
            char buf[64];
            std::snprintf(buf, sizeof buf, "%" PRIu64 "e%d", m, e);
            double v = std::strtod(buf, nullptr);
            if (!allow_non_finite && !std::isfinite(v)) return 1.0;
            return v;
        }
        case 4:  // subnormal
            return double_of((r & 0x000fffffffffffffULL) | (r & 0x8000000000000000ULL));
        case 5: {  // power of ten and its neighbours
            int e = static_cast<int>(rng() % 632) - 323;
            char buf[32];
            std::snprintf(buf, sizeof buf, "1e%d", e);
            double v = std::strtod(buf, nullptr);
            int step = static_cast<int>(rng() % 5) - 2;
            std::uint64_t b = bits_of(v) + static_cast<std::int64_t>(step);
            double w = double_of(b);
            if (!std::isfinite(w) || w <= 0) return v;
            return w;
        }
        case 6: {  // float32 widened to double
            float f = float_of(static_cast<std::uint32_t>(r));
            if (!std::isfinite(f)) f = float_of(static_cast<std::uint32_t>(r) & 0x7f7fffffU);
            return static_cast<double>(f);
        }
        case 7: {  // float32 "nice" value widened
            int digits = 1 + static_cast<int>(rng() % 8);
            std::uint64_t m = rng() % static_cast<std::uint64_t>(std::pow(10.0, digits));
            int e = static_cast<int>(rng() % 20) - 12;
            char buf[64];
            std::snprintf(buf, sizeof buf, "%" PRIu64 "e%d", m, e);
            return static_cast<double>(std::strtof(buf, nullptr));
        }
        case 8:  // integers
            return static_cast<double>(static_cast<std::int64_t>(r) >> (rng() % 64));
        case 9: {  // dyadic rationals: exact decimal expansions ending in 5 (ties for %g)
            std::uint64_t n = 1 + rng() % (1u << 24);
            int k = static_cast<int>(rng() % 40);
            return std::ldexp(static_cast<double>(n), -k);
        }
        case 10: {  // seven significant digits ending in 5 (exact ties at 6 digits when representable)
            std::uint64_t n = (100000 + rng() % 900000) * 10 + 5;
            int k = static_cast<int>(rng() % 12) - 6;
            return std::ldexp(static_cast<double>(n), k);
        }
        default: {  // power of two and neighbours
            int e = static_cast<int>(rng() % 2098) - 1074;
            double v = std::ldexp(1.0, e);
            int step = static_cast<int>(rng() % 3) - 1;
            double w = double_of(bits_of(v) + static_cast<std::int64_t>(step));
            if (!std::isfinite(w) || w <= 0) return v;
            return w;
        }
    }
}

static float pick_float(std::mt19937_64& rng) {
    std::uint64_t r = rng();
    switch (rng() % 5) {
        case 0:
        case 1:
            return float_of(static_cast<std::uint32_t>(r));
        case 2: {
            int digits = 1 + static_cast<int>(rng() % 9);
            std::uint64_t m = rng() % static_cast<std::uint64_t>(std::pow(10.0, digits));
            int e = static_cast<int>(rng() % 90) - 50;
            char buf[64];
            std::snprintf(buf, sizeof buf, "%" PRIu64 "e%d", m, e);
            return std::strtof(buf, nullptr);
        }
        case 3:
            return float_of(static_cast<std::uint32_t>(r) & 0x807fffffU);  // subnormal
        default: {
            std::uint64_t n = 1 + rng() % (1u << 20);
            return std::ldexp(static_cast<float>(n), static_cast<int>(rng() % 40) - 30);
        }
    }
}

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s nlohmann|ostream COUNT SEED\n", argv[0]);
        return 2;
    }
    std::string mode = argv[1];
    long long count = std::atoll(argv[2]);
    std::mt19937_64 rng(std::strtoull(argv[3], nullptr, 10));
    std::ios::sync_with_stdio(false);
    if (mode == "nlohmann") {
        for (long long i = 0; i < count; ++i) {
            double v = pick_double(rng, false);
            if (rng() & 1) v = -v;
            std::string text = nlohmann::json(v).dump();
            std::printf("%016" PRIx64 " %s\n", bits_of(v), text.c_str());
        }
    } else if (mode == "ostream") {
        std::ostringstream os;
        for (long long i = 0; i < count; ++i) {
            os.str("");
            if (rng() % 3 == 0) {
                float f = pick_float(rng);
                if (rng() & 1) f = -f;
                os << f;
                std::printf("f %08" PRIx32 " %s\n", bits_of_f(f), os.str().c_str());
            } else {
                double v = pick_double(rng, true);
                if (rng() & 1) v = -v;
                os << v;
                std::printf("d %016" PRIx64 " %s\n", bits_of(v), os.str().c_str());
            }
        }
    } else {
        std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
        return 2;
    }
    return 0;
}
