//! `pooldeck describe pool NAME`: one pool as a page to read, as `kubectl describe` shows an
//! object: who it is, its spec in words, its status with each condition explained in the
//! troubleshooting guide's words when it fails, its hosts, its scaling evaluation, what the
//! doctor finds, and its recent events. The objects a pool refers to (ScalingPolicies,
//! AIWorkloads, ProfileBundles, Computes, Projects, Tenants) are described as the console's
//! `d` shows them.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use chrono::Utc;
use clap::{Args, ValueEnum};

use super::settle::{Settled, finish, settle, settle_pools};
use crate::app::describe::{object_page, page};
use crate::domain::inert;
use crate::inventory::Kind;

/// What `describe` and `edit` take: a pool, by any of the console's words for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Describable {
    Pool,
}

impl ValueEnum for Describable {
    fn value_variants<'a>() -> &'a [Describable] {
        &[Describable::Pool]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(super::possible_as("pool", crate::app::rows::names::POOLS))
    }
}

/// What `describe` takes: a pool, or one of the objects a pool refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Described {
    Pool,
    Of(Kind),
}

impl ValueEnum for Described {
    fn value_variants<'a>() -> &'a [Described] {
        &[
            Described::Pool,
            Described::Of(Kind::ScalingPolicy),
            Described::Of(Kind::AIWorkload),
            Described::Of(Kind::ProfileBundle),
            Described::Of(Kind::Compute),
            Described::Of(Kind::Project),
            Described::Of(Kind::Tenant),
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let names = match self {
            Described::Pool => crate::app::rows::names::POOLS,
            Described::Of(kind) => crate::app::View::of_kind(*kind)?.aliases(),
        };
        // Named in the singular: one object is described.
        Some(super::possible_as(
            names.get(1).copied().unwrap_or("pool"),
            names,
        ))
    }
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  pooldeck describe pool llm-train -n ml-research\n  \
    kubectl pooldeck describe cp edge-store-042 -n retail-edge"
)]
pub struct DescribeArgs {
    /// What to describe: a Compute Pool (pool, cp), or a scalingpolicy, aiworkload,
    /// profilebundle, compute, project or tenant.
    #[arg(value_enum)]
    pub resource: Described,
    /// The object's name.
    pub name: String,
    /// The object's namespace (default: the context's).
    #[arg(long, short, value_name = "NS")]
    pub namespace: Option<String>,
    /// The kubeconfig context (default: the current one).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// How long to wait for the complete picture.
    #[arg(long, default_value = "30s", allow_hyphen_values = true, value_parser = super::parse_duration)]
    pub timeout: Duration,
}

pub fn run(args: &DescribeArgs) -> ExitCode {
    super::block_on(describe(args))
}

async fn describe(args: &DescribeArgs) -> ExitCode {
    let at = (&args.kubeconfig, &args.context);
    let (connection, namespaces) = match super::reach_named(&args.name, &args.namespace, at).await {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    if let Described::Of(kind) = args.resource {
        let optional = [Kind::Pool, Kind::Event];
        return match settle(&connection, &[kind], &optional, &namespaces, args.timeout).await {
            Ok(Settled {
                inventory, tasks, ..
            }) => match inventory.objects(kind).find(|o| o.name() == args.name) {
                Some(object) => {
                    super::get::print_out(&object_page(&inventory, object, Utc::now()));
                    finish(tasks, 0)
                }
                None => {
                    crate::say::complain!(
                        "Error from server (NotFound): {} \"{}\" not found",
                        kind.resource_name(),
                        inert::line(&args.name)
                    );
                    finish(tasks, 1)
                }
            },
            Err(code) => code,
        };
    }
    let Settled {
        inventory, tasks, ..
    } = match settle_pools(&connection, &namespaces, args.timeout, None).await {
        Ok(settled) => settled,
        Err(code) => return code,
    };
    let Some(pool) = inventory
        .objects(Kind::Pool)
        .find(|p| p.name() == args.name)
        .cloned()
    else {
        crate::say::complain!(
            "Error from server (NotFound): computepools.spectrocloud.com \"{}\" not found",
            inert::line(&args.name)
        );
        return finish(tasks, 1);
    };
    let mut text = page(&inventory, &pool, Utc::now());
    text.push_str("\nTimeline (the last ten; pooldeck timeline shows all):\n");
    let target = crate::sources::connection::Target {
        kubeconfig: args.kubeconfig.clone(),
        context: args.context.clone(),
        inline: None,
    };
    let hub = crate::sources::connection::hub_of(&target, &connection.context);
    for line in super::timeline::last(&inventory, &hub, (pool.namespace(), pool.name()), 10) {
        text.push_str(&format!("  {line}\n"));
    }
    super::get::print_out(&text);
    finish(tasks, 0)
}
