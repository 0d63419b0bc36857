//! Name syntaxes the rules share: Kubernetes object names, label keys and values, hostnames.
//! Each check returns `None` when the name is fine, or a reason an operator can act on.

/// A DNS-1123 subdomain, the API's rule for object names: at most 253 characters of
/// lowercase letters, digits, `-` and `.`, starting and ending with a letter or digit.
pub fn dns_subdomain(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("is empty".into());
    }
    if name.len() > 253 {
        return Some(format!("is {} characters long (at most 253)", name.len()));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-' || *c == '.'))
    {
        return Some(format!(
            "contains '{c}' (only lowercase letters, digits, '-' and '.' are allowed)"
        ));
    }
    if !starts_and_ends_alphanumeric(name) {
        return Some("must start and end with a lowercase letter or digit".into());
    }
    if name.split('.').any(str::is_empty) {
        return Some("has an empty part between dots".into());
    }
    None
}

/// The product UI's rule for Compute Pool names: 3–33 characters of lowercase letters, digits
/// and hyphens, starting with a letter and ending with a letter or digit.
pub fn ui_pool_name(name: &str) -> Option<String> {
    let len = name.chars().count();
    if !(3..=33).contains(&len) {
        return Some(format!("is {len} characters long (the UI takes 3 to 33)"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Some(format!(
            "contains '{c}' (the UI takes lowercase letters, digits and hyphens)"
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some("does not start with a letter (the UI requires one)".into());
    }
    if !name.ends_with(|c: char| c.is_ascii_alphanumeric()) {
        return Some("does not end with a letter or digit (the UI requires one)".into());
    }
    None
}

fn starts_and_ends_alphanumeric(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphanumeric())
        && text.ends_with(|c: char| c.is_ascii_alphanumeric())
}

/// The name part of a label key, or a label value: at most 63 characters of letters, digits,
/// `-`, `_` and `.`, starting and ending with a letter or digit.
fn label_segment(text: &str, what: &str) -> Option<String> {
    if text.len() > 63 {
        return Some(format!(
            "{what} is {} characters long (at most 63)",
            text.len()
        ));
    }
    if let Some(c) = text
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Some(format!(
            "{what} contains '{c}' (letters, digits, '-', '_' and '.' only)"
        ));
    }
    if !starts_and_ends_alphanumeric(text) {
        return Some(format!("{what} must start and end with a letter or digit"));
    }
    None
}

/// A DNS-1123 label, the API's rule for namespace names: at most 63 characters of lowercase
/// letters, digits and `-`, starting and ending with a letter or digit.
pub fn dns_label(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("is empty".into());
    }
    if name.len() > 63 {
        return Some(format!("is {} characters long (at most 63)", name.len()));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Some(format!(
            "contains '{c}' (only lowercase letters, digits and '-' are allowed)"
        ));
    }
    if !starts_and_ends_alphanumeric(name) {
        return Some("must start and end with a lowercase letter or digit".into());
    }
    None
}

/// Why a namespace name is not one, in a sentence, or `None` when it is.
pub fn namespace_problem(name: &str) -> Option<String> {
    dns_label(name).map(|why| format!("\"{name}\" is not a namespace name: it {why}"))
}

/// A label or annotation key: an optional DNS subdomain prefix and `/`, then a name.
pub fn qualified_key(key: &str) -> Option<String> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix
        && let Some(why) = dns_subdomain(prefix)
    {
        return Some(format!("prefix \"{prefix}\" {why}"));
    }
    if name.is_empty() {
        return Some("has an empty name".into());
    }
    label_segment(name, "name")
}

/// A label value: empty, or a label segment.
pub fn label_value(value: &str) -> Option<String> {
    if value.is_empty() {
        None
    } else {
        label_segment(value, "value")
    }
}

/// A fully qualified domain name: dot-separated labels of letters, digits and hyphens (each
/// 1–63 characters, not starting or ending with a hyphen), at most 253 characters, at least
/// two labels, and a top-level label that is not all digits.
pub fn fqdn(name: &str) -> Option<String> {
    let name = name.strip_suffix('.').unwrap_or(name);
    if name.is_empty() {
        return Some("is empty".into());
    }
    if name.len() > 253 {
        return Some("is longer than 253 characters".into());
    }
    let labels: Vec<&str> = name.split('.').collect();
    if labels.len() < 2 {
        return Some("is not fully qualified (it has no domain part)".into());
    }
    for label in &labels {
        if label.is_empty() || label.len() > 63 {
            return Some(format!("has a part \"{label}\" that is empty or too long"));
        }
        if !label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            || label.starts_with('-')
            || label.ends_with('-')
        {
            return Some(format!(
                "has a part \"{label}\" that is not a hostname label"
            ));
        }
    }
    if labels
        .last()
        .is_some_and(|tld| tld.chars().all(|c| c.is_ascii_digit()))
    {
        return Some("looks like an IP address but is not a valid IPv4 address".into());
    }
    None
}

/// Levenshtein distance, for "did you mean" hints on misspelled field names.
pub fn edit_distance(a: &str, b: &str) -> usize {
    strsim::levenshtein(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_names() {
        assert_eq!(dns_subdomain("ml-cluster"), None);
        assert!(dns_subdomain("ML").is_some());
        assert!(dns_subdomain("-a").is_some());
        assert!(dns_subdomain(&"a".repeat(254)).is_some());
        assert_eq!(ui_pool_name("ml-cluster"), None);
        assert!(ui_pool_name("ab").is_some());
        assert!(ui_pool_name("a.b.c").is_some());
        assert!(ui_pool_name("1abc").is_some());
        assert!(ui_pool_name(&"a".repeat(34)).is_some());
    }

    #[test]
    fn label_keys_and_values() {
        assert_eq!(qualified_key("controller.spectrocloud.com/pause"), None);
        assert_eq!(qualified_key("team"), None);
        assert!(qualified_key("Bad Key").is_some());
        assert!(qualified_key("a/b/").is_some());
        assert_eq!(label_value(""), None);
        assert_eq!(label_value("true"), None);
        assert!(label_value("has space").is_some());
    }

    #[test]
    fn hostnames() {
        assert_eq!(fqdn("cp.example.com"), None);
        assert_eq!(fqdn("time.google.com"), None);
        assert!(fqdn("localhost").is_some());
        assert!(fqdn("10.10.162.300").is_some());
        assert!(fqdn("bad_name.example.com").is_some());
        assert_eq!(edit_distance("cpuCout", "cpuCount"), 1);
    }
}
