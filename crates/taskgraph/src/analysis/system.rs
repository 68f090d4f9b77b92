//! System models: the overheads executing tasks incur from shared hardware.
//!
//! A model gives, for the current concurrency state E, each executing task's overhead `D_i`
//! for its remaining work `r_i` (spec §4.3: "the total overhead incurred by task i if it ran to
//! completion while all other tasks in E were in execution"), and optionally a one-time delay
//! when a task is fetched (a task-queue lock). The models here have the paper's form
//! `D_i = r_i·λ_i·R(E)`: λ_i requests per unit of CPU time, each taking the mean response time
//! R(E) of the state, so a task progresses at rate `1/(1 + λ_i·R(E))`.

use super::Dag;
use queueing::{approximate_mva, Center, CenterKind, MvaRecursion, Network};
use serde::Deserialize;
use std::collections::HashMap;

/// The lower-level model of the analysis.
pub trait SystemModel {
    /// Fills `out` with `D_i` for each executing `(task, remaining r_i)`, in order.
    fn overheads(&mut self, g: &dyn Dag, executing: &[(u32, f64)], out: &mut Vec<f64>);

    /// A one-time delay for fetching a task, given the time-averaged number of busy processes
    /// and the mean interval between task completions so far (`None` before the first
    /// completion). Not subject to the progress-rate rule. Default: none.
    fn fetch_delay(&mut self, _mean_busy: f64, _mean_interval: Option<f64>) -> f64 {
        0.0
    }

    /// Whether the model never adds overhead (the basic model), which lets the engine use its
    /// event-heap loop. Default: false.
    fn is_basic(&self) -> bool {
        false
    }
}

/// `D_i = r_i·λ_i·R` for every executing task.
fn proportional(
    g: &dyn Dag,
    executing: &[(u32, f64)],
    key: Option<&str>,
    r: f64,
    out: &mut Vec<f64>,
) {
    out.clear();
    out.extend(executing.iter().map(|&(t, rem)| rem * g.rate(t, key) * r));
}

/// The basic model: no overheads.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOverhead;

impl SystemModel for NoOverhead {
    fn overheads(&mut self, _: &dyn Dag, executing: &[(u32, f64)], out: &mut Vec<f64>) {
        out.clear();
        out.resize(executing.len(), 0.0);
    }
    fn is_basic(&self) -> bool {
        true
    }
}

/// A constant response time per request, whatever the concurrency.
#[derive(Clone, Copy, Debug)]
pub struct ConstantLatency(pub f64);

impl SystemModel for ConstantLatency {
    fn overheads(&mut self, g: &dyn Dag, executing: &[(u32, f64)], out: &mut Vec<f64>) {
        proportional(g, executing, None, self.0, out);
    }
}

/// A response time given as a function of the number of executing tasks.
pub struct ByConcurrency<F: FnMut(usize) -> f64>(pub F);

impl<F: FnMut(usize) -> f64> SystemModel for ByConcurrency<F> {
    fn overheads(&mut self, g: &dyn Dag, executing: &[(u32, f64)], out: &mut Vec<f64>) {
        let r = (self.0)(executing.len());
        proportional(g, executing, None, r, out);
    }
}

/// A system model file: a closed queueing network whose customers are the executing tasks.
///
/// ```toml
/// rate = "bus"            # which task rate drives requests (default: the sum of all rates)
/// exact_limit = 256       # populations above this use Bard–Schweitzer approximate MVA
///
/// [[center]]
/// name = "bus"
/// kind = "queueing"       # or "delay"
/// service = 3.0           # mean service per visit
/// visits = 1.0            # visits per request (default 1)
///
/// [lock]                  # optional task-queue lock: M/M/1//K one-time fetch delay
/// hold = 0.01
/// ```
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SystemSpec {
    /// The task rate key that drives requests; `None` sums every rate of a task.
    pub rate: Option<String>,
    /// Populations above this are solved approximately.
    #[serde(default = "default_exact_limit")]
    pub exact_limit: usize,
    /// The service centers one request visits.
    #[serde(rename = "center", default)]
    pub centers: Vec<CenterSpec>,
    /// The task-queue lock, if modelled.
    pub lock: Option<LockSpec>,
}

fn default_exact_limit() -> usize {
    256
}

/// One center of a [`SystemSpec`].
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CenterSpec {
    /// Its name.
    pub name: String,
    /// Queueing (FCFS) or delay (infinite server).
    pub kind: CenterKind,
    /// Mean service time per visit.
    pub service: f64,
    /// Visits per request.
    #[serde(default = "one")]
    pub visits: f64,
}

fn one() -> f64 {
    1.0
}

/// The task-queue lock of a [`SystemSpec`].
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockSpec {
    /// Mean lock holding time per fetch.
    pub hold: f64,
}

