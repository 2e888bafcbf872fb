//! The benchmarks' text samples are the same bytes in Rust (`bench/common.rs`) and JavaScript
//! (`bench/samples.mjs`), so native and wasm shares measure the same text: both built from one
//! fixture corpus and one fixture revisions folder (file and folder names that sort differently
//! by path component and by byte, a sample cut at its size limit, a package without versions,
//! the applications' manuals with one folder missing).

#[path = "../bench/common.rs"]
mod common;

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().expect("a file in a folder")).expect("mkdir");
    fs::write(path, text).expect("write");
}

/// A paragraph of `n` lines mixing Han, kana and ASCII.
fn paragraphs(seed: usize, n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        let _ = write!(
            out,
            "第{}段 テキスト simprint {} 中文内容\n\n",
            seed + i,
            i * 7
        );
    }
    out
}

#[test]
fn rust_and_javascript_build_the_same_samples() {
    let dir = std::env::temp_dir().join(format!("simprint-samples-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let corpus = dir.join("corpus");
    let revisions = dir.join("revisions");
    // help-zh reads help-code/zh: files past 1 MB in all, so the last one is cut.
    for (i, name) in ["b.txt", "a.txt", "B.txt", "a+b.txt", "notes.md"]
        .iter()
        .enumerate()
    {
        write(
            &corpus,
            &format!("help-code/zh/{name}"),
            &paragraphs(i * 1000, 9_000),
        );
    }
    // readme-zh: packages in name order, the newest version's files, nested or flat.
    for (package, versions) in [("pkg", "1.0\n2.0\n"), ("Pkg-b", "0.1\n"), ("pkg-a", "3\n")] {
        write(&revisions, &format!("zh/{package}/versions.txt"), versions);
        let newest = versions.lines().last().expect("a version");
        for (j, file) in ["sub/z.txt", "sub.txt", "sub+a.txt", "README.txt"]
            .iter()
            .enumerate()
        {
            let text = paragraphs(j * 10, 3);
            write(&revisions, &format!("zh/{package}/{newest}/{file}"), &text);
        }
        write(
            &revisions,
            &format!("zh/{package}/1.0/old.txt"),
            "an older version\n",
        );
    }
    write(
        &revisions,
        "zh/unfinished/9.9/x.txt",
        "no versions.txt: left out\n",
    );

    // The applications' manuals: each folder its own text; one left out, as in a corpus
    // fetched before it was added.
    for (i, (_, folders)) in common::APP_SAMPLES.iter().enumerate().skip(1) {
        for folder in *folders {
            write(
                &corpus,
                &format!("{folder}/{i}.txt"),
                &paragraphs(i * 100, 2),
            );
        }
    }
    std::env::set_var("SIMPRINT_CORPUS", &corpus);
    std::env::set_var("SIMPRINT_REVISIONS", &revisions);
    let help = common::load_sample("help-zh").expect("help-zh");
    let readme = common::load_readme_sample("zh")
        .expect("readme-zh")
        .expect("the revisions folder is there");
    assert!(help.len() <= common::SAMPLE_BYTES && help.len() > common::SAMPLE_BYTES / 2);
    assert!(readme.contains("第10段") && !readme.contains("older") && !readme.contains("left out"));
    assert_eq!(common::load_readme_sample("ja"), Ok(None));
    let apps = common::load_app_samples().expect("the manuals");
    assert_eq!(apps.len(), common::APP_SAMPLES.len() - 1);

    let script = "import { loadAppSamples, loadSample, loadReadmeSample } from \
                  './bench/samples.mjs';\
                  process.stdout.write(JSON.stringify([loadSample('help-zh'), \
                  loadReadmeSample('zh'), loadReadmeSample('ja'), loadAppSamples()]));";
    let out = Command::new("node")
        .args(["--input-type=module", "-e", script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("node runs");
    let _ = fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let apps = apps
        .iter()
        .map(|(name, text)| format!("{}:{}", json_string(name), json_string(text)))
        .collect::<Vec<_>>()
        .join(",");
    let expected = format!(
        "[{},{},null,{{{apps}}}]",
        json_string(&help),
        json_string(&readme)
    );
    assert!(
        String::from_utf8(out.stdout).expect("UTF-8") == expected,
        "bench/samples.mjs built other bytes than bench/common.rs"
    );
}

/// `JSON.stringify` of a string of printable text, newlines and tabs.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
