//! The iteration order of a libstdc++ `std::unordered_map<std::string, _>`.
//!
//! Paddle keeps an op's attributes in such a map, and its JSON writer lists
//! the attributes of non-`pd_op` ops, and the `stop_gradient`/`persistable`
//! pair of every op, in the map's iteration order. That order is a pure
//! function of the sequence of inserted keys, so the translator records the
//! keys in the order Paddle inserts them and asks this module for the order
//! Paddle's writer sees (format spec §2.6).

/// `std::hash<std::string>` of libstdc++ on 64-bit targets (`_Hash_bytes`,
/// MurmurHash2-64A with seed `0xc70f6907`).
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    const MUL: u64 = 0xc6a4_a793_5bd1_e995;
    const SEED: u64 = 0xc70f_6907;
    let shift_mix = |v: u64| v ^ (v >> 47);
    let len = bytes.len();
    let mut hash = SEED ^ (len as u64).wrapping_mul(MUL);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let data = shift_mix(u64::from_le_bytes(word).wrapping_mul(MUL)).wrapping_mul(MUL);
        hash = (hash ^ data).wrapping_mul(MUL);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        hash = (hash ^ u64::from_le_bytes(word)).wrapping_mul(MUL);
    }
    hash = shift_mix(hash).wrapping_mul(MUL);
    shift_mix(hash)
}

/// libstdc++'s table of bucket counts for 64-bit targets (`__prime_list`
/// from 17 on, the first entry `_M_next_bkt` considers past its table of
/// small counts), each as `_Prime_rehash_policy::_M_next_bkt` gives it. The
/// whole table: a map keeps growing by it, so inserting stays amortized
/// constant time and the order stays libstdc++'s at any size.
const PRIMES: &[u64] = &[
    17,
    19,
    23,
    29,
    31,
    37,
    41,
    43,
    47,
    53,
    59,
    61,
    67,
    71,
    73,
    79,
    83,
    89,
    97,
    103,
    109,
    113,
    127,
    137,
    139,
    149,
    157,
    167,
    179,
    193,
    199,
    211,
    227,
    241,
    257,
    277,
    293,
    313,
    337,
    359,
    383,
    409,
    439,
    467,
    503,
    541,
    577,
    619,
    661,
    709,
    761,
    823,
    887,
    953,
    1031,
    1109,
    1193,
    1289,
    1381,
    1493,
    1613,
    1741,
    1879,
    2029,
    2179,
    2357,
    2549,
    2753,
    2971,
    3209,
    3469,
    3739,
    4027,
    4349,
    4703,
    5087,
    5503,
    5953,
    6427,
    6949,
    7517,
    8123,
    8783,
    9497,
    10273,
    11113,
    12011,
    12983,
    14033,
    15173,
    16411,
    17749,
    19183,
    20753,
    22447,
    24281,
    26267,
    28411,
    30727,
    33223,
    35933,
    38873,
    42043,
    45481,
    49201,
    53201,
    57557,
    62233,
    67307,
    72817,
    78779,
    85229,
    92203,
    99733,
    107897,
    116731,
    126271,
    136607,
    147793,
    159871,
    172933,
    187091,
    202409,
    218971,
    236897,
    256279,
    277261,
    299951,
    324503,
    351061,
    379787,
    410857,
    444487,
    480881,
    520241,
    562841,
    608903,
    658753,
    712697,
    771049,
    834181,
    902483,
    976369,
    1056323,
    1142821,
    1236397,
    1337629,
    1447153,
    1565659,
    1693859,
    1832561,
    1982627,
    2144977,
    2320627,
    2510653,
    2716249,
    2938679,
    3179303,
    3439651,
    3721303,
    4026031,
    4355707,
    4712381,
    5098259,
    5515729,
    5967347,
    6456007,
    6984629,
    7556579,
    8175383,
    8844859,
    9569143,
    10352717,
    11200489,
    12117689,
    13109983,
    14183539,
    15345007,
    16601593,
    17961079,
    19431899,
    21023161,
    22744717,
    24607243,
    26622317,
    28802401,
    31160981,
    33712729,
    36473443,
    39460231,
    42691603,
    46187573,
    49969847,
    54061849,
    58488943,
    63278561,
    68460391,
    74066549,
    80131819,
    86693767,
    93793069,
    101473717,
    109783337,
    118773397,
    128499677,
    139022417,
    150406843,
    162723577,
    176048909,
    190465427,
    206062531,
    222936881,
    241193053,
    260944219,
    282312799,
    305431229,
    330442829,
    357502601,
    386778277,
    418451333,
    452718089,
    489790921,
    529899637,
    573292817,
    620239453,
    671030513,
    725980837,
    785430967,
    849749479,
    919334987,
    994618837,
    1076067617,
    1164186217,
    1259520799,
    1362662261,
    1474249943,
    1594975441,
    1725587117,
    1866894511,
    2019773507,
    2185171673,
    2364114217,
    2557710269,
    2767159799,
    2993761039,
    3238918481,
    3504151727,
    3791104843,
    4101556399,
    4294967291,
    6442450933,
    8589934583,
    12884901857,
    17179869143,
    25769803693,
    34359738337,
    51539607367,
    68719476731,
    103079215087,
    137438953447,
    206158430123,
    274877906899,
    412316860387,
    549755813881,
    824633720731,
    1099511627689,
    1649267441579,
    2199023255531,
    3298534883309,
    4398046511093,
    6597069766607,
    8796093022151,
    13194139533241,
    17592186044399,
    26388279066581,
    35184372088777,
    52776558133177,
    70368744177643,
    105553116266399,
    140737488355213,
    211106232532861,
    281474976710597,
    562949953421231,
    1125899906842597,
    2251799813685119,
    4503599627370449,
    9007199254740881,
    18014398509481951,
    36028797018963913,
    72057594037927931,
    144115188075855859,
    288230376151711717,
    576460752303423433,
    1152921504606846883,
    2305843009213693951,
    4611686018427387847,
    9223372036854775783,
    18446744073709551557,
];

