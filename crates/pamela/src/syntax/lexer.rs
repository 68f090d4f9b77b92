//! The lexer: model text to a flat token vector.
//!
//! Identifiers and numbers are ASCII; any other character outside comments is a syntax
//! error with a hint. Spans are byte offsets and always fall on character boundaries.

use super::{Fail, MAX_NUMBER_CHARS, MAX_TOKENS};
use crate::diag::ErrorKind;

/// Reserved words. None of them can name a parameter, resource, process or variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kw {
    Param,
    Resource,
    Process,
    Int,
    Real,
    In,
    Seq,
    Par,
    Use,
    Delay,
    If,
    Else,
    Skip,
    Inf,
    Mod,
    Div,
    And,
    Or,
    Not,
    Prob,
    Min,
    Max,
    Floor,
    Ceil,
    Gcd,
    Log,
}

/// Every reserved word with its keyword, for lookup and for messages.
pub(crate) const KEYWORDS: &[(&str, Kw)] = &[
    ("param", Kw::Param),
    ("resource", Kw::Resource),
    ("process", Kw::Process),
    ("int", Kw::Int),
    ("real", Kw::Real),
    ("in", Kw::In),
    ("seq", Kw::Seq),
    ("par", Kw::Par),
    ("use", Kw::Use),
    ("delay", Kw::Delay),
    ("if", Kw::If),
    ("else", Kw::Else),
    ("skip", Kw::Skip),
    ("inf", Kw::Inf),
    ("mod", Kw::Mod),
    ("div", Kw::Div),
    ("and", Kw::And),
    ("or", Kw::Or),
    ("not", Kw::Not),
    ("prob", Kw::Prob),
    ("min", Kw::Min),
    ("max", Kw::Max),
    ("floor", Kw::Floor),
    ("ceil", Kw::Ceil),
    ("gcd", Kw::Gcd),
    ("log", Kw::Log),
];

impl Kw {
    /// The keyword's text.
    pub(crate) fn text(self) -> &'static str {
        KEYWORDS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(s, _)| s)
    }
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident,
    Num,
    Kw(Kw),
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Comma,
    Semi,
    Colon,
    Assign,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    Bar2,
    AndAnd,
    Bang,
    DotDot,
    DotDotEq,
    Eof,
}

impl Tok {
    /// How the token kind is named in "expected …" messages.
    pub(crate) fn describe(self) -> String {
        let s = match self {
            Tok::Ident => "a name",
            Tok::Num => "a number",
            Tok::Kw(k) => return format!("`{}`", k.text()),
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::LBrace => "`{`",
            Tok::RBrace => "`}`",
            Tok::LBracket => "`[`",
            Tok::RBracket => "`]`",
            Tok::Comma => "`,`",
            Tok::Semi => "`;`",
            Tok::Colon => "`:`",
            Tok::Assign => "`=`",
            Tok::EqEq => "`==`",
            Tok::NotEq => "`!=`",
            Tok::Lt => "`<`",
            Tok::Le => "`<=`",
            Tok::Gt => "`>`",
            Tok::Ge => "`>=`",
            Tok::Plus => "`+`",
            Tok::Minus => "`-`",
            Tok::Star => "`*`",
            Tok::Slash => "`/`",
            Tok::Bar2 => "`||`",
            Tok::AndAnd => "`&&`",
            Tok::Bang => "`!`",
            Tok::DotDot => "`..`",
            Tok::DotDotEq => "`..=`",
            Tok::Eof => "end of input",
        };
        s.to_string()
    }
}

/// A token: its kind and byte range `start..end` in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Token {
    /// The token's text.
    pub(crate) fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start as usize..self.end as usize]
    }
}

