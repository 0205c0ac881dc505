//! Zeroed memory for the solver's big tables, on transparent huge pages
//! where the system offers them.
//!
//! The transposition table (hundreds of megabytes) and the endgame
//! database (tens) are read at random places, so with 4 KiB pages nearly
//! every probe also misses the TLB, and the page walk costs as much as the
//! cache miss. With 2 MiB pages the same memory takes 512 times fewer TLB
//! entries (measured: `mancala solve` of Kalah(6,4), capture nonempty, on
//! one thread searched the same 206,606,947 positions in 77 s instead of
//! 99 s).
//!
//! The memory is a fresh anonymous mapping, advised to use huge pages
//! before any page of it is touched (the kernel only backs pages with huge
//! ones when they are first touched), and never written to before the
//! search (but for [`Zeroed::fault_in`], which writes back each byte it
//! reads): a fresh mapping reads as zeros, so an all-zero value must mean
//! "empty". Where mapping fails, it is ordinary zeroed heap memory.
//!
//! Without `unsafe`: the mapping is a byte slice, and a byte slice can only
//! be viewed as atomics (by `zerocopy`) while it is borrowed mutably, as
//! the borrow guarantees that nothing else reads the bytes as plain ones.
//! So [`Zeroed`] owns the memory, and [`Zeroed::view`] lends it out as a
//! shared slice of atomics for as long as the owner is borrowed (one solve).

use std::fmt;

use memmap2::MmapMut;
use zerocopy::{FromBytes, FromZeros, IntoBytes, KnownLayout};

/// `len` values of `T`, zeroed, owned.
pub(crate) struct Zeroed<T> {
    memory: Memory<T>,
    len: usize,
    /// Bytes of the mapping [`Zeroed::fault_in`] has brought in so far.
    faulted: usize,
}

/// The stride of [`Zeroed::fault_in`]: the smallest page.
pub(crate) const PAGE_BYTES: usize = 4096;

/// How often [`Zeroed::fault_in`] asks whether to stop: at each huge page
/// (bringing one in took up to 3.5 ms here, so a deadline is kept to that).
pub(crate) const STOP_STRIDE: usize = 2 << 20;

enum Memory<T> {
    /// An anonymous mapping (advised to use huge pages on Linux).
    Mapped(MmapMut),
    /// Heap memory, where mapping failed.
    Heap(Box<[T]>),
}

impl<T> fmt::Debug for Zeroed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Zeroed")
            .field("len", &self.len)
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

impl<T> Zeroed<T> {
    /// Values held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the memory is a mapping (else heap memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.memory, Memory::Mapped(_))
    }
}

impl<T: FromBytes + IntoBytes + KnownLayout> Zeroed<T> {
    /// `len` zeroed values in a fresh mapping advised to use huge pages,
    /// or on the heap if mapping fails.
    pub fn new(len: usize) -> Zeroed<T> {
        Zeroed::with_mapping(len, MmapMut::map_anon)
    }

    /// The same with `map` making the mapping of a number of bytes.
    fn with_mapping(len: usize, map: impl FnOnce(usize) -> std::io::Result<MmapMut>) -> Zeroed<T> {
        let mapped = len
            .checked_mul(size_of::<T>())
            .and_then(|bytes| map(bytes).ok())
            .filter(|m| m.len() == len * size_of::<T>());
        let Some(mut mapped) = mapped else {
            return Zeroed::on_heap(len);
        };
        #[cfg(target_os = "linux")]
        {
            // only advice: a kernel without transparent huge pages says no,
            // and the memory works the same on small pages
            let _ = mapped.advise(memmap2::Advice::HugePage);
        }
        // a mapping starts on a page, which aligns any `T` of ours; checked
        // here once, so that `view` cannot fail later
        if <[T]>::mut_from_bytes(&mut mapped[..]).is_err() {
            return Zeroed::on_heap(len);
        }
        Zeroed {
            memory: Memory::Mapped(mapped),
            len,
            faulted: 0,
        }
    }

    /// `len` zeroed values on the heap. Like any heap allocation, it ends
    /// the program if the memory cannot be had.
    pub fn on_heap(len: usize) -> Zeroed<T> {
        let values = <[T]>::new_box_zeroed_with_elems(len).unwrap_or_else(|_| {
            let layout =
                std::alloc::Layout::array::<T>(len).unwrap_or(std::alloc::Layout::new::<T>());
            std::alloc::handle_alloc_error(layout)
        });
        Zeroed {
            memory: Memory::Heap(values),
            len,
            faulted: 0,
        }
    }

    /// Has the system supply every page of the mapping now, until `stop`
    /// holds (asked at each huge page's worth); true when all are in. A
    /// later call goes on where a stopped one left off. Heap memory is left
    /// as it is.
    ///
    /// The system supplies a page at its first write, and here that is
    /// slow: 0.8 to 3.5 ms for each 2 MiB page, 0.2 to 0.9 s for a 512 MiB
    /// mapping (measured on this 2-core machine, one write per 2 MiB). A search on a fresh
    /// table meets a new page at nearly every probe and looks at its stop
    /// flag only every thousand positions, so a player stopped then kept
    /// the person waiting that long.
    pub fn fault_in(&mut self, stop: impl Fn() -> bool) -> bool {
        let Memory::Mapped(mapped) = &mut self.memory else {
            return true;
        };
        while self.faulted < mapped.len() {
            if self.faulted.is_multiple_of(STOP_STRIDE) && stop() {
                return false;
            }
            // the byte it holds, written back: the write brings the page in
            // and changes nothing
            let byte = &mut mapped[self.faulted];
            *byte = std::hint::black_box(*byte);
            self.faulted += PAGE_BYTES;
        }
        true
    }

