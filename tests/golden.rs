//! The golden vectors natively; bindings/wasm/tests/core.rs checks the same file in wasm, tests/js in
//! Node, Chromium and workerd: fingerprints, index bytes and the keys scheme.
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
        // The index bytes and keys sections, blessed here too so that one run writes the file.
        let bytes = common::computed_index_bytes();
        for (v, hex) in json["indexBytes"]["vectors"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .zip(&bytes)
        {
            v["hex"] = serde_json::Value::String(hex.clone());
        }
        for (v, want) in json["keys"]["vectors"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .zip(&golden.keys.vectors)
        {
            let computed = common::keys_of(want);
            v["keys"] = serde_json::json!(computed.keys);
            v["probeKeys"] = computed
                .probe_keys
                .iter()
                .map(|t| serde_json::json!({"count": t.count, "head": t.head, "digest": t.digest}))
                .collect();
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

#[test]
fn index_bytes_match() {
    let golden = common::golden();
    assert!(golden.index_bytes.vectors.len() >= 6);
    for (v, hex) in golden
        .index_bytes
        .vectors
        .iter()
        .zip(common::computed_index_bytes())
    {
        assert_eq!(v.hex, hex, "index bytes {:?}", v.name);
        // And read back: the same entries, names and plan, written again byte for byte.
        let built = common::index_of(v);
        let read = simprint::Index::from_bytes(&common::bytes_of(&v.hex)).unwrap();
        assert_eq!(read.entries(), built.entries(), "{:?}", v.name);
        assert_eq!(read.plan(), built.plan(), "{:?}", v.name);
        for (id, _) in &v.entries {
            if let common::Id::Name(name) = id {
                assert_eq!(read.id_of(name), built.id_of(name), "{:?}", v.name);
            }
        }
        assert_eq!(common::hex_of(&read.to_bytes()), v.hex, "{:?}", v.name);
    }
}

#[test]
fn keys_scheme_matches() {
    let golden = common::golden();
    assert!(golden.keys.vectors.len() >= 6);
    for v in &golden.keys.vectors {
        assert_eq!(&common::keys_of(v), v, "keys vector {:?}", v.name);
    }
}
