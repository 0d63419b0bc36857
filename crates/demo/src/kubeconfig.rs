//! The demo's kubeconfigs: one cluster with its four contexts, or several clusters as hubs; written private.

use std::path::Path;

use base64::Engine;

use crate::{ADMIN_CONTEXT, DemoCluster, Error, OPERATOR_CONTEXT, READER_CONTEXT, VIEWER_CONTEXT};

/// The first line of every kubeconfig the demo writes: `demo serve` knows its own files by it
/// (and writes over no other file).
pub const WRITTEN_BY_DEMO: &str = "# Written by pooldeck demo serve: removed when it stops.\n";

/// One kubeconfig for several demo clusters, each its own hub: a context (and its cluster
/// and admin user) per name, the first current (`demo serve --hubs N`, and tests of the
/// fleet across hubs).
pub fn hubs_kubeconfig(hubs: &[(&str, &DemoCluster)]) -> String {
    let (mut clusters, mut users, mut contexts) = (String::new(), String::new(), String::new());
    for (name, cluster) in hubs {
        let (c, u, x) = cluster.hub_entries(name);
        clusters.push_str(&c);
        users.push_str(&u);
        contexts.push_str(&x);
    }
    format!(
        "{WRITTEN_BY_DEMO}apiVersion: v1\nkind: Config\npreferences: {{}}\ncurrent-context: {current}\n\
         clusters:\n{clusters}users:\n{users}contexts:\n{contexts}",
        current = hubs
            .first()
            .map(|(name, _)| serde_json::to_string(name).unwrap_or_default())
            .unwrap_or_default(),
    )
}

impl DemoCluster {
    pub fn url(&self) -> String {
        format!("https://{}", self.address)
    }

    /// A kubeconfig with a context per user; the admin one is current.
    pub fn kubeconfig(&self) -> String {
        format!(
            "{WRITTEN_BY_DEMO}apiVersion: v1\nkind: Config\npreferences: {{}}\ncurrent-context: {ADMIN_CONTEXT}\n\
             clusters:\n- name: pooldeck-demo\n  cluster:\n    server: {url}\n    certificate-authority-data: {ca}\n\
             users:\n- name: admin\n  user:\n    token: {admin}\n- name: viewer\n  user:\n    token: {viewer}\n- name: operator\n  user:\n    token: {operator}\n- name: reader\n  user:\n    token: {reader}\n\
             contexts:\n- name: {ADMIN_CONTEXT}\n  context:\n    cluster: pooldeck-demo\n    user: admin\n    namespace: default\n\
             - name: {VIEWER_CONTEXT}\n  context:\n    cluster: pooldeck-demo\n    user: viewer\n    namespace: default\n\
             - name: {OPERATOR_CONTEXT}\n  context:\n    cluster: pooldeck-demo\n    user: operator\n    namespace: default\n\
             - name: {READER_CONTEXT}\n  context:\n    cluster: pooldeck-demo\n    user: reader\n    namespace: default\n",
            url = self.url(),
            ca = base64::engine::general_purpose::STANDARD.encode(&self.ca_pem),
            admin = self.admin_token,
            viewer = self.viewer_token,
            operator = self.identity.operator_token,
            reader = self.identity.reader_token,
        )
    }

    /// The admin's context of this cluster in a kubeconfig of several hubs, under `name`.
    fn hub_entries(&self, name: &str) -> (String, String, String) {
        // A name from a recording is the file's text: written as a quoted string, it stays
        // one name (JSON's quoting is YAML's too).
        let name = serde_json::to_string(name).unwrap_or_default();
        (
            format!(
                "- name: {name}\n  cluster:\n    server: {url}\n    certificate-authority-data: {ca}\n",
                url = self.url(),
                ca = base64::engine::general_purpose::STANDARD.encode(&self.ca_pem),
            ),
            format!(
                "- name: {name}\n  user:\n    token: {admin}\n",
                admin = self.admin_token
            ),
            format!(
                "- name: {name}\n  context:\n    cluster: {name}\n    user: {name}\n    namespace: default\n"
            ),
        )
    }

    /// Writes the kubeconfig, readable by the owner only (it holds tokens), as a new file
    /// moved into place: never through a link or into a file someone else made.
    pub fn write_kubeconfig(&self, path: &Path) -> Result<(), Error> {
        Ok(pooldeck_io::files::write_private(
            path,
            self.kubeconfig().as_bytes(),
        )?)
    }
}
