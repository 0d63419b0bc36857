//! The words the console's command line (`:cp`) and the command line's verbs (`get cp`,
//! `describe pool`) take for each kind of row, kubectl's (plural, singular, the CRD's short
//! names) first: one table, so the two never disagree. The first word is the kind's own.

pub const POOLS: &[&str] = &["pools", "pool", "cp", "computepool", "computepools"];
pub const EVALUATIONS: &[&str] = &[
    "evaluations",
    "evaluation",
    "cpe",
    "computepoolevaluation",
    "computepoolevaluations",
];
pub const HOSTS: &[&str] = &["hosts", "host"];
pub const EVENTS: &[&str] = &["events", "event", "ev"];
pub const PROJECTS: &[&str] = &["projects", "project", "proj"];
pub const TENANTS: &[&str] = &["tenants", "tenant"];
pub const SCALING_POLICIES: &[&str] = &["scalingpolicies", "scalingpolicy", "sp"];
pub const AIWORKLOADS: &[&str] = &["aiworkloads", "aiworkload", "aiw", "workloads"];
pub const PROFILE_BUNDLES: &[&str] = &["profilebundles", "profilebundle", "pb"];
pub const COMPUTES: &[&str] = &["computes", "compute"];
/// Not a kind: the doctor's findings across pools.
pub const PROBLEMS: &[&str] = &["problems", "problem", "doctor"];
