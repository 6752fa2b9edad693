//! No circles between modules: in every crate of the workspace, the top-level modules (`src/<name>.rs`
//! with its folder) import each other one way only. A reference is any `crate::<name>` or
//! `super::…<name>` that resolves to another top-level module (grouped `use crate::{a, b}` included, and a
//! name the crate root re-exports counts as the module it comes from); test-only code (`tests.rs`,
//! `*_tests.rs`, a `#[cfg(test)]` module) is not counted. A cycle fails with the files and lines that close
//! it, so the fix is to move the shared type or function down into a lower module.
//! ARCHITECTURE.md's "Layers" list is what [`layers`] prints for each crate.

pub(crate) mod graph;

use graph::{crate_graph, members, workspace_root, Edge, Graph};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The strongly connected groups of more than one module (Tarjan).
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for edge in &s.graph[v] {
            let w = edge.to.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The modules by layer: layer 0 imports no sibling, layer n imports only layers below n.
fn layers(graph: &Graph) -> Vec<Vec<String>> {
    let mut level: BTreeMap<&str, usize> = BTreeMap::new();
    while level.len() < graph.len() {
        let before = level.len();
        for (m, edges) in graph {
            if level.contains_key(m.as_str()) {
                continue;
            }
            let below: Option<Vec<usize>> = edges
                .iter()
                .map(|e| level.get(e.to.as_str()).copied())
                .collect();
            if let Some(below) = below {
                level.insert(m, below.into_iter().map(|l| l + 1).max().unwrap_or(0));
            }
        }
        assert!(
            level.len() > before,
            "a cycle: layers need an acyclic graph"
        );
    }
    let mut out: Vec<Vec<String>> = Vec::new();
    for (m, l) in level {
        if out.len() <= l {
            out.resize(l + 1, Vec::new());
        }
        out[l].push(m.to_string());
    }
    out
}

fn describe(graph: &Graph, group: &[String]) -> String {
    let mut lines = vec![format!(
        "modules {} import each other in a loop:",
        group.join(", ")
    )];
    for from in group {
        for edge in graph[from].iter().filter(|e| group.contains(&e.to)) {
            let file = edge
                .file
                .strip_prefix(workspace_root())
                .unwrap_or(&edge.file);
            lines.push(format!(
                "  {from} -> {} ({}:{})",
                edge.to,
                file.display(),
                edge.line
            ));
        }
    }
    lines.join("\n")
}

#[test]
fn no_crate_has_modules_that_import_each_other_in_a_loop() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for dir in members() {
        let graph = crate_graph(&dir);
        checked += graph.len();
        let rel = dir.strip_prefix(workspace_root()).unwrap_or(&dir);
        let found = cycles(&graph);
        for group in &found {
            failures.push(format!("{}: {}", rel.display(), describe(&graph, group)));
        }
        if found.is_empty() {
            let shown: Vec<String> = layers(&graph).iter().map(|l| l.join(" ")).collect();
            eprintln!("{}:\n  {}", dir.display(), shown.join("\n  "));
        }
    }
    assert!(
        checked > 50,
        "only {checked} modules found: the walk lost the sources"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The checker itself finds what it is for: each way of writing a reference closes a loop.
#[test]
fn the_checker_sees_every_way_of_writing_a_reference() {
    use graph::{production_lines, referenced_roots};
    let here = |m: &str| vec![m.to_string()];
    assert_eq!(
        referenced_roots("use crate::plan::{A, B};", &here("once")),
        ["plan"]
    );
    assert_eq!(
        referenced_roots(
            "use crate::{codex_toml, json_hooks::{a, b}, tmux_conf};",
            &here("engine")
        ),
        ["codex_toml", "json_hooks", "tmux_conf"]
    );
    assert_eq!(
        referenced_roots("let x = crate::status::f(1);", &here("tmux_conf")),
        ["status"]
    );
    let sub = vec!["shell_rc".to_string(), "files".to_string()];
    assert_eq!(
        referenced_roots("use super::super::engine::Target;", &sub),
        ["engine"]
    );
    assert_eq!(referenced_roots("use super::Lex;", &sub), ["shell_rc"]);
    assert!(referenced_roots("use agterm_backup_core::supercrate::x;", &sub).is_empty());
    let code = "use crate::a;\n#[cfg(test)]\nuse crate::b;\n// crate::c\nfn f() {}\n#[cfg(test)]\nmod tests {\n use crate::d;\n}\n";
    let seen: Vec<String> = production_lines(code)
        .iter()
        .flat_map(|(_, l)| referenced_roots(l, &here("x")))
        .collect();
    assert_eq!(seen, ["a"]);
    let mut graph = Graph::new();
    let edge = |to: &str| Edge {
        to: to.into(),
        file: PathBuf::new(),
        line: 1,
    };
    graph.insert("a".into(), vec![edge("b")]);
    graph.insert("b".into(), vec![edge("c")]);
    graph.insert("c".into(), vec![edge("a")]);
    graph.insert("d".into(), vec![edge("a")]);
    assert_eq!(cycles(&graph), [vec!["a", "b", "c"]]);
    graph.get_mut("c").unwrap().clear();
    assert!(cycles(&graph).is_empty());
    assert_eq!(layers(&graph), [vec!["c"], vec!["b"], vec!["a"], vec!["d"]]);
}
