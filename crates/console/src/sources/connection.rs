//! Connecting to a cluster from a kubeconfig (`--kubeconfig`, `KUBECONFIG`, `~/.kube/config`,
//! or the in-cluster service account inside a pod) and a context, with errors an operator can
//! act on.

use std::path::{Path, PathBuf};

use kube::config::{KubeConfigOptions, Kubeconfig, KubeconfigError};
use kube::{Client, Config};

use crate::domain::ClusterError;
use crate::domain::error::{AuthorityProblem, Configuration};

/// Where to connect.
#[derive(Clone, Default)]
pub struct Target {
    pub kubeconfig: Option<PathBuf>,
    pub context: Option<String>,
    /// A kubeconfig held in memory (the embedded demo's): it holds tokens, so it is never
    /// written to a file. Takes precedence over `kubeconfig`.
    pub inline: Option<String>,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the inline kubeconfig: it holds tokens.
        f.debug_struct("Target")
            .field("kubeconfig", &self.kubeconfig)
            .field("context", &self.context)
            .field("inline", &self.inline.as_ref().map(|_| "<in memory>"))
            .finish()
    }
}

impl Target {
    /// The kubeconfig this target names, read.
    fn read(&self) -> Result<Option<Kubeconfig>, Configuration> {
        if let Some(text) = &self.inline {
            return Kubeconfig::from_yaml(text).map(Some).map_err(|e| {
                Configuration::DemoUnreadable {
                    detail: e.to_string(),
                }
            });
        }
        match &self.kubeconfig {
            Some(path) => read_kubeconfig(path).map(Some),
            None => Ok(None),
        }
    }
}

/// Reads one kubeconfig file: only a regular file of a sane size (a FIFO or device named by
/// mistake is refused, never read), with relative certificate paths taken from its directory.
fn read_kubeconfig(path: &Path) -> Result<Kubeconfig, Configuration> {
    let unreadable = |why: &dyn std::fmt::Display| Configuration::Unreadable {
        path: path.display().to_string(),
        detail: why.to_string(),
    };
    crate::files::read_text(path, crate::files::SMALL_FILE_BYTES).map_err(|e| unreadable(&e))?;
    Kubeconfig::read_from(path).map_err(|e| match e {
        // kube names the path again, quoted twice; the sentence already names it.
        KubeconfigError::ReadConfig(io, _) => unreadable(&io),
        other => unreadable(&other),
    })
}

/// The kubeconfig kubectl would use without `--kubeconfig`: the files `KUBECONFIG` lists,
/// merged (those that do not exist are skipped, as kubectl does), or `~/.kube/config`.
/// `Ok(None)` when there is none at all.
fn default_kubeconfig() -> Result<Option<Kubeconfig>, Configuration> {
    let listed: Vec<PathBuf> = std::env::var_os("KUBECONFIG")
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    let paths = if listed.is_empty() {
        std::env::home_dir()
            .map(|home| home.join(".kube").join("config"))
            .into_iter()
            .collect()
    } else {
        listed
    };
    let mut merged: Option<Kubeconfig> = None;
    for path in paths {
        if matches!(std::fs::symlink_metadata(&path), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
        {
            continue;
        }
        let next = read_kubeconfig(&path)?;
        merged = Some(match merged {
            None => next,
            Some(so_far) => so_far.merge(next).map_err(|e| Configuration::Unmergeable {
                path: path.display().to_string(),
                detail: e.to_string(),
            })?,
        });
    }
    Ok(merged)
}

/// Where [`default_kubeconfig`] looked, for the message when it found nothing.
fn looked_in() -> String {
    match std::env::var("KUBECONFIG") {
        Ok(list) if !list.trim_matches(':').is_empty() => format!("KUBECONFIG={list}"),
        _ => std::env::home_dir().map_or_else(
            || "no KUBECONFIG and no home directory".to_owned(),
            |home| format!("no KUBECONFIG, no {}", home.join(".kube/config").display()),
        ),
    }
}

/// A client and the namespace the context names (or `default`).
pub struct Connection {
    pub client: Client,
    pub default_namespace: String,
    pub context: String,
}

/// The contexts the target's kubeconfig names (for the command line's completion); none when
/// it cannot be read.
pub fn context_names(target: &Target) -> Vec<String> {
    let kubeconfig = match target.read() {
        Ok(Some(kubeconfig)) => Some(kubeconfig),
        Ok(None) => default_kubeconfig().ok().flatten(),
        Err(_) => None,
    };
    kubeconfig
        .map(|k| k.contexts.into_iter().map(|c| c.name).collect())
        .unwrap_or_default()
}

/// Why the kubeconfig's contexts cannot be listed.
#[derive(Debug, thiserror::Error)]
pub enum NoContexts {
    #[error(transparent)]
    Unreadable(#[from] Configuration),
    #[error(
        "no kubeconfig to read contexts from (KUBECONFIG, ~/.kube/config; inside a pod the in-cluster account is one hub, with no contexts)"
    )]
    NoKubeconfig,
    #[error("the kubeconfig names the context \"{0}\" twice")]
    Twice(String),
}

