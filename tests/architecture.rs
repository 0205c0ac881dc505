//! The project rule "every rule lives in the rules core, `src/rules/`, which
//! depends on nothing else in the crate", checked on the source itself.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The code lines of a file: comments and doc comments left out.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    fs::read_to_string(path)
        .expect("readable source")
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(i, line)| (i + 1, line.to_string()))
        .collect()
}

/// Whether `line` holds `item` as a whole name (`struct Board`, not
/// `struct BoardView`).
fn names(line: &str, item: &str) -> bool {
    line.match_indices(item).any(|(at, _)| {
        !line[at + item.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn the_rules_core_uses_nothing_outside_itself() {
    let mut files = Vec::new();
    rust_files(&src().join("rules"), &mut files);
    assert!(files.len() > 5, "found the core: {files:?}");
    for file in files {
        for (number, line) in code_lines(&file) {
            let outside = line
                .match_indices("crate::")
                .any(|(at, _)| !line[at..].starts_with("crate::rules"));
            assert!(
                !outside,
                "{}:{number} reaches outside the rules core: {line}",
                file.display()
            );
        }
    }
}

#[test]
fn boards_and_their_moves_are_defined_only_in_the_rules_core() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let rules = src().join("rules");
    for file in files.iter().filter(|f| !f.starts_with(&rules)) {
        for (number, line) in code_lines(file) {
            for rule_item in [
                "struct Board",
                "enum MoveError",
                "fn legal_moves",
                "fn plan",
            ] {
                assert!(
                    !names(&line, rule_item),
                    "{}:{number} defines `{rule_item}` outside src/rules/",
                    file.display()
                );
            }
        }
    }
}

/// One theme decides about `NO_COLOR` for every screen: the two-player
/// game's, which the solitaire screen and the replay use too.
#[test]
fn only_the_theme_reads_no_color() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let theme = src().join("tui").join("theme.rs");
    let readers: Vec<String> = files
        .iter()
        .filter(|file| {
            code_lines(file).iter().any(|(_, line)| {
                line.contains("var_os(\"NO_COLOR\")") || line.contains("var(\"NO_COLOR\")")
            })
        })
        .map(|file| file.display().to_string())
        .collect();
    assert_eq!(readers, [theme.display().to_string()]);
}
