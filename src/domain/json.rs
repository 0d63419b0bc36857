//! Reading JSON values by path without allocating. `serde_json`'s `pointer` unescapes every
//! token into a new `String`; the paths pooldeck reads (`/status/conditions`) are plain keys
//! and indices, read here in place. A path with an escape (`~0`, `~1`) goes to `pointer`.

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
