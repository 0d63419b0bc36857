//! Label selectors as kubectl's `-l` and the API server's `labelSelector` read them: equality
//! (`key=value`, `key==value`, `key!=value`), sets (`key in (a,b)`, `key notin (a,b)`),
//! existence (`key`, `!key`) and integer comparison (`key>3`, `key<3`), joined by commas. One
//! parser for `pooldeck get -l`, the verbs, the console's `/ -l` filter and the demo cluster,
//! so each refuses a selector with the same words (the API server's).

/// One requirement of a selector.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Requirement {
    Exists(String),
    NotExists(String),
    Equals(String, String),
    NotEquals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    GreaterThan(String, i64),
    LessThan(String, i64),
}

/// A parsed label selector; the empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector(Vec<Requirement>);

/// Why a selector cannot be read; its `Display` is the API server's sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    #[error("unable to parse requirement: found '{found}', expected: {expected}")]
    Unexpected {
        found: String,
        expected: &'static str,
    },
    /// A key or value that is not a valid label key or value, with the rule it breaks.
    #[error("unable to parse requirement: {0}")]
    NotALabel(String),
    #[error(
        "unable to parse requirement: for 'in', 'notin' operators, values set can't be empty (key \"{key}\")"
    )]
    EmptySet { key: String },
    #[error(
        "unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer (key \"{key}\", found \"{found}\")"
    )]
    NotAnInteger { key: String, found: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Comma,
    Open,
    Close,
    Bang,
    Equals,
    DoubleEquals,
    NotEquals,
    Greater,
    Less,
}

impl Token {
    fn shown(&self) -> String {
        match self {
            Token::Word(w) => w.clone(),
            Token::Comma => ",".into(),
            Token::Open => "(".into(),
            Token::Close => ")".into(),
            Token::Bang => "!".into(),
            Token::Equals => "=".into(),
            Token::DoubleEquals => "==".into(),
            Token::NotEquals => "!=".into(),
            Token::Greater => ">".into(),
            Token::Less => "<".into(),
        }
    }
}

fn special(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '(' | ')' | '!' | '=' | '>' | '<')
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let token = match c {
            c if c.is_whitespace() => continue,
            ',' => Token::Comma,
            '(' => Token::Open,
            ')' => Token::Close,
            '>' => Token::Greater,
            '<' => Token::Less,
            '!' if chars.peek() == Some(&'=') => {
                chars.next();
                Token::NotEquals
            }
            '!' => Token::Bang,
            '=' if chars.peek() == Some(&'=') => {
                chars.next();
                Token::DoubleEquals
            }
            '=' => Token::Equals,
            c => {
                let mut word = String::from(c);
                while let Some(&next) = chars.peek() {
                    if special(next) {
                        break;
                    }
                    word.push(next);
                    chars.next();
                }
                Token::Word(word)
            }
        };
        out.push(token);
    }
    out
}

/// The most characters of a label name (and of a value).
const NAME_MAX: usize = 63;
/// The most characters of a key's prefix (a DNS subdomain).
const PREFIX_MAX: usize = 253;

fn name_chars_ok(name: &str) -> bool {
    let first_last_ok = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    first_last_ok(name.chars().next())
        && first_last_ok(name.chars().last())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn subdomain_ok(prefix: &str) -> bool {
    !prefix.is_empty()
        && prefix.len() <= PREFIX_MAX
        && prefix.split('.').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !part.starts_with('-')
                && !part.ends_with('-')
        })
}

const NAME_RULE: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', \
                         and must start and end with an alphanumeric character (e.g. 'MyName', \
                         or 'my.name', or '123-abc')";

/// Why `key` is not a label key, if it is not.
fn key_problem(key: &str) -> Option<String> {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix
        && !subdomain_ok(prefix)
    {
        return Some(format!(
            "invalid label key \"{key}\": prefix part must be a lowercase RFC 1123 subdomain \
             (e.g. 'example.com') of at most {PREFIX_MAX} characters"
        ));
    }
    if name.is_empty() {
        return Some(format!(
            "invalid label key \"{key}\": name part must be non-empty"
        ));
    }
    if name.chars().count() > NAME_MAX {
        return Some(format!(
            "invalid label key \"{key}\": name part must be no more than {NAME_MAX} characters"
        ));
    }
    if !name_chars_ok(name) {
        return Some(format!("invalid label key \"{key}\": {NAME_RULE}"));
    }
    None
}

