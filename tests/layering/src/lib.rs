//! The layering check: which top-level module of `src/` may import which, read from the rules
//! table of `docs/architecture.md`, applied to every `crate::…` path (and every `super::…` path
//! that climbs to the crate root) in the code of `src/**/*.rs`.
//!
//! Native only, and no dependencies: it reads files and text, nothing else.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// The markers around the two tables in the architecture document.
const RULES: (&str, &str) = ("<!-- layering:rules -->", "<!-- /layering:rules -->");
const PENDING: (&str, &str) = ("<!-- layering:pending -->", "<!-- /layering:pending -->");

/// What went wrong with the rules document itself.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// A marker is missing.
    MissingTable(&'static str),
    /// A table row is not `| module | a, b |` (or `| a -> b | why |`).
    BadRow(String),
    /// A rule names a module twice.
    Repeated(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::MissingTable(m) => write!(f, "the rules document has no {m} table"),
            RulesError::BadRow(r) => write!(f, "unreadable table row: {r}"),
            RulesError::Repeated(m) => write!(f, "module {m} has two rows"),
        }
    }
}

/// The allowed arrows and the ones being removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    /// module -> the modules it may use.
    pub allowed: BTreeMap<String, BTreeSet<String>>,
    /// (from, to) arrows tolerated until removed.
    pub pending: BTreeSet<(String, String)>,
}

/// One import the rules do not allow, or a rule that no longer matches the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// `from` imports `to`, which its row does not list.
    Forbidden {
        /// The file, relative to the crate root.
        file: String,
        /// 1-based line.
        line: usize,
        /// The importing module.
        from: String,
        /// The imported module.
        to: String,
    },
    /// A file belongs to a module that has no row.
    UnknownModule {
        /// The file.
        file: String,
        /// Its top-level module.
        module: String,
    },
    /// A "being removed" arrow no longer exists: delete its row.
    StalePending {
        /// The importing module.
        from: String,
        /// The imported module.
        to: String,
    },
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::Forbidden {
                file,
                line,
                from,
                to,
            } => write!(
                f,
                "{file}:{line}: `{from}` imports `{to}`, which docs/architecture.md does not allow ({from} -> {to})"
            ),
            Finding::UnknownModule { file, module } => write!(
                f,
                "{file}: module `{module}` has no row in docs/architecture.md's rules table"
            ),
            Finding::StalePending { from, to } => write!(
                f,
                "{from} -> {to} is listed as being removed but no longer exists: delete its row from docs/architecture.md"
            ),
        }
    }
}

/// The rows of the table between `markers` in `doc`, each as its cells (header and separator
/// rows left out).
fn table_rows(
    doc: &str,
    markers: (&'static str, &'static str),
) -> Result<Vec<Vec<String>>, RulesError> {
    let start = doc
        .find(markers.0)
        .ok_or(RulesError::MissingTable(markers.0))?;
    let rest = &doc[start + markers.0.len()..];
    let end = rest
        .find(markers.1)
        .ok_or(RulesError::MissingTable(markers.1))?;
    let mut rows = Vec::new();
    for line in rest[..end]
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('|'))
    {
        let cells: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        if cells
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        rows.push(cells);
    }
    // The first row is the header.
    if !rows.is_empty() {
        rows.remove(0);
    }
    Ok(rows)
}

/// Reads the rules and the pending arrows from the architecture document's text.
pub fn parse_rules(doc: &str) -> Result<Rules, RulesError> {
    let mut rules = Rules::default();
    for row in table_rows(doc, RULES)? {
        let [module, uses] = row.as_slice() else {
            return Err(RulesError::BadRow(row.join(" | ")));
        };
        if module.is_empty()
            || !module
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(RulesError::BadRow(row.join(" | ")));
        }
        let set = uses
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if rules.allowed.insert(module.clone(), set).is_some() {
            return Err(RulesError::Repeated(module.clone()));
        }
    }
    for row in table_rows(doc, PENDING)? {
        let arrow = row.first().map(String::as_str).unwrap_or("");
        let Some((from, to)) = arrow.split_once("->") else {
            return Err(RulesError::BadRow(row.join(" | ")));
        };
        rules
            .pending
            .insert((from.trim().to_string(), to.trim().to_string()));
    }
    Ok(rules)
}

