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

/// Keys in insertion order, with the bucket structure of libstdc++.
#[derive(Debug, Default, Clone)]
pub struct UnorderedKeys {
    /// Keys in list (iteration) order, with their hash.
    list: Vec<(String, u64)>,
    bucket_count: u64,
    next_resize: u64,
}

impl UnorderedKeys {
    /// An empty map (one bucket, as a default-constructed map).
    pub fn new() -> Self {
        UnorderedKeys {
            list: Vec::new(),
            bucket_count: 1,
            next_resize: 0,
        }
    }

    /// Inserts `key` unless present (as `map[key] = v` or `insert`).
    pub fn insert(&mut self, key: &str) {
        if self.list.iter().any(|(k, _)| k == key) {
            return;
        }
        let n_elt = self.list.len() as u64;
        if n_elt + 1 > self.next_resize {
            let min_bkts = (n_elt + 1).max(if self.next_resize == 0 { 11 } else { 0 });
            if min_bkts >= self.bucket_count {
                let n = self.next_bucket_count((min_bkts + 1).max(self.bucket_count * 2));
                self.rehash(n);
            } else {
                self.next_resize = self.bucket_count;
            }
        }
        let hash = hash_bytes(key.as_bytes());
        let bucket = hash % self.bucket_count;
        // A non-empty bucket takes the new node at its front (right after the
        // node preceding the bucket); an empty one puts it at the list front.
        match self
            .list
            .iter()
            .position(|(_, h)| h % self.bucket_count == bucket)
        {
            Some(first) => self.list.insert(first, (key.to_owned(), hash)),
            None => self.list.insert(0, (key.to_owned(), hash)),
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
        // Each bucket's run is contiguous; a node whose bucket is new goes to
        // the list front, one whose bucket exists goes to that run's front.
        let mut runs: Vec<(u64, Vec<(String, u64)>)> = Vec::new();
        for node in std::mem::take(&mut self.list) {
            let bucket = node.1 % n;
            match runs.iter_mut().find(|(b, _)| *b == bucket) {
                Some((_, run)) => run.insert(0, node),
                None => runs.insert(0, (bucket, vec![node])),
            }
        }
        self.list = runs.into_iter().flat_map(|(_, run)| run).collect();
        self.bucket_count = n;
    }

    /// The keys in iteration order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.list.iter().map(|(k, _)| k.as_str())
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(keys: &[&str]) -> Vec<String> {
        let mut m = UnorderedKeys::new();
        for k in keys {
            m.insert(k);
        }
        m.iter().map(str::to_owned).collect()
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
    fn duplicates_are_ignored_and_growth_keeps_every_key() {
        let keys: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        let mut m = UnorderedKeys::new();
        for k in &keys {
            m.insert(k);
            m.insert(k);
        }
        assert_eq!(m.len(), 40);
        let mut seen: Vec<&str> = m.iter().collect();
        seen.sort_unstable();
        let mut want: Vec<&str> = keys.iter().map(String::as_str).collect();
        want.sort_unstable();
        assert_eq!(seen, want);
    }

    #[test]
    fn hash_of_empty_and_short_strings_is_stable() {
        assert_eq!(hash_bytes(b""), hash_bytes(b""));
        assert_ne!(hash_bytes(b"a"), hash_bytes(b"b"));
    }
}