    /// Whether [`Zeroed::fault_in`] has brought every page in (heap
    /// memory: always).
    pub fn is_faulted_in(&self) -> bool {
        match &self.memory {
            Memory::Mapped(mapped) => self.faulted >= mapped.len(),
            Memory::Heap(_) => true,
        }
    }

    /// The values, shared (they are atomics) while `self` stays borrowed.
    pub fn view(&mut self) -> &[T] {
        match &mut self.memory {
            Memory::Mapped(mapped) => {
                <[T]>::mut_from_bytes(&mut mapped[..]).expect("the cast was checked when mapped")
            }
            Memory::Heap(values) => values,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI8, AtomicU64, Ordering};

    /// The flags of the mapping that holds `addr`, from `/proc/self/smaps`.
    #[cfg(target_os = "linux")]
    fn vm_flags(addr: usize) -> Option<String> {
        smaps_field(addr, "VmFlags:")
    }

    /// A field of the mapping that holds `addr`, from `/proc/self/smaps`.
    #[cfg(target_os = "linux")]
    fn smaps_field(addr: usize, field: &str) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((start, end)) = range.split_once('-')
                && let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                )
            {
                inside = (start..end).contains(&addr);
            } else if inside && let Some(value) = line.strip_prefix(field) {
                return Some(value.trim().to_owned());
            }
        }
        None
    }

    #[test]
    fn a_mapping_is_zeroed_sized_and_kept_between_views() {
        let mut memory = Zeroed::<AtomicU64>::new(3 << 18); // 6 MiB
        assert!(memory.is_mapped());
        assert_eq!(memory.len(), 3 << 18);
        let view = memory.view();
        assert_eq!(view.len(), 3 << 18);
        assert_eq!(view.as_ptr() as usize % 4096, 0, "starts on a page");
        assert!(view.iter().all(|v| v.load(Ordering::Relaxed) == 0));
        view[12345].store(7, Ordering::Relaxed);
        assert_eq!(memory.view()[12345].load(Ordering::Relaxed), 7);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_mapping_is_advised_to_use_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
            return; // a kernel without transparent huge pages: nothing to advise
        }
        let mut memory = Zeroed::<AtomicI8>::new(8 << 20);
        let addr = memory.view().as_ptr() as usize;
        let flags = vm_flags(addr).expect("the mapping is listed");
        // "hg": the mapping was advised MADV_HUGEPAGE
        assert!(flags.split_whitespace().any(|f| f == "hg"), "{flags}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn fault_in_brings_in_every_page_and_changes_no_value() {
        let mut memory = Zeroed::<AtomicU64>::new(1 << 20); // 8 MiB
        memory.view()[777].store(42, Ordering::Relaxed);
        assert!(!memory.fault_in(|| true), "stopped before the first page");
        assert!(!memory.is_faulted_in());
        // stopped after the first huge page: it goes on from there
        let asked = std::cell::Cell::new(0);
        let once = || {
            asked.set(asked.get() + 1);
            asked.get() > 1
        };
        assert!(!memory.fault_in(once));
        assert_eq!(memory.faulted, STOP_STRIDE);
        assert!(memory.fault_in(|| false));
        // resident now, every page (the mapping may share its listing with
        // a neighbour of the same flags, so at least its size)
        let addr = memory.view().as_ptr() as usize;
        let rss = smaps_field(addr, "Rss:").expect("the mapping is listed");
        let kib: usize = rss.trim_end_matches("kB").trim().parse().unwrap();
        assert!(kib >= 8 << 10, "{rss} resident");
        let view = memory.view();
        assert!(
            view.iter()
                .enumerate()
                .all(|(i, v)| v.load(Ordering::Relaxed) == if i == 777 { 42 } else { 0 })
        );
        // done: a second call has nothing left to do
        assert!(memory.is_faulted_in() && memory.fault_in(|| true));
    }

    #[test]
    fn without_a_mapping_the_memory_is_zeroed_heap_memory() {
        let failing = |_| Err(std::io::Error::other("no mapping today"));
        let mut memory = Zeroed::<AtomicI8>::with_mapping(1000, failing);
        assert!(!memory.is_mapped());
        assert_eq!(memory.len(), 1000);
        let view = memory.view();
        assert_eq!(view.len(), 1000);
        assert!(view.iter().all(|v| v.load(Ordering::Relaxed) == 0));
        view[999].store(-3, Ordering::Relaxed);
        assert_eq!(memory.view()[999].load(Ordering::Relaxed), -3);
        // a mapping of the wrong size is not used either
        let short = |bytes: usize| MmapMut::map_anon(bytes / 2);
        assert!(!Zeroed::<AtomicU64>::with_mapping(64, short).is_mapped());
    }
}
