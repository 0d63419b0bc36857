//! Just enough of the Kubernetes protobuf encoding to read a SelfSubjectAccessReview, which
//! kubectl sends as protobuf (`auth can-i`). The answer goes back as JSON, which kubectl also
//! accepts. Everything else kubectl sends us is JSON.

use serde_json::{Value, json};

/// The magic prefix of Kubernetes protobuf bodies.
const MAGIC: &[u8] = b"k8s\0";

fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// The length-delimited fields of a message, by field number; other wire types are skipped.
fn fields(bytes: &[u8]) -> Option<Vec<(u64, &[u8])>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let key = varint(bytes, &mut at)?;
        match key & 7 {
            0 => {
                varint(bytes, &mut at)?;
            }
            1 => at += 8,
            2 => {
                let len = usize::try_from(varint(bytes, &mut at)?).ok()?;
                let end = at.checked_add(len).filter(|e| *e <= bytes.len())?;
                out.push((key >> 3, &bytes[at..end]));
                at = end;
            }
            5 => at += 4,
            _ => return None,
        }
    }
    Some(out)
}

fn field<'b>(fields: &[(u64, &'b [u8])], number: u64) -> Option<&'b [u8]> {
    fields.iter().find(|(n, _)| *n == number).map(|(_, b)| *b)
}

fn text(fields: &[(u64, &[u8])], number: u64) -> String {
    field(fields, number)
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default()
}

/// Reads a protobuf SelfSubjectAccessReview into its JSON form (spec.resourceAttributes).
pub fn access_review(body: &[u8]) -> Option<Value> {
    let envelope = fields(body.strip_prefix(MAGIC)?)?;
    let review = fields(field(&envelope, 2)?)?;
    let spec = fields(field(&review, 2).unwrap_or(&[]))?;
    let attributes = fields(field(&spec, 1).unwrap_or(&[]))?;
    Some(json!({
        "kind": "SelfSubjectAccessReview",
        "apiVersion": "authorization.k8s.io/v1",
        "metadata": {},
        "spec": {"resourceAttributes": {
            "namespace": text(&attributes, 1),
            "verb": text(&attributes, 2),
            "group": text(&attributes, 3),
            "version": text(&attributes, 4),
            "resource": text(&attributes, 5),
            "subresource": text(&attributes, 6),
            "name": text(&attributes, 7),
        }}
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(number: u64, payload: &[u8]) -> Vec<u8> {
        let mut out = vec![((number << 3) | 2) as u8];
        out.push(payload.len() as u8);
        out.extend_from_slice(payload);
        out
    }

    #[test]
    fn reads_an_access_review() {
        let attributes = [
            message(2, b"patch"),
            message(3, b"spectrocloud.com"),
            message(5, b"computepools"),
        ]
        .concat();
        let spec = message(1, &attributes);
        let review = message(2, &spec);
        let envelope = [MAGIC.to_vec(), message(1, b""), message(2, &review)].concat();
        let json = access_review(&envelope).expect("reads");
        assert_eq!(
            json.pointer("/spec/resourceAttributes/verb"),
            Some(&json!("patch"))
        );
        assert_eq!(
            json.pointer("/spec/resourceAttributes/resource"),
            Some(&json!("computepools"))
        );
        assert!(access_review(b"not protobuf").is_none());
        assert!(access_review(&[MAGIC, &[0x12, 0x7f]].concat()).is_none());
    }
}
