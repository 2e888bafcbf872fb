//! How much memory the package's WebAssembly instance holds.

use wasm_bindgen::prelude::*;

/// Bytes of WebAssembly memory this instance of the package holds: everything simprint keeps
/// (indexes, fingerprinters, streams) lives there. It grows as they need and never shrinks, and
/// a Cloudflare Worker's isolate counts it against its memory limit with the JavaScript heap.
///
/// ```js
/// const before = wasmMemoryBytes();
/// const index = new Index();
/// for (let i = 0; i < 100000; i++) index.insert(i, BigInt(i) * 0x9e3779b97f4a7c15n & 0xffffffffffffffffn);
/// wasmMemoryBytes() >= before; // true: the index's tables are in it
/// ```
#[wasm_bindgen(js_name = wasmMemoryBytes)]
#[must_use]
pub fn wasm_memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        // Pages of 64 KiB; a 32-bit memory has at most 65,536 of them, exact in an f64.
        #[allow(clippy::cast_precision_loss, reason = "at most 2^32, exact in an f64")]
        let bytes = (core::arch::wasm32::memory_size(0) * 65536) as f64;
        bytes
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