/// The contexts the kubeconfig names, in its order and each once, or why it cannot be read
/// (a commands reading several hubs says that, rather than "no context").
pub fn contexts_of(target: &Target) -> Result<Vec<String>, NoContexts> {
    let kubeconfig = match target.read()? {
        Some(kubeconfig) => Some(kubeconfig),
        None => default_kubeconfig()?,
    };
    let Some(kubeconfig) = kubeconfig else {
        return Err(NoContexts::NoKubeconfig);
    };
    let mut names: Vec<String> = Vec::new();
    for context in kubeconfig.contexts {
        // Which of two same-named contexts a name means cannot be told (kubectl refuses such
        // a file too).
        if names.contains(&context.name) {
            return Err(NoContexts::Twice(
                crate::domain::inert::line(&context.name).into_owned(),
            ));
        }
        names.push(context.name);
    }
    Ok(names)
}

/// The context a target uses, as the kubeconfig has it.
fn context_of(target: &Target) -> Option<(Kubeconfig, kube::config::Context)> {
    let kubeconfig = match target.read().ok()? {
        Some(kubeconfig) => kubeconfig,
        None => default_kubeconfig().ok()??,
    };
    let context_name = target
        .context
        .clone()
        .or(kubeconfig.current_context.clone())?;
    let context = kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == context_name)?
        .context
        .clone()?;
    Some((kubeconfig, context))
}

/// The hub a connection to `context` through `target` reaches: what every request sent on it
/// is bound to.
pub fn hub_of(target: &Target, context: &str) -> crate::domain::Hub {
    crate::domain::Hub {
        context: context.to_owned(),
        server: server_of(target).unwrap_or_default(),
        user: user_of(target).unwrap_or_default(),
        kubeconfig: kubeconfig_of(target),
    }
}

/// The kubeconfig file a target names (none for the embedded demo's, held in memory), as a
/// kubectl command handed on should name it.
pub fn kubeconfig_of(target: &Target) -> Option<String> {
    if target.inline.is_some() {
        return None;
    }
    kubeconfig_named(target.kubeconfig.as_deref())
}

/// The kubeconfig file to name in a kubectl command handed on: `--kubeconfig`'s, else
/// KUBECONFIG's when it lists one file; made absolute (pasted in another directory it is the
/// same file). None when there is none to name, when it is no UTF-8 text, or when it holds a
/// control character (a clipboard would carry it raw): the command then names the context.
pub fn kubeconfig_named(flag: Option<&std::path::Path>) -> Option<String> {
    let path = match flag {
        Some(path) => path.to_owned(),
        None => {
            let listed: Vec<_> = std::env::split_paths(&std::env::var_os("KUBECONFIG")?).collect();
            match listed.as_slice() {
                [only] if !only.as_os_str().is_empty() => only.clone(),
                _ => return None,
            }
        }
    };
    let absolute = std::path::absolute(path).ok()?;
    let text = absolute.to_str()?;
    (!text.chars().any(char::is_control)).then(|| text.to_owned())
}

/// The kubeconfig user the target's context names, for the audit log (a name, never a
/// credential).
pub fn user_of(target: &Target) -> Option<String> {
    context_of(target).and_then(|(_, context)| context.user)
}

/// The server the kubeconfig's context points at, for the header.
pub fn server_of(target: &Target) -> Option<String> {
    let (kubeconfig, context) = context_of(target)?;
    kubeconfig
        .clusters
        .iter()
        .find(|c| c.name == context.cluster)?
        .cluster
        .clone()?
        .server
}

/// The kubeconfig's own certificate authority for the context's cluster must be a
/// certificate: one that is not would make every server certificate look untrusted, and the
/// fault is here, not at the server.
fn check_authority(kubeconfig: &Kubeconfig, context: &str) -> Result<(), Configuration> {
    use base64::Engine;
    let Some(cluster_name) = kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == context)
        .and_then(|c| c.context.as_ref())
        .map(|c| c.cluster.clone())
    else {
        return Ok(());
    };
    let Some(cluster) = kubeconfig
        .clusters
        .iter()
        .find(|c| c.name == cluster_name)
        .and_then(|c| c.cluster.as_ref())
    else {
        return Ok(());
    };
    let problem = |problem: AuthorityProblem| Configuration::Authority {
        cluster: cluster_name.clone(),
        problem,
    };
    let bytes = match (
        &cluster.certificate_authority_data,
        &cluster.certificate_authority,
    ) {
        (Some(data), _) => base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .map_err(|_| problem(AuthorityProblem::NotBase64))?,
        (None, Some(path)) => crate::files::read_bounded(std::path::Path::new(path), 1024 * 1024)
            .map_err(|e| {
            problem(AuthorityProblem::Unreadable {
                path: path.clone(),
                detail: e.to_string(),
            })
        })?,
        (None, None) => return Ok(()),
    };
    let pem = String::from_utf8_lossy(&bytes).contains("-----BEGIN CERTIFICATE-----");
    let der = bytes.first() == Some(&0x30);
    if pem || der {
        Ok(())
    } else {
        Err(problem(AuthorityProblem::NotACertificate))
    }
}

