//! A buffer in wasm memory that the package's `fast.js` writes a string into with the engine's
//! `TextEncoder.encodeInto`, so a text crosses with one copy and no allocation per call (the
//! glue's copy allocates, grows the allocation for non-ASCII text, shrinks it and frees it).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::UnsafeCell;

use wasm_bindgen::prelude::*;

struct Scratch(UnsafeCell<Vec<u8>>);

// SAFETY: the package's wasm has no threads, so one call at a time touches the buffer, and no
// call that reads it (the fingerprint entries below) calls back into JavaScript.
unsafe impl Sync for Scratch {}

static SCRATCH: Scratch = Scratch(UnsafeCell::new(Vec::new()));

/// The most the buffer grows to: `fast.js` writes strings of at most 2^16 UTF-16 units, at
/// most 3 bytes each.
const MAX_BYTES: usize = 3 << 16;

/// The address of the buffer grown to at least `capacity` bytes (zero-filled, so every byte
/// the entries may read is initialised), or null when it cannot be (more than `MAX_BYTES`, or
/// no memory left): the caller then copies the text the glue's way. The buffer moves when it
/// grows; `fast.js` asks again then.
#[wasm_bindgen(js_name = __scratch, skip_typescript)]
#[must_use]
pub fn scratch(capacity: usize) -> *const u8 {
    // SAFETY: see `Scratch`; no reference to the buffer outlives a call.
    let buffer = unsafe { &mut *SCRATCH.0.get() };
    if buffer.len() < capacity {
        if capacity > MAX_BYTES || buffer.try_reserve_exact(capacity - buffer.len()).is_err() {
            return core::ptr::null();
        }
        buffer.resize(capacity, 0);
    }
    buffer.as_ptr()
}

/// The WebAssembly memory the buffer lives in, for `fast.js`'s view of it.
#[wasm_bindgen(js_name = __memory, skip_typescript)]
#[must_use]
pub fn memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The buffer's first `len` bytes (at most its length) as text. What `encodeInto` wrote
/// is UTF-8, but anyone can call the entries, with any `len` (past what was written, bytes of
/// an earlier text) and after writing the memory themselves, so the bytes are checked (for
/// mostly ASCII text, what `fast.js` sends here, at little cost) and anything else reads as
/// `TextDecoder` would read it: a fingerprint, never a trap.
pub(crate) fn text(len: usize) -> Cow<'static, str> {
    // SAFETY: see `Scratch`; the callers drop the text before `scratch` can be called again.
    let buffer = unsafe { &*SCRATCH.0.get() };
    let bytes = &buffer[..len.min(buffer.len())];
    // Checked as `str` first: its ASCII fast path reads a word at a time, the lossy reader's
    // loop a byte at a time.
    match core::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}