/// Why `value` is not a label value for `key`, if it is not.
fn value_problem(key: &str, value: &str) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    if value.chars().count() > NAME_MAX || !name_chars_ok(value) {
        return Some(format!(
            "invalid label value: \"{value}\": at key: \"{key}\": a valid label must be an \
             empty string or consist of alphanumeric characters, '-', '_' or '.', and must \
             start and end with an alphanumeric character, at most {NAME_MAX} of them"
        ));
    }
    None
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.at).cloned();
        self.at = self.at.saturating_add(1);
        token
    }

    fn found(token: Option<&Token>, expected: &'static str) -> SelectorError {
        SelectorError::Unexpected {
            found: token.map(Token::shown).unwrap_or_default(),
            expected,
        }
    }

    fn key(&mut self) -> Result<String, SelectorError> {
        match self.next() {
            Some(Token::Word(key)) => match key_problem(&key) {
                Some(problem) => Err(SelectorError::NotALabel(problem)),
                None => Ok(key),
            },
            other => Err(Self::found(other.as_ref(), "identifier")),
        }
    }

    fn value(&mut self, key: &str) -> Result<String, SelectorError> {
        // An empty value is allowed: `key=` matches the label set to "".
        let value = match self.peek() {
            Some(Token::Word(_)) => match self.next() {
                Some(Token::Word(value)) => value,
                _ => String::new(),
            },
            Some(Token::Comma) | None => String::new(),
            other => return Err(Self::found(other, "identifier")),
        };
        match value_problem(key, &value) {
            Some(problem) => Err(SelectorError::NotALabel(problem)),
            None => Ok(value),
        }
    }

    fn set(&mut self, key: &str) -> Result<Vec<String>, SelectorError> {
        match self.next() {
            Some(Token::Open) => {}
            other => return Err(Self::found(other.as_ref(), "'('")),
        }
        let mut values = Vec::new();
        loop {
            match self.peek() {
                Some(Token::Close) => {
                    self.next();
                    break;
                }
                Some(Token::Comma) => {
                    self.next();
                    // `(a,,b)` and `(a,)` hold an empty value, as the server reads them.
                    if matches!(self.peek(), Some(Token::Comma | Token::Close)) {
                        values.push(String::new());
                    }
                }
                Some(Token::Word(_)) => values.push(self.value(key)?),
                other => return Err(Self::found(other, "',', ')' or identifier")),
            }
        }
        if values.is_empty() {
            return Err(SelectorError::EmptySet {
                key: key.to_owned(),
            });
        }
        Ok(values)
    }

    fn number(&mut self, key: &str) -> Result<i64, SelectorError> {
        match self.next() {
            Some(Token::Word(word)) => word.parse().map_err(|_| SelectorError::NotAnInteger {
                key: key.to_owned(),
                found: word.clone(),
            }),
            other => Err(Self::found(other.as_ref(), "identifier")),
        }
    }

    fn requirement(&mut self) -> Result<Requirement, SelectorError> {
        if self.peek() == Some(&Token::Bang) {
            self.next();
            let key = self.key()?;
            return Ok(Requirement::NotExists(key));
        }
        let key = self.key()?;
        Ok(match self.peek() {
            None | Some(Token::Comma) => Requirement::Exists(key),
            Some(Token::Equals | Token::DoubleEquals) => {
                self.next();
                let value = self.value(&key)?;
                Requirement::Equals(key, value)
            }
            Some(Token::NotEquals) => {
                self.next();
                let value = self.value(&key)?;
                Requirement::NotEquals(key, value)
            }
            Some(Token::Greater) => {
                self.next();
                let n = self.number(&key)?;
                Requirement::GreaterThan(key, n)
            }
            Some(Token::Less) => {
                self.next();
                let n = self.number(&key)?;
                Requirement::LessThan(key, n)
            }
            Some(Token::Word(word)) if word == "in" => {
                self.next();
                let values = self.set(&key)?;
                Requirement::In(key, values)
            }
            Some(Token::Word(word)) if word == "notin" => {
                self.next();
                let values = self.set(&key)?;
                Requirement::NotIn(key, values)
            }
            other => {
                return Err(Self::found(
                    other,
                    "'=', '==', '!=', 'in', 'notin', '>', '<' or ','",
                ));
            }
        })
    }
}

impl LabelSelector {
    /// Reads a selector as the API server does; an empty or blank one selects everything.
    pub fn parse(text: &str) -> Result<LabelSelector, SelectorError> {
        let mut parser = Parser {
            tokens: tokens(text),
            at: 0,
        };
        let mut requirements = Vec::new();
        if parser.peek().is_none() {
            return Ok(LabelSelector(requirements));
        }
        loop {
            requirements.push(parser.requirement()?);
            match parser.next() {
                None => break,
                Some(Token::Comma) => {
                    if parser.peek().is_none() {
                        return Err(Parser::found(None, "identifier"));
                    }
                }
                other => return Err(Parser::found(other.as_ref(), "','")),
            }
        }
        Ok(LabelSelector(requirements))
    }