/// Where a bucket's run starts: after the list head or after a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Before {
    Head,
    Node(usize),
}

/// One key: its hash and the next node in iteration order.
#[derive(Debug, Clone, Copy)]
struct Node {
    hash: u64,
    next: Option<usize>,
}

/// The node list and buckets of libstdc++'s hashtable, so that inserting and
/// iterating cost what they cost in C++ (a program's variable table has
/// thousands of keys, a hostile op's attribute map tens of thousands).
#[derive(Debug)]
struct Table {
    nodes: Vec<Node>,
    /// The first node in iteration order (`_M_before_begin._M_nxt`).
    head: Option<usize>,
    /// Per bucket, the position before its first node.
    buckets: Vec<Option<Before>>,
    bucket_count: u64,
    next_resize: u64,
}

impl Table {
    /// An empty map (one bucket, as a default-constructed map).
    fn new(capacity: usize) -> Self {
        Table {
            nodes: Vec::with_capacity(capacity),
            head: None,
            buckets: vec![None],
            bucket_count: 1,
            next_resize: 0,
        }
    }

    fn next_of(&self, before: Before) -> Option<usize> {
        match before {
            Before::Head => self.head,
            Before::Node(i) => self.nodes[i].next,
        }
    }

    fn set_next(&mut self, before: Before, next: Option<usize>) {
        match before {
            Before::Head => self.head = next,
            Before::Node(i) => self.nodes[i].next = next,
        }
    }

    fn bucket_of(&self, node: usize) -> usize {
        (self.nodes[node].hash % self.bucket_count) as usize
    }

    /// Inserts a key that is not present yet.
    fn insert(&mut self, key: &[u8]) {
        let n_elt = self.nodes.len() as u64;
        if n_elt + 1 > self.next_resize {
            let min_bkts = (n_elt + 1).max(if self.next_resize == 0 { 11 } else { 0 });
            if min_bkts >= self.bucket_count {
                let n = self.next_bucket_count((min_bkts + 1).max(self.bucket_count * 2));
                self.rehash(n);
            } else {
                self.next_resize = self.bucket_count;
            }
        }
        let node = self.nodes.len();
        self.nodes.push(Node {
            hash: hash_bytes(key),
            next: None,
        });
        let bucket = self.bucket_of(node);
        // `_M_insert_bucket_begin`: a non-empty bucket takes the node at the
        // front of its run; an empty one puts it at the list front.
        match self.buckets[bucket] {
            Some(before) => {
                self.nodes[node].next = self.next_of(before);
                self.set_next(before, Some(node));
            }
            None => {
                self.nodes[node].next = self.head;
                self.head = Some(node);
                if let Some(next) = self.nodes[node].next {
                    let b = self.bucket_of(next);
                    self.buckets[b] = Some(Before::Node(node));
                }
                self.buckets[bucket] = Some(Before::Head);
            }
        }
    }

