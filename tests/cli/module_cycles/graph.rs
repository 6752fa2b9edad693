//! Reading a crate's module graph from its source: which top-level module's code names which other
//! top-level module (`crate::…`, `super::…`, grouped `use`, the crate root's re-exports), test code left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One reference from a file of module `from` to module `to`.
#[derive(Debug, Clone)]
pub struct Edge {
    pub to: String,
    pub file: PathBuf,
    pub line: usize,
}

/// A crate's module graph: top-level module → the references it makes to other top-level modules.
pub type Graph = BTreeMap<String, Vec<Edge>>;

pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The crate folders `[workspace] members` names (so a new crate is checked without editing this test).
pub fn members() -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
    let doc: toml_edit::DocumentMut = manifest.parse().unwrap();
    let list = doc["workspace"]["members"]
        .as_array()
        .expect("workspace members");
    let mut out = Vec::new();
    for m in list.iter().map(|m| m.as_str().unwrap()) {
        match m.strip_suffix("/*") {
            // A glob member (`terminals/*`): each folder there with a manifest, as cargo reads it.
            Some(dir) => {
                let mut found: Vec<PathBuf> = std::fs::read_dir(workspace_root().join(dir))
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.join("Cargo.toml").is_file())
                    .collect();
                found.sort();
                out.extend(found);
            }
            None => out.push(workspace_root().join(m)),
        }
    }
    out
}

/// Every `.rs` file below `dir`.
pub fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file (`shell_rc/files.rs` → `["shell_rc", "files"]`, `cmd/mod.rs` →
/// `["cmd"]`, `lib.rs` → `[]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod")) {
        parts.pop();
    }
    if parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main") {
        parts.clear();
    }
    parts
}

/// The code of a file without comments and without an inline `#[cfg(test)] mod … { … }` (which closes a
/// file here); `#[cfg(test)]` items that are one line (`#[cfg(test)] mod fixtures;`, a `use`) are dropped.
pub fn production_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        if t.starts_with("#[cfg(test)]") {
            let rest = t.trim_start_matches("#[cfg(test)]").trim();
            let item = if rest.is_empty() {
                lines
                    .peek()
                    .map(|(_, l)| l.trim().to_string())
                    .unwrap_or_default()
            } else {
                rest.to_string()
            };
            if item.starts_with("mod ") && item.ends_with('{')
                || item.starts_with("pub(crate) mod ") && item.ends_with('{')
            {
                break;
            }
            if rest.is_empty() {
                lines.next();
            }
            continue;
        }
        let code = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        out.push((i + 1, code.to_string()));
    }
    out
}

/// Files a `#[path = "…"] mod name;` puts under another module (restore's `plan_join.rs` is
/// `plan::join`): file → its module path.
fn path_attributes(src: &Path, files: &[PathBuf]) -> BTreeMap<PathBuf, Vec<String>> {
    let mut out = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(target) = line
                .strip_prefix("#[path = \"")
                .and_then(|r| r.strip_suffix("\"]"))
            else {
                continue;
            };
            let decl = lines.get(i + 1).copied().unwrap_or("");
            let decl = decl
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ");
            let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) else {
                continue;
            };
            let mut module = module_path(src, file);
            module.push(name.trim().to_string());
            out.insert(file.parent().unwrap().join(target), module);
        }
    }
    out
}

/// Modules the crate root declares under `#[cfg(test)]` (test support: `fake_lookup`, `fixtures`).
fn test_only_modules(root: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let lines: Vec<&str> = root.lines().map(str::trim).collect();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("#[cfg(test)]") {
            let item = line.trim_start_matches("#[cfg(test)]").trim();
            let item = if item.is_empty() {
                lines.get(i + 1).copied().unwrap_or("")
            } else {
                item
            };
            let item = item
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ");
            if let Some(name) = item.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                out.insert(name.trim().to_string());
            }
        }
    }
    out
}

