//! Mean value analysis of closed single-chain networks: the exact recursion and the
//! Bard–Schweitzer approximation.
//!
//! For queueing centers `k` with demand `D_k`, delay centers with demand `D_k` and think time
//! `Z`, exact MVA computes for `n = 1, 2, …`
//!
//! ```text
//! R_k(n) = D_k · (1 + Q_k(n−1))      queueing center (arrival theorem)
//! R_k(n) = D_k                        delay center
//! R(n)   = Σ_k R_k(n)
//! X(n)   = n / (Z + R(n))
//! Q_k(n) = X(n) · R_k(n)
//! U_k(n) = X(n) · D_k
//! ```
//!
//! starting from `Q_k(0) = 0`. Each step is O(K) for K centers, so population N costs O(N·K).

use serde::{Deserialize, Serialize};

use crate::error::{QueueingError, Result};
use crate::network::{CenterKind, Network};

/// The largest population any solver in this crate accepts (ten million customers).
///
/// The exact recursion costs O(N·K) time, so this bounds the run time of a single call; a
/// finite-source queue's distribution holds N + 1 numbers, so it also bounds memory.
pub const MAX_POPULATION: usize = 10_000_000;

/// The largest number of `f64` values [`exact_mva`] will store for a whole trajectory
/// (fifty million, about 400 MB). For longer trajectories use [`exact_mva_at`] or
/// [`MvaRecursion`], which keep O(K) numbers.
pub const MAX_TRAJECTORY_VALUES: usize = 50_000_000;

/// The solution of a network at one population.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MvaPoint {
    /// Number of customers `n`.
    pub population: usize,
    /// System throughput `X(n)`: cycles completed per unit time.
    pub throughput: f64,
    /// Response time `R(n) = Σ_k R_k(n)`: time per cycle spent at the centers (think time
    /// excluded).
    pub response_time: f64,
    /// Residence time `R_k(n)` per center (queueing plus service, over all visits in a cycle),
    /// in the network's center order.
    pub residence_times: Vec<f64>,
    /// Mean number of customers `Q_k(n)` at each center.
    pub queue_lengths: Vec<f64>,
    /// Utilisation `U_k(n) = X(n) · D_k` of each center. For a queueing center this is the
    /// fraction of time the server is busy; for a delay center it is the mean number of
    /// customers in service (equal to `Q_k(n)`).
    pub utilizations: Vec<f64>,
}

impl MvaPoint {
    /// Cycle time `n / X(n) = R(n) + Z`: response time plus think time.
    pub fn cycle_time(&self) -> f64 {
        self.population as f64 / self.throughput
    }
}

/// The exact MVA recursion as a stepper: one population step per [`MvaRecursion::step`].
///
/// It keeps only the current queue lengths (O(K) memory), and lets the caller change a
/// center's demand or the think time between steps. That makes population-dependent centers
/// possible, such as the flow-equivalent center of Adve & Vernon's system model, whose demand at
/// population `n` comes from a finite-source queue solved with residence times of step `n − 1`.
/// With constant demands the steps are exactly those of [`exact_mva`].
///
/// # Example: a flow-equivalent center
///
/// An illustration of the Adve–Vernon construction (the paper leaves the details to other
/// work): at most 3 reads may be outstanding, so at population `n ≥ 4` a read first waits at a
/// delay center for `p_block(n) · R_block(n)`, taken from an M/M/3//n queue whose service time
/// is the read's residence (bus plus memory) at population `n − 1` and whose think time is the
/// rest of that cycle.
///
/// ```
/// use queueing::{Center, FiniteSource, MvaRecursion, Network};
/// let net = Network::new(
///     vec![
///         Center::queueing("bus", 0.5),
///         Center::queueing("memory", 1.0),
///         Center::delay("processor", 4.0),
///         Center::delay("fesc", 0.0),
///     ],
///     0.0,
/// );
/// let mut rec = MvaRecursion::new(&net)?;
/// let mut fesc = Vec::new();
/// for n in 1..=8 {
///     if let Some(prev) = rec.current() {
///         let read = prev.residence_times[0] + prev.residence_times[1];
///         let think = prev.cycle_time() - read;
///         let b = FiniteSource::new(3, read, think).blocking(n)?;
///         rec.set_demand(3, b.p_block * b.r_block)?;
///     }
///     let point = rec.step()?;
///     fesc.push(point.residence_times[3]);
///     // Little's law holds at every step.
///     assert!((point.throughput * point.response_time - n as f64).abs() < 1e-9);
/// }
/// assert_eq!(&fesc[..3], &[0.0, 0.0, 0.0]); // nobody blocks with n ≤ 3
/// assert!(fesc[3] > 0.0 && fesc[7] > fesc[3]);
/// # Ok::<(), queueing::QueueingError>(())
/// ```
#[derive(Debug, Clone)]
pub struct MvaRecursion {
    network: Network,
    population: usize,
    throughput: f64,
    queue: Vec<f64>,
    residence: Vec<f64>,
    utilization: Vec<f64>,
}

