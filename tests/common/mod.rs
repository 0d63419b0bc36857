//! What the integration tests share: a kube client for a context of a running demo cluster.

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

use pooldeck::demo::DemoCluster;

/// A kube-rs client for one context of the demo cluster's kubeconfig.
#[allow(dead_code)]
pub async fn client(cluster: &DemoCluster, context: &str) -> Client {
    let kubeconfig = Kubeconfig::from_yaml(&cluster.kubeconfig()).expect("the kubeconfig reads");
    let options = KubeConfigOptions {
        context: Some(context.to_owned()),
        ..KubeConfigOptions::default()
    };
    let config = Config::from_custom_kubeconfig(kubeconfig, &options)
        .await
        .expect("config");
    Client::try_from(config).expect("client")
}

/// Says that a test skips because a tool is missing, or fails when the environment says every
/// tool must be there (CI sets `POOLDECK_REQUIRE_TOOLS=1` after installing them, so nothing
/// skips there unseen).
#[allow(dead_code)]
pub fn skip(reason: &str) {
    if std::env::var_os("POOLDECK_REQUIRE_TOOLS").is_some_and(|v| v == "1") {
        panic!("{reason}, and POOLDECK_REQUIRE_TOOLS=1 says it must be");
    }
    eprintln!("SKIPPED: {reason}");
}
