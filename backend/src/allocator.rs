//! How the process's allocator (mimalloc, see `backend/src/main.rs`) gives memory back.

/// `mi_option_purge_delay` in `mimalloc.h` (the same number in mimalloc 2 and 3).
#[cfg(feature = "mimalloc")]
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps the memory the process freed for its next use instead of giving it back to the system
/// after a moment. The server: every search commit and sign-in frees and takes again the same
/// tens of MiB, and giving them back each time made the resident memory swing by a fifth from
/// one sample to the next while what the program holds stayed flat (`docs/BENCHMARKS.md`,
/// Soak); what it keeps is its own peak, which its bounded pools and caches bound. A rebuild:
/// each round frees the rows it spilled and the events it applied and takes as much again for
/// the next, and memory given back is zeroed by the kernel when taken again (7 % of a
/// PostgreSQL rebuild's processor time). A rebuild ends when it is done, and its peak is bounded
/// by `REBUILD_SPILL_MIB`. An operator can still choose otherwise with mimalloc's own
/// `MIMALLOC_PURGE_DELAY` (milliseconds).
pub fn keep_freed_memory() {
    #[cfg(feature = "mimalloc")]
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's option values, which it reads atomically; -1 is
        // documented as "no purging at all".
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    }
}
