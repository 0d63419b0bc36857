//! A recording carries what pooldeck kept of its pools' timelines (`timeline:` in the
//! recording, per `namespace/name`), and its replay keeps them again for the hub it serves:
//! the story's past before the recording began is on the replay's timelines too.

use serde_json::{Map, Value};

use super::Store;
use crate::domain::timeline::Entry;

/// What was kept, on the hub at `server`, of these pools (namespace, name): their entries
/// by `namespace/name`; null when nothing was.
pub fn carried(server: &str, pools: impl IntoIterator<Item = (String, String)>) -> Value {
    let Ok(store) = Store::open(server) else {
        return Value::Null;
    };
    let mut out = Map::new();
    for (namespace, name) in pools {
        let kept = store.kept(&namespace, &name);
        if !kept.is_empty() {
            let key = format!("{namespace}/{name}");
            out.insert(key, serde_json::to_value(kept).unwrap_or_default());
        }
    }
    if out.is_empty() {
        Value::Null
    } else {
        Value::Object(out)
    }
}

/// Keeps what a replayed recording carries for the hub at `server`; how many pools'.
pub fn carry_in(server: &str, timeline: &Value) -> usize {
    let (Some(pools), Ok(store)) = (timeline.as_object(), Store::open(server)) else {
        return 0;
    };
    let mut kept = 0;
    for (key, entries) in pools {
        let Some((namespace, name)) = key.split_once('/') else {
            continue;
        };
        let entries: Vec<Entry> = entries
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| serde_json::from_value(e.clone()).ok())
            .collect();
        if !entries.is_empty() && store.keep(namespace, name, &entries).is_ok() {
            kept += 1;
        }
    }
    kept
}
