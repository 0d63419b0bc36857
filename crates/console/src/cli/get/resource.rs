//! What each resource reads and shows: its kinds, its table, the selectors and sorting that narrow it.

use std::process::ExitCode;

use serde_json::Value;

use super::args::{GetArgs, Output, Resource};
use crate::app::rows::{self, Row, Table};
use crate::domain::field_selector::{self, FieldSelector};
use crate::domain::selector::LabelSelector;
use crate::inventory::{Inventory, Kind};

/// Orders rows by the value at `path` in each one's object: numbers by value, text by its
/// characters, rows without a value last (stable: otherwise the table's order).
pub(super) fn sort_by<T>(
    rows: &mut Vec<T>,
    path: &crate::domain::jsonpath::Path,
    row_of: impl Fn(&T) -> &Row,
) {
    let mut keyed: Vec<(Option<Value>, T)> = std::mem::take(rows)
        .into_iter()
        .map(|row| {
            let object = serde_json::to_value(&row_of(&row).object).unwrap_or(Value::Null);
            (path.select(&object).first().map(|v| (*v).clone()), row)
        })
        .collect();
    keyed.sort_by(|(a, _), (b, _)| match (a, b) {
        (Some(a), Some(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            _ => crate::domain::jsonpath::shown(a).cmp(&crate::domain::jsonpath::shown(b)),
        },
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    rows.extend(keyed.into_iter().map(|(_, row)| row));
}

/// `KIND.GROUP` as `-o name` prints it before the name.
pub(super) fn name_prefix(resource: Resource) -> String {
    let kind = match resource {
        Resource::Events => return "event".to_owned(),
        Resource::Hosts => return "host".to_owned(),
        other => other.kind().unwrap_or(Kind::Pool),
    };
    format!("{}.{}", kind.api().kind.to_lowercase(), kind.api().group)
}

/// What the rows must match: `-l` on labels, `--field-selector` on fields.
pub(super) struct Selectors {
    pub(super) labels: Option<LabelSelector>,
    pub(super) fields: Option<FieldSelector>,
}

/// `--field-selector`, read before anything is asked of the hub: what a real server answers
/// 400 for exits 1 with its words.
pub(super) fn field_selector_arg(args: &GetArgs) -> Result<Option<FieldSelector>, ExitCode> {
    let Some(text) = args.field_selector.as_deref() else {
        return Ok(None);
    };
    let refused = |why: String| {
        crate::say::complain!(
            "Error from server (BadRequest): {}",
            crate::domain::inert::line(&why)
        );
        ExitCode::from(1)
    };
    let parsed = FieldSelector::parse(text).map_err(|e| refused(e.to_string()))?;
    let Some(fields) = args.resource.fields() else {
        crate::say::complain!(
            "pooldeck: hosts are part of each pool's status, not API objects: --field-selector \
             selects the API's objects"
        );
        return Err(ExitCode::from(1));
    };
    parsed
        .supported(fields)
        .map_err(|e| refused(e.to_string()))?;
    Ok((!parsed.is_empty()).then_some(parsed))
}

/// The kind whose whole list `-o json` writes page by page as the server sends it, when
/// nothing asked needs the whole list first (a name, selectors, an order, a watch).
pub(super) fn streamed(args: &GetArgs, selectors: &Selectors) -> Option<Kind> {
    let kind = match args.resource {
        Resource::Pools => Kind::Pool,
        Resource::Evaluations => Kind::Evaluation,
        Resource::Projects => Kind::Project,
        // A cluster-wide kind is listed once, whatever namespaces were asked.
        Resource::Of(kind) if kind.api().namespaced => kind,
        Resource::Of(_) | Resource::Hosts | Resource::Events => return None,
    };
    (args.output == Some(Output::Json)
        && args.name.is_none()
        && args.sort_by.is_none()
        && selectors.labels.is_none()
        && selectors.fields.is_none()
        && !args.watch)
        .then_some(kind)
}

impl Resource {
    /// The kind of API object its rows are (`None`: hosts, parts of their pools).
    pub fn kind(self) -> Option<Kind> {
        match self {
            Resource::Pools => Some(Kind::Pool),
            Resource::Evaluations => Some(Kind::Evaluation),
            Resource::Projects => Some(Kind::Project),
            Resource::Events => Some(Kind::Event),
            Resource::Of(kind) => Some(kind),
            Resource::Hosts => None,
        }
    }

    /// The kinds this resource needs (must have), and the ones it uses when readable.
    pub(super) fn kinds(self) -> (Vec<Kind>, Vec<Kind>) {
        match self {
            Resource::Pools => (vec![Kind::Pool], vec![Kind::Evaluation]),
            Resource::Evaluations => (vec![Kind::Evaluation], vec![]),
            Resource::Hosts => (vec![Kind::Pool], vec![]),
            Resource::Events => (vec![Kind::Event], vec![]),
            Resource::Projects => (vec![Kind::Project], vec![Kind::Tenant]),
            // Pools for the columns that name the pools using it, or whether its pool is there.
            Resource::Of(kind) => (vec![kind], vec![Kind::Pool]),
        }
    }

    pub(super) fn noun(self) -> &'static str {
        match self {
            Resource::Of(kind) => kind.api().plural,
            Resource::Pools => "computepools",
            Resource::Evaluations => "computepoolevaluations",
            Resource::Hosts => "hosts",
            Resource::Events => "events",
            Resource::Projects => "projects",
        }
    }

    pub fn table(self, inventory: &Inventory, name: Option<&str>, wide: bool) -> Table {
        match self {
            Resource::Pools => rows::pools(inventory, name, wide),
            Resource::Evaluations => rows::evaluations(inventory, name, wide),
            Resource::Hosts => rows::hosts_table(inventory, name, wide),
            Resource::Events => rows::events(inventory, name, wide),
            Resource::Projects => rows::projects(inventory, name, wide),
            Resource::Of(kind) => crate::app::View::of_kind(kind)
                .map(|view| view.table(inventory, name, wide))
                .unwrap_or_default(),
        }
    }

    /// The fields the API server selects this kind on (`None`: not an API object).
    pub(super) fn fields(self) -> Option<&'static [&'static str]> {
        match self {
            Resource::Pools | Resource::Evaluations | Resource::Projects | Resource::Of(_) => {
                Some(field_selector::OBJECT_FIELDS)
            }
            Resource::Events => Some(field_selector::EVENT_FIELDS),
            Resource::Hosts => None,
        }
    }

    /// [`Resource::table`] with only the rows the selectors keep.
    pub(super) fn selected(
        self,
        inventory: &Inventory,
        args: &GetArgs,
        selectors: &Selectors,
    ) -> Table {
        let wide = args.output == Some(Output::Wide);
        let mut table = self.table(inventory, args.name.as_deref(), wide);
        if let Some(selector) = &selectors.labels {
            table
                .rows
                .retain(|row| selector.matches(|key| row.object.label(key)));
        }
        if let Some(fields) = &selectors.fields {
            table.rows.retain(|row| {
                let object = serde_json::to_value(&row.object).unwrap_or(Value::Null);
                fields.matches(|field| field_selector::field_of(&object, field))
            });
        }
        if let Some(path) = &args.sort_by {
            sort_by(&mut table.rows, path, |row| row);
        }
        table
    }

    /// Whether `--sort-by`'s path names a value in any of the objects (kubectl refuses one
    /// that names nothing: a misspelt path would otherwise sort silently by nothing).
    pub(super) fn sortable(table: &Table, path: &crate::domain::jsonpath::Path) -> bool {
        table.rows.is_empty()
            || table.rows.iter().any(|row| {
                let object = serde_json::to_value(&row.object).unwrap_or(Value::Null);
                !path.select(&object).is_empty()
            })
    }
}
