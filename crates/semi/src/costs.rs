//! Event costs from a machine profile (`vates probe`): tt^e(kind, participants, bytes) as
//! the paper takes it from dedicated micro-benchmarks of the host (spec §3.1), free of load
//! imbalance and contention, which Algorithm G adds itself.
//!
//! * barrier of P threads: the probe's barrier episode, interpolated in log₂ P;
//! * lock: an uncontended acquire and release, charged at the acquisition (the release is
//!   free), as spec §6.4 charges it;
//! * fork and join of k threads: half of the probe's spawn-and-join of k threads each;
//! * message: the probe's one-way channel latency at the size, all of it latency (sending
//!   and receiving cost nothing beyond it).

use probe::Profile;

use crate::graph::{Graph, Op};
use crate::sim::EventCosts;

/// The event costs of a measured machine.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineCosts {
    /// The profile.
    pub profile: Profile,
}

impl EventCosts for MachineCosts {
    fn barrier(&self, participants: usize) -> f64 {
        self.profile.barrier_s(participants)
    }
    fn lock(&self) -> f64 {
        self.profile.lock_s()
    }
    fn unlock(&self) -> f64 {
        0.0
    }
    fn fork(&self, children: usize) -> f64 {
        self.profile.fork_join_s(children) / 2.0
    }
    fn join(&self, children: usize) -> f64 {
        self.profile.fork_join_s(children) / 2.0
    }
    fn send(&self, _: u64) -> f64 {
        0.0
    }
    fn latency(&self, bytes: u64) -> f64 {
        self.profile.channel_latency_s(bytes)
    }
    fn recv(&self, _: u64) -> f64 {
        0.0
    }
    fn beyond(&self, graph: &Graph) -> Vec<String> {
        let p = &self.profile;
        let barrier = graph.barriers.iter().map(|b| b.participants).max();
        let (mut fork, mut bytes) = (None, None);
        let mut stack: Vec<&[Op]> = graph.threads.iter().map(|t| &t.ops[..]).collect();
        while let Some(ops) = stack.pop() {
            for op in ops {
                match op {
                    Op::Loop { body, .. } => stack.push(body),
                    Op::Branch {
                        then, otherwise, ..
                    } => stack.extend([&then[..], &otherwise[..]]),
                    Op::Fork(c) | Op::Join(c) => fork = fork.max(Some(c.len())),
                    Op::Send { bytes: b, .. } => bytes = bytes.max(Some(*b)),
                    _ => {}
                }
            }
        }
        let mut notes = Vec::new();
        let threads = |points: &[probe::ThreadPoint]| points.iter().map(|t| t.threads).max();
        for (what, used, measured) in [
            ("barriers", barrier, threads(&p.barrier)),
            ("forks and joins", fork, threads(&p.fork_join)),
        ] {
            if let (Some(u), Some(m)) = (used, measured) {
                if u > m {
                    notes.push(format!(
                        "the model has {what} of {u} threads, the machine profile measured them up to {m}: their costs are extrapolated; probe up to {u} threads to measure them"
                    ));
                }
            }
        }
        if let (Some(u), Some(m)) = (bytes, p.channel.iter().map(|c| c.bytes).max()) {
            if u > m {
                notes.push(format!(
                    "the model sends messages of {} bytes, the machine profile measured them up to {}: their latency is extrapolated",
                    u, m
                ));
            }
        }
        notes
    }
}
