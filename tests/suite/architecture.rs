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

/// The section numbers of `RULES.md`: "3", "3.4", ... from its headings.
fn rules_sections() -> Vec<String> {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("RULES.md"))
        .expect("RULES.md at the repository root");
    let mut sections = Vec::new();
    for line in text.lines() {
        let heading = line.trim_start_matches('#');
        if heading.len() == line.len() {
            continue;
        }
        if let Some(number) = heading.split_whitespace().next() {
            let number = number.trim_end_matches('.');
            if number.chars().all(|c| c.is_ascii_digit() || c == '.') && !number.is_empty() {
                sections.push(number.to_string());
            }
        }
    }
    sections
}

/// Code, tests, benches and the README cite the repository's own
/// `RULES.md`, by sections that exist, and never documents outside it.
#[test]
fn rules_are_cited_from_rules_md_by_existing_sections() {
    let sections = rules_sections();
    assert!(sections.contains(&"3.4".to_string()), "{sections:?}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.push(root.join("README.md"));
    let mut cited = 0;
    for file in &files {
        let text = fs::read_to_string(file).expect("readable file");
        for (row, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            // Built from pieces so that this file does not match itself.
            for outside in [["doc", " 00"].concat(), ["shared/", "seeds"].concat()] {
                assert!(
                    !lower.contains(&outside),
                    "{}:{} cites a document outside the repository: {line}",
                    file.display(),
                    row + 1
                );
            }
            for (at, _) in line.match_indices('\u{a7}') {
                let number: String = line[at + '\u{a7}'.len_utf8()..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                let number = number.trim_end_matches('.');
                cited += 1;
                assert!(
                    sections.iter().any(|s| s == number),
                    "{}:{} cites RULES.md section {number}, which does not exist",
                    file.display(),
                    row + 1
                );
            }
        }
    }
    assert!(cited > 10, "only {cited} citations of RULES.md found");
}

/// The layer of a top-level module: data flows up from the rules core to
/// the commands, and a module may use only its own layer and those below.
fn layer(module: &str) -> Option<usize> {
    Some(match module {
        "rules" | "rng" | "escape" | "console" => 0,
        "players" => 1,
        // A match of rounds, its policies and its words.
        "game" => 2,
        // The analysis of a round under perfect play.
        "analysis" => 3,
        // What is kept on disk.
        "store" => 4,
        // The headless match session that every front end drives.
        "session" => 5,
        // Network play: the host's session is the referee.
        "net" => 6,
        // The front ends, siblings that never use each other (checked by
        // `the_front_ends_never_use_each_other`).
        "tui" | "plain" => 7,
        "commands" | "cli" => 8,
        _ => return None,
    })
}

/// The full screen and plain mode are siblings, and the command line's
/// parser takes nothing from either.
#[test]
fn the_front_ends_never_use_each_other() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut crossing = Vec::new();
    for file in &files {
        let forbidden: &[&str] = match module_of(file).as_deref() {
            Some("tui") => &["plain"],
            Some("plain") => &["tui"],
            Some("cli") => &["tui", "plain"],
            _ => continue,
        };
        for (number, line) in code_lines(file) {
            for used in crate_paths(&line) {
                if forbidden.contains(&used.as_str()) {
                    crossing.push(format!("{}:{number}: {}", file.display(), line.trim()));
                }
            }
        }
    }
    assert!(
        crossing.is_empty(),
        "front ends crossing:\n{}",
        crossing.join("\n")
    );
}

/// The top-level module a source file belongs to (`src/game/record.rs` is
/// in `game`, `src/cli.rs` in `cli`); `None` for the crate root files.
fn module_of(file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src()).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    // The roots of the two crates (src/engine/lib.rs: the engine's, whose
    // modules are the lowest layers here, and which the compiler keeps
    // from reaching the others) hold no layer of their own.
    (!matches!(name, "lib" | "main" | "engine")).then(|| name.to_string())
}

/// Every `crate::name` a line uses.
fn crate_paths(line: &str) -> Vec<String> {
    line.match_indices("crate::")
        .filter(|(at, _)| {
            // Not `mycrate::` or `$crate::`.
            !line[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
        })
        .map(|(at, m)| {
            line[at + m.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// Folders import only downwards: rules → players → game → analysis →
/// store → session → net → front ends → commands. A front end never reaches the command line, the match never
/// reaches a front end, and so on.
#[test]
fn modules_import_only_their_own_layer_and_those_below() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut checked = 0;
    let mut upward = Vec::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let Some(own) = layer(&module) else {
            upward.push(format!(
                "{}: module `{module}` has no layer",
                file.display()
            ));
            continue;
        };
        for (number, line) in code_lines(file) {
            for used in crate_paths(&line) {
                checked += 1;
                match layer(&used) {
                    Some(theirs) if theirs <= own => {}
                    _ => upward.push(format!(
                        "{}:{number}: `{module}` uses `crate::{used}`: {}",
                        file.display(),
                        line.trim()
                    )),
                }
            }
        }
    }
    assert!(checked > 50, "found only {checked} crate paths");
    assert!(
        upward.is_empty(),
        "imports against the layers:\n{}",
        upward.join("\n")
    );
}

/// Each type name (struct, enum, trait, union, type alias) is defined once
/// in the crate, so that a name always means the same thing.
#[test]
fn no_type_name_is_defined_twice() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut seen: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for file in &files {
        for (number, line) in code_lines(file) {
            let words: Vec<&str> = line.split_whitespace().collect();
            for pair in words.windows(2) {
                if !matches!(pair[0], "struct" | "enum" | "trait" | "union" | "type") {
                    continue;
                }
                let name: String = pair[1]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                // Associated types (`type Err = ...;` in an impl) are not
                // definitions of a crate type.
                let associated =
                    pair[0] == "type" && !line.contains("pub") && line.starts_with("    ");
                if name.starts_with(|c: char| c.is_ascii_uppercase()) && !associated {
                    seen.entry(name)
                        .or_default()
                        .push(format!("{}:{number}", file.display()));
                }
            }
        }
    }
    assert!(seen.contains_key("Board") && seen.len() > 30, "{seen:?}");
    let twice: Vec<String> = seen
        .iter()
        .filter(|(_, places)| places.len() > 1)
        .map(|(name, places)| format!("{name}: {}", places.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "type names defined more than once:\n{}",
        twice.join("\n")
    );
}
