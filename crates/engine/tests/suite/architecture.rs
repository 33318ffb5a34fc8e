//! The engine's shape, checked from its source (docs/engine.md): the state
//! and its turn are the base game's, and every expansion reaches them only
//! through the hooks of `rules/mod.rs`.

use std::path::Path;

/// Words that name an expansion, its figures, steps or what it keeps.
const EXPANSION_WORDS: &[&str] = &[
    "expansion::",
    "ferr",
    "inns",
    "cathedral",
    "abbey",
    "mayor",
    "wagon",
    "barn",
    "traders",
    "builder",
    "pig",
    "goods",
    "second_turn",
];

/// The source of every file under `dir`, without comments and with the
/// unit tests cut off.
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        let code: String = code.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n");
        out.push((path.file_name().unwrap().to_string_lossy().into_owned(), code.to_lowercase()));
    }
    out
}

#[test]
fn nothing_under_state_names_an_expansion() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/state");
    let files = sources(&dir);
    assert!(files.len() >= 4, "{files:?}");
    let mut found = Vec::new();
    for (name, code) in &files {
        for word in EXPANSION_WORDS {
            if code.contains(word) {
                found.push(format!("{name}: {word}"));
            }
        }
    }
    assert!(found.is_empty(), "the base game's state names expansions: {found:?}");
}

/// The words above would find an expansion where one is named: the rules
/// modules do name theirs.
#[test]
fn the_check_finds_the_expansions_where_they_are() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let files = sources(&dir);
    for module in ["ferries.rs", "abbey.rs", "traders.rs", "interactions.rs"] {
        let (_, code) = files.iter().find(|(n, _)| n == module).unwrap();
        assert!(EXPANSION_WORDS.iter().any(|w| code.contains(w)), "{module}");
    }
}