/// Errors reading a system model.
#[derive(Debug, thiserror::Error)]
pub enum SystemError {
    /// Malformed TOML or unknown keys.
    #[error("system model: {0}")]
    Toml(#[from] toml::de::Error),
    /// A bad value.
    #[error("system model: {0}")]
    Invalid(String),
}

impl SystemSpec {
    /// Parses and checks a system model file.
    pub fn parse(text: &str) -> Result<SystemSpec, SystemError> {
        let spec: SystemSpec = toml::from_str(text)?;
        if spec.centers.is_empty() {
            return Err(SystemError::Invalid(
                "no [[center]]: a system model needs at least one center".into(),
            ));
        }
        let mut total = 0.0;
        for c in &spec.centers {
            if !(c.service.is_finite()
                && c.service >= 0.0
                && c.visits.is_finite()
                && c.visits >= 0.0)
            {
                return Err(SystemError::Invalid(format!(
                    "center `{}`: service and visits must be finite and >= 0",
                    c.name
                )));
            }
            total += c.service * c.visits;
            if !total.is_finite() {
                return Err(SystemError::Invalid(format!(
                    "center `{}`: service {} × visits {} makes the total service demand \
                     overflow; demands must sum to a finite number",
                    c.name, c.service, c.visits
                )));
            }
        }
        if let Some(l) = &spec.lock {
            if !(l.hold.is_finite() && l.hold > 0.0) {
                return Err(SystemError::Invalid(
                    "lock: hold must be finite and > 0".into(),
                ));
            }
        }
        Ok(spec)
    }
}

/// The MVA system model: the executing tasks are the customers of a closed single-chain
/// network (spec §4.6), with per-task rates averaged into the chain (`λ̄ = Σλ_i/|E|`), think
/// time `1/λ̄` of CPU work between requests, and `R(E)` the network's response time at
/// population `|E|`. Solutions are memoised by (λ̄, |E|): exact MVA is stepped incrementally,
/// Bard–Schweitzer approximate MVA is used above `exact_limit`.
pub struct MvaModel {
    spec: SystemSpec,
    exact: HashMap<u64, (MvaRecursion, Vec<f64>)>,
    approx: HashMap<(u64, usize), f64>,
    /// Network solves performed (memo misses), for reports.
    pub solves: usize,
}

impl MvaModel {
    /// A model from a checked spec.
    pub fn new(spec: SystemSpec) -> Self {
        MvaModel {
            spec,
            exact: HashMap::new(),
            approx: HashMap::new(),
            solves: 0,
        }
    }

    fn network(&self, think: f64) -> Network {
        let centers = self
            .spec
            .centers
            .iter()
            .map(|c| Center {
                name: c.name.clone(),
                kind: c.kind,
                demand: c.service * c.visits,
            })
            .collect();
        Network::new(centers, think)
    }

    /// Mean response time of one request at population `n` with mean rate `lambda`.
    ///
    /// Not a finite number when the network overflows at this population (the analysis
    /// reports that as an error naming the task).
    pub fn response_time(&mut self, lambda: f64, n: usize) -> f64 {
        if n == 0 || lambda <= 0.0 {
            return 0.0;
        }
        if !lambda.is_finite() {
            return f64::INFINITY;
        }
        let key = lambda.to_bits();
        let think = 1.0 / lambda;
        if !think.is_finite() {
            // Requests so rare that no two ever meet: the response time is the total demand.
            return self.spec.centers.iter().map(|c| c.service * c.visits).sum();
        }
        if n > self.spec.exact_limit {
            if let Some(&r) = self.approx.get(&(key, n)) {
                return r;
            }
            self.solves += 1;
            let net = self.network(think);
            let r = approximate_mva(&net, n, 1e-10, 100_000)
                .map(|a| a.point.response_time)
                .unwrap_or(f64::INFINITY);
            self.approx.insert((key, n), r);
            return r;
        }
        if !self.exact.contains_key(&key) {
            let net = self.network(think);
            let Ok(rec) = MvaRecursion::new(&net) else {
                return f64::INFINITY;
            };
            self.exact.insert(key, (rec, Vec::new()));
        }
        let (rec, rs) = self.exact.get_mut(&key).expect("inserted");
        while rs.len() < n {
            self.solves += 1;
            match rec.step() {
                Ok(point) => rs.push(point.response_time),
                // Overflow: every larger population overflows too.
                Err(_) => return f64::INFINITY,
            }
        }
        rs[n - 1]
    }
}

impl SystemModel for MvaModel {
    fn overheads(&mut self, g: &dyn Dag, executing: &[(u32, f64)], out: &mut Vec<f64>) {
        let key = self.spec.rate.clone();
        let n = executing.len();
        // The mean of the rates, summed as rate/n so that large rates do not overflow.
        let mean: f64 = executing
            .iter()
            .map(|&(t, _)| g.rate(t, key.as_deref()) / n.max(1) as f64)
            .sum();
        let r = self.response_time(mean, n);
        proportional(g, executing, key.as_deref(), r, out);
    }

    fn fetch_delay(&mut self, mean_busy: f64, mean_interval: Option<f64>) -> f64 {
        let (Some(lock), Some(interval)) = (&self.spec.lock, mean_interval) else {
            return 0.0;
        };
        // Spec §9 item 4: K = time-averaged busy processes (at least 1); each source's think
        // time makes the lock's request rate match the observed completion throughput.
        let k = mean_busy.round().max(1.0) as usize;
        let think = (k as f64 * interval - lock.hold).max(0.0);
        if think == 0.0 {
            // Every source always waiting: the others' holds are ahead of each fetch.
            return (k - 1) as f64 * lock.hold;
        }
        queueing::lock_overhead(lock.hold, think, k).unwrap_or(0.0)
    }
}
