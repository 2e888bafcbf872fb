//! How far apart two fingerprints may be and still be near-duplicates: the `k` the evaluation
//! recommends for a text.

/// The Hamming distance bound to use for `text` with the default pipeline at `width` bits,
/// from the evaluation (docs/evaluation.md) (Debian documentation in English and Chinese, edits of
/// up to 10 % and reorders counted as duplicates): at 64 bits, 9 for text that is mostly not
/// CJK, whatever its length; for mostly-CJK text 12, or 15 below 300 characters, where each
/// edit moves more bits. Scaled by `width / 64` for other widths.
///
/// What an [`Index`](crate::Index) costs at these `k` (one run, 2026-11-23, shared 2-core
/// x86-64 VM, a million random 64-bit fingerprints, medians; docs/index.md has the tables): at
/// `k = 9`, 13 µs a query natively and 16 µs in wasm, 76 bytes per fingerprint; at `k = 12`,
/// 44 and 51 µs, 76 bytes; at `k = 15`, 118 and 135 µs. Clustered real text costs up to twice
/// that (more matches, fuller buckets). A plain scan of a million takes 260 µs with POPCNT.
///
/// ```
/// assert_eq!(simprint::recommended_k("A plain English sentence, long or short.", 64), 9);
/// assert_eq!(simprint::recommended_k("你妈妈喊你回家吃饭哦,回家罗回家罗", 64), 15);
/// assert_eq!(simprint::recommended_k("A plain English sentence.", 128), 18);
/// ```
#[must_use]
pub fn recommended_k(text: &str, width: u32) -> u32 {
    let (mut cjk, mut other) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        if crate::tokenize::is_cjk(c) {
            cjk += 1;
        } else {
            other += 1;
        }
    }
    let k64: u32 = if cjk > other {
        if text.chars().count() < 300 {
            15
        } else {
            12
        }
    } else {
        9
    };
    let width = width.clamp(1, crate::fingerprint::MAX_WIDTH);
    ((k64 * width + 32) / 64).min(width)
}
