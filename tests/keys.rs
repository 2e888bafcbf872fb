//! Keyed hashing: fingerprints of the same text under different keys are independent (so a
//! secret key leaves an attacker nothing to aim at), while near-duplicates stay near under any
//! key (so a secret key costs no detection quality).

use simprint::{Fingerprint, Fingerprinter, Key, Options};

#[path = "support/splitmix64.rs"]
mod splitmix64;
use splitmix64::SplitMix64 as Rng;

impl Rng {
    fn key(&mut self) -> Key {
        let (a, b) = (self.next(), self.next());
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&a.to_le_bytes());
        bytes[8..].copy_from_slice(&b.to_le_bytes());
        Key::new(bytes)
    }
}

/// 200 document-like texts of 40 to 300 random words (a fifth of them with Chinese runs), and
/// a near-duplicate of each (one word replaced). The words are random letter strings, so the
/// texts share no features and their bits are independent samples. (Documents rather than
/// snippets: a text with few distinct features has bits with V[i] = 0, which are 0 under every
/// key since ties give 0, so its fingerprints under two keys agree a little more than chance —
/// with t the chance of a tie the expected distance is (1 − t²)·f/2, for 10 features about 30
/// of 64 bits.)
fn texts(rng: &mut Rng) -> Vec<(String, String)> {
    let word = |rng: &mut Rng| -> String {
        if rng.below(5) == 0 {
            (0..2 + rng.below(6))
                .map(|_| char::from_u32(0x4E00 + rng.below(3000) as u32).unwrap())
                .collect()
        } else {
            (0..3 + rng.below(7))
                .map(|_| char::from(b'a' + rng.below(26) as u8))
                .collect()
        }
    };
    (0..200)
        .map(|_| {
            let len = 40 + rng.below(261) as usize;
            let mut words: Vec<String> = (0..len).map(|_| word(rng)).collect();
            let text = words.join(" ");
            let at = rng.below(len as u64) as usize;
            words[at] = String::from("replaced");
            (text, words.join(" "))
        })
        .collect()
}

fn fingerprinter(key: Key, width: u32) -> Fingerprinter {
    Fingerprinter::new(Options {
        key,
        width,
        ..Options::default()
    })
    .unwrap()
}

fn distance(a: Fingerprint, b: Fingerprint) -> u32 {
    a.distance(&b).unwrap()
}

#[test]
fn different_keys_give_independent_fingerprints() {
    let mut rng = Rng(2026);
    let texts = texts(&mut rng);
    for width in [64u32, 128] {
        let f = f64::from(width);
        // Several pairs of random keys, and the default key against a random one.
        for pair in 0..6 {
            let a = if pair == 0 { Key::DEFAULT } else { rng.key() };
            let b = rng.key();
            let (fa, fb) = (fingerprinter(a, width), fingerprinter(b, width));
            let prints: Vec<(Fingerprint, Fingerprint)> = texts
                .iter()
                .map(|(t, _)| (fa.fingerprint(t), fb.fingerprint(t)))
                .collect();
            // The same text under two keys: Binomial(f, 1/2) distances, mean f/2, sd √f/2.
            let d: Vec<f64> = prints
                .iter()
                .map(|&(x, y)| f64::from(distance(x, y)))
                .collect();
            let mean = d.iter().sum::<f64>() / d.len() as f64;
            let sd = (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / d.len() as f64).sqrt();
            eprintln!("width {width}, key pair {pair}: mean distance {mean:.2}, sd {sd:.2}");
            // The mean of 200 has sd √f/2/√200 (0.28 at 64 bits): ±5 of those.
            let tolerance = 5.0 * f.sqrt() / 2.0 / (d.len() as f64).sqrt();
            assert!(
                (mean - f / 2.0).abs() < tolerance,
                "width {width}, keys {pair}: mean distance {mean:.2}, expected {} ± {tolerance:.2}",
                f / 2.0
            );
            assert!(
                (sd - f.sqrt() / 2.0).abs() < f.sqrt() / 4.0,
                "width {width}: sd {sd:.2}"
            );
            assert!(
                d.iter().all(|&x| x > f / 8.0),
                "width {width}: a text kept its fingerprint"
            );

            // No bit position is tied across the keys: bit i agrees in about half the texts
            // (Binomial(200, 1/2): 100 ± 5 sd 7.1).
            for i in 0..width {
                let agree = prints.iter().filter(|(x, y)| x.bit(i) == y.bit(i)).count();
                assert!(
                    (64..=136).contains(&agree),
                    "width {width}, keys {pair}: bit {i} agrees in {agree} of 200 texts"
                );
            }
            // And the same text under two keys is no closer than two different texts are.
            let cross: Vec<f64> = (0..prints.len())
                .map(|i| f64::from(distance(prints[i].0, prints[(i + 1) % prints.len()].1)))
                .collect();
            let cross_mean = cross.iter().sum::<f64>() / cross.len() as f64;
            assert!(
                (cross_mean - f / 2.0).abs() < tolerance,
                "cross mean {cross_mean:.2}"
            );
        }
    }
}

