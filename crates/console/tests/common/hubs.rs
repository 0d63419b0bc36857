//! Three demo hubs in one process for the tests of several hubs: hub-a, hub-b and hub-c in
//! one kubeconfig, each with its write counter; one can be stopped mid-test.

use serde_json::Value;

/// Three hubs playing one story, started here, their kubeconfig written, and the settings a
/// test gives.
pub struct Hubs {
    pub runtime: tokio::runtime::Runtime,
    /// hub-a, hub-b and hub-c (`None` once stopped).
    pub clusters: Vec<Option<pooldeck::demo::DemoCluster>>,
    pub kubeconfig: std::path::PathBuf,
    /// The settings directory (`XDG_CONFIG_HOME`) pooldeck is given.
    pub config: std::path::PathBuf,
    pub dir: tempfile::TempDir,
}

impl Hubs {
    pub fn start(scenario: &str) -> Hubs {
        Hubs::start_stories([scenario; 3])
    }

    /// hub-a, hub-b and hub-c, each playing its story.
    pub fn start_stories(stories: [&str; 3]) -> Hubs {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let clusters: Vec<_> = stories
            .into_iter()
            .map(|scenario| {
                runtime
                    .block_on(pooldeck::demo::DemoCluster::start(
                        pooldeck::demo::Options {
                            scenario: Some(
                                pooldeck::demo::scenario::Scenario::builtin(scenario)
                                    .expect("built in"),
                            ),
                            ..pooldeck::demo::Options::default()
                        },
                    ))
                    .expect("starts")
            })
            .collect();
        let named: Vec<(&str, &pooldeck::demo::DemoCluster)> = ["hub-a", "hub-b", "hub-c"]
            .into_iter()
            .zip(clusters.iter())
            .collect();
        let dir = tempfile::tempdir().expect("temp dir");
        let kubeconfig = dir.path().join("hubs.kubeconfig");
        std::fs::write(&kubeconfig, pooldeck::demo::hubs_kubeconfig(&named)).expect("written");
        let clusters = clusters.into_iter().map(Some).collect();
        let config = dir.path().join("config");
        std::fs::create_dir_all(config.join("pooldeck")).expect("config dir");
        Hubs {
            runtime,
            clusters,
            kubeconfig,
            config,
            dir,
        }
    }

    /// pooldeck with this kubeconfig, the settings here and a private state directory.
    pub fn run(&self, args: &[&str]) -> (Option<i32>, String, String) {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("pooldeck"))
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .args(args)
            .env("XDG_CONFIG_HOME", &self.config)
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .stdin(std::process::Stdio::null())
            .output()
            .expect("pooldeck runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    pub fn writes(&self) -> Vec<u64> {
        self.clusters
            .iter()
            .map(|c| c.as_ref().map_or(0, |c| c.writes()))
            .collect()
    }

    /// Hub `index`'s demo cluster (running).
    pub fn cluster(&self, index: usize) -> &pooldeck::demo::DemoCluster {
        self.clusters[index].as_ref().expect("the hub runs")
    }

    /// Stops hub `index`'s server: its address refuses connections from now on.
    pub fn stop(&mut self, index: usize) {
        if let Some(cluster) = self.clusters[index].take() {
            self.runtime.block_on(cluster.stop());
        }
    }

    /// Hub `index`'s store and its ComputePools.
    fn pools(
        &self,
        index: usize,
    ) -> (
        &pooldeck::demo::store::Store,
        pooldeck::demo::registry::Resource,
    ) {
        let store = &self.cluster(index).store;
        let resource = store
            .registry
            .by_kind("ComputePool")
            .cloned()
            .expect("pools served");
        (store, resource)
    }

    /// Sets a pool's status on hub `index`, as its controller would.
    pub fn set_status(&self, index: usize, namespace: &str, name: &str, status: &str) {
        let (store, resource) = self.pools(index);
        store
            .patch(
                &resource,
                namespace,
                name,
                &pooldeck::demo::store::Patch::Merge(
                    serde_json::json!({"status": {"status": status}}),
                ),
                true,
                false,
            )
            .expect("patched");
    }

    /// Whether a pool of hub `index` carries the pause label.
    pub fn paused(&self, index: usize, namespace: &str, name: &str) -> bool {
        let (store, resource) = self.pools(index);
        store
            .get(&resource, namespace, name)
            .ok()
            .and_then(|pool| {
                pool.pointer("/metadata/labels/controller.spectrocloud.com~1pause")
                    .and_then(Value::as_str)
                    .map(|v| v == "true")
            })
            .unwrap_or(false)
    }
}

impl Drop for Hubs {
    fn drop(&mut self) {
        for cluster in self.clusters.drain(..).flatten() {
            self.runtime.block_on(cluster.stop());
        }
    }
}