/// Splits `src` into tokens, ending with one [`Tok::Eof`].
///
/// The caller guarantees `src.len()` fits in `u32` (the input size limit is far below).
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, Fail> {
    let b = src.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0usize;
    let n = b.len();
    while i < n {
        let c = b[i];
        // Whitespace and comments.
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && i + 1 < n && b[i + 1] == b'/' {
            while i < n && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && i + 1 < n && b[i + 1] == b'*' {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= n {
                    return Err(Fail::new(
                        ErrorKind::Syntax,
                        "unterminated block comment",
                        start,
                        2,
                        "this comment is never closed",
                    )
                    .help("close the comment with `*/` (block comments do not nest)"));
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            continue;
        }
        if out.len() >= MAX_TOKENS {
            return Err(Fail::new(
                ErrorKind::Limit,
                format!("the model has more than {MAX_TOKENS} tokens"),
                i,
                1,
                "token limit reached here",
            )
            .help("split the model or describe repetition with `seq`/`par` over a range"));
        }
        let start = i;
        let tok = if c.is_ascii_alphabetic() || c == b'_' {
            while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &src[start..i];
            match KEYWORDS.iter().find(|(s, _)| *s == word) {
                Some((_, k)) => Tok::Kw(*k),
                None => Tok::Ident,
            }
        } else if c.is_ascii_digit() {
            i = number_end(src, start)?;
            Tok::Num
        } else {
            let next = if i + 1 < n { b[i + 1] } else { 0 };
            let next2 = if i + 2 < n { b[i + 2] } else { 0 };
            let (tok, len) = match (c, next) {
                (b'(', _) => (Tok::LParen, 1),
                (b')', _) => (Tok::RParen, 1),
                (b'{', _) => (Tok::LBrace, 1),
                (b'}', _) => (Tok::RBrace, 1),
                (b'[', _) => (Tok::LBracket, 1),
                (b']', _) => (Tok::RBracket, 1),
                (b',', _) => (Tok::Comma, 1),
                (b';', _) => (Tok::Semi, 1),
                (b':', _) => (Tok::Colon, 1),
                (b'=', b'=') => (Tok::EqEq, 2),
                (b'=', _) => (Tok::Assign, 1),
                (b'!', b'=') => (Tok::NotEq, 2),
                (b'!', _) => (Tok::Bang, 1),
                (b'<', b'=') => (Tok::Le, 2),
                (b'<', _) => (Tok::Lt, 1),
                (b'>', b'=') => (Tok::Ge, 2),
                (b'>', _) => (Tok::Gt, 1),
                (b'+', _) => (Tok::Plus, 1),
                (b'-', _) => (Tok::Minus, 1),
                (b'*', _) => (Tok::Star, 1),
                (b'/', _) => (Tok::Slash, 1),
                (b'|', b'|') => (Tok::Bar2, 2),
                (b'&', b'&') => (Tok::AndAnd, 2),
                (b'.', b'.') if next2 == b'=' => (Tok::DotDotEq, 3),
                (b'.', b'.') => (Tok::DotDot, 2),
                _ => return Err(bad_char(src, i)),
            };
            i += len;
            tok
        };
        out.push(Token {
            tok,
            start: start as u32,
            end: i as u32,
        });
    }
    out.push(Token {
        tok: Tok::Eof,
        start: n as u32,
        end: n as u32,
    });
    Ok(out)
}

/// The end of the number literal starting at `start`:
/// `digits [ '.' digits ] [ (e|E) [+|-] digits ]`, not followed by a name character.
fn number_end(src: &str, start: usize) -> Result<usize, Fail> {
    let b = src.as_bytes();
    let n = b.len();
    let mut i = start;
    let digits = |mut i: usize| {
        while i < n && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    i = digits(i);
    if i < n && b[i] == b'.' {
        if i + 1 < n && b[i + 1].is_ascii_digit() {
            i = digits(i + 1);
        } else if !(i + 1 < n && b[i + 1] == b'.') {
            let text = &src[start..=i];
            return Err(Fail::new(
                ErrorKind::Syntax,
                format!("bad number `{text}`: expected digits after the decimal point"),
                start,
                i + 1 - start,
                "incomplete number",
            )
            .help(format!("write `{text}0` (or drop the `.`)")));
        }
    }
    if i < n && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < n && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < n && b[j].is_ascii_digit() {
            i = digits(j);
        } else {
            let end = name_end(b, i);
            let text = &src[start..end];
            return Err(Fail::new(
                ErrorKind::Syntax,
                format!("bad number `{text}`: the exponent has no digits"),
                start,
                end - start,
                "malformed exponent",
            )
            .help("write the exponent as digits, e.g. `181e-6` or `1e6`"));
        }
    }
    if i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        let end = name_end(b, i);
        let text = &src[start..end];
        return Err(Fail::new(
            ErrorKind::Syntax,
            format!("bad number `{text}`"),
            start,
            end - start,
            "a number cannot be followed by letters",
        )
        .help(
            "numbers are plain decimals without units or prefixes: write e.g. `181e-6` for \
             181 µs, and put an operator between a number and a name (`2 * N`)",
        ));
    }
    if i - start > MAX_NUMBER_CHARS {
        return Err(Fail::new(
            ErrorKind::Syntax,
            format!("bad number: the literal is longer than {MAX_NUMBER_CHARS} characters"),
            start,
            i - start,
            "number too long",
        )
        .help("use scientific notation, e.g. `1e300`"));
    }
    Ok(i)
}

/// The end of a run of name characters (letters, digits, `_`) starting at `i`.
fn name_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    i
}