/// One real text under 200 pairs of random keys: every bit agrees between the two keys about
/// half the time, and the distance is f/2 on average.
#[test]
fn one_text_under_many_key_pairs() {
    let text = "Debian 管理员手册介绍了如何安装和配置系统，以及如何使用 APT 工具维护软件包。 The \
        Debian project maintains a large archive of free software packages, built from source \
        by automated build daemons, signed with the archive keys and mirrored around the world.";
    let mut rng = Rng(99);
    let mut agree = [0u32; 64];
    let mut total = 0u32;
    for _ in 0..200 {
        let a = fingerprinter(rng.key(), 64).fingerprint(text);
        let b = fingerprinter(rng.key(), 64).fingerprint(text);
        total += distance(a, b);
        for (i, n) in agree.iter_mut().enumerate() {
            *n += u32::from(a.bit(i as u32) == b.bit(i as u32));
        }
    }
    let mean = f64::from(total) / 200.0;
    let (lo, hi) = (agree.iter().min().unwrap(), agree.iter().max().unwrap());
    eprintln!("one text, 200 key pairs: mean distance {mean:.2}; bits agree {lo} to {hi} times");
    assert!((mean - 32.0).abs() < 1.5, "mean distance {mean:.2}");
    for (i, n) in agree.iter().enumerate() {
        assert!(
            (64..=136).contains(n),
            "bit {i} agrees under {n} of 200 key pairs"
        );
    }
}

#[test]
fn near_duplicates_stay_near_under_any_key() {
    let mut rng = Rng(7);
    let texts = texts(&mut rng);
    let keys = [Key::DEFAULT, rng.key(), rng.key(), rng.key()];
    let mut means = Vec::new();
    for key in keys {
        let fp = fingerprinter(key, 64);
        let total: u32 = texts
            .iter()
            .map(|(a, b)| distance(fp.fingerprint(a), fp.fingerprint(b)))
            .sum();
        means.push(f64::from(total) / texts.len() as f64);
    }
    eprintln!("near-duplicates, mean distance per key: {means:.2?}");
    // One word in 40 to 300 replaced: a few bits, far below 32, whatever the key.
    for (i, m) in means.iter().enumerate() {
        assert!(
            *m < 12.0,
            "key {i}: near-duplicates at mean distance {m:.2}"
        );
        assert!(
            (m - means[0]).abs() < 2.0,
            "key {i}: {m:.2} against {:.2}",
            means[0]
        );
    }
    // And the same key always gives the same fingerprint.
    let fp = fingerprinter(keys[1], 64);
    assert_eq!(
        fp.fingerprint(&texts[0].0),
        fingerprinter(keys[1], 64).fingerprint(&texts[0].0)
    );
}

#[test]
fn keys_from_hex() {
    let key = Key::from_hex("00112233445566778899AABBCCDDEEFF").unwrap();
    assert_eq!(key.to_hex(), "00112233445566778899aabbccddeeff");
    for bad in [
        "",
        "0011",
        "00112233445566778899aabbccddeef",
        "00112233445566778899aabbccddeeffg",
        "0x112233445566778899aabbccddeeff",
        "é0112233445566778899aabbccddeef",
    ] {
        assert!(Key::from_hex(bad).is_err(), "{bad:?}");
    }
}
