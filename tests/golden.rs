//! The golden vectors natively; bindings/wasm/tests/core.rs checks the same file in wasm, tests/js in
//! Node and Chromium.
#[path = "support/golden.rs"]
mod common;

#[test]
fn golden_vectors_match() {
    let golden = common::golden();
    let computed = common::computed();
    if std::env::var_os("SIMPRINT_BLESS").is_some() {
        let mut json: serde_json::Value = serde_json::from_str(common::GOLDEN).unwrap();
        for (v, hex) in json["vectors"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .zip(&computed)
        {
            v["hex"] = serde_json::Value::String(hex.clone());
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden.json");
        let text = serde_json::to_string_pretty(&json).unwrap() + "\n";
        std::fs::write(path, text).unwrap();
        return;
    }
    assert!(golden.vectors.len() >= 30);
    for (v, hex) in golden.vectors.iter().zip(&computed) {
        assert_eq!(&v.hex, hex, "golden vector {:?}", v.name);
    }
}

#[test]
fn chinese_pair_is_close_and_unrelated_is_far() {
    let g = common::golden();
    let hex = |name: &str| {
        let v = g.vectors.iter().find(|v| v.name == name).unwrap();
        simprint::Fingerprint::from_hex(&v.hex, 64).unwrap()
    };
    let a = hex("chinese pair a");
    let b = hex("chinese pair b");
    let en = hex("english default");
    // A 17-character pair: close, though each edit moves many bits of so short a text.
    assert!(a.distance(&b).unwrap() + 10 <= a.distance(&en).unwrap());
    assert!(a.distance(&en).unwrap() >= 24);
}
