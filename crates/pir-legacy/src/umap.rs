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

/// libstdc++'s table of bucket counts (the start of `__prime_list`, enough
/// for maps of a few thousand keys; larger maps keep the last entry).
const PRIMES: &[u64] = &[
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313,
    337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109,
    1187, 1277, 1361, 1459, 1567, 1693, 1823, 1973, 2129, 2287, 2459, 2647, 2851, 3079, 3319, 3571,
    3851, 4159, 4481, 4831, 5197, 5591, 6029, 6491, 6977, 7517, 8087, 8707, 9371, 10079,
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
/// thousands of keys).
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
        let p = PRIMES
            .iter()
            .copied()
            .find(|&p| p >= n)
            .unwrap_or(PRIMES[PRIMES.len() - 1]);
        self.next_resize = p;
        p
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

    #[test]
    fn hash_of_empty_and_short_strings_is_stable() {
        assert_eq!(hash_bytes(b""), hash_bytes(b""));
        assert_ne!(hash_bytes(b"a"), hash_bytes(b"b"));
    }
}