impl MvaRecursion {
    /// Starts the recursion at population 0 (all queues empty).
    ///
    /// # Errors
    ///
    /// Any error of [`Network::validate`].
    pub fn new(network: &Network) -> Result<Self> {
        network.validate()?;
        let k = network.centers.len();
        Ok(Self {
            network: network.clone(),
            population: 0,
            throughput: 0.0,
            queue: vec![0.0; k],
            residence: vec![0.0; k],
            utilization: vec![0.0; k],
        })
    }

    /// The network as it will be used by the next step (including any changed demands).
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The population reached so far (0 before the first step).
    pub fn population(&self) -> usize {
        self.population
    }

    /// Queue lengths `Q_k(n)` at the current population `n` (all zero at `n = 0`).
    pub fn queue_lengths(&self) -> &[f64] {
        &self.queue
    }

    /// Residence times `R_k(n)` at the current population (all zero at `n = 0`). The
    /// Adve–Vernon flow-equivalent center needs these from step `n − 1` to build step `n`.
    pub fn residence_times(&self) -> &[f64] {
        &self.residence
    }

    /// Changes center `center`'s demand for the following steps.
    ///
    /// # Errors
    ///
    /// [`QueueingError::NoSuchCenter`], [`QueueingError::InvalidDemand`], or
    /// [`QueueingError::UnboundedThroughput`] if the change leaves no demand and no think time.
    /// On error nothing changes.
    pub fn set_demand(&mut self, center: usize, demand: f64) -> Result<()> {
        let len = self.network.centers.len();
        let slot = self
            .network
            .centers
            .get_mut(center)
            .ok_or(QueueingError::NoSuchCenter { index: center, len })?;
        let old = std::mem::replace(&mut slot.demand, demand);
        if let Err(e) = self.network.validate() {
            self.network.centers[center].demand = old;
            return Err(e);
        }
        Ok(())
    }

    /// Changes the think time for the following steps.
    ///
    /// # Errors
    ///
    /// [`QueueingError::InvalidThinkTime`] or [`QueueingError::UnboundedThroughput`]; on error
    /// nothing changes.
    pub fn set_think_time(&mut self, think_time: f64) -> Result<()> {
        let old = std::mem::replace(&mut self.network.think_time, think_time);
        if let Err(e) = self.network.validate() {
            self.network.think_time = old;
            return Err(e);
        }
        Ok(())
    }

    /// Advances from population `n` to `n + 1` without building a report.
    fn advance(&mut self) -> Result<()> {
        let n = self.population + 1;
        if n > MAX_POPULATION {
            return Err(QueueingError::PopulationTooLarge {
                population: n,
                limit: MAX_POPULATION,
            });
        }
        let mut response = 0.0;
        for ((r, q), c) in self
            .residence
            .iter_mut()
            .zip(&self.queue)
            .zip(&self.network.centers)
        {
            *r = match c.kind {
                CenterKind::Queueing => c.demand * (1.0 + q),
                CenterKind::Delay => c.demand,
            };
            response += *r;
        }
        if !response.is_finite() {
            let k = self
                .residence
                .iter()
                .position(|r| !r.is_finite())
                .unwrap_or(0);
            let c = &self.network.centers[k];
            return Err(QueueingError::Overflow {
                population: n,
                center: c.name.clone(),
                demand: c.demand,
            });
        }
        // Validation guarantees Z > 0 or some D_k > 0, hence Z + R > 0.
        let x = n as f64 / (self.network.think_time + response);
        for ((q, u), (r, c)) in self
            .queue
            .iter_mut()
            .zip(self.utilization.iter_mut())
            .zip(self.residence.iter().zip(&self.network.centers))
        {
            *q = x * r;
            *u = x * c.demand;
        }
        self.throughput = x;
        self.population = n;
        Ok(())
    }

