use super::*;
use serde_json::json;

fn redactor() -> Redactor {
    Redactor::new(&[]).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn only_the_secret_part_of_a_text_goes() {
    let r = redactor();
    let (safe, what) = r
        .text("login failed: Authorization: Bearer abcdef0123456789 for host-3")
        .unwrap_or_default();
    assert_eq!(
        safe,
        "login failed: Authorization: Bearer REDACTED for host-3"
    );
    assert_eq!(what, ["bearer credentials"]);
    let (safe, _) = r
        .text("registry password=hunter2x, user=admin")
        .unwrap_or_default();
    assert_eq!(safe, "registry password=REDACTED, user=admin");
    let (safe, _) = r
        .text(r#"{"apiKey": "k-123456", "name": "x"}"#)
        .unwrap_or_default();
    assert_eq!(safe, r#"{"apiKey": "REDACTED", "name": "x"}"#);
    assert!(r.text("VIP 10.0.0.5 is already held by pool a").is_none());
    assert!(r.text("password=REDACTED").is_none(), "redacted once only");
    assert!(
        r.text("Basic checks passed for host-3").is_none(),
        "English stays"
    );
    for token in [
        "AKIAIOSFODNN7EXAMPLE",
        "ghp_0123456789abcdefABCDEF0123",
        "xoxb-1234567890-abcdefghij",
        "redis://:R3disPass@cache:6379",
    ] {
        let (safe, _) = r.text(&format!("saw {token} here")).unwrap_or_default();
        assert!(!safe.contains(token), "{token}: {safe}");
    }
    let (safe, _) = r
        .text("pulling https://robot:Zx9pass@registry.local/v2 with pwd='s3cret'")
        .unwrap_or_default();
    assert_eq!(
        safe,
        "pulling https://robot:REDACTED@registry.local/v2 with pwd='REDACTED'"
    );
}

#[test]
fn keys_and_certificates_go_whole() {
    let r = redactor();
    let text =
        "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAA\n-----END RSA PRIVATE KEY-----\nafter";
    let (safe, what) = r.text(text).unwrap_or_default();
    assert!(!safe.contains("MIIEow"), "{safe}");
    assert!(safe.ends_with("after"));
    assert_eq!(what, ["rsa private key"]);
    let (cut, _) = r
        .text("-----BEGIN CERTIFICATE-----MIIC cut short")
        .unwrap_or_default();
    assert!(!cut.contains("MIIC"), "{cut}");
    let (ssh, _) = r
        .text("ssh-ed25519 AAAAC3NzaC1lZDI1 me@laptop")
        .unwrap_or_default();
    assert_eq!(ssh, "ssh-ed25519 REDACTED");
}

#[test]
fn an_object_lists_each_place_never_the_value() {
    let r = Redactor::new(&["cust-[0-9]+".to_owned()]).unwrap_or_else(|e| panic!("{e}"));
    let (named, _) = r
        .text("cust-77 and cust-4411 and cust-77")
        .unwrap_or_default();
    assert_eq!(
        named, "redacted-1 and redacted-2 and redacted-1",
        "a name stays a name"
    );
    assert!(
        Redactor::new(&["x*".to_owned()]).is_err(),
        "matches everywhere"
    );
    let mut pool = json!({"metadata": {"name": "p", "managedFields": [{}], "annotations": {
        "kubectl.kubernetes.io/last-applied-configuration": "{\"spec\": {}}",
        "note": "call cust-4411 with token: tok_9f8e7d"}},
        "data": {"env": [{"name": "DB_PASSWORD", "value": "plainvalue"}],
                 "sshKeys": ["AAAA-not-even-a-key-body"]},
        "status": {"conditions": [{"message": "pull failed: Basic dXNlcjpwYXNz"}]}});
    let mut found = Vec::new();
    r.object(&mut pool, "pools.json ns/p ", &mut found);
    let text = pool.to_string();
    for secret in [
        "cust-4411",
        "tok_9f8e7d",
        "dXNlcjpwYXNz",
        "spec",
        "managedFields",
        "plainvalue",
        "AAAA-not",
    ] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    let places: Vec<&str> = found.iter().map(|f| f.place.as_str()).collect();
    assert!(places.contains(
        &"pools.json ns/p .metadata.annotations[\"kubectl.kubernetes.io/last-applied-configuration\"]"
    ));
    assert!(places.contains(&"pools.json ns/p .status.conditions[0].message"));
    assert!(
        found
            .iter()
            .all(|f| !f.what.contains("4411") && !f.place.contains("tok_")),
        "{found:?}"
    );
    assert!(Redactor::new(&["(".to_owned()]).is_err());
}
