//! Parser for the ECMA-262 pattern subset that JSON Schema `pattern` uses in practice (ECMA-262
//! § 22.2.1 "Patterns"), producing an [`Ast`]. The input is taken as Unicode code points (the `u`
//! flag's view), with Annex B leniency where it is harmless: a `{`, `}` or `]` that cannot start a
//! quantifier or class is a literal, and punctuation may be escaped freely.

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ast {
    /// Matches the empty string.
    Empty,
    /// One code point.
    Char(char),
    /// `.`: any code point but a line terminator (§ 22.2.2.7 "CharacterSetMatcher", dotAll off).
    Any,
    /// A character class or a class escape.
    Class(Class),
    /// `^` without the `m` flag: start of input.
    Start,
    /// `$` without the `m` flag: end of input.
    End,
    /// `\b` (true) or `\B` (false).
    WordBoundary(bool),
    /// A sequence.
    Concat(Vec<Ast>),
    /// Alternatives, tried left to right.
    Alt(Vec<Ast>),
    /// A quantified atom.
    Repeat {
        /// The atom.
        ast: Box<Ast>,
        /// Least count.
        min: u32,
        /// Largest count (`None`: unbounded).
        max: Option<u32>,
        /// Greedy (`true`) or lazy (`?` suffix).
        greedy: bool,
    },
}

/// The predefined classes of § 22.2.2.9 "CharacterClassEscape".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    /// `\d`: `0-9`.
    Digit,
    /// `\w`: `A-Za-z0-9_`.
    Word,
    /// `\s`: WhiteSpace and LineTerminator (§ 12.2, § 12.3).
    Space,
}

impl Builtin {
    pub(crate) fn matches(self, c: char) -> bool {
        match self {
            Builtin::Digit => c.is_ascii_digit(),
            Builtin::Word => is_word(c),
            Builtin::Space => matches!(
                c,
                '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
                    ..='\u{200a}'
                        | '\u{2028}'
                        | '\u{2029}'
                        | '\u{202f}'
                        | '\u{205f}'
                        | '\u{3000}'
                        | '\u{feff}'
            ),
        }
    }
}

/// `\w` membership (also used by `\b`).
pub(crate) fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A set of code points: ranges and predefined classes (each possibly negated), the whole
/// possibly negated.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Class {
    pub(crate) negated: bool,
    pub(crate) ranges: Vec<(char, char)>,
    pub(crate) builtins: Vec<(Builtin, bool)>,
}

impl Class {
    fn builtin(b: Builtin, negated: bool) -> Class {
        Class {
            negated: false,
            ranges: Vec::new(),
            builtins: vec![(b, negated)],
        }
    }

    pub(crate) fn matches(&self, c: char) -> bool {
        let hit = self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
            || self.builtins.iter().any(|&(b, neg)| b.matches(c) != neg);
        hit != self.negated
    }
}

/// Why a pattern was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// Not a valid pattern.
    Syntax { offset: usize, reason: &'static str },
    /// Valid ECMA-262 this engine does not implement.
    Unsupported {
        offset: usize,
        construct: &'static str,
    },
}

/// Largest `{n}` / `{n,m}` bound accepted.
pub(crate) const MAX_REPEAT: u32 = 10_000;
/// Deepest group nesting accepted (the parser recurses per group).
const MAX_NESTING: usize = 64;

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
}