    /// The solution at the current population, or `None` before the first step.
    pub fn current(&self) -> Option<MvaPoint> {
        (self.population > 0).then(|| MvaPoint {
            population: self.population,
            throughput: self.throughput,
            response_time: self.residence.iter().sum(),
            residence_times: self.residence.clone(),
            queue_lengths: self.queue.clone(),
            utilizations: self.utilization.clone(),
        })
    }

    /// Advances to the next population and returns its solution.
    ///
    /// # Errors
    ///
    /// [`QueueingError::PopulationTooLarge`] beyond [`MAX_POPULATION`].
    pub fn step(&mut self) -> Result<MvaPoint> {
        self.advance()?;
        Ok(self.current().expect("population is positive after a step"))
    }
}

/// Exact MVA for every population `n = 1..=population`; element `n − 1` is population `n`.
/// `population = 0` gives an empty vector.
///
/// Time O(N·K), memory O(N·K). For one population only, [`exact_mva_at`] needs O(K) memory.
///
/// # Errors
///
/// Any error of [`Network::validate`]; [`QueueingError::PopulationTooLarge`] above
/// [`MAX_POPULATION`]; [`QueueingError::TrajectoryTooLarge`] if the result would hold more than
/// [`MAX_TRAJECTORY_VALUES`] numbers.
///
/// # Example
///
/// ```
/// use queueing::{exact_mva, Center, Network};
/// // One queueing center with demand 3 and think time 17.
/// let net = Network::new(vec![Center::queueing("bus", 3.0)], 17.0);
/// let points = exact_mva(&net, 2)?;
/// assert_eq!(points[0].response_time, 3.0); // alone: no queueing
/// assert!((points[1].response_time - 3.45).abs() < 1e-12); // 3 · (1 + 3/20)
/// # Ok::<(), queueing::QueueingError>(())
/// ```
pub fn exact_mva(network: &Network, population: usize) -> Result<Vec<MvaPoint>> {
    network.validate()?;
    if population > MAX_POPULATION {
        return Err(QueueingError::PopulationTooLarge {
            population,
            limit: MAX_POPULATION,
        });
    }
    let centers = network.centers.len();
    // Per point: three per-center vectors plus three scalars.
    let values = population.saturating_mul(3 * centers + 3);
    if values > MAX_TRAJECTORY_VALUES {
        return Err(QueueingError::TrajectoryTooLarge {
            population,
            centers,
            values,
            limit: MAX_TRAJECTORY_VALUES,
        });
    }
    let mut rec = MvaRecursion::new(network)?;
    let mut out = Vec::with_capacity(population);
    for _ in 0..population {
        out.push(rec.step()?);
    }
    Ok(out)
}

/// Exact MVA at a single population, keeping only O(K) numbers while recursing from 1.
///
/// # Errors
///
/// Any error of [`Network::validate`]; [`QueueingError::ZeroPopulation`] for 0;
/// [`QueueingError::PopulationTooLarge`] above [`MAX_POPULATION`].
pub fn exact_mva_at(network: &Network, population: usize) -> Result<MvaPoint> {
    network.validate()?;
    if population == 0 {
        return Err(QueueingError::ZeroPopulation("exact MVA at one population"));
    }
    if population > MAX_POPULATION {
        return Err(QueueingError::PopulationTooLarge {
            population,
            limit: MAX_POPULATION,
        });
    }
    let mut rec = MvaRecursion::new(network)?;
    for _ in 0..population {
        rec.advance()?;
    }
    Ok(rec.current().expect("population is positive"))
}

/// The result of [`approximate_mva`]: the solution and how the iteration went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApproxMva {
    /// The approximate solution at the requested population.
    pub point: MvaPoint,
    /// Number of iterations performed (Newton steps plus any polishing steps; see
    /// [`approximate_mva`]).
    pub iterations: usize,
    /// Fixed-point residual of the result: the largest change `max_k |ΔQ_k| / N` one more
    /// textbook iteration would make (at most the tolerance).
    pub residual: f64,
}