/// The module path of a source file relative to `src/`: `proto/session/mod.rs` is
/// `["proto", "session"]`, `lib.rs` is `[]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// `line` without its `//` comment (a `//` inside a string literal is taken as code; the crate
/// writes no `crate::` into strings).
fn code_of(line: &str) -> &str {
    let mut in_str = false;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier at the start of `s` (after spaces), if any.
fn first_ident(s: &str) -> Option<&str> {
    let s = s.trim_start();
    let end = s.find(|c| !is_ident(c)).unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// The top-level modules a file's code names, with the byte offset of each naming: through
/// `crate::` (also `crate::{a, b::c}` groups over several lines) or through a `super::` chain that
/// climbs to the crate root from `path`.
fn targets(code: &str, path: &[String]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find("crate::").map(|i| i + from) {
        let before_ok = code[..i]
            .chars()
            .last()
            .is_none_or(|c| !is_ident(c) && c != '$');
        let after_at = i + "crate::".len();
        let after = &code[after_at..];
        if before_ok {
            let trimmed = after.trim_start();
            if let Some(group) = trimmed.strip_prefix('{') {
                // The first identifier of each top-level item of the group.
                let base = code.len() - group.len();
                let mut depth = 0;
                let mut item_start = true;
                for (j, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => item_start = true,
                        _ if item_start && is_ident(c) => {
                            if let Some(id) = first_ident(&group[j..]) {
                                out.push((base + j, id.to_string()));
                            }
                            item_start = false;
                        }
                        _ => {}
                    }
                }
            } else if let Some(id) = first_ident(after) {
                out.push((i, id.to_string()));
            }
        }
        from = after_at;
    }
    // `super::super::x` from a module `depth` deep reaches the root when it climbs `depth`.
    let mut from = 0;
    while let Some(i) = code[from..].find("super::").map(|i| i + from) {
        let before_ok = code[..i].chars().last().is_none_or(|c| !is_ident(c));
        let mut after = &code[i..];
        let mut climbs = 0;
        while let Some(a) = after.strip_prefix("super::") {
            climbs += 1;
            after = a;
        }
        if before_ok && climbs == path.len() {
            if let Some(id) = first_ident(after) {
                out.push((i, id.to_string()));
            }
        }
        from = i + "super::".len() * climbs;
    }
    out.sort();
    out
}

/// The text of a file with every `//` comment blanked out, lines kept.
fn code_text(text: &str) -> String {
    text.lines().map(code_of).collect::<Vec<_>>().join("\n")
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let p = entry?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Checks every source file under `root/src` against `rules`. Arrows to names that are not
/// top-level modules (items of the crate root, macros) are ignored.
pub fn check_tree(root: &Path, rules: &Rules) -> std::io::Result<Vec<Finding>> {
    let src = root.join("src");
    let files = rust_files(&src)?;
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| module_path(f.strip_prefix(&src).ok()?).into_iter().next())
        .collect();
    let mut findings = Vec::new();
    let mut seen_pending = BTreeSet::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap_or(file);
        let path = module_path(rel);
        let Some(from) = path.first().cloned() else {
            continue; // lib.rs: the root declares every module.
        };
        let shown = Path::new("src").join(rel).to_string_lossy().into_owned();
        let Some(allowed) = rules.allowed.get(&from) else {
            findings.push(Finding::UnknownModule {
                file: shown,
                module: from,
            });
            continue;
        };
        let code = code_text(&std::fs::read_to_string(file)?);
        for (offset, to) in targets(&code, &path) {
            if to == from || !modules.contains(&to) || allowed.contains(&to) {
                continue;
            }
            let arrow = (from.clone(), to.clone());
            if rules.pending.contains(&arrow) {
                seen_pending.insert(arrow);
                continue;
            }
            findings.push(Finding::Forbidden {
                file: shown.clone(),
                line: line_of(&code, offset),
                from: from.clone(),
                to,
            });
        }
    }
    for (from, to) in rules.pending.difference(&seen_pending) {
        findings.push(Finding::StalePending {
            from: from.clone(),
            to: to.clone(),
        });
    }
    Ok(findings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> Vec<String> {
        module_path(Path::new(p))
    }

    #[test]
    fn module_paths() {
        assert_eq!(path("lib.rs"), Vec::<String>::new());
        assert_eq!(path("proto/mod.rs"), ["proto"]);
        assert_eq!(
            path("proto/session/types.rs"),
            ["proto", "session", "types"]
        );
        assert_eq!(path("bindings.rs"), ["bindings"]);
    }

    fn names(code: &str, p: &[String]) -> Vec<String> {
        targets(code, p).into_iter().map(|(_, m)| m).collect()
    }

    #[test]
    fn targets_of_paths_groups_and_super_chains() {
        let p = path("js/client.rs");
        assert_eq!(names("use crate::api::{a, b};", &p), ["api"]);
        assert_eq!(
            names("use crate::{proto::x, util::{a, b}, pool};", &p),
            ["proto", "util", "pool"]
        );
        assert_eq!(
            names("let x = crate::client::f(crate::util::g());", &p),
            ["client", "util"]
        );
        assert_eq!(names("use super::convert;", &p), Vec::<String>::new());
        assert_eq!(names("use super::super::client::X;", &p), ["client"]);
        assert_eq!(names("use super::pool;", &path("js/mod.rs")), ["pool"]);
        assert_eq!(
            names("$crate::api::x; mycrate::api", &p),
            Vec::<String>::new()
        );
        assert_eq!(
            names("use crate::{\n    api::X,\n    client::{\n        a,\n    },\n};\nuse crate::util;", &p),
            ["api", "client", "util"]
        );
        let code = code_text("// crate::x\nuse crate::a; // crate::b\n\n  crate::c");
        assert_eq!(names(&code, &p), ["a", "c"]);
        assert_eq!(line_of(&code, targets(&code, &p)[1].0), 4);
        assert_eq!(code_of("use crate::a; // crate::b"), "use crate::a; ");
        assert_eq!(
            code_of(r#"let s = "//"; crate::b"#),
            r#"let s = "//"; crate::b"#
        );
    }

    const DOC: &str = "x\n<!-- layering:rules -->\n| module | may use |\n|---|---|\n| util | |\n| proto | util |\n| api | proto, util |\n<!-- /layering:rules -->\n<!-- layering:pending -->\n| arrow | why |\n|---|---|\n| util -> proto | soon |\n<!-- /layering:pending -->\n";

    #[test]
    fn parses_rules_and_pending() {
        let r = parse_rules(DOC).unwrap();
        assert_eq!(r.allowed["util"], BTreeSet::new());
        assert_eq!(r.allowed["api"].len(), 2);
        assert!(r.pending.contains(&("util".into(), "proto".into())));
        assert_eq!(
            parse_rules("nothing").unwrap_err(),
            RulesError::MissingTable(RULES.0)
        );
    }

    /// A tree with a downward import, an upward one, a tolerated one and a new module.
    #[test]
    fn reports_forbidden_arrows_with_file_and_line() {
        let root = std::env::temp_dir().join(format!("layering-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let w = |p: &str, t: &str| {
            let f = root.join("src").join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, t).unwrap();
        };
        w("lib.rs", "pub mod util; pub mod proto; pub mod api;");
        w("util/mod.rs", "// crate::api in a comment\n");
        w(
            "proto/mod.rs",
            "use crate::util::x;\n\nfn f() { crate::api::g(); }\n",
        );
        w("api/mod.rs", "use crate::{proto, util};\n");
        let rules = parse_rules(DOC).unwrap();
        let found = check_tree(&root, &rules).unwrap();
        assert_eq!(
            found,
            [
                Finding::Forbidden {
                    file: "src/proto/mod.rs".into(),
                    line: 3,
                    from: "proto".into(),
                    to: "api".into()
                },
                Finding::StalePending {
                    from: "util".into(),
                    to: "proto".into()
                }
            ]
        );
        assert_eq!(
            found[0].to_string(),
            "src/proto/mod.rs:3: `proto` imports `api`, which docs/architecture.md does not allow (proto -> api)"
        );
        w("extra/mod.rs", "");
        let found = check_tree(&root, &rules).unwrap();
        assert!(found.contains(&Finding::UnknownModule {
            file: "src/extra/mod.rs".into(),
            module: "extra".into()
        }));
        let _ = std::fs::remove_dir_all(&root);
    }
}
