//! Growth of the exploration's append-only arrays.

/// Below this size (bytes) an array grows sixteenfold.
const SIXTEENFOLD_BELOW: usize = 4 << 20;
/// Below this size (bytes) an array grows fourfold; beyond it, twofold.
const FOURFOLD_BELOW: usize = 32 << 20;

/// Makes room in `v` for `extra` more items, growing by more than the
/// usual doubling. The state graph's arrays grow with the state count, to
/// megabytes, and the allocator copies a block it cannot extend in place:
/// every growth reads the whole array and writes it to fresh pages. Grown
/// by doubling, an array copies about as many bytes as it ends with; grown
/// sixteenfold, about a fifteenth. Capacity that is never written costs
/// address space, not memory. Past 4 MiB an array grows fourfold and past
/// 32 MiB twofold, so that the address space reserved ahead stays within
/// a few times the memory used.
#[inline]
pub(crate) fn room<T>(v: &mut Vec<T>, extra: usize) {
    if v.capacity() - v.len() < extra {
        let bytes = v.len().saturating_mul(std::mem::size_of::<T>());
        let grow = if bytes < SIXTEENFOLD_BELOW {
            15 * v.len()
        } else if bytes < FOURFOLD_BELOW {
            3 * v.len()
        } else {
            v.len()
        };
        v.reserve(extra.max(grow));
    }
}

#[cfg(test)]
mod tests {
    use super::{room, FOURFOLD_BELOW, SIXTEENFOLD_BELOW};

    /// A full array of `n` bytes, grown by one item.
    fn grown(n: usize) -> usize {
        let mut v: Vec<u8> = vec![0; n];
        v.shrink_to_fit();
        room(&mut v, 1);
        v.capacity()
    }

    #[test]
    fn small_arrays_grow_sixteenfold_and_only_when_needed() {
        let mut v: Vec<u32> = Vec::with_capacity(8);
        v.extend(0..8);
        room(&mut v, 1);
        assert!(v.capacity() >= 128, "capacity {}", v.capacity());
        let (cap, free) = (v.capacity(), v.capacity() - v.len());
        room(&mut v, free);
        assert_eq!(v.capacity(), cap, "no growth while the items fit");
        let mut e: Vec<u8> = Vec::new();
        room(&mut e, 5);
        assert!(e.capacity() >= 5);
    }

    #[test]
    fn larger_arrays_grow_fourfold_then_double() {
        // Bytes, and full arrays at the thresholds.
        let mid = grown(SIXTEENFOLD_BELOW);
        assert!(
            (4 * SIXTEENFOLD_BELOW..5 * SIXTEENFOLD_BELOW).contains(&mid),
            "capacity {mid}"
        );
        let large = grown(FOURFOLD_BELOW);
        assert!(
            (2 * FOURFOLD_BELOW..3 * FOURFOLD_BELOW).contains(&large),
            "capacity {large}"
        );
    }
}