    fn next_bucket_count(&mut self, n: u64) -> u64 {
        const FAST: [u64; 14] = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];
        if n < 14 {
            if n == 0 {
                return 1;
            }
            self.next_resize = FAST[n as usize];
            return FAST[n as usize];
        }
        // `lower_bound` over all but the last entry; reaching the last one
        // stops growth (`_M_next_resize` = the maximum).
        let searched = &PRIMES[..PRIMES.len() - 1];
        let at = searched.partition_point(|&p| p < n);
        match searched.get(at) {
            Some(&p) => {
                self.next_resize = p;
                p
            }
            None => {
                self.next_resize = u64::MAX;
                PRIMES[PRIMES.len() - 1]
            }
        }
    }

    /// Re-links every node into `n` buckets, walking the old list in order
    /// (libstdc++ `_M_rehash_aux` for unique keys).
    fn rehash(&mut self, n: u64) {
        self.bucket_count = n;
        self.buckets.clear();
        self.buckets.resize(n as usize, None);
        let mut p = self.head.take();
        let mut begin_bucket = 0usize;
        while let Some(i) = p {
            let next = self.nodes[i].next;
            let bucket = self.bucket_of(i);
            match self.buckets[bucket] {
                None => {
                    self.nodes[i].next = self.head;
                    self.head = Some(i);
                    self.buckets[bucket] = Some(Before::Head);
                    if self.nodes[i].next.is_some() {
                        self.buckets[begin_bucket] = Some(Before::Node(i));
                    }
                    begin_bucket = bucket;
                }
                Some(before) => {
                    self.nodes[i].next = self.next_of(before);
                    self.set_next(before, Some(i));
                }
            }
            p = next;
        }
    }
}

/// The order in which a libstdc++ `std::unordered_map<std::string, _>` lists
/// its keys after `keys` were inserted in this order: indices into `keys`.
/// `keys` must be distinct (a repeated insert changes nothing in the map, so
/// callers pass first insertions only).
pub fn iteration_order<S: AsRef<str>>(keys: &[S]) -> Vec<usize> {
    let mut t = Table::new(keys.len());
    for k in keys {
        t.insert(k.as_ref().as_bytes());
    }
    let mut out = Vec::with_capacity(keys.len());
    let mut p = t.head;
    while let Some(i) = p {
        out.push(i);
        p = t.nodes[i].next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(keys: &[&str]) -> Vec<String> {
        iteration_order(keys)
            .into_iter()
            .map(|i| keys[i].to_owned())
            .collect()
    }

    #[test]
    fn fetch_loaded_order_matches_the_spec_example() {
        // Format spec §2.6: a loaded pd_op.fetch iterates this way.
        assert_eq!(
            order(&["name", "col", "persistable", "stop_gradient"]),
            ["stop_gradient", "persistable", "col", "name"]
        );
    }

    #[test]
    fn growth_keeps_every_key() {
        let keys: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        let order = iteration_order(&keys);
        assert_eq!(order.len(), 40);
        let mut seen = order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..40).collect::<Vec<_>>());
        assert_ne!(order, (0..40).collect::<Vec<_>>(), "a hash order");
    }

    /// FNV-1a of an iteration order, with its first five indices.
    fn summary(order: &[usize]) -> ([usize; 5], u64) {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &i in order {
            h ^= i as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        ([order[0], order[1], order[2], order[3], order[4]], h)
    }

    /// Orders of maps of `k0`, `k1`, ... as libstdc++ 12 on x86-64 lists
    /// them (a C++ program inserting the keys in order and hashing the
    /// order the same way): past a few thousand keys, past the table's
    /// older end, and at tens of thousands of keys (which once took a
    /// rehash per insert).
    #[test]
    fn large_maps_match_libstdcxx() {
        let cases: [(usize, [usize; 5], u64); 6] = [
            (11, [10, 8, 7, 6, 9], 10059001252095247872),
            (1110, [1109, 145, 534, 533, 531], 9638210999822998908),
            (1200, [1199, 1198, 1197, 1195, 1194], 1134314664905498761),
            (2500, [2498, 2496, 2490, 2489, 2488], 4682736313481709013),
            (
                12000,
                [11999, 11997, 11995, 11994, 11991],
                17724826794162163447,
            ),
            (
                70000,
                [69997, 69995, 69992, 69991, 69990],
                5618897861426718367,
            ),
        ];
        for (n, first, hash) in cases {
            let keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
            assert_eq!(summary(&iteration_order(&keys)), (first, hash), "{n} keys");
        }
    }

    #[test]
    fn hash_of_empty_and_short_strings_is_stable() {
        assert_eq!(hash_bytes(b""), hash_bytes(b""));
        assert_ne!(hash_bytes(b"a"), hash_bytes(b"b"));
    }
}
