//! The JavaScript bindings of [simprint]: conversions, errors and ownership only; every
//! computation, default and rule is the core's.
//!
//! Fingerprints cross as `BigInt` at every width (a 128-bit fingerprint is a `BigInt` below
//! 2^128), options as a plain object, explanations as plain objects. Every failure is a thrown
//! `Error` whose message is the core's [`Error`] text, and nothing here can trap.
#![no_std]

extern crate alloc;
// Natively (clippy, the workspace's tests) std brings the allocator and the panic handler.
#[cfg(not(target_arch = "wasm32"))]
extern crate std;

// In wasm: std's allocator, without std.
#[cfg(all(target_arch = "wasm32", feature = "runtime"))]
#[global_allocator]
static ALLOCATOR: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

/// Nothing panics on user input (every such function returns an error), so a panic is a bug:
/// the instance traps, as it did with std's handler under `panic = "abort"`, but no message is
/// formatted first, so no formatting code for panics is linked in.
#[cfg(all(target_arch = "wasm32", feature = "runtime"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

mod accumulator;
mod calibration;
mod convert;
mod defaults;
#[cfg(feature = "index")]
mod describe;
mod document_frequencies;
mod explanation;
mod features;
mod fingerprinter;
mod fingerprints;
mod guard;
mod hashes;
#[cfg(feature = "index")]
mod ids;
#[cfg(feature = "index")]
mod index;
mod memory;
mod object;
mod options;
#[cfg(feature = "index")]
mod plan;
mod results;
mod scan;
mod scratch;
mod stream;
mod typed;
mod values;

use wasm_bindgen::prelude::*;

use simprint::{Error, NSetting};

/// The core's error as a JavaScript `Error`, its message in the package's spelling of the
/// options (`wordN`, `charN`).
fn err(e: Error) -> JsError {
    JsError::new(&describe(&e))
}

/// The core's message for `e` in the package's spelling.
fn describe(e: &Error) -> alloc::string::String {
    e.describe(|setting| match setting {
        NSetting::N => "n",
        NSetting::WordN => "wordN",
        NSetting::CharN => "charN",
    })
}
