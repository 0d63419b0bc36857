//! The kinds of object the inventory holds, and where the API serves them.

use std::fmt;

/// One kind of watched resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pool,
    Evaluation,
    Event,
    Project,
    Tenant,
    Compute,
    ProfileBundle,
    ScalingPolicy,
    AIWorkload,
    Settings,
}

pub struct Api {
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    pub plural: &'static str,
    pub namespaced: bool,
}

impl Kind {
    /// Kinds the console watches only to help (unblocking, the wizard's choices): the header
    /// names them only when they are not live.
    pub fn is_auxiliary(self) -> bool {
        matches!(
            self,
            Kind::AIWorkload
                | Kind::ProfileBundle
                | Kind::ScalingPolicy
                | Kind::Settings
                | Kind::Compute
        )
    }

    pub const ALL: [Kind; 10] = [
        Kind::Pool,
        Kind::Evaluation,
        Kind::Event,
        Kind::Project,
        Kind::Tenant,
        Kind::Compute,
        Kind::ProfileBundle,
        Kind::ScalingPolicy,
        Kind::AIWorkload,
        Kind::Settings,
    ];

    pub fn api(self) -> Api {
        let spectro = |kind, plural, namespaced| Api {
            group: "spectrocloud.com",
            version: "v1alpha1",
            kind,
            plural,
            namespaced,
        };
        match self {
            Kind::Pool => spectro("ComputePool", "computepools", true),
            Kind::Evaluation => spectro("ComputePoolEvaluation", "computepoolevaluations", true),
            Kind::Project => spectro("Project", "projects", true),
            Kind::Tenant => spectro("Tenant", "tenants", false),
            Kind::Compute => spectro("Compute", "computes", true),
            Kind::ProfileBundle => spectro("ProfileBundle", "profilebundles", true),
            Kind::ScalingPolicy => spectro("ScalingPolicy", "scalingpolicies", true),
            Kind::AIWorkload => spectro("AIWorkload", "aiworkloads", true),
            Kind::Settings => spectro("Settings", "settings", true),
            Kind::Event => Api {
                group: "",
                version: "v1",
                kind: "Event",
                plural: "events",
                namespaced: true,
            },
        }
    }

    /// `computepools.spectrocloud.com`, as RBAC messages name resources.
    pub fn resource_name(self) -> String {
        let api = self.api();
        if api.group.is_empty() {
            api.plural.to_owned()
        } else {
            format!("{}.{}", api.plural, api.group)
        }
    }

    pub fn from_kind(kind: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.api().kind == kind)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.api().plural)
    }
}