/// The error for an unexpected character at byte `i` (a character boundary).
fn bad_char(src: &str, i: usize) -> Fail {
    let ch = src[i..].chars().next().unwrap_or('\u{fffd}');
    let len = ch.len_utf8();
    let help = match ch {
        '.' => "a lone `.` is not valid: ranges are written `a..=b`, decimals `0.5`".to_string(),
        '|' => "parallel composition is written `||`".to_string(),
        '&' => "conditions are combined with `and` / `or`".to_string(),
        '^' => "there is no power operator: multiply, e.g. `N * N`".to_string(),
        'τ' => "names are ASCII: write `tau` (e.g. `tau_s`)".to_string(),
        '⌈' | '⌉' => "write `ceil(x)`".to_string(),
        '⌊' | '⌋' => "write `floor(x)`".to_string(),
        '≠' => "write `!=`".to_string(),
        '≤' => "write `<=`".to_string(),
        '≥' => "write `>=`".to_string(),
        '∞' => "write `inf`".to_string(),
        '#' => "comments start with `//` or are enclosed in `/* */`".to_string(),
        c if !c.is_ascii() => "names and operators are ASCII".to_string(),
        _ => "remove it".to_string(),
    };
    Fail::new(
        ErrorKind::Syntax,
        format!("unexpected character `{}`", ch.escape_debug()),
        i,
        len,
        "not valid here",
    )
    .help(help)
}

/// An upper bound on the parser's nesting depth for `toks`.
///
/// Every nesting level the parser enters consumes a token of its own, and every level
/// opened since the last `;`, `||` or `,` at the same bracket level has ended by that
/// separator. So the number of tokens seen since the last separator, summed over the open
/// brackets, bounds the depth.
pub(crate) fn depth_bound(toks: &[Token]) -> usize {
    let mut levels: Vec<usize> = vec![0];
    let mut total = 0usize;
    let mut max = 0usize;
    for t in toks {
        let top = levels.len() - 1;
        match t.tok {
            Tok::Semi | Tok::Bar2 | Tok::Comma => {
                total -= levels[top];
                levels[top] = 0;
            }
            Tok::RParen | Tok::RBrace | Tok::RBracket => {
                if top > 0 {
                    total -= levels[top];
                    levels.pop();
                }
            }
            Tok::LParen | Tok::LBrace | Tok::LBracket => {
                levels[top] += 1;
                total += 1;
                levels.push(0);
            }
            _ => {
                levels[top] += 1;
                total += 1;
            }
        }
        max = max.max(total);
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn ranges_and_decimals() {
        assert_eq!(
            kinds("1..=N 0.5 1e-6"),
            vec![
                Tok::Num,
                Tok::DotDotEq,
                Tok::Ident,
                Tok::Num,
                Tok::Num,
                Tok::Eof
            ]
        );
        assert_eq!(kinds("1..2")[1], Tok::DotDot);
    }

    #[test]
    fn comments_and_keywords() {
        assert_eq!(
            kinds("/* a */ seq // x\n par"),
            vec![Tok::Kw(Kw::Seq), Tok::Kw(Kw::Par), Tok::Eof]
        );
        let e = lex("/* open").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert!(e.message.contains("unterminated"));
    }

    #[test]
    fn bad_numbers() {
        for s in ["1e", "181us", "1.", "0x10", "2e+q"] {
            let e = lex(s).unwrap_err();
            assert!(e.message.starts_with("bad number"), "{s}: {}", e.message);
        }
        let e = lex("τ").unwrap_err();
        assert_eq!((e.start, e.len), (0, 2));
    }

    #[test]
    fn depth_bound_follows_brackets_and_separators() {
        let b = |s: &str| depth_bound(&lex(s).unwrap());
        assert_eq!(b("a ; b ; c"), 2, "the end token counts too");
        assert_eq!(b("((x))"), 3);
        assert_eq!(b("seq i in 1..=N { a ; b }"), 8);
        assert!(b(&"- ".repeat(100)) >= 100);
    }
}
