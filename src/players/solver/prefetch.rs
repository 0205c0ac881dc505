//! A hint to the processor to start loading a cache line now, for a
//! lookup that follows a little later.
//!
//! The search probes the table (gigabytes) and the endgame database at
//! random places, and the database build reads its children at random
//! places: each read is a cache miss, and under `perf` most of the
//! search's time sits on them. A node loads all its children's entries at
//! once, before it needs the first, and the build loads the children of
//! the entry two ahead of the one it computes. Measured on Kalah(6,4),
//! capture nonempty, one thread, the build before and after run side by
//! side four times: search 16.9 s against 17.9 s (medians), database
//! 4.5 s against 4.8 s. A plain load in its place (kept with
//! `black_box`) made the search slower: the processor waits for it.

// One of the two places where the crate allows `unsafe` (the other:
// `players::lower_thread_priority`): no safe Rust reaches
// the prefetch instruction.
#![allow(unsafe_code)]

/// Starts loading the cache line of `item` (a hint: it never changes what
/// the program reads or writes).
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program, writes nothing
    // and never faults, whatever the address; this one is of a live
    // reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
