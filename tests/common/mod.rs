//! What the integration tests share: a kube client for a context of a running demo cluster.

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

use pooldeck::demo::DemoCluster;

/// A kube-rs client for one context of the demo cluster's kubeconfig.
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
