//! The crate's own tree against docs/architecture.md: no import its rules table forbids, no
//! module without a row, no stale "being removed" arrow.

use std::path::Path;

#[test]
fn the_crate_follows_its_layering_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/architecture.md"))
        .expect("docs/architecture.md is readable");
    let rules = mcp_edge_layering::parse_rules(&doc).unwrap_or_else(|e| panic!("{e}"));
    let findings = mcp_edge_layering::check_tree(&root, &rules).expect("src/ is readable");
    let report: Vec<String> = findings.iter().map(ToString::to_string).collect();
    assert!(report.is_empty(), "layering:\n{}", report.join("\n"));
}
