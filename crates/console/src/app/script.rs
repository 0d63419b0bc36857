//! Test scripts drive the console one message at a time; this `update` records what each
//! call returned for the runtime, so a script can look at the effects a run of keys asked for.
//! The record is the script's (one per test thread), not the App's.

use std::cell::RefCell;

use super::{App, Effect, Msg};

thread_local! {
    static RETURNED: RefCell<Vec<Effect>> = const { RefCell::new(Vec::new()) };
}

/// [`super::update`], keeping what it returned.
pub fn update(app: &mut App, msg: Msg) {
    let effects = super::update(app, msg);
    RETURNED.with(|r| r.borrow_mut().extend(effects));
}

/// What the updates returned since the record was last taken or forgotten.
pub fn returned() -> Vec<Effect> {
    RETURNED.with(|r| r.borrow().clone())
}

/// [`returned`], taken: the record starts again.
pub fn take_returned() -> Vec<Effect> {
    RETURNED.with(|r| std::mem::take(&mut *r.borrow_mut()))
}

/// Forgets what was returned so far.
pub fn forget_returned() {
    RETURNED.with(|r| r.borrow_mut().clear());
}