    /// Whether it selects everything.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether an object whose label `key` has the value `label(key)` is selected.
    pub fn matches<'l>(&self, label: impl Fn(&str) -> Option<&'l str>) -> bool {
        self.0.iter().all(|requirement| match requirement {
            Requirement::Exists(key) => label(key).is_some(),
            Requirement::NotExists(key) => label(key).is_none(),
            Requirement::Equals(key, value) => label(key) == Some(value.as_str()),
            Requirement::NotEquals(key, value) => label(key) != Some(value.as_str()),
            Requirement::In(key, values) => {
                label(key).is_some_and(|v| values.iter().any(|x| x == v))
            }
            Requirement::NotIn(key, values) => {
                label(key).is_none_or(|v| !values.iter().any(|x| x == v))
            }
            Requirement::GreaterThan(key, n) => label(key)
                .and_then(|v| v.parse::<i64>().ok())
                .is_some_and(|v| v > *n),
            Requirement::LessThan(key, n) => label(key)
                .and_then(|v| v.parse::<i64>().ok())
                .is_some_and(|v| v < *n),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn labels<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<&'a str> {
        move |key| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    #[test]
    fn every_form_selects_what_the_api_server_selects() {
        let pool = [("team", "retail"), ("tier", "gpu"), ("size", "4")];
        let yes = [
            "",
            "team",
            "!owner",
            "team=retail",
            "team==retail",
            "team!=ml",
            "owner!=x",
            "tier in (gpu,cpu)",
            "tier notin (cpu)",
            "owner notin (x)",
            "size>3",
            "size<5",
            "team=retail,tier in (gpu), !owner",
            "spectrocloud.com/x!=y",
        ];
        for selector in yes {
            let parsed = LabelSelector::parse(selector).expect(selector);
            assert!(parsed.matches(labels(&pool)), "{selector} selects it");
        }
        let no = [
            "owner",
            "!team",
            "team=ml",
            "tier in (cpu)",
            "tier notin (gpu)",
            "size>4",
            "team<3",
        ];
        for selector in no {
            let parsed = LabelSelector::parse(selector).expect(selector);
            assert!(
                !parsed.matches(labels(&pool)),
                "{selector} does not select it"
            );
        }
    }

    #[test]
    fn a_malformed_selector_is_refused_with_the_servers_words() {
        for (selector, said) in [
            ("team==", ""),
            ("a==b==c", "found '==', expected: ','"),
            ("team in ml", "found 'ml', expected: '('"),
            ("team in ()", "values set can't be empty"),
            ("-ltier=postgres", "invalid label key \"-ltier\""),
            ("team=retail,", "found '', expected: identifier"),
            (",team", "found ',', expected: identifier"),
            ("team=re tail", "found 'tail', expected: ','"),
            ("team=-x", "invalid label value: \"-x\""),
            ("size>four", "must be an integer"),
            (
                "Bad_Prefix/x=y",
                "prefix part must be a lowercase RFC 1123 subdomain",
            ),
        ] {
            match LabelSelector::parse(selector) {
                Ok(parsed) if said.is_empty() => {
                    // `team==` is `team` set to the empty value: accepted, as the server does.
                    assert!(parsed.matches(labels(&[("team", "")])), "{selector}");
                }
                Ok(parsed) => panic!("{selector} accepted as {parsed:?}"),
                Err(e) => {
                    let text = e.to_string();
                    assert!(text.starts_with("unable to parse requirement: "), "{text}");
                    assert!(text.contains(said), "{selector}: {text}");
                }
            }
        }
    }

    proptest! {
        /// A selector made of equality requirements on the labels an object has selects it,
        /// and adding a requirement never selects more.
        #[test]
        fn requirements_only_narrow(keys in proptest::collection::vec("[a-z][a-z0-9]{0,6}", 1..5),
                                    extra in "[a-z][a-z0-9]{0,6}") {
            let pairs: Vec<(String, String)> = keys.iter().map(|k| (k.clone(), format!("v{k}"))).collect();
            let label = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
            let all: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let selector = LabelSelector::parse(&all.join(",")).expect("valid");
            prop_assert!(selector.matches(label));
            let narrower = LabelSelector::parse(&format!("{},{extra}=zz", all.join(","))).expect("valid");
            prop_assert!(!narrower.matches(label) || label(&extra) == Some("zz"));
        }
    }
}
