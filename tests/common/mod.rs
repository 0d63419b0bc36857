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

/// The lines a child process writes, as they come, on a channel (read on a thread of its own
/// so a test can wait for each with a deadline).
#[allow(dead_code)]
pub fn lines_of(output: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (lines, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(output)
            .lines()
            .map_while(Result::ok)
        {
            if lines.send(line).is_err() {
                return;
            }
        }
    });
    receive
}