/// Connects, or says why not in the user's terms.
pub async fn connect(target: &Target) -> Result<Connection, ClusterError> {
    connect_with(target)
        .await
        .map_err(ClusterError::Configuration)
}

async fn connect_with(target: &Target) -> Result<Connection, Configuration> {
    let kubeconfig = match target.read()? {
        Some(kubeconfig) => kubeconfig,
        None => match default_kubeconfig()? {
            Some(kubeconfig) => kubeconfig,
            // Inside a pod with no kubeconfig: the service account's in-cluster config.
            None if std::env::var_os("KUBERNETES_SERVICE_HOST").is_some()
                && target.context.is_none() =>
            {
                let config = Config::incluster().map_err(|e| Configuration::InCluster {
                    detail: e.to_string(),
                    client: false,
                })?;
                let default_namespace = config.default_namespace.clone();
                let client = Client::try_from(config).map_err(|e| Configuration::InCluster {
                    detail: e.to_string(),
                    client: true,
                })?;
                return Ok(Connection {
                    client,
                    default_namespace,
                    context: "in-cluster".into(),
                });
            }
            None => {
                return Err(Configuration::NoKubeconfig {
                    looked_in: looked_in(),
                });
            }
        },
    };
    let context = target
        .context
        .clone()
        .or_else(|| kubeconfig.current_context.clone())
        .ok_or(Configuration::NoCurrentContext)?;
    if !kubeconfig.contexts.iter().any(|c| c.name == context) {
        let known = kubeconfig.contexts.iter().map(|c| c.name.clone()).collect();
        return Err(Configuration::UnknownContext { context, known });
    }
    check_authority(&kubeconfig, &context)?;
    let options = KubeConfigOptions {
        context: Some(context.clone()),
        ..KubeConfigOptions::default()
    };
    let config = Config::from_custom_kubeconfig(kubeconfig, &options)
        .await
        .map_err(|e| Configuration::Unusable {
            context: context.clone(),
            detail: e.to_string(),
        })?;
    let default_namespace = config.default_namespace.clone();
    let client = Client::try_from(config).map_err(|e| Configuration::NoClient {
        context: context.clone(),
        detail: e.to_string(),
    })?;
    Ok(Connection {
        client,
        default_namespace,
        context,
    })
}

#[cfg(test)]
mod kubeconfig_tests {
    use super::kubeconfig_named;
    use std::path::Path;

    /// The file a handed-on command names is absolute (pasted in another directory it is the
    /// same file) and never carries a control character into a clipboard.
    #[test]
    fn the_kubeconfig_named_is_absolute_and_inert() {
        let named = kubeconfig_named(Some(Path::new("configs/hub.yaml"))).expect("named");
        assert!(Path::new(&named).is_absolute(), "{named}");
        assert!(named.ends_with("configs/hub.yaml"), "{named}");
        assert_eq!(
            kubeconfig_named(Some(Path::new("/etc/hub.yaml"))).as_deref(),
            Some("/etc/hub.yaml")
        );
        assert_eq!(kubeconfig_named(Some(Path::new("/tmp/a\nb.yaml"))), None);
        assert_eq!(
            kubeconfig_named(Some(Path::new("/tmp/\u{1b}]52;c;x\u{7}"))),
            None
        );
    }
}

#[cfg(test)]
mod configuration_tests {
    use super::*;

    fn connect_now(target: &Target) -> Result<Connection, Configuration> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(connect_with(target))
    }

    /// A context the kubeconfig lacks is said as that, with the contexts it has (typed, so
    /// the console can offer them), before anything is sent.
    #[test]
    fn an_unknown_context_names_the_known_ones() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("config");
        std::fs::write(
            &path,
            "apiVersion: v1\nkind: Config\ncurrent-context: a\n\
             clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n\
             users: [{name: u, user: {token: t}}]\n\
             contexts: [{name: a, context: {cluster: c, user: u}}, {name: b, context: {cluster: c, user: u}}]\n",
        )
        .expect("written");
        let target = Target {
            kubeconfig: Some(path.clone()),
            context: Some("hub-z".into()),
            inline: None,
        };
        let Err(problem) = connect_now(&target) else {
            panic!("connected to a context that is not there");
        };
        assert_eq!(
            problem,
            Configuration::UnknownContext {
                context: "hub-z".into(),
                known: vec!["a".into(), "b".into()],
            }
        );
        assert_eq!(
            problem.to_string(),
            "there is no context \"hub-z\" in the kubeconfig (known: a, b)"
        );
        std::fs::write(&path, "apiVersion: v1\nkind: Config\n").expect("written");
        let target = Target {
            context: None,
            ..target
        };
        assert!(matches!(
            connect_now(&target),
            Err(Configuration::NoCurrentContext)
        ));
    }
}
