//! Paths into a document, written the way operators read them in the reference:
//! `spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].name`.
//!
//! Keys that are not plain identifiers (labels such as `controller.spectrocloud.com/pause`)
//! are written in brackets: `metadata.labels['controller.spectrocloud.com/pause']`.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Segment {
    Key(String),
    Index(usize),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct YamlPath(Vec<Segment>);

impl YamlPath {
    pub fn root() -> Self {
        YamlPath(Vec::new())
    }

    /// Builds a path from dotted keys, e.g. `YamlPath::parse_keys("spec.deletionPolicy")`.
    /// Only for paths made of plain keys (no indices, no dots inside keys).
    pub fn keys(dotted: &str) -> Self {
        YamlPath(
            dotted
                .split('.')
                .filter(|k| !k.is_empty())
                .map(|k| Segment::Key(k.to_owned()))
                .collect(),
        )
    }

    pub fn key(&self, key: &str) -> Self {
        let mut segments = self.0.clone();
        segments.push(Segment::Key(key.to_owned()));
        YamlPath(segments)
    }

    pub fn index(&self, index: usize) -> Self {
        let mut segments = self.0.clone();
        segments.push(Segment::Index(index));
        YamlPath(segments)
    }

    /// Appends dotted plain keys to this path.
    pub fn join(&self, dotted: &str) -> Self {
        let mut segments = self.0.clone();
        segments.extend(YamlPath::keys(dotted).0);
        YamlPath(segments)
    }

    /// This path followed by `other`.
    pub fn append(&self, other: &YamlPath) -> Self {
        let mut segments = self.0.clone();
        segments.extend(other.0.iter().cloned());
        YamlPath(segments)
    }

    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    pub fn last_key(&self) -> Option<&str> {
        match self.0.last() {
            Some(Segment::Key(k)) => Some(k),
            _ => None,
        }
    }

    /// The path one level up (the root stays the root).
    pub fn parent(&self) -> Self {
        let mut segments = self.0.clone();
        segments.pop();
        YamlPath(segments)
    }

    pub fn starts_with(&self, other: &YamlPath) -> bool {
        self.0.starts_with(&other.0)
    }
}

/// A place in a document while it is walked (for issues): each step borrows the one before,
/// so walking a whole object allocates nothing, and [`At::path`] makes the [`YamlPath`] only
/// where something is found.
#[derive(Clone, Copy, Debug)]
pub enum At<'a> {
    Root,
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl<'a> At<'a> {
    pub fn key(&'a self, key: &'a str) -> At<'a> {
        At::Key(self, key)
    }

    pub fn index(&'a self, index: usize) -> At<'a> {
        At::Index(self, index)
    }

    /// The path to this place.
    pub fn path(&self) -> YamlPath {
        let mut segments = Vec::new();
        let mut at = self;
        loop {
            match at {
                At::Root => break,
                At::Key(up, key) => {
                    segments.push(Segment::Key((*key).to_owned()));
                    at = up;
                }
                At::Index(up, index) => {
                    segments.push(Segment::Index(*index));
                    at = up;
                }
            }
        }
        segments.reverse();
        YamlPath(segments)
    }
}

/// A key of a path as it is written when it is not a plain word: `['key']`, its quotes doubled
/// (as in a single-quoted YAML scalar) and its control characters (a line break) written
/// visibly, so a key from a cluster cannot end the brackets early or start a line of its own.
pub fn bracketed(key: &str) -> String {
    let mut out = String::with_capacity(key.len().saturating_add(4));
    out.push_str("['");
    for c in key.chars() {
        match c {
            '\'' => out.push_str("''"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push_str("']");
    out
}

fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl fmt::Display for YamlPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(document)");
        }
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) if is_plain_key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                Segment::Key(key) => f.write_str(&bracketed(key))?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_cannot_end_its_brackets_or_start_a_line() {
        let key = "ok'].status = Healthy\n  next: all good";
        let path = YamlPath::keys("status.hosts").key(key).key("status");
        assert_eq!(
            path.to_string(),
            "status.hosts['ok''].status = Healthy\\n  next: all good'].status"
        );
        assert_eq!(bracketed("a'b"), "['a''b']");
    }

    #[test]
    fn a_place_walked_is_the_path_built() {
        let root = At::Root;
        let spec = root.key("spec");
        let pools = spec.key("workerPools");
        let second = pools.index(1);
        let name = second.key("na'me");
        assert_eq!(
            name.path(),
            YamlPath::keys("spec.workerPools").index(1).key("na'me")
        );
        assert_eq!(root.path(), YamlPath::root());
    }

    #[test]
    fn writes_paths_like_the_reference() {
        let path = YamlPath::keys("spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools")
            .index(1)
            .key("name");
        assert_eq!(
            path.to_string(),
            "spec.clusterVariant.dedicated.paletteClusterDeploymentConfig.nodePoolRequirements.workerPools[1].name"
        );
        let label = YamlPath::keys("metadata.labels").key("controller.spectrocloud.com/pause");
        assert_eq!(
            label.to_string(),
            "metadata.labels['controller.spectrocloud.com/pause']"
        );
        assert_eq!(YamlPath::root().to_string(), "(document)");
    }
}