/// Parses `pattern` into an [`Ast`].
pub(crate) fn parse(pattern: &str) -> Result<Ast, ParseError> {
    let mut p = Parser {
        chars: pattern.chars().collect(),
        pos: 0,
        depth: 0,
    };
    let ast = p.alternation()?;
    match p.peek() {
        None => Ok(ast),
        Some(_) => Err(p.syntax("unmatched ')'")),
    }
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).copied()
    }

    fn syntax(&self, reason: &'static str) -> ParseError {
        ParseError::Syntax {
            offset: self.pos,
            reason,
        }
    }

    fn unsupported(&self, construct: &'static str) -> ParseError {
        ParseError::Unsupported {
            offset: self.pos,
            construct,
        }
    }

    fn alternation(&mut self) -> Result<Ast, ParseError> {
        let mut alts = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.pos += 1;
            alts.push(self.sequence()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Ast::Empty)
        } else {
            Ast::Alt(alts)
        })
    }

    fn sequence(&mut self) -> Result<Ast, ParseError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let start = self.pos;
            let atom = self.atom()?;
            let quantifiable = !matches!(atom, Ast::Start | Ast::End | Ast::WordBoundary(_));
            match self.quantifier()? {
                Some((min, max, greedy)) => {
                    if !quantifiable {
                        return Err(ParseError::Syntax {
                            offset: start,
                            reason: "nothing to repeat",
                        });
                    }
                    items.push(Ast::Repeat {
                        ast: Box::new(atom),
                        min,
                        max,
                        greedy,
                    });
                }
                None => items.push(atom),
            }
        }
        Ok(match items.len() {
            0 => Ast::Empty,
            1 => items.pop().unwrap_or(Ast::Empty),
            _ => Ast::Concat(items),
        })
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at the cursor without consuming; `None` if it is not one.
    fn braces(&self) -> Option<(u32, Option<u32>, usize)> {
        let mut i = self.pos;
        if self.chars.get(i) != Some(&'{') {
            return None;
        }
        i += 1;
        let number = |i: &mut usize| -> Option<u64> {
            let start = *i;
            let mut n: u64 = 0;
            while let Some(d) = self.chars.get(*i).and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(u64::from(d));
                *i += 1;
            }
            (*i > start).then_some(n)
        };
        let min = number(&mut i)?;
        let max = match self.chars.get(i) {
            Some('}') => Some(min),
            Some(',') => {
                i += 1;
                if self.chars.get(i) == Some(&'}') {
                    None
                } else {
                    let m = number(&mut i)?;
                    if self.chars.get(i) != Some(&'}') {
                        return None;
                    }
                    Some(m)
                }
            }
            _ => return None,
        };
        let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        Some((clamp(min), max.map(clamp), i + 1))
    }

    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>, bool)>, ParseError> {
        let (min, max) = match self.peek() {
            Some('*') => {
                self.pos += 1;
                (0, None)
            }
            Some('+') => {
                self.pos += 1;
                (1, None)
            }
            Some('?') => {
                self.pos += 1;
                (0, Some(1))
            }
            Some('{') => match self.braces() {
                Some((min, max, end)) => {
                    if max.is_some_and(|m| m < min) {
                        return Err(self.syntax("numbers out of order in {} quantifier"));
                    }
                    if min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT) {
                        return Err(self.unsupported("a {} bound above 10000"));
                    }
                    self.pos = end;
                    (min, max)
                }
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let greedy = if self.peek() == Some('?') {
            self.pos += 1;
            false
        } else {
            true
        };
        Ok(Some((min, max, greedy)))
    }

    fn atom(&mut self) -> Result<Ast, ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.syntax("unexpected end"));
        };
        match c {
            '^' => {
                self.pos += 1;
                Ok(Ast::Start)
            }
            '$' => {
                self.pos += 1;
                Ok(Ast::End)
            }
            '.' => {
                self.pos += 1;
                Ok(Ast::Any)
            }
            '(' => self.group(),
            '[' => self.class(),
            '\\' => self.escape(),
            '*' | '+' | '?' => Err(self.syntax("nothing to repeat")),
            '{' if self.braces().is_some() => Err(self.syntax("nothing to repeat")),
            c => {
                self.pos += 1;
                Ok(Ast::Char(c))
            }
        }
    }

    fn group(&mut self) -> Result<Ast, ParseError> {
        if self.depth >= MAX_NESTING {
            return Err(self.unsupported("groups nested deeper than 64"));
        }
        self.pos += 1; // '('
        if self.peek() == Some('?') {
            match (self.peek_at(1), self.peek_at(2)) {
                (Some(':'), _) => self.pos += 2,
                (Some('='), _) | (Some('!'), _) => return Err(self.unsupported("lookahead")),
                (Some('<'), Some('=')) | (Some('<'), Some('!')) => {
                    return Err(self.unsupported("lookbehind"))
                }
                (Some('<'), _) => {
                    // Named capturing group: captures are not observable through `test`.
                    self.pos += 2;
                    let start = self.pos;
                    while let Some(c) = self.peek() {
                        if c == '>' {
                            break;
                        }
                        if !(c.is_alphanumeric() || c == '_' || c == '$') {
                            return Err(self.syntax("invalid group name"));
                        }
                        self.pos += 1;
                    }
                    if self.peek() != Some('>') || self.pos == start {
                        return Err(self.syntax("invalid group name"));
                    }
                    self.pos += 1;
                }
                _ => return Err(self.syntax("invalid group")),
            }
        }
        self.depth += 1;
        let inner = self.alternation()?;
        self.depth -= 1;
        if self.peek() != Some(')') {
            return Err(self.syntax("missing ')'"));
        }
        self.pos += 1;
        Ok(inner)
    }

    fn hex(&mut self, digits: usize) -> Option<u32> {
        let mut n = 0u32;
        for k in 0..digits {
            n = n * 16 + self.peek_at(k)?.to_digit(16)?;
        }
        self.pos += digits;
        Some(n)
    }

    /// `\u` forms after the `u`: `XXXX` (a surrogate pair written as two escapes is joined) or
    /// `{X...}`.
    fn unicode_escape(&mut self) -> Result<char, ParseError> {
        if self.peek() == Some('{') {
            self.pos += 1;
            let mut n: u32 = 0;
            let start = self.pos;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                n = n.saturating_mul(16).saturating_add(d);
                self.pos += 1;
            }
            if self.pos == start || self.peek() != Some('}') {
                return Err(self.syntax("invalid \\u{...} escape"));
            }
            self.pos += 1;
            return char::from_u32(n).ok_or_else(|| self.syntax("invalid code point"));
        }
        let hi = self
            .hex(4)
            .ok_or_else(|| self.syntax("invalid \\u escape"))?;
        if (0xD800..0xDC00).contains(&hi)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let save = self.pos;
            self.pos += 2;
            match self.hex(4) {
                Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return char::from_u32(c).ok_or_else(|| self.syntax("invalid code point"));
                }
                _ => self.pos = save,
            }
        }
        char::from_u32(hi).ok_or_else(|| self.unsupported("a lone surrogate"))
    }

    /// One escape after `\`, shared by atoms and class members. `Err` for forms that are
    /// invalid in both places; `in_class` selects `\b` = backspace.
    fn escape_item(&mut self, in_class: bool) -> Result<Ast, ParseError> {
        let start = self.pos;
        let at = |construct| ParseError::Unsupported {
            offset: start,
            construct,
        };
        self.pos += 1; // '\'
        let Some(c) = self.peek() else {
            return Err(self.syntax("\\ at end of pattern"));
        };
        self.pos += 1;
        let ch = |c: char| Ok(Ast::Char(c));
        match c {
            'd' => Ok(Ast::Class(Class::builtin(Builtin::Digit, false))),
            'D' => Ok(Ast::Class(Class::builtin(Builtin::Digit, true))),
            'w' => Ok(Ast::Class(Class::builtin(Builtin::Word, false))),
            'W' => Ok(Ast::Class(Class::builtin(Builtin::Word, true))),
            's' => Ok(Ast::Class(Class::builtin(Builtin::Space, false))),
            'S' => Ok(Ast::Class(Class::builtin(Builtin::Space, true))),
            'b' if in_class => ch('\u{8}'),
            'b' => Ok(Ast::WordBoundary(true)),
            'B' if !in_class => Ok(Ast::WordBoundary(false)),
            'n' => ch('\n'),
            'r' => ch('\r'),
            't' => ch('\t'),
            'f' => ch('\u{c}'),
            'v' => ch('\u{b}'),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => ch('\0'),
            '1'..='9' if !in_class => Err(at("backreference")),
            'k' => Err(at("named backreference")),
            'p' | 'P' => Err(at("Unicode property escape")),
            'x' => self
                .hex(2)
                .and_then(char::from_u32)
                .map(Ast::Char)
                .ok_or_else(|| self.syntax("invalid \\x escape")),
            'u' => self.unicode_escape().map(Ast::Char),
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.pos += 1;
                    ch(char::from(l as u8 % 32))
                }
                _ => Err(self.syntax("invalid \\c escape")),
            },
            c if c.is_ascii_alphanumeric() => Err(ParseError::Syntax {
                offset: start,
                reason: "invalid escape",
            }),
            c => ch(c),
        }
    }

    fn escape(&mut self) -> Result<Ast, ParseError> {
        self.escape_item(false)
    }

    /// One class member: a code point, or a predefined class.
    fn class_atom(&mut self) -> Result<Ast, ParseError> {
        match self.peek() {
            Some('\\') => self.escape_item(true),
            Some(c) => {
                self.pos += 1;
                Ok(Ast::Char(c))
            }
            None => Err(self.syntax("missing ']'")),
        }
    }

    fn class(&mut self) -> Result<Ast, ParseError> {
        self.pos += 1; // '['
        let mut class = Class::default();
        if self.peek() == Some('^') {
            class.negated = true;
            self.pos += 1;
        }
        loop {
            match self.peek() {
                None => return Err(self.syntax("missing ']'")),
                Some(']') => {
                    self.pos += 1;
                    return Ok(Ast::Class(class));
                }
                Some(_) => {}
            }
            let start = self.pos;
            let first = self.class_atom()?;
            let is_range = self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']');
            if is_range {
                self.pos += 1; // '-'
                let second = self.class_atom()?;
                match (first, second) {
                    (Ast::Char(lo), Ast::Char(hi)) => {
                        if lo > hi {
                            return Err(ParseError::Syntax {
                                offset: start,
                                reason: "range out of order in character class",
                            });
                        }
                        class.ranges.push((lo, hi));
                    }
                    _ => {
                        return Err(ParseError::Syntax {
                            offset: start,
                            reason: "a class escape cannot bound a range",
                        })
                    }
                }
                continue;
            }
            match first {
                Ast::Char(c) => class.ranges.push((c, c)),
                Ast::Class(inner) => class.builtins.extend(inner.builtins),
                _ => return Err(self.syntax("invalid class member")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn shapes() {
        assert_eq!(parse("").unwrap(), Ast::Empty);
        assert_eq!(parse("a").unwrap(), Ast::Char('a'));
        assert!(matches!(parse("a|b").unwrap(), Ast::Alt(v) if v.len() == 2));
        assert!(matches!(
            parse("a{2,3}?").unwrap(),
            Ast::Repeat {
                min: 2,
                max: Some(3),
                greedy: false,
                ..
            }
        ));
        assert_eq!(
            parse("x{").unwrap(),
            Ast::Concat(vec![Ast::Char('x'), Ast::Char('{')])
        );
        assert_eq!(parse("\\u{1F600}").unwrap(), Ast::Char('\u{1F600}'));
        assert_eq!(parse("\\uD83D\\uDE00").unwrap(), Ast::Char('\u{1F600}'));
    }

    #[test]
    fn errors() {
        assert!(matches!(parse("(a"), Err(ParseError::Syntax { .. })));
        assert!(matches!(parse("a)"), Err(ParseError::Syntax { .. })));
        assert!(matches!(
            parse("*a"),
            Err(ParseError::Syntax { offset: 0, .. })
        ));
        assert!(matches!(parse("^*"), Err(ParseError::Syntax { .. })));
        assert!(matches!(parse("[z-a]"), Err(ParseError::Syntax { .. })));
        assert!(matches!(parse("a{3,2}"), Err(ParseError::Syntax { .. })));
        assert!(matches!(
            parse("(a)\\1"),
            Err(ParseError::Unsupported {
                offset: 3,
                construct: "backreference"
            })
        ));
        assert!(matches!(
            parse("(?=a)"),
            Err(ParseError::Unsupported { .. })
        ));
        assert!(matches!(
            parse("\\p{L}"),
            Err(ParseError::Unsupported { .. })
        ));
        assert!(matches!(parse("\\q"), Err(ParseError::Syntax { .. })));
    }
}
