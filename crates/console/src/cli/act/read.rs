//! The pools a verb acts on, read: names checked, the hub connected, read-only mode decided, the pools got by name or selected.

use std::process::ExitCode;

use kube::api::DynamicObject;
use serde_json::Value;

use super::args::{Global, PoolsAt};
use crate::cluster::{Mode, Session};
use crate::domain::Kind;
use crate::domain::model::ComputePool;
use crate::domain::selector::LabelSelector;

pub(in crate::cli) struct Target<'a> {
    pub(in crate::cli) names: &'a [String],
    /// The namespace, selector and kubeconfig flags; its `context` list is read once into
    /// `context` below by the caller, never inside `prepare`.
    pub(in crate::cli) at: &'a PoolsAt,
    /// The one hub acted on (`None`: the current context).
    pub(in crate::cli) context: Option<String>,
    pub(in crate::cli) selector: Option<&'a LabelSelector>,
    /// One hub of several: pools it lacks (a name not there, a selector matching none) are
    /// nothing to do on this hub, not an error.
    pub(in crate::cli) one_of_several: bool,
}

/// Connects, decides read-only mode and the audit log, and reads the named pools.
pub(super) async fn prepare(
    target: &Target<'_>,
    global: &Global,
) -> Result<(Session, Vec<ComputePool>), ExitCode> {
    let (session, values) = prepare_values(target, global).await?;
    Ok((session, values.into_iter().map(to_pool).collect()))
}

/// Every name asked for is a Compute Pool's name, or none is sent (exit 2, as a usage error).
fn check_names(names: &[String]) -> Result<(), ExitCode> {
    for name in names {
        if let Some(problem) = crate::domain::rules::names::dns_subdomain(name) {
            crate::say::complain!(
                "pooldeck: the name \"{}\" is not a Compute Pool name: it {problem}",
                crate::domain::inert::line(name)
            );
            return Err(ExitCode::from(2));
        }
    }
    Ok(())
}

/// As [`prepare`], the pools as the hub sent them (for `edit`).
pub(in crate::cli) async fn prepare_values(
    target: &Target<'_>,
    global: &Global,
) -> Result<(Session, Vec<Value>), ExitCode> {
    check_names(target.names)?;
    crate::cli::check_namespaces(&target.at.namespace, 2)?;
    let connection = crate::cli::connect_or_exit(&target.at.kubeconfig, &target.context, 1).await?;
    let (settings, warnings) = crate::settings::Settings::load();
    let source = crate::sources::connection::Target {
        kubeconfig: target.at.kubeconfig.clone(),
        context: target.context.clone(),
        inline: None,
    };
    let contexts = crate::sources::connection::context_names(&source);
    for warning in warnings.iter().chain(&settings.about_contexts(&contexts)) {
        crate::say::complain!("pooldeck: {warning}");
    }
    let why = if global.read_only {
        Some("--readonly".to_owned())
    } else {
        settings.why_read_only(&connection.context)
    };
    if let Some(why) = why {
        crate::say::complain!(
            "pooldeck: read-only mode ({}): nothing was sent",
            crate::domain::inert::line(&why)
        );
        return Err(ExitCode::from(2));
    }
    let hub = crate::sources::connection::hub_of(&source, &connection.context);
    let audit = crate::cli::audit_log(global.audit_log.clone(), &settings);
    let namespace = target
        .at
        .namespace
        .clone()
        .unwrap_or_else(|| connection.default_namespace.clone());
    if let Some(problem) = crate::domain::rules::names::namespace_problem(&namespace) {
        crate::say::complain!(
            "pooldeck: the context's namespace cannot be used: {}",
            crate::domain::inert::line(&problem)
        );
        return Err(ExitCode::from(2));
    }
    let api = crate::cluster::api_for(
        &connection.client,
        &crate::domain::ObjectRef::new(Kind::Pool, namespace.clone(), ""),
    );
    let mut pools = match (target.selector, target.at.selector.as_deref()) {
        (Some(selector), Some(text)) => {
            selected(&api, selector, text, &namespace, target.one_of_several).await?
        }
        _ => Vec::new(),
    };
    for name in target.names {
        match api.get_opt(name).await {
            Ok(Some(pool)) => pools.push(to_value(pool)),
            Ok(None) if target.one_of_several => {
                crate::say::say!(
                    "  ComputePool {namespace}/{} is not on this hub",
                    crate::domain::inert::line(name)
                );
            }
            Ok(None) => {
                crate::say::complain!("pooldeck: ComputePool {namespace}/{name} was not found");
                return Err(ExitCode::from(1));
            }
            Err(e) => {
                crate::say::complain!("pooldeck: {}", crate::sources::errors::classify(&e));
                return Err(ExitCode::from(1));
            }
        }
    }
    Ok((
        Session::new(connection.client, Mode::ReadWrite, hub, audit),
        pools,
    ))
}

/// The pools `-l` selects in `namespace`: selected on the server as kubectl does, and again
/// here with the same parser; said, by name. None is a failure unless this hub is one of
/// several.
async fn selected(
    api: &kube::Api<kube::api::DynamicObject>,
    selector: &LabelSelector,
    text: &str,
    namespace: &str,
    one_of_several: bool,
) -> Result<Vec<Value>, ExitCode> {
    // Selected on the server as kubectl does, and again here with the same parser.
    let mut pools: Vec<Value> = Vec::new();
    let params = kube::api::ListParams::default().labels(text);
    let listed = crate::cluster::list_in_pages(api, &params, |object| {
        let value = to_value(object);
        let label = |key: &str| {
            value
                .pointer("/metadata/labels")
                .and_then(|labels| labels.get(key))
                .and_then(Value::as_str)
        };
        if selector.matches(label) {
            pools.push(value);
        }
    })
    .await;
    if let Err(e) = listed {
        crate::say::complain!("pooldeck: {}", crate::sources::errors::classify(&e));
        return Err(ExitCode::from(1));
    }
    pools.sort_by(|a, b| name_of(a).cmp(name_of(b)));
    let shown = crate::domain::inert::line(text);
    if pools.is_empty() && one_of_several {
        crate::say::say!("  no Compute Pool in {namespace} matches -l {shown} on this hub");
    } else if pools.is_empty() {
        crate::say::complain!(
            "pooldeck: no Compute Pool in {namespace} matches -l {shown}: nothing was sent"
        );
        return Err(ExitCode::from(1));
    }
    crate::say::say!(
        "{} in {namespace} {} -l {shown}: {}",
        crate::domain::words::counted(pools.len(), "Compute Pool"),
        crate::domain::words::agrees(pools.len(), "matches", "match"),
        pools
            .iter()
            .map(|p| crate::domain::inert::line(name_of(p)).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(pools)
}

/// An object as the hub sent it.
pub(super) fn to_value(object: DynamicObject) -> Value {
    serde_json::to_value(object).unwrap_or(Value::Null)
}

fn name_of(value: &Value) -> &str {
    value
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// A pool as the hub sent it, read through the model (a field of the wrong shape is kept as
/// written and read as absent).
fn to_pool(value: Value) -> ComputePool {
    crate::domain::model::read_owned::<ComputePool>(value)
        .map(|(pool, _)| pool)
        .unwrap_or_default()
}