/// Bard–Schweitzer approximate MVA at one population `N`.
///
/// Instead of recursing over populations, it estimates the queue an arriving customer sees by
/// `Q_k(N−1) ≈ (N−1)/N · Q_k(N)`, which gives the fixed-point equations
///
/// ```text
/// R_k = D_k · (1 + (N−1)/N · Q_k)   (queueing),   R_k = D_k   (delay)
/// X   = N / (Z + Σ_k R_k),           Q_k = X · R_k
/// ```
///
/// The textbook solution iterates these from a guess; that converges linearly and, with two
/// nearly equal bottlenecks and a large `N`, can need hundreds of thousands of iterations and
/// stop far from the fixed point. This function solves the *same* equations by Newton's
/// method on the throughput: eliminating `Q_k = X·D_k / (1 − a·X·D_k)` (`a = (N−1)/N`) at the
/// queueing centers leaves one equation
///
/// ```text
/// f(X) = X·(Z + Σ_delay D_k) + Σ_queueing X·D_k / (1 − a·X·D_k) − N = 0,
/// ```
///
/// increasing and convex on `[0, 1/(a·D_max))`. Newton's method started at the bound
/// `min(N/(D+Z), 1/D_max)` (where `f ≥ 0`) descends monotonically and quadratically to the
/// root. Each iteration costs O(K), independent of `N`. Near saturation, rounding in
/// `Q_k(X)` (amplified by `1/(1 − a·X·D_k)²`) can stop the residual from shrinking; from then
/// on the remaining iterations are textbook ones in queue-length space, which are well
/// conditioned there. On random networks with `N` up to 10^7 this takes at most 8 iterations
/// for tolerances 10^−6 to 10^−12, and agrees with the textbook iteration run to 10^−15.
///
/// An iteration evaluates the fixed-point equations at the current `X`; the solution is
/// accepted when one more textbook iteration would move no queue length by more than
/// `tolerance · N` (the reported [`ApproxMva::residual`] is that change divided by `N`). The
/// reported point satisfies `X·(Z + R) = N` and `Q_k = X·R_k` exactly (up to rounding).
///
/// It is exact at `N = 1`, exact for balanced queueing centers without think time, and for the
/// classic balanced networks with think time within a few percent of exact MVA (worst near
/// the knee `N* = (D + Z)/D_max`; 6.5% for a single center).
///
/// # Errors
///
/// Any error of [`Network::validate`]; [`QueueingError::ZeroPopulation`] for `N = 0`;
/// [`QueueingError::InvalidTolerance`] unless the tolerance is finite and positive;
/// [`QueueingError::NotConverged`] if `max_iterations` iterations do not reach it.
///
/// # Example
///
/// ```
/// use queueing::{approximate_mva, exact_mva_at, Center, Network};
/// let net = Network::new(
///     (0..4).map(|k| Center::queueing(format!("disk{k}"), 1.0)).collect(),
///     2.0,
/// );
/// let approx = approximate_mva(&net, 20, 1e-10, 100)?;
/// let exact = exact_mva_at(&net, 20)?;
/// let err = (approx.point.throughput - exact.throughput).abs() / exact.throughput;
/// assert!(err < 0.05);
/// # Ok::<(), queueing::QueueingError>(())
/// ```
pub fn approximate_mva(
    network: &Network,
    population: usize,
    tolerance: f64,
    max_iterations: usize,
) -> Result<ApproxMva> {
    network.validate()?;
    if population == 0 {
        return Err(QueueingError::ZeroPopulation("approximate MVA"));
    }
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(QueueingError::InvalidTolerance(tolerance));
    }
    let n = population as f64;
    let centers = &network.centers;
    let z = network.think_time;
    let d_max = network.max_queueing_demand();
    // Upper bound on X, where f(X) >= 0.
    let mut x = n / (z + network.total_demand());
    if d_max > 0.0 {
        x = x.min(1.0 / d_max);
    }
    let x_hi = x;
    let mut queue = vec![0.0; centers.len()];
    let mut residence = vec![0.0; centers.len()];
    let mut residual = f64::INFINITY;
    let mut newton = true;
    let mut x_next = x;
    for iteration in 1..=max_iterations {
        let mut slope = z;
        let mut f = x * z - n;
        if newton {
            // Queue lengths of the fixed point at this X, f(X) and f'(X).
            for (q, c) in queue.iter_mut().zip(centers) {
                let d = c.demand;
                match c.kind {
                    CenterKind::Queueing => {
                        // 1 − a·X·D written to avoid cancellation when a is close to 1.
                        let gap = (1.0 - x * d) + x * d / n;
                        *q = x * d / gap;
                        slope += d / (gap * gap);
                    }
                    CenterKind::Delay => {
                        *q = x * d;
                        slope += d;
                    }
                }
                f += *q;
            }
        } else {
            // Polishing: a textbook update, Q_k ← X·R_k.
            for (q, r) in queue.iter_mut().zip(&residence) {
                *q = x_next * r;
            }
        }
        // One textbook iteration from these queue lengths.
        let mut response = 0.0;
        for ((r, q), c) in residence.iter_mut().zip(&queue).zip(centers) {
            *r = match c.kind {
                CenterKind::Queueing => c.demand * (1.0 + (n - 1.0) / n * q),
                CenterKind::Delay => c.demand,
            };
            response += *r;
        }
        x_next = n / (z + response);
        let change = queue
            .iter()
            .zip(&residence)
            .map(|(q, r)| (x_next * r - q).abs())
            .fold(0.0, f64::max);
        let previous = std::mem::replace(&mut residual, change / n);
        if residual <= tolerance {
            return Ok(ApproxMva {
                point: MvaPoint {
                    population,
                    throughput: x_next,
                    response_time: response,
                    queue_lengths: residence.iter().map(|r| x_next * r).collect(),
                    residence_times: residence,
                    utilizations: centers.iter().map(|c| x_next * c.demand).collect(),
                },
                iterations: iteration,
                residual,
            });
        }
        if newton {
            if residual < previous {
                // Newton step; convexity keeps it in [root, x_hi], the clamp guards rounding.
                x = (x - f / slope).clamp(0.0, x_hi);
            } else {
                // Rounding in Q_k(X) (amplified by 1/gap² near saturation) now dominates:
                // continue with textbook iterations in queue-length space.
                newton = false;
            }
        }
    }
    Err(QueueingError::NotConverged {
        iterations: max_iterations,
        residual,
        tolerance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::Center;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * (1.0 + b.abs())
    }

    #[test]
    fn single_center_two_customers_closed_form() {
        // R(2) = D (1 + D / (D + Z)).
        let (d, z) = (2.0, 3.0);
        let net = Network::new(vec![Center::queueing("q", d)], z);
        let pts = exact_mva(&net, 2).unwrap();
        assert_eq!(pts[0].response_time, d);
        assert_eq!(pts[0].throughput, 1.0 / (d + z));
        assert!(close(pts[1].response_time, d * (1.0 + d / (d + z)), 1e-15));
    }

    #[test]
    fn delay_centers_never_queue() {
        let net = Network::new(
            vec![Center::delay("cpu", 4.0), Center::queueing("bus", 1.0)],
            0.0,
        );
        for p in exact_mva(&net, 10).unwrap() {
            assert_eq!(p.residence_times[0], 4.0);
            assert!(close(p.queue_lengths[0], p.utilizations[0], 1e-15));
        }
    }

    #[test]
    fn exact_mva_of_zero_is_empty_and_at_zero_is_error() {
        let net = Network::new(vec![Center::queueing("q", 1.0)], 1.0);
        assert!(exact_mva(&net, 0).unwrap().is_empty());
        assert!(matches!(
            exact_mva_at(&net, 0),
            Err(QueueingError::ZeroPopulation(_))
        ));
    }

    #[test]
    fn exact_mva_at_matches_trajectory_end() {
        let net = Network::new(
            vec![
                Center::queueing("a", 0.7),
                Center::queueing("b", 0.4),
                Center::delay("c", 2.0),
            ],
            1.5,
        );
        let all = exact_mva(&net, 25).unwrap();
        assert_eq!(exact_mva_at(&net, 25).unwrap(), all[24]);
    }

    #[test]
    fn limits_are_reported() {
        let net = Network::new(vec![Center::queueing("q", 1.0)], 1.0);
        assert_eq!(
            exact_mva(&net, MAX_POPULATION + 1),
            Err(QueueingError::PopulationTooLarge {
                population: MAX_POPULATION + 1,
                limit: MAX_POPULATION
            })
        );
        assert!(matches!(
            exact_mva_at(&net, usize::MAX),
            Err(QueueingError::PopulationTooLarge { .. })
        ));
        let wide = Network::new(
            (0..100)
                .map(|k| Center::queueing(format!("c{k}"), 1.0))
                .collect(),
            1.0,
        );
        let err = exact_mva(&wide, 1_000_000).unwrap_err();
        assert!(matches!(
            err,
            QueueingError::TrajectoryTooLarge {
                centers: 100,
                values: 303_000_000,
                ..
            }
        ));
        assert!(err.to_string().contains("exact_mva_at"));
    }

    #[test]
    fn recursion_with_changed_demand_uses_new_demand_and_old_queue() {
        let net = Network::new(vec![Center::queueing("q", 1.0)], 1.0);
        let mut rec = MvaRecursion::new(&net).unwrap();
        let p1 = rec.step().unwrap();
        assert_eq!(p1.throughput, 0.5);
        assert_eq!(rec.queue_lengths(), &[0.5]);
        rec.set_demand(0, 2.0).unwrap();
        let p2 = rec.step().unwrap();
        // R = 2 · (1 + 0.5) = 3, X = 2 / (1 + 3) = 0.5, U = X · 2 = 1.
        assert_eq!(p2.response_time, 3.0);
        assert_eq!(p2.throughput, 0.5);
        assert_eq!(p2.utilizations, vec![1.0]);
        rec.set_think_time(0.0).unwrap();
        let p3 = rec.step().unwrap();
        // Q(2) = 1.5, R = 2 · 2.5 = 5, X = 3 / 5.
        assert_eq!(p3.response_time, 5.0);
        assert_eq!(p3.throughput, 0.6);
        assert_eq!(rec.population(), 3);
    }

    #[test]
    fn recursion_rejects_bad_changes_without_side_effects() {
        let net = Network::new(vec![Center::queueing("q", 1.0)], 0.0);
        let mut rec = MvaRecursion::new(&net).unwrap();
        assert_eq!(
            rec.set_demand(3, 1.0),
            Err(QueueingError::NoSuchCenter { index: 3, len: 1 })
        );
        assert!(matches!(
            rec.set_demand(0, -1.0),
            Err(QueueingError::InvalidDemand { index: 0, .. })
        ));
        assert_eq!(
            rec.set_demand(0, 0.0),
            Err(QueueingError::UnboundedThroughput)
        );
        assert_eq!(
            rec.set_think_time(f64::NAN).unwrap_err().to_string(),
            "think time must be finite and non-negative, got NaN"
        );
        assert_eq!(rec.network(), &net);
        assert!(rec.current().is_none());
    }

    #[test]
    fn approximate_is_exact_for_one_customer() {
        let net = Network::new(
            vec![
                Center::queueing("a", 2.0),
                Center::queueing("b", 1.0),
                Center::delay("d", 0.5),
            ],
            5.0,
        );
        let a = approximate_mva(&net, 1, 1e-12, 100).unwrap();
        let e = exact_mva_at(&net, 1).unwrap();
        assert_eq!(a.point, e);
        assert_eq!(a.point.response_time, 3.5);
        assert!(a.iterations <= 2);
    }

    #[test]
    fn approximate_argument_errors() {
        let net = Network::new(vec![Center::queueing("q", 1.0)], 1.0);
        assert!(matches!(
            approximate_mva(&net, 0, 1e-9, 10),
            Err(QueueingError::ZeroPopulation(_))
        ));
        assert_eq!(
            approximate_mva(&net, 5, 0.0, 10),
            Err(QueueingError::InvalidTolerance(0.0))
        );
        assert!(matches!(
            approximate_mva(&net, 5, f64::NAN, 10),
            Err(QueueingError::InvalidTolerance(_))
        ));
        let err = approximate_mva(&net, 50, 1e-15, 1).unwrap_err();
        assert!(matches!(
            err,
            QueueingError::NotConverged { iterations: 1, .. }
        ));
        assert!(err
            .to_string()
            .contains("did not converge within 1 iterations"));
    }

    #[test]
    fn approximate_handles_think_time_only_networks() {
        // No centers: X = N / Z exactly.
        let net = Network::new(vec![], 4.0);
        let a = approximate_mva(&net, 8, 1e-12, 10).unwrap();
        assert_eq!(a.point.throughput, 2.0);
        assert_eq!(a.point.response_time, 0.0);
        assert_eq!(a.iterations, 1);
    }
}
