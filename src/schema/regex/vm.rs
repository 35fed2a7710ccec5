//! The matcher: an [`Ast`] compiled to a small instruction list and run by a backtracking machine
//! with an explicit stack (so a long input cannot overflow the call stack) and a step budget (so a
//! pattern with exponential backtracking, e.g. `^(a+)+$`, stops with an error instead of hanging).
//!
//! Semantics follow ECMA-262 § 22.2.2 "Pattern Semantics": alternatives are tried left to right,
//! greedy quantifiers try one more iteration first, lazy ones one fewer; an iteration past the
//! minimum that matches the empty string fails (§ 22.2.2.3.1 "RepeatMatcher", step 2.b), which
//! keeps `(a*)*` from looping.

use super::parse::{is_word, Ast, Class};

/// One instruction.
#[derive(Debug, Clone)]
enum Inst {
    Char(char),
    Any,
    Class(usize),
    Start,
    End,
    WordBoundary(bool),
    /// Try `.0` first; on failure resume at `.1`.
    Split(usize, usize),
    Jmp(usize),
    /// Remember the position in a register (start of a loop iteration).
    Mark(usize),
    /// Fail if the position equals the register (the iteration matched nothing).
    Progress(usize),
    Match,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    insts: Vec<Inst>,
    classes: Vec<Class>,
    registers: usize,
    anchored: bool,
}

/// The program grew past its size limit.
#[derive(Debug)]
pub(crate) struct TooLarge;

/// The step budget ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OutOfSteps;

/// Most instructions one pattern may compile to.
pub(crate) const MAX_INSTS: usize = 20_000;

struct Emitter {
    insts: Vec<Inst>,
    classes: Vec<Class>,
    registers: usize,
}

fn nullable(ast: &Ast) -> bool {
    match ast {
        Ast::Empty | Ast::Start | Ast::End | Ast::WordBoundary(_) => true,
        Ast::Char(_) | Ast::Any | Ast::Class(_) => false,
        Ast::Concat(items) => items.iter().all(nullable),
        Ast::Alt(items) => items.iter().any(nullable),
        Ast::Repeat { ast, min, .. } => *min == 0 || nullable(ast),
    }
}

impl Emitter {
    fn push(&mut self, inst: Inst) -> Result<usize, TooLarge> {
        if self.insts.len() >= MAX_INSTS {
            return Err(TooLarge);
        }
        self.insts.push(inst);
        Ok(self.insts.len() - 1)
    }

    fn pc(&self) -> usize {
        self.insts.len()
    }

    fn patch_split_second(&mut self, at: usize, target: usize) {
        if let Inst::Split(_, ref mut second) = self.insts[at] {
            *second = target;
        }
    }

    fn patch_jmp(&mut self, at: usize, target: usize) {
        if let Inst::Jmp(ref mut t) = self.insts[at] {
            *t = target;
        }
    }

    /// `Split` toward `body` (next instruction) and `exit` (patched later), ordered by greed.
    fn split(&mut self, greedy: bool) -> Result<usize, TooLarge> {
        let here = self.pc();
        let inst = if greedy {
            Inst::Split(here + 1, usize::MAX)
        } else {
            Inst::Split(usize::MAX, here + 1)
        };
        self.push(inst)
    }

    fn patch_exit(&mut self, at: usize, greedy: bool, exit: usize) {
        if let Inst::Split(ref mut a, ref mut b) = self.insts[at] {
            if greedy {
                *b = exit;
            } else {
                *a = exit;
            }
        }
    }

    /// One optional iteration: body, bracketed by the empty-iteration check when needed.
    fn iteration(&mut self, ast: &Ast, check: bool) -> Result<(), TooLarge> {
        if check {
            let r = self.registers;
            self.registers += 1;
            self.push(Inst::Mark(r))?;
            self.emit(ast)?;
            self.push(Inst::Progress(r))?;
        } else {
            self.emit(ast)?;
        }
        Ok(())
    }

