//! The wizard: a ComputePool draft written step by step in the product's order, every
//! keystroke re-checked by the rules `pooldeck validate` runs (against the watched fleet, so a
//! VIP another pool uses is named while it is typed), each finding shown on its field. The
//! namespace is part of the draft, and every choice and check follows it. `n` starts a new
//! pool (or offers the drafts kept); `e` edits the selected pool (or offers its draft), its
//! name, namespace and VIP locked (the reference makes the VIP immutable). Every change is
//! saved as a draft (an effect the runtime carries out), so a dropped session loses nothing.
//! The Review step sends a dry run and applies behind the same confirmation as the fixes.
//! Part of `update`.

mod check;
mod component;
mod context;
mod cycle;
mod edit;
mod editor;
mod open;
pub mod recreate;
mod review;
mod state;

pub use editor::Editor;

pub use check::owner;
pub use check::{UNREADABLE, recheck};
pub use open::{fresh, live, open, opened, opening, with_draft};
pub use state::{DryRun, Line, Offered, Purpose, Wizard};

#[cfg(test)]
mod tests;
