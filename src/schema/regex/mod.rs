//! A small, eval-free regular expression engine for JSON Schema `pattern` and
//! `patternProperties` (JSON Schema 2020-12 Validation § 6.3.3: ECMA-262 dialect; Core § 6.4
//! "Regular Expressions"). Supported: literals, `.`, classes (`[a-z]`, `[^...]`), `\d \w \s \D \W
//! \S`, `\b \B`, anchors `^ $`, groups `( )`, `(?: )`, `(?<name> )`, alternation, greedy and lazy
//! quantifiers `* + ? {n} {n,} {n,m}`, and character escapes (`\n`, `\xhh`, `\uhhhh`, `\u{h}`,
//! `\cX`, escaped punctuation). Backreferences, lookaround and `\p{..}` are reported as
//! unsupported rather than approximated. Matching works on Unicode code points.

mod parse;
mod vm;

use parse::ParseError;

/// A compiled pattern.
#[derive(Debug, Clone)]
pub(crate) struct Regex {
    program: vm::Program,
}

/// Why a pattern did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RegexError {
    /// Not valid ECMA-262.
    Syntax { offset: usize, reason: &'static str },
    /// Valid ECMA-262 this engine does not implement.
    Unsupported {
        offset: usize,
        construct: &'static str,
    },
    /// Compiles to more than `vm::MAX_INSTS` instructions.
    TooLarge { limit: usize },
}

/// The step budget ran out before the match was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OutOfSteps;

impl Regex {
    /// Parses and compiles `pattern`.
    pub(crate) fn new(pattern: &str) -> Result<Regex, RegexError> {
        let ast = parse::parse(pattern).map_err(|e| match e {
            ParseError::Syntax { offset, reason } => RegexError::Syntax { offset, reason },
            ParseError::Unsupported { offset, construct } => {
                RegexError::Unsupported { offset, construct }
            }
        })?;
        let program = vm::Program::new(&ast).map_err(|_| RegexError::TooLarge {
            limit: vm::MAX_INSTS,
        })?;
        Ok(Regex { program })
    }

    /// Whether `text` contains a match (patterns are not implicitly anchored). Consumes steps
    /// from `budget`; `Err` when it runs out.
    pub(crate) fn is_match(&self, text: &str, budget: &mut u64) -> Result<bool, OutOfSteps> {
        let chars: Vec<char> = text.chars().collect();
        self.program
            .search(&chars, budget)
            .map_err(|vm::OutOfSteps| OutOfSteps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn m(p: &str, s: &str) -> bool {
        let mut budget = 1_000_000;
        Regex::new(p).unwrap().is_match(s, &mut budget).unwrap()
    }

    #[test]
    fn basics() {
        assert!(m("a", "xay"));
        assert!(!m("^a", "xa"));
        assert!(m("^a$", "a"));
        assert!(!m("^a$", "a\n"));
        assert!(m("^(ab|cd)+$", "abcdab"));
        assert!(!m("^(ab|cd)+$", "abc"));
        assert!(m("^[a-c]{2,3}$", "abc"));
        assert!(!m("^[a-c]{2,3}$", "abca"));
        assert!(m("^[^0-9]*$", "abc"));
        assert!(!m("^[^0-9]*$", "a1"));
        assert!(m("^\\d{3}-\\d{4}$", "555-1234"));
        assert!(m("\\bfoo\\b", "a foo b"));
        assert!(!m("\\bfoo\\b", "afoo"));
        assert!(m("^.$", "\u{1F600}"));
        assert!(!m("^.$", "\n"));
        assert!(m("^(a*)*b$", "aaab"));
        assert!(!m("^(a*)*b$", "aaa"));
        assert!(m("^(?:a|)+$", ""));
        assert!(m("^a+?b$", "aab"));
        assert!(m("^[\\w.-]+@[\\w-]+\\.\\w+$", "x.y-z@ex-ample.com"));
        assert!(m("^[-a]$", "-"));
        assert!(m("^[a-]$", "-"));
        assert!(m("^\\s$", "\u{3000}"));
        assert!(m("^[\\s\\d]+$", " 1 2"));
        assert!(m("^x{$", "x{"));
    }

    #[test]
    fn catastrophic_runs_out() {
        let r = Regex::new("^(a+)+$").unwrap();
        let input = format!("{}b", "a".repeat(40));
        let mut budget = 100_000;
        assert_eq!(r.is_match(&input, &mut budget), Err(OutOfSteps));
        assert_eq!(budget, 0);
    }

    #[test]
    fn too_large() {
        assert_eq!(
            Regex::new("(a{1000}){1000}").unwrap_err(),
            RegexError::TooLarge {
                limit: vm::MAX_INSTS
            }
        );
    }
}
