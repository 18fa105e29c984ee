//! When the process's allocator (mimalloc, see `backend/src/main.rs`) gives freed memory back
//! to the system. An operator can still choose with mimalloc's own `MIMALLOC_PURGE_DELAY`
//! (milliseconds), which these leave alone.

/// `mi_option_purge_delay` in `mimalloc.h` (the same number in mimalloc 2 and 3).
#[cfg(feature = "mimalloc")]
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// The server keeps the memory it freed for its next use instead of giving it back after a
/// moment: every search commit and sign-in frees and takes again the same tens of MiB, and
/// giving them back each time made the resident memory swing by a fifth from one sample to the
/// next while what the program holds stayed flat (`docs/BENCHMARKS.md`, Soak). What it keeps is
/// its own peak, which its bounded pools and caches bound.
pub fn keep_freed_memory() {
    set_purge_delay(-1);
}

/// A rebuild keeps freed memory for a second before giving it back (mimalloc 3's default, set
/// here so that it does not follow the allocator's version). Each round frees the events it
/// applied and the rows it wrote and takes as much again for the next some 80 ms later: given
/// back after 10 ms (mimalloc 2's default), every page is zeroed by the kernel anew (8 % of a
/// PostgreSQL rebuild's time); kept for good, the free pages the state's growth leaves stay too,
/// and the peak passed 512 MiB on 1,000,000 events (`docs/BENCHMARKS.md`).
pub fn keep_freed_memory_a_second() {
    set_purge_delay(1_000);
}

#[cfg_attr(not(feature = "mimalloc"), allow(unused_variables))]
fn set_purge_delay(milliseconds: std::os::raw::c_long) {
    #[cfg(feature = "mimalloc")]
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's option values, which it reads atomically: a delay in
        // milliseconds, -1 documented as "no purging at all".
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, milliseconds) };
    }
}

#[cfg(all(test, feature = "mimalloc"))]
mod tests {
    use super::*;

    fn purge_delay() -> std::os::raw::c_long {
        // SAFETY: reads one of mimalloc's option values.
        unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) }
    }

    #[test]
    fn the_settings_reach_mimallocs_purge_delay() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            eprintln!("MIMALLOC_PURGE_DELAY is set: test skipped");
            return;
        }
        // mimalloc 3's purge delay until set: the option number is that option's.
        assert_eq!(purge_delay(), 1_000);
        keep_freed_memory();
        assert_eq!(purge_delay(), -1);
        keep_freed_memory_a_second();
        assert_eq!(purge_delay(), 1_000);
    }
}
