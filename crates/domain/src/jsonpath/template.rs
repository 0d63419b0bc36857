//! kubectl's JSONPath templates (`{.items[*].metadata.name}`, `{range}`…`{end}`), parsed and rendered over a value.

use serde_json::Value;

use super::{Error, Path, shown, unescape, walk};

/// A parsed template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template(Vec<Node>);

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Text(String),
    Path(Path),
    Range(Path, Vec<Node>),
}

impl Template {
    /// Reads a template (the text after `jsonpath=`).
    pub fn parse(text: &str) -> Result<Template, Error> {
        if text.trim().is_empty() {
            return Err(Error::EmptyTemplate);
        }
        let mut stack: Vec<(Path, Vec<Node>)> = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let Some(open) = rest.find('{') else {
                nodes.push(Node::Text(unescape(rest)));
                break;
            };
            if open > 0 {
                nodes.push(Node::Text(unescape(&rest[..open])));
            }
            let after = &rest[open.saturating_add(1)..];
            let close =
                closing_brace(after).ok_or_else(|| Error::UnclosedAction(after.to_owned()))?;
            let action = after[..close].trim();
            rest = &after[close.saturating_add(1)..];
            if let Some(path) = action.strip_prefix("range ") {
                stack.push((Path::parse(path)?, std::mem::take(&mut nodes)));
            } else if action == "end" {
                let Some((path, outer)) = stack.pop() else {
                    return Err(Error::EndWithoutRange);
                };
                let body = std::mem::replace(&mut nodes, outer);
                nodes.push(Node::Range(path, body));
            } else if let Some(quoted) = action.strip_prefix('"').and_then(|a| a.strip_suffix('"'))
            {
                nodes.push(Node::Text(unescape(quoted)));
            } else {
                nodes.push(Node::Path(Path::parse(action)?));
            }
        }
        if !stack.is_empty() {
            return Err(Error::RangeNotClosed);
        }
        Ok(Template(nodes))
    }

    /// The template applied to `value`; an index past the end of a list is an error.
    pub fn render(&self, value: &Value) -> Result<String, Error> {
        let mut out = String::new();
        render(&self.0, value, &mut out)?;
        Ok(out)
    }
}

/// The `}` closing an action, skipping quoted text.
fn closing_brace(text: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '}') => return Some(i),
            _ => {}
        }
    }
    None
}

fn render(nodes: &[Node], value: &Value, out: &mut String) -> Result<(), Error> {
    for node in nodes {
        match node {
            Node::Text(text) => out.push_str(text),
            Node::Path(path) => {
                let found: Vec<String> =
                    walk(&path.0, value, true)?.into_iter().map(shown).collect();
                out.push_str(&found.join(" "));
            }
            Node::Range(path, body) => {
                for item in walk(&path.0, value, true)? {
                    render(body, item, out)?;
                }
            }
        }
    }
    Ok(())
}
