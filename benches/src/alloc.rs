//! A counting global allocator for memory measurements in bench binaries.
//!
//! Install it with `#[global_allocator] static A: benches::alloc::Counting = benches::alloc::Counting;`
//! and measure the bytes a step keeps allocated with [`retained`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// Forwards to the system allocator and counts live bytes.
pub struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged and only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        // SAFETY: `p` was allocated by `System` with layout `l`.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        // SAFETY: `p` was allocated by `System` with layout `l`.
        unsafe { System.realloc(p, l, new) }
    }
}

/// Bytes currently allocated through [`Counting`] (0 if it is not installed).
pub fn live_bytes() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// Runs `build` and returns its result with the bytes it left allocated.
pub fn retained<T>(build: impl FnOnce() -> T) -> (T, isize) {
    let before = live_bytes();
    let t = build();
    (t, live_bytes() - before)
}

/// Appends lines to a result file under `<target>/criterion` for `cargo xtask bench`, where
/// criterion writes too: `CARGO_TARGET_DIR` when cargo runs the bench with it set, else the
/// workspace's `target`.
pub fn record(file: &str, lines: &str) {
    use std::io::Write;
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => std::path::PathBuf::from(dir),
        _ => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    };
    let dir = target.join("criterion");
    let _ = std::fs::create_dir_all(&dir);
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(file))
    {
        let _ = f.write_all(lines.as_bytes());
    }
}