/// What the crate root re-exports: `pub use engine::{Change, Target};` → Change → engine, Target → engine.
fn root_reexports(root: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in root.split(';') {
        let stmt = stmt.trim();
        let Some(rest) = stmt
            .rsplit("pub use ")
            .next()
            .filter(|_| stmt.contains("pub use "))
        else {
            continue;
        };
        let rest = rest
            .trim()
            .trim_start_matches("self::")
            .trim_start_matches("crate::");
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = name.trim();
            let name = name.rsplit(" as ").next().unwrap_or(name);
            let name = name.rsplit("::").next().unwrap_or(name);
            if !name.is_empty() {
                out.insert(name.to_string(), module.to_string());
            }
        }
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first names after each `crate::` / `super::` in `code` as absolute module paths' first segment
/// (`super::` resolved against `here`). Grouped imports yield each top-level name of the group.
pub fn referenced_roots(code: &str, here: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let prev_ok = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        let (mut base, mut after): (Vec<String>, &str) = if prev_ok && rest.starts_with("crate::") {
            (Vec::new(), &rest["crate::".len()..])
        } else if prev_ok && rest.starts_with("super::") {
            // `super` of a file is its parent module.
            let mut base = here.to_vec();
            base.pop();
            (base, &rest["super::".len()..])
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        while let Some(r) = after.strip_prefix("super::") {
            base.pop();
            after = r;
        }
        let names: Vec<String> = if let Some(group) = after.strip_prefix('{') {
            top_level_group_names(group)
        } else {
            vec![ident_at(after).to_string()]
        };
        for name in names {
            if name.is_empty() || name == "self" {
                if let Some(first) = base.first() {
                    out.push(first.clone());
                }
                continue;
            }
            out.push(base.first().cloned().unwrap_or(name));
        }
        i += 1;
    }
    out
}

fn top_level_group_names(group: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && depth == 0 && !c.is_whitespace() => {
                names.push(ident_at(&group[at..]).to_string());
                start = false;
            }
            _ => {}
        }
    }
    names
}

/// The graph of one crate's top-level modules.
pub fn crate_graph(crate_dir: &Path) -> Graph {
    let src = crate_dir.join("src");
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    // `src/bin/*` are crates of their own (they name this one by its name, never `crate::`).
    files.retain(|f| !f.starts_with(src.join("bin")));
    files.sort();
    let root_text: String = ["lib.rs", "main.rs"]
        .iter()
        .filter_map(|f| std::fs::read_to_string(src.join(f)).ok())
        .collect();
    let test_only = test_only_modules(&root_text);
    let reexports = root_reexports(&root_text);
    let renamed = path_attributes(&src, &files);
    let top = |file: &Path| -> Vec<String> {
        renamed
            .get(file)
            .cloned()
            .unwrap_or_else(|| module_path(&src, file))
    };
    let is_test_file = |file: &Path| {
        let name = file.file_name().unwrap().to_string_lossy();
        name == "tests.rs" || name.ends_with("_tests.rs")
    };
    let modules: BTreeSet<String> = files
        .iter()
        .filter(|f| !is_test_file(f))
        .filter_map(|f| top(f).first().cloned())
        .filter(|m| !test_only.contains(m))
        .collect();
    let mut graph: Graph = modules.iter().map(|m| (m.clone(), Vec::new())).collect();
    for file in &files {
        let path = top(file);
        let Some(from) = path.first() else { continue };
        if test_only.contains(from) || is_test_file(file) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (line, code) in production_lines(&text) {
            for name in referenced_roots(&code, &path) {
                let to = if modules.contains(&name) {
                    name
                } else if let Some(m) = reexports.get(&name) {
                    m.clone()
                } else {
                    continue; // an item of the crate root itself
                };
                if &to != from && modules.contains(&to) {
                    let edge = Edge {
                        to,
                        file: file.clone(),
                        line,
                    };
                    graph.get_mut(from).unwrap().push(edge);
                }
            }
        }
    }
    graph
}
