//! What the demo has done, read by tests and benchmarks: steps played, writes, watch-lists asked and served, watches opened.

use crate::DemoCluster;

impl DemoCluster {
    /// Whether the scenario's timeline has played through once (every step applied, or
    /// skipped for a paused pool).
    pub fn timeline_played(&self) -> bool {
        self.played.load(std::sync::atomic::Ordering::SeqCst)
            >= self.steps.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// How many timeline steps the player has reached so far (over every repeat), and how
    /// many one pass has: tests wait for the story to come round again by it.
    pub fn steps_played(&self) -> (usize, usize) {
        (
            self.played.load(std::sync::atomic::Ordering::SeqCst),
            self.steps.load(std::sync::atomic::Ordering::SeqCst),
        )
    }

    /// Write requests this server received so far (dry runs included): tests prove by it
    /// which hub a request reached.
    pub fn writes(&self) -> u64 {
        self.api.writes.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Watches that asked for their initial events (watch-lists), served or refused.
    pub fn watch_lists_asked(&self) -> u64 {
        self.api
            .watch_lists_asked
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Watch-lists served: their initial events sent.
    pub fn watch_lists_served(&self) -> u64 {
        self.api
            .watch_lists_served
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The most objects one list answer carried so far.
    pub fn largest_list(&self) -> u64 {
        self.api
            .largest_list
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Watches opened, watch-lists included (refused ones not).
    pub fn watches_opened(&self) -> u64 {
        self.api
            .watches_opened
            .load(std::sync::atomic::Ordering::SeqCst)
    }
}
