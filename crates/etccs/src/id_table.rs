//! A hash index of ids (states of the explored space, terms of the arena)
//! whose keys are stored elsewhere: each slot packs an id with the 32-bit
//! hash of its key into one `u64`, and slots are probed linearly. A lookup
//! reads one cache line for a slot and its neighbours, where a table
//! keeping control bytes apart from its entries reads two; and since the
//! first slot of a probe is known from the hash alone, a caller can start
//! loading it ([`IdTable::prefetch`]) well before the lookup.

/// An empty slot.
const EMPTY: u64 = u64::MAX;
/// Slots of a new table.
const INITIAL: usize = 1 << 10;

/// The id numbering the `n`-th key, if the table can hold it (ids are
/// below `u32::MAX`).
pub(crate) fn id(n: usize) -> Option<u32> {
    u32::try_from(n).ok().filter(|&x| x != u32::MAX)
}

/// Ids with the hashes of their keys; equality of keys is decided by the
/// caller (see [`IdTable::find`]).
#[derive(Clone, Debug)]
pub(crate) struct IdTable {
    /// `hash << 32 | id`, or [`EMPTY`]; a power of two long.
    slots: Vec<u64>,
    len: usize,
}

impl Default for IdTable {
    fn default() -> Self {
        IdTable {
            slots: vec![EMPTY; INITIAL],
            len: 0,
        }
    }
}

impl IdTable {
    /// The number of ids held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn home(&self, h: u32) -> usize {
        h as usize & (self.slots.len() - 1)
    }

    /// Starts loading the first slot a lookup of hash `h` reads.
    #[inline]
    pub(crate) fn prefetch(&self, h: u32) {
        prefetch_index::prefetch_index(&self.slots, self.home(h));
    }

    /// The id with hash `h` whose key `same` accepts, if any. `same` is
    /// asked only about ids stored with hash `h`.
    #[inline]
    pub(crate) fn find(&self, h: u32, mut same: impl FnMut(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(h);
        loop {
            let e = self.slots[i];
            if e == EMPTY {
                return None;
            }
            if (e >> 32) as u32 == h && same(e as u32) {
                return Some(e as u32);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `id` (below `u32::MAX`, see [`id`]) with the hash `h` of its
    /// key, which the table does not hold.
    pub(crate) fn insert(&mut self, h: u32, id: u32) {
        assert!(id != u32::MAX, "ids are below 2^32 - 1");
        // At most three quarters full, so that probes stay short.
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        self.put(u64::from(h) << 32 | u64::from(id));
        self.len += 1;
    }

    /// Stores the packed entry `e` in the first free slot of its probe.
    #[inline]
    fn put(&mut self, e: u64) {
        let mask = self.slots.len() - 1;
        let mut i = self.home((e >> 32) as u32);
        while self.slots[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = e;
    }

    /// Doubles the slots and places every entry again.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let n = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; n]);
        for e in old.into_iter().filter(|&e| e != EMPTY) {
            self.put(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IdTable;

    /// Keys whose hashes collide in bulk: every id is found again, only
    /// through its own key, across several growths.
    #[test]
    fn colliding_hashes_find_their_own_ids() {
        let keys: Vec<u64> = (0..5000u64).map(|k| k * 7919).collect();
        // Only 16 distinct hashes: long probes that wrap around.
        let hash = |k: u64| (k % 16) as u32 * 0x1000_0001;
        let mut t = IdTable::default();
        for (id, &k) in keys.iter().enumerate() {
            assert_eq!(t.find(hash(k), |x| keys[x as usize] == k), None);
            t.insert(hash(k), id as u32);
        }
        assert_eq!(t.len(), keys.len());
        for (id, &k) in keys.iter().enumerate() {
            assert_eq!(t.find(hash(k), |x| keys[x as usize] == k), Some(id as u32));
        }
        assert_eq!(t.find(hash(3), |x| keys[x as usize] == 3), None);
    }

    /// Hashes near the top of the range and ids up to the largest allowed
    /// are packed without loss.
    #[test]
    fn extreme_hashes_and_ids_round_trip() {
        let mut t = IdTable::default();
        let big = super::id(u32::MAX as usize - 1).expect("the largest id");
        assert_eq!(super::id(u32::MAX as usize), None);
        t.insert(u32::MAX, big);
        t.insert(0, 0);
        t.insert(u32::MAX, 5);
        assert_eq!(t.find(u32::MAX, |x| x == big), Some(big));
        assert_eq!(t.find(u32::MAX, |x| x == 5), Some(5));
        assert_eq!(t.find(0, |x| x == 0), Some(0));
        assert_eq!(t.find(7, |_| true), None);
    }
}
