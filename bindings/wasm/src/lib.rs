//! The JavaScript bindings of [simprint]: conversions, errors and ownership only; every
//! computation, default and rule is the core's.
//!
//! Fingerprints cross as `BigInt` at every width (a 128-bit fingerprint is a `BigInt` below
//! 2^128), options as a plain object, explanations as plain objects. Every failure is a thrown
//! `Error` whose message is the core's [`Error`] text, and nothing here can trap.
#![no_std]

extern crate alloc;
// The allocator and the panic handler; everything else here needs only `alloc`.
extern crate std;

mod accumulator;
mod convert;
mod defaults;
mod document_frequencies;
mod explanation;
mod features;
mod fingerprinter;
mod guard;
mod hashes;
mod index;
mod options;
mod plan;
mod results;
mod scan;
mod stream;
mod typed;
mod values;

use wasm_bindgen::prelude::*;

use simprint::error::{Error, NSetting};

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
