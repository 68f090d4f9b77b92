//! Growth of the exploration's append-only arrays.

/// Makes room in `v` for `extra` more items, growing fourfold rather than
/// twofold. The state graph's arrays reach megabytes and the allocator
/// copies a block it cannot extend in place, so every growth reads and
/// writes the whole array; growing by four copies a third as much in all,
/// and capacity that is never written costs no memory.
#[inline]
pub(crate) fn room<T>(v: &mut Vec<T>, extra: usize) {
    if v.capacity() - v.len() < extra {
        v.reserve(extra.max(3 * v.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::room;

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
}
