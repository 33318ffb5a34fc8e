//! The engine's shape, checked from its source (docs/engine.md): the state
//! and its turn are the base game's, every expansion reaches them only
//! through the hooks of `rules/mod.rs`, and the modules import one another
//! in layers, without a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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
    "river",
    "abbot",
    "garden",
    "labyrinth",
];

/// Every `.rs` file under `dir`, by its path from `dir` (`ferries/mod.rs`).
fn files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                out.push((name, path));
            }
        }
    }
    out.sort();
    out
}

/// The code of a file without comments and with the unit tests cut off.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap();
    code.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// The source of every file under `dir`, lower-cased, as [`code_of`].
fn sources(dir: &Path) -> Vec<(String, String)> {
    files(dir).into_iter().map(|(name, path)| (name, code_of(&path).to_lowercase())).collect()
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
    for module in ["ferries/mod.rs", "abbey/mod.rs", "traders/mod.rs", "interactions.rs"] {
        let (_, code) = files.iter().find(|(n, _)| n == module).unwrap();
        assert!(EXPANSION_WORDS.iter().any(|w| code.contains(w)), "{module}");
    }
}

/// The module a source file is (`rules::ferries` for `rules/ferries/mod.rs`).
fn module_of(file: &str) -> String {
    let path = file.trim_end_matches(".rs").trim_end_matches("/mod");
    if path == "lib" {
        String::new()
    } else {
        path.replace('/', "::")
    }
}

/// The segments of a path written after `at` in `code`: `a::b::{c, d::e}`
/// gives `[a, b, c]` and `[a, b, d, e]` (an item's name ends a path).
fn paths_after(code: &str, at: usize) -> Vec<Vec<String>> {
    let rest = &code[at..];
    let mut segs = Vec::new();
    let mut chars = rest.char_indices().peekable();
    loop {
        let start = match chars.peek() {
            Some(&(i, c)) if c.is_alphanumeric() || c == '_' => i,
            Some(&(i, '{')) => {
                let end = rest[i..].find('}').map_or(rest.len(), |e| i + e);
                return rest[i + 1..end]
                    .split(',')
                    .map(|item| {
                        let mut p = segs.clone();
                        p.extend(item.trim().split("::").map(|s| s.trim().to_string()).filter(|s| !s.is_empty()));
                        p
                    })
                    .collect();
            }
            _ => return vec![segs],
        };
        let mut end = start;
        while let Some(&(i, c)) = chars.peek() {
            if c.is_alphanumeric() || c == '_' {
                end = i + c.len_utf8();
                chars.next();
            } else {
                break;
            }
        }
        segs.push(rest[start..end].to_string());
        if rest[end..].starts_with("::") {
            chars.next();
            chars.next();
        } else {
            return vec![segs];
        }
    }
}

/// Which modules each module of the engine imports from (`crate::…` and
/// `super::…` paths, and a parent's paths into its children), by the
/// longest module a path names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = files(&src);
    let modules: BTreeSet<String> = files.iter().map(|(f, _)| module_of(f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, path) in &files {
        let me = module_of(file);
        let parent: Vec<String> = me.split("::").filter(|s| !s.is_empty()).map(String::from).collect();
        let parent = &parent[..parent.len().saturating_sub(1)];
        let code = code_of(path);
        let mut found = Vec::new();
        for (word, base) in [("crate::", &[][..]), ("super::", parent)] {
            for (at, _) in code.match_indices(word) {
                let before = code[..at].chars().last();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                for p in paths_after(&code, at + word.len()) {
                    let mut full: Vec<String> = base.to_vec();
                    full.extend(p.into_iter().filter(|s| s != "self"));
                    found.push((full, word == "super::"));
                }
            }
        }
        if file.ends_with("mod.rs") {
            for child in
                modules.iter().filter(|m| m.strip_prefix(&format!("{me}::")).is_some_and(|r| !r.contains("::")))
            {
                let name = child.rsplit("::").next().unwrap();
                for (at, _) in code.match_indices(&format!("{name}::")) {
                    let before = code[..at].chars().last();
                    if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                        found.push((child.split("::").map(String::from).collect(), false));
                    }
                }
            }
        }
        for (full, from_super) in found {
            let target = (0..=full.len())
                .rev()
                .map(|n| full[..n].join("::"))
                .find(|m| modules.contains(m) && (!m.is_empty() || from_super));
            if let Some(t) = target.filter(|t| *t != me && !t.is_empty()) {
                edges.entry(me.clone()).or_default().insert(t);
            }
        }
    }
    edges
}

/// A cycle of imports, if there is one: the modules along it.
fn a_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut cycle = path[i..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for next in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|m| visit(m, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_engines_modules_import_one_another_without_a_cycle() {
    let edges = imports();
    assert!(a_cycle(&edges).is_none(), "a cycle of imports: {}", a_cycle(&edges).unwrap().join(" -> "));
    // The layers docs/engine.md draws: the vocabulary at the bottom, the
    // state below the rules, each rules module below the dispatch of
    // `rules/mod.rs`, its tiles' data below the catalogue.
    let imports = |from: &str, to: &str| edges.get(from).is_some_and(|t| t.contains(to));
    assert!(imports("rules", "state") && imports("rules::ferries", "state") && !imports("state", "rules"));
    assert!(imports("rules", "rules::ferries") && !imports("rules::ferries", "rules"));
    assert!(imports("catalogue", "rules::ferries::tiles") && !imports("rules::ferries::tiles", "catalogue"));
    for vocabulary in ["expansion", "figure", "geometry", "names"] {
        let up: Vec<_> = edges
            .get(vocabulary)
            .into_iter()
            .flatten()
            .filter(|t| !["names", "features", "tile"].contains(&t.as_str()))
            .collect();
        assert!(up.is_empty(), "{vocabulary} imports {up:?}");
    }
}

/// The check sees a cycle where there is one, as in a tree where the
/// state imported the rules back.
#[test]
fn the_cycle_check_finds_a_cycle() {
    let mut edges = imports();
    assert!(a_cycle(&edges).is_none());
    edges.entry("state".into()).or_default().insert("rules".into());
    let cycle = a_cycle(&edges).expect("state -> rules -> state");
    assert!(cycle.contains(&"state".to_string()) && cycle.contains(&"rules".to_string()), "{cycle:?}");
}
