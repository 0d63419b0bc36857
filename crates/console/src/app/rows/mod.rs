//! The rows of each list view as values: a row names its object
//! ([`ObjectRef`](crate::domain::ObjectRef), plus the worker pool or host it is about) and
//! holds typed [`Cell`]s: a phase from the vocabulary, GPUs used/capacity, an instant for
//! ages and countdowns, a percentage with its history.
//! Formatting happens only in `ui::cells` (the console) and `pooldeck get` (plain text);
//! sorting, colouring and diffing read the values. Rows do not depend on the clock: a tick
//! re-formats the visible time cells and rebuilds nothing.

mod cell;
pub mod column;
pub mod names;
pub mod refs;
pub(in crate::app) mod row;
mod status;
pub mod text;

/// The registry of list views: each name is a module of this directory holding its rows and
/// its `pub static VIEW: ViewSpec` ([`crate::app::view::ViewSpec`]); the order is the command
/// line's. A view is added by its file and its name here.
macro_rules! views {
    ($($(#[$attr:meta])* $name:ident),* $(,)?) => {
        $( $(#[$attr])* pub mod $name; )*
        /// Every list view, in the command line's order.
        pub static VIEWS: &[&crate::app::view::ViewSpec] = &[$( $(#[$attr])* &$name::VIEW, )*];
    };
}

views! {
    pools,
    evaluations,
    hosts,
    events,
    projects,
    tenants,
    scalingpolicies,
    aiworkloads,
    profilebundles,
    computes,
    problems,
    // A view that exists only for the test that adding a view is a file and this line.
    #[cfg(test)]
    sample,
}

pub use self::cell::{
    Cell, Deadline, GpuUse, Load, Status, model_word as cell_model_word,
    scaling_word as cell_scaling_word,
};
pub use self::column::Column;
/// The samples of the pools list's utilization sparkline.
pub const SPARK_CELLS: usize = self::cell::SPARK_SAMPLES;
/// The bar after the GPU counts in the pools list, in cells.
pub const GPU_BAR_CELLS: usize = self::cell::GPU_BAR;
pub use self::aiworkloads::aiworkloads;
pub use self::computes::computes;
pub use self::evaluations::{evaluation_headers, evaluation_rows, evaluations};
pub use self::events::{event_headers, event_rows, events};
pub use self::hosts::{host_headers, hosts_table, pool_host_rows};
pub use self::pools::{pool_headers, pool_rows, pools};
pub use self::problems::problems;
pub use self::profilebundles::profile_bundles;
pub use self::projects::projects;
pub use self::row::{Row, Source, Table};
pub use self::scalingpolicies::scaling_policies;
pub use self::tenants::tenants;

/// Orders rows by one column's values, `descending` reversing it; rows equal there keep
/// their order (the natural one: namespace, name).
pub fn sort(rows: &mut [Row], column: usize, descending: bool) {
    rows.sort_by(|a, b| compare_by(a, b, column, descending));
}

/// How two rows order by one column's values, `descending` reversing it; a row without a
/// value there (no cell, or a blank one) comes last either way.
pub fn compare_by(a: &Row, b: &Row, column: usize, descending: bool) -> std::cmp::Ordering {
    fn valued(row: &Row, column: usize) -> Option<&Cell> {
        row.cells.get(column).filter(|c| !c.is_blank())
    }
    compare_values(valued(a, column), valued(b, column), descending)
}

/// How two values of a column order (`None`: blank), `descending` reversing it; a blank
/// comes last either way.
pub fn compare_values(a: Option<&Cell>, b: Option<&Cell>, descending: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Some(x), Some(y)) => {
            let order = x.compare(y);
            if descending { order.reverse() } else { order }
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

#[cfg(test)]
pub(crate) mod tests;
