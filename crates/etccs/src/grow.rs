//! Growth of the exploration's append-only arrays.

/// Up to this size (bytes) an array grows fourfold; beyond it, twofold.
const FOURFOLD_BELOW: usize = 32 << 20;

/// Makes room in `v` for `extra` more items, growing fourfold rather than
/// twofold while the array is below 32 MiB. The state graph's arrays reach
/// megabytes and the allocator copies a block it cannot extend in place,
/// so every growth reads and writes the whole array; growing by four
/// copies a third as much in all, and capacity that is never written costs
/// no memory. Larger arrays double as usual: the allocator maps them and
/// moves their pages without copying, and fourfold growth would reserve
/// far more address space than the exploration uses.
#[inline]
pub(crate) fn room<T>(v: &mut Vec<T>, extra: usize) {
    if v.capacity() - v.len() < extra {
        let bytes = v.len().saturating_mul(std::mem::size_of::<T>());
        let grow = if bytes < FOURFOLD_BELOW {
            3 * v.len()
        } else {
            v.len()
        };
        v.reserve(extra.max(grow));
    }
}

#[cfg(test)]
mod tests {
    use super::{room, FOURFOLD_BELOW};

    #[test]
    fn room_grows_fourfold_and_only_when_needed() {
        let mut v: Vec<u32> = Vec::with_capacity(8);
        v.extend(0..8);
        room(&mut v, 1);
        assert!(v.capacity() >= 32, "capacity {}", v.capacity());
        let (cap, free) = (v.capacity(), v.capacity() - v.len());
        room(&mut v, free);
        assert_eq!(v.capacity(), cap, "no growth while the items fit");
        let mut e: Vec<u8> = Vec::new();
        room(&mut e, 5);
        assert!(e.capacity() >= 5);
    }

    #[test]
    fn large_arrays_double() {
        // Zero-sized items would not allocate; use bytes and a full array
        // just above the threshold.
        let mut v: Vec<u8> = vec![0; FOURFOLD_BELOW];
        v.shrink_to_fit();
        room(&mut v, 1);
        assert!(v.capacity() >= 2 * FOURFOLD_BELOW);
        assert!(
            v.capacity() < 3 * FOURFOLD_BELOW,
            "capacity {}",
            v.capacity()
        );
    }
}
