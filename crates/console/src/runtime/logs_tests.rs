use std::sync::Mutex;

use super::*;

/// A line with an invalid byte is kept (the byte shown as U+FFFD) and the stream goes on;
/// a line of 400 KB is cut at 16 KiB and marked, and the next line is read whole.
#[test]
fn lines_are_decoded_leniently_and_bounded() {
    let mut input = b"first \xff byte\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 400_000));
    input.extend_from_slice(b"\r\nafter\nno newline at the end");
    let lines: Vec<String> = futures::executor::block_on(
        bounded_lines(futures::io::Cursor::new(input))
            .map(|l| l.expect("read"))
            .collect(),
    );
    assert_eq!(
        lines.len(),
        4,
        "{:?}",
        lines.iter().map(String::len).collect::<Vec<_>>()
    );
    assert_eq!(lines[0], "first \u{fffd} byte");
    assert!(lines[1].len() < LINE_AT_MOST + 64, "{}", lines[1].len());
    assert!(lines[1].ends_with("(line cut at 16 KiB)"));
    assert_eq!(lines[2], "after");
    assert_eq!(lines[3], "no newline at the end");
}
use crate::demo::{DemoCluster, Options, scenario::Scenario};
use crate::sources::connection::{Target, connect};

/// The log events of following on a demo cluster (without pods when `without_pods`),
/// until `enough` says so or 30 s pass.
fn follow_on_demo(without_pods: bool, enough: fn(&[LogEvent]) -> bool) -> Vec<LogEvent> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let cluster = DemoCluster::start(Options {
            scenario: Some(Scenario::builtin("deletion-blocked").expect("scenario")),
            without_kinds: if without_pods {
                vec!["Pod".into()]
            } else {
                Vec::new()
            },
            ..Options::default()
        })
        .await
        .expect("the demo starts");
        let connection = connect(&Target {
            kubeconfig: None,
            context: None,
            inline: Some(cluster.kubeconfig()),
        })
        .await
        .expect("connects");
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = {
            let seen = seen.clone();
            Box::new(move |event| {
                seen.lock().unwrap_or_else(|e| e.into_inner()).push(event);
                Box::pin(std::future::ready(())) as crate::app::ports::Pending<()>
            })
        };
        let task = tokio::spawn(follow(connection.client, sink));
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let done = enough(&seen.lock().unwrap_or_else(|e| e.into_inner()));
            if done || tokio::time::Instant::now() > deadline {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        task.abort();
        cluster.stop().await;
        seen.lock().unwrap_or_else(|e| e.into_inner()).clone()
    })
}

#[test]
fn the_guides_label_finds_the_pod_and_its_lines_arrive() {
    let events = follow_on_demo(false, |events| {
        events
            .iter()
            .any(|e| matches!(e, LogEvent::Lines { lines, .. } if lines.iter().any(|l| l.contains("stale-job"))))
    });
    assert!(
        matches!(events.first(), Some(LogEvent::Started { found, .. }) if found.contains(SELECTOR)),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| matches!(e, LogEvent::Lines { .. })),
        "{events:?}"
    );
}

#[test]
fn no_pods_and_no_hue_deployment_is_said_with_where_it_looked() {
    let events = follow_on_demo(true, |events| !events.is_empty());
    match events.first() {
        Some(LogEvent::Failed(why)) => {
            assert_eq!(*why, LogFailure::NoControllerPods);
            let said = why.to_string();
            assert!(
                said.contains("no hue controller pods") && said.contains(NAMESPACE),
                "{said}"
            );
        }
        other => panic!("a clear failure: {other:?}"),
    }
}
