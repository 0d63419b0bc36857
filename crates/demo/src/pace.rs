//! A real hub's pace. The demo cluster answers about ten times faster than a real API server
//! (no etcd, no admission chain, no conversion), which would flatter every figure measured on
//! it. A pace slows the lists down the way a real server is slow: a cost per object
//! (serialisation, conversion) and a bandwidth the bytes go out at. The `large` scenario is
//! paced by default at a 2-core hub's measured pace: 10,000 seed-shaped pools (about 69 MB)
//! take about 1.2 s to send.

use std::time::Duration;

use axum::body::Body;

/// How fast lists are sent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// Time per object listed.
    pub per_object: Duration,
    /// Bytes per second the body goes out at (0: as fast as it can).
    pub bytes_per_second: u64,
}

/// A 2-core hub sending 10,000 pools (69 MB) in about 1.2 s: 40 µs an object (0.4 s) and
/// 85 MB/s (0.8 s).
pub const REAL_HUB: Pace = Pace {
    per_object: Duration::from_micros(40),
    bytes_per_second: 85_000_000,
};

/// How much of a paced body goes out at a time.
const CHUNK: usize = 64 * 1024;

impl Pace {
    /// The pace a scenario plays at unless told otherwise: a real hub's for `large`, none for
    /// the small scenarios (their lists take microseconds either way).
    pub fn default_for(scenario: &str) -> Option<Pace> {
        scenario.starts_with("large").then_some(REAL_HUB)
    }

    /// How long sending `objects` objects in `bytes` bytes takes at this pace.
    pub fn time_for(&self, objects: usize, bytes: usize) -> Duration {
        let sending = if self.bytes_per_second == 0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(bytes as f64 / self.bytes_per_second as f64)
        };
        self.per_object
            .saturating_mul(u32::try_from(objects).unwrap_or(u32::MAX))
            + sending
    }

    /// The body sent in chunks, each when the pace allows: the time for the whole spread over
    /// the chunks, so a client sees the first bytes early and the last at the paced time.
    pub fn body(&self, bytes: Vec<u8>, objects: usize) -> Body {
        let total = self.time_for(objects, bytes.len());
        let chunks = bytes.len().div_ceil(CHUNK).max(1);
        let each = total / u32::try_from(chunks).unwrap_or(u32::MAX);
        let bytes = axum::body::Bytes::from(bytes);
        let stream = futures::stream::unfold(0usize, move |at| {
            let bytes = bytes.clone();
            async move {
                if at >= bytes.len() {
                    return None;
                }
                tokio::time::sleep(each).await;
                let end = (at + CHUNK).min(bytes.len());
                Some((Ok::<_, std::convert::Infallible>(bytes.slice(at..end)), end))
            }
        });
        Body::from_stream(stream)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_thousand_pools_take_a_real_hubs_time() {
        let t = REAL_HUB.time_for(10_000, 69_000_000);
        assert!(
            t > Duration::from_millis(1100) && t < Duration::from_millis(1300),
            "{t:?}"
        );
        assert_eq!(Pace::default_for("fleet"), None);
        assert_eq!(Pace::default_for("large-10000"), Some(REAL_HUB));
    }
}