    fn emit(&mut self, ast: &Ast) -> Result<(), TooLarge> {
        match ast {
            Ast::Empty => {}
            Ast::Char(c) => {
                self.push(Inst::Char(*c))?;
            }
            Ast::Any => {
                self.push(Inst::Any)?;
            }
            Ast::Class(class) => {
                self.classes.push(class.clone());
                self.push(Inst::Class(self.classes.len() - 1))?;
            }
            Ast::Start => {
                self.push(Inst::Start)?;
            }
            Ast::End => {
                self.push(Inst::End)?;
            }
            Ast::WordBoundary(b) => {
                self.push(Inst::WordBoundary(*b))?;
            }
            Ast::Concat(items) => {
                for item in items {
                    self.emit(item)?;
                }
            }
            Ast::Alt(alts) => {
                let mut jumps = Vec::new();
                for (i, alt) in alts.iter().enumerate() {
                    if i + 1 < alts.len() {
                        let split = self.split(true)?;
                        self.emit(alt)?;
                        jumps.push(self.push(Inst::Jmp(usize::MAX))?);
                        let next = self.pc();
                        self.patch_split_second(split, next);
                    } else {
                        self.emit(alt)?;
                    }
                }
                let end = self.pc();
                for j in jumps {
                    self.patch_jmp(j, end);
                }
            }
            Ast::Repeat {
                ast,
                min,
                max,
                greedy,
            } => {
                for _ in 0..*min {
                    self.emit(ast)?;
                }
                let check = nullable(ast);
                match max {
                    Some(max) => {
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.split(*greedy)?);
                            self.iteration(ast, check)?;
                        }
                        let exit = self.pc();
                        for s in splits {
                            self.patch_exit(s, *greedy, exit);
                        }
                    }
                    None => {
                        let top = self.split(*greedy)?;
                        self.iteration(ast, check)?;
                        self.push(Inst::Jmp(top))?;
                        let exit = self.pc();
                        self.patch_exit(top, *greedy, exit);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Backtracking entries: an alternative to resume, or a register value to restore.
enum Backtrack {
    Resume { pc: usize, pos: usize },
    Restore { register: usize, value: usize },
}

fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

impl Program {
    /// Compiles `ast`.
    pub(crate) fn new(ast: &Ast) -> Result<Program, TooLarge> {
        let mut e = Emitter {
            insts: Vec::new(),
            classes: Vec::new(),
            registers: 0,
        };
        e.emit(ast)?;
        e.push(Inst::Match)?;
        let anchored = matches!(e.insts.first(), Some(Inst::Start));
        Ok(Program {
            insts: e.insts,
            classes: e.classes,
            registers: e.registers,
            anchored,
        })
    }

    /// ECMA-262 `RegExp.prototype.test` without flags: is there a match starting anywhere?
    /// Every executed instruction costs one of `budget`'s steps, across all start positions.
    pub(crate) fn search(&self, input: &[char], budget: &mut u64) -> Result<bool, OutOfSteps> {
        let mut stack = Vec::new();
        let mut registers = vec![usize::MAX; self.registers];
        for start in 0..=input.len() {
            if self.run(input, start, budget, &mut stack, &mut registers)? {
                return Ok(true);
            }
            if self.anchored {
                break;
            }
        }
        Ok(false)
    }

    fn run(
        &self,
        input: &[char],
        start: usize,
        budget: &mut u64,
        stack: &mut Vec<Backtrack>,
        registers: &mut [usize],
    ) -> Result<bool, OutOfSteps> {
        stack.clear();
        let (mut pc, mut pos) = (0usize, start);
        loop {
            if *budget == 0 {
                return Err(OutOfSteps);
            }
            *budget -= 1;
            let ok = match &self.insts[pc] {
                Inst::Char(c) => {
                    let hit = input.get(pos) == Some(c);
                    pos += usize::from(hit);
                    hit
                }
                Inst::Any => {
                    let hit = input.get(pos).is_some_and(|&c| !is_line_terminator(c));
                    pos += usize::from(hit);
                    hit
                }
                Inst::Class(i) => {
                    let hit = input.get(pos).is_some_and(|&c| self.classes[*i].matches(c));
                    pos += usize::from(hit);
                    hit
                }
                Inst::Start => pos == 0,
                Inst::End => pos == input.len(),
                Inst::WordBoundary(want) => {
                    let before = pos > 0 && is_word(input[pos - 1]);
                    let after = input.get(pos).is_some_and(|&c| is_word(c));
                    (before != after) == *want
                }
                Inst::Split(first, second) => {
                    stack.push(Backtrack::Resume { pc: *second, pos });
                    pc = *first;
                    continue;
                }
                Inst::Jmp(to) => {
                    pc = *to;
                    continue;
                }
                Inst::Mark(r) => {
                    stack.push(Backtrack::Restore {
                        register: *r,
                        value: registers[*r],
                    });
                    registers[*r] = pos;
                    true
                }
                Inst::Progress(r) => registers[*r] != pos,
                Inst::Match => return Ok(true),
            };
            if ok {
                pc += 1;
                continue;
            }
            loop {
                match stack.pop() {
                    None => return Ok(false),
                    Some(Backtrack::Restore { register, value }) => registers[register] = value,
                    Some(Backtrack::Resume { pc: p, pos: q }) => {
                        pc = p;
                        pos = q;
                        break;
                    }
                }
            }
        }
    }
}
