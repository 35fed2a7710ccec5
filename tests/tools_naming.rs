//! `mcp__<server>__<tool>` naming: normalisation, the 64-character limit, deterministic
//! collision handling regardless of insertion order, and the reverse map.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::tools::naming::{base_name, normalize_part, NameMap, MAX_NAME_LEN};
use mcp_edge::util::hash::{fnv1a32, fnv1a64, hex, sha256};

fn valid(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The part between `mcp__` and the next `__` never contains `__` itself.
fn parts(name: &str) -> Vec<&str> {
    name.split("__").collect()
}

#[test]
fn normalisation() {
    assert_eq!(normalize_part("github"), "github");
    assert_eq!(normalize_part("admin.tools.list"), "admin_tools_list");
    assert_eq!(normalize_part("my__server"), "my_server");
    assert_eq!(normalize_part("__a___b__"), "a_b");
    assert_eq!(normalize_part("a b,c"), "a_b_c");
    assert_eq!(normalize_part("kebab-case-OK"), "kebab-case-OK");
    assert_eq!(normalize_part("café-Ünïcode"), "caf_-_n_code");
    // Only symbols / only non-ASCII / empty: a stable hash stands in.
    let sym = normalize_part("!!!");
    assert_eq!(sym, format!("x{:08x}", fnv1a32(b"!!!")));
    assert_eq!(
        normalize_part("日本語"),
        format!("x{:08x}", fnv1a32("日本語".as_bytes()))
    );
    assert_ne!(normalize_part("日本語"), normalize_part("中文"));
    assert_eq!(normalize_part(""), "x811c9dc5");
}

#[test]
fn plain_names_and_routing() {
    let m = NameMap::build([("github", "search_issues"), ("fs", "read.file")]);
    assert_eq!(
        m.name("github", "search_issues"),
        Some("mcp__github__search_issues")
    );
    assert_eq!(m.name("fs", "read.file"), Some("mcp__fs__read_file"));
    assert_eq!(m.resolve("mcp__fs__read_file"), Some(("fs", "read.file")));
    assert_eq!(m.resolve("mcp__fs__nope"), None);
    assert_eq!(m.len(), 2);
}

#[test]
fn double_underscore_server_does_not_break_routing() {
    let m = NameMap::build([
        ("my__server", "x__y"),
        ("my", "server__x__y"),
        ("my_server", "x_y"),
    ]);
    assert_eq!(m.len(), 3);
    for (name, s, t) in m.iter() {
        assert!(valid(name), "{name}");
        assert_eq!(m.resolve(name), Some((s, t)));
        let p = parts(name);
        assert_eq!(p[0], "mcp");
        assert_eq!(p.len(), 3, "no part contains `__`: {name}");
    }
    // The lossless pair keeps the plain name; the lossy one gets a hash suffix.
    assert_eq!(m.name("my_server", "x_y"), Some("mcp__my_server__x_y"));
    assert_ne!(m.name("my__server", "x__y"), Some("mcp__my_server__x_y"));
    assert_eq!(m.name("my", "server__x__y"), Some("mcp__my__server_x_y"));
}

#[test]
fn long_names_are_shortened_with_a_stable_hash() {
    let server = "s".repeat(200);
    let tool = "t".repeat(200);
    let (name, lossless) = base_name(&server, &tool);
    assert!(!lossless);
    assert!(valid(&name), "{name} ({} chars)", name.len());
    assert_eq!(name.len(), MAX_NAME_LEN);
    assert!(name.starts_with(&format!("mcp__{}__t", "s".repeat(20))));
    assert_eq!(base_name(&server, &tool).0, name, "stable");
    // Two long tools differing only at the end get different names.
    let a = format!("{}_alpha", "x".repeat(100));
    let b = format!("{}_beta", "x".repeat(100));
    let m = NameMap::build([("srv", a.as_str()), ("srv", b.as_str())]);
    let (na, nb) = (m.name("srv", &a).unwrap(), m.name("srv", &b).unwrap());
    assert_ne!(na, nb);
    assert!(valid(na) && valid(nb));
    assert_eq!(m.resolve(na), Some(("srv", a.as_str())));
    // Exactly 64 stays as is; 65 is shortened.
    let t59 = "a".repeat(64 - "mcp__s__".len());
    assert_eq!(base_name("s", &t59).0.len(), 64);
    assert_eq!(base_name("s", &t59).0, format!("mcp__s__{t59}"));
    let t60 = format!("{t59}b");
    assert_eq!(base_name("s", &t60).0.len(), 64);
    assert_ne!(base_name("s", &t60).0, format!("mcp__s__{}", &t60[..56]));
}

#[test]
fn collisions_are_order_independent() {
    let pairs = vec![
        ("a b", "t"),
        ("a_b", "t"),
        ("a.b", "t"),
        ("a__b", "t"),
        ("srv", "get-user"),
        ("srv", "get.user"),
        ("srv", "get_user"),
        ("srv", "get user"),
        ("日本", "x"),
        ("中文", "x"),
        ("!!", "go"),
        ("??", "go"),
    ];
    let forward = NameMap::build(pairs.iter().copied());
    let mut reversed = pairs.clone();
    reversed.reverse();
    let backward = NameMap::build(reversed.iter().copied());
    let mut rotated = pairs.clone();
    rotated.rotate_left(5);
    assert_eq!(forward, backward);
    assert_eq!(forward, NameMap::build(rotated.iter().copied()));
    // Duplicated input pairs collapse.
    let doubled: Vec<_> = pairs.iter().chain(pairs.iter()).copied().collect();
    assert_eq!(forward, NameMap::build(doubled));
    assert_eq!(forward.len(), pairs.len());
    let mut seen = std::collections::BTreeSet::new();
    for (name, s, t) in forward.iter() {
        assert!(valid(name), "{name}");
        assert!(seen.insert(name.to_string()));
        assert_eq!(forward.resolve(name), Some((s, t)));
    }
    assert_eq!(
        forward.name("a_b", "t"),
        Some("mcp__a_b__t"),
        "lossless wins the plain name"
    );
    assert_eq!(forward.name("srv", "get_user"), Some("mcp__srv__get_user"));
    assert_eq!(forward.name("srv", "get-user"), Some("mcp__srv__get-user"));
    // Adding an unrelated server later does not rename existing tools.
    let mut more = pairs.clone();
    more.push(("zeta", "t"));
    let grown = NameMap::build(more);
    for (name, s, t) in forward.iter() {
        assert_eq!(grown.name(s, t), Some(name));
    }
}

#[test]
fn hash_vectors() {
    // FNV-1a reference values (draft-eastlake-fnv test vectors).
    assert_eq!(fnv1a32(b""), 0x811c9dc5);
    assert_eq!(fnv1a32(b"a"), 0xe40c292c);
    assert_eq!(fnv1a32(b"foobar"), 0xbf9cf968);
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    // SHA-256 (FIPS 180-4 examples), including a two-block message and padding edges.
    assert_eq!(
        hex(&sha256(b"")),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        hex(&sha256(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex(&sha256(
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        )),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    assert_eq!(
        hex(&sha256(&[b'a'; 1000])),
        "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
    );
    assert_eq!(
        hex(&sha256(&[b'a'; 64])),
        "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"
    );
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
