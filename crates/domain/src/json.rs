//! Reading JSON values by path without allocating. `serde_json`'s `pointer` unescapes every
//! token into a new `String`; the paths pooldeck reads (`/status/conditions`) are plain keys
//! and indices, read here in place. A path with an escape (`~0`, `~1`) goes to `pointer`.
//! Also what pooldeck leaves out of every object it reads: `metadata.managedFields`.

use serde_json::Value;

pub trait At {
    /// The value at a JSON pointer (`/a/b/0`), if there.
    fn at(&self, path: &str) -> Option<&Value>;
}

impl At for Value {
    fn at(&self, path: &str) -> Option<&Value> {
        if path.contains('~') {
            return self.pointer(path);
        }
        if path.is_empty() {
            return Some(self);
        }
        let rest = path.strip_prefix('/')?;
        rest.split('/').try_fold(self, |value, token| match value {
            Value::Object(map) => map.get(token),
            Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        })
    }
}

/// Drops `metadata.managedFields`, the server's record of which client wrote which field.
/// kubectl leaves it out unless asked (`--show-managed-fields`); pooldeck never shows it, and
/// on a real hub it is about as large as the rest of the object (it names every field of the
/// spec and the status), so it goes as soon as an object is read.
pub fn drop_managed_fields(object: &mut Value) {
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.shift_remove("managedFields");
    }
}

/// The string at a JSON pointer, or "" (absent, or not a string).
pub fn text_at<'v>(value: &'v Value, pointer: &str) -> &'v str {
    value.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// Whether a field or annotation's name looks like it holds a credential (a password, token,
/// secret, key or kubeconfig, a last-applied configuration): its value is never recorded.
pub fn credential_like(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    [
        "password",
        "passwd",
        "token",
        "secret",
        "credential",
        "apikey",
        "api-key",
        "api_key",
        "privatekey",
        "private-key",
        "kubeconfig",
        "certificate-data",
        "key-data",
    ]
    .iter()
    .any(|word| key.contains(word))
        || key.ends_with("last-applied-configuration")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn reads_as_pointer_does() {
        let v = json!({"a": {"b": [10, {"c": "x"}]}, "d/e": 1, "f~g": 2});
        for path in [
            "", "/a", "/a/b/1/c", "/a/b/0", "/a/b/7", "/nope", "/a/b/x", "/d~1e", "/f~0g", "a",
        ] {
            assert_eq!(v.at(path), v.pointer(path), "{path}");
        }
    }

    proptest! {
        /// On any path of plain keys and indices, the same answer as `pointer`.
        #[test]
        fn agrees_with_pointer(path in proptest::collection::vec(prop_oneof!["[a-c]", "[0-2]"], 0..4)) {
            let v = json!({"a": {"b": [1, {"c": 2}], "0": 3}, "b": [[4]], "c": null});
            let path: String = path.iter().map(|t| format!("/{t}")).collect();
            prop_assert_eq!(v.at(&path), v.pointer(&path));
        }
    }
}
