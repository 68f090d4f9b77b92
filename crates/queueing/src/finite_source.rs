//! The finite-source multi-server queue M/M/c//K (the "machine-repair" model).
//!
//! `K` sources each think for an exponential time with mean `Z`, then ask for service from a
//! facility of `c` identical servers with exponential service of mean `S`, waiting FCFS if all
//! are busy. With `ρ = S / Z`, the stationary probability of `k` customers at the facility is
//!
//! ```text
//! π(k) ∝ C(K,k) · ρ^k                          k ≤ c
//! π(k) ∝ C(K,k) · k! / (c! · c^(k−c)) · ρ^k    k > c
//! ```
//!
//! Computed here from the ratio `π(k)/π(k−1) = (K−k+1)·ρ / min(k,c)` in log space and
//! normalised after subtracting the largest log-weight, so populations up to
//! [`MAX_POPULATION`] neither overflow nor underflow to all zeros.
//!
//! By the arrival theorem a customer arriving in a population of `n` sees the stationary
//! distribution of the queue with `n − 1` sources. Adve & Vernon's flow-equivalent center
//! uses this to get `p_block(n)` and `R_block(n)`; see [`FiniteSource::blocking`].

use serde::{Deserialize, Serialize};

use crate::error::{QueueingError, Result};
use crate::mva::MAX_POPULATION;

/// An M/M/c//K finite-source queue: `servers` servers, mean service time `service_time`, and
/// sources that think for `think_time` on average between requests. The number of sources `K`
/// is an argument of each method, so one value serves every population.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FiniteSource {
    /// Number of servers `c` (at least 1).
    pub servers: usize,
    /// Mean service time `S` (finite, non-negative).
    pub service_time: f64,
    /// Mean think time `Z` of each source between a service completion and its next request
    /// (finite, non-negative; not both `S` and `Z` zero).
    pub think_time: f64,
}

/// Arrival-theorem blocking quantities of an M/M/c//n queue; see [`FiniteSource::blocking`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Blocking {
    /// Probability `p_block(n)` that an arriving request finds all servers busy.
    pub p_block: f64,
    /// Mean wait `R_block(n)` of an arriving request given that it is blocked; 0 when
    /// `p_block` is 0 (nobody is blocked, so the product `p_block · R_block` is 0 either way).
    pub r_block: f64,
}

impl FiniteSource {
    /// A queue with `servers` servers, mean service time and mean think time (not yet
    /// validated; every method validates).
    pub fn new(servers: usize, service_time: f64, think_time: f64) -> Self {
        Self {
            servers,
            service_time,
            think_time,
        }
    }

    /// Checks that there is at least one server, that `S` and `Z` are finite and non-negative,
    /// and that they are not both zero.
    ///
    /// # Errors
    ///
    /// [`QueueingError::NoServers`], [`QueueingError::InvalidQueueParameter`] or
    /// [`QueueingError::DegenerateQueue`].
    pub fn validate(&self) -> Result<()> {
        if self.servers == 0 {
            return Err(QueueingError::NoServers);
        }
        for (what, value) in [
            ("service time", self.service_time),
            ("think time", self.think_time),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(QueueingError::InvalidQueueParameter { what, value });
            }
        }
        if self.service_time == 0.0 && self.think_time == 0.0 {
            return Err(QueueingError::DegenerateQueue);
        }
        Ok(())
    }

    fn check(&self, sources: usize) -> Result<()> {
        self.validate()?;
        if sources > MAX_POPULATION {
            return Err(QueueingError::PopulationTooLarge {
                population: sources,
                limit: MAX_POPULATION,
            });
        }
        Ok(())
    }

    /// Stationary distribution `π(k)`, `k = 0..=sources`, of the number of customers at the
    /// facility (waiting or in service). It sums to 1. O(K) time and memory.
    ///
    /// Limiting cases: `S = 0` puts all mass at `k = 0`; `Z = 0` puts it at `k = K`.
    ///
    /// # Errors
    ///
    /// Any error of [`FiniteSource::validate`]; [`QueueingError::PopulationTooLarge`] above
    /// [`MAX_POPULATION`].
    pub fn distribution(&self, sources: usize) -> Result<Vec<f64>> {
        self.check(sources)?;
        let mut pi = vec![0.0; sources + 1];
        if self.service_time == 0.0 {
            pi[0] = 1.0;
            return Ok(pi);
        }
        if self.think_time == 0.0 {
            pi[sources] = 1.0;
            return Ok(pi);
        }
        let ln_rho = (self.service_time / self.think_time).ln();
        let mut w = 0.0;
        let mut max = 0.0_f64;
        for (k, slot) in pi.iter_mut().enumerate().skip(1) {
            let busy = k.min(self.servers) as f64;
            w += ((sources - k + 1) as f64 / busy).ln() + ln_rho;
            *slot = w;
            max = max.max(w);
        }
        let mut total = 0.0;
        for p in &mut pi {
            *p = (*p - max).exp();
            total += *p;
        }
        for p in &mut pi {
            *p /= total;
        }
        Ok(pi)
    }

    /// Mean number of busy servers for `sources` sources.
    fn busy_servers(&self, sources: usize) -> Result<f64> {
        let pi = self.distribution(sources)?;
        Ok(pi
            .iter()
            .enumerate()
            .map(|(k, p)| k.min(self.servers) as f64 * p)
            .sum())
    }

    /// Throughput `X(K)`: service completions per unit time, `Σ_k π(k)·min(k,c) / S`
    /// (`K / Z` when `S = 0`; 0 for `K = 0`).
    ///
    /// # Errors
    ///
    /// As [`FiniteSource::distribution`].
    pub fn throughput(&self, sources: usize) -> Result<f64> {
        self.check(sources)?;
        if self.service_time == 0.0 {
            return Ok(sources as f64 / self.think_time);
        }
        Ok(self.busy_servers(sources)? / self.service_time)
    }

    /// Mean number of customers at the facility, `L(K) = Σ_k k·π(k)` (waiting plus in
    /// service).
    ///
    /// # Errors
    ///
    /// As [`FiniteSource::distribution`].
    pub fn mean_queue(&self, sources: usize) -> Result<f64> {
        let pi = self.distribution(sources)?;
        Ok(pi.iter().enumerate().map(|(k, p)| k as f64 * p).sum())
    }

    /// Per-server utilisation `U(K) = X(K)·S / c`, in `[0, 1]`. For one server this is
    /// `1 − π(0)`.
    ///
    /// # Errors
    ///
    /// As [`FiniteSource::distribution`].
    pub fn utilization(&self, sources: usize) -> Result<f64> {
        self.check(sources)?;
        if self.service_time == 0.0 {
            return Ok(0.0);
        }
        Ok(self.busy_servers(sources)? / self.servers as f64)
    }

    /// Mean response time (wait plus service) of a request, `R(K) = L(K) / X(K)`, which equals
    /// `K / X(K) − Z`.
    ///
    /// # Errors
    ///
    /// As [`FiniteSource::distribution`], and [`QueueingError::ZeroPopulation`] for `K = 0`.
    pub fn mean_response(&self, sources: usize) -> Result<f64> {
        self.check(sources)?;
        if sources == 0 {
            return Err(QueueingError::ZeroPopulation(
                "the response time of a finite-source queue",
            ));
        }
        if self.service_time == 0.0 {
            return Ok(0.0);
        }
        let pi = self.distribution(sources)?;
        let (mut l, mut busy) = (0.0, 0.0);
        for (k, p) in pi.iter().enumerate() {
            l += k as f64 * p;
            busy += k.min(self.servers) as f64 * p;
        }
        Ok(l * self.service_time / busy)
    }

    /// Mean wait before service, `W(K) = R(K) − S` (never negative).
    ///
    /// # Errors
    ///
    /// As [`FiniteSource::mean_response`].
    pub fn mean_wait(&self, sources: usize) -> Result<f64> {
        Ok((self.mean_response(sources)? - self.service_time).max(0.0))
    }

    /// Arrival-theorem blocking quantities for an arriving request in a population of
    /// `population` customers (it sees `π_{n−1}`, the distribution with `n − 1` sources):
    ///
    /// ```text
    /// p_block(n) = Σ_{k≥c} π_{n−1}(k)
    /// R_block(n) = [ Σ_{k≥c} π_{n−1}(k) · (k−c+1) · S/c ] / p_block(n)
    /// ```
    ///
    /// A request that finds `k ≥ c` customers waits for `k − c + 1` service completions, each
    /// taking `S / c` on average with all `c` servers busy. `p_block(n) = 0` whenever
    /// `n ≤ c`.
    ///
    /// # Errors
    ///
    /// As [`FiniteSource::distribution`], and [`QueueingError::ZeroPopulation`] for `n = 0`.
    ///
    /// # Example
    ///
    /// ```
    /// use queueing::FiniteSource;
    /// // Adve & Vernon's outstanding-read limit: 3 servers; S = 1, Z = 2.
    /// let q = FiniteSource::new(3, 1.0, 2.0);
    /// let b = q.blocking(4)?;
    /// assert!((b.p_block - 1.0 / 27.0).abs() < 1e-12);
    /// assert!((b.r_block - 1.0 / 3.0).abs() < 1e-12);
    /// assert_eq!(q.blocking(3)?.p_block, 0.0);
    /// # Ok::<(), queueing::QueueingError>(())
    /// ```
    pub fn blocking(&self, population: usize) -> Result<Blocking> {
        if population == 0 {
            self.validate()?;
            return Err(QueueingError::ZeroPopulation(
                "the blocking probability of an arriving request",
            ));
        }
        let pi = self.distribution(population - 1)?;
        let c = self.servers;
        let (mut p, mut wait) = (0.0, 0.0);
        for (k, pk) in pi.iter().enumerate().skip(c) {
            p += pk;
            wait += pk * (k - c + 1) as f64;
        }
        let r_block = if p > 0.0 {
            wait * self.service_time / (c as f64 * p)
        } else {
            0.0
        };
        Ok(Blocking {
            p_block: p,
            r_block,
        })
    }

    /// `p_block(n)` of [`FiniteSource::blocking`].
    ///
    /// # Errors
    ///
    /// As [`FiniteSource::blocking`].
    pub fn p_block(&self, population: usize) -> Result<f64> {
        Ok(self.blocking(population)?.p_block)
    }

    /// `R_block(n)` of [`FiniteSource::blocking`] (mean wait given blocked).
    ///
    /// # Errors
    ///
    /// As [`FiniteSource::blocking`].
    pub fn r_block(&self, population: usize) -> Result<f64> {
        Ok(self.blocking(population)?.r_block)
    }
}

/// Mean time to acquire a lock modelled as an M/M/1//K queue: the wait `W_q = R − S` before
/// the lock is granted, for `sources` contending processes that each hold the lock for
/// `hold_time` on average and spend `think_time` between releases and their next request.
///
/// This is the one-time per-task-fetch overhead of Adve & Vernon's task-queue lock. The paper
/// uses "the mean number of non-idle processes" as `K`, which need not be an integer; callers
/// round it (at least 1). If the task times `T_i` do not already include the holding time, add
/// `hold_time` to the result.
///
/// # Errors
///
/// As [`FiniteSource::mean_wait`] with one server.
///
/// # Example
///
/// ```
/// // Four processes, holding time 1, think time 4: R = 1.802817, so W_q = 0.802817.
/// let w = queueing::lock_overhead(1.0, 4.0, 4)?;
/// assert!((w - 0.802817).abs() < 1e-6);
/// # Ok::<(), queueing::QueueingError>(())
/// ```
pub fn lock_overhead(hold_time: f64, think_time: f64, sources: usize) -> Result<f64> {
    FiniteSource::new(1, hold_time, think_time).mean_wait(sources)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * (1.0 + b.abs())
    }

    #[test]
    fn validation_errors() {
        assert_eq!(
            FiniteSource::new(0, 1.0, 1.0).validate(),
            Err(QueueingError::NoServers)
        );
        let err = FiniteSource::new(1, -1.0, 1.0).validate().unwrap_err();
        assert_eq!(
            err.to_string(),
            "finite-source queue: service time must be finite and non-negative, got -1"
        );
        assert!(matches!(
            FiniteSource::new(1, 1.0, f64::INFINITY).validate(),
            Err(QueueingError::InvalidQueueParameter {
                what: "think time",
                ..
            })
        ));
        assert_eq!(
            FiniteSource::new(2, 0.0, 0.0).validate(),
            Err(QueueingError::DegenerateQueue)
        );
        assert!(matches!(
            FiniteSource::new(1, 1.0, 1.0).distribution(MAX_POPULATION + 1),
            Err(QueueingError::PopulationTooLarge { .. })
        ));
        assert!(matches!(
            FiniteSource::new(1, 1.0, 1.0).mean_response(0),
            Err(QueueingError::ZeroPopulation(_))
        ));
        assert!(matches!(
            FiniteSource::new(1, 1.0, 1.0).blocking(0),
            Err(QueueingError::ZeroPopulation(_))
        ));
        assert_eq!(
            FiniteSource::new(0, 1.0, 1.0).blocking(0),
            Err(QueueingError::NoServers)
        );
    }

    #[test]
    fn zero_sources() {
        let q = FiniteSource::new(2, 1.0, 3.0);
        assert_eq!(q.distribution(0).unwrap(), vec![1.0]);
        assert_eq!(q.throughput(0).unwrap(), 0.0);
        assert_eq!(q.mean_queue(0).unwrap(), 0.0);
        assert_eq!(q.utilization(0).unwrap(), 0.0);
    }

    #[test]
    fn zero_service_time_never_queues() {
        let q = FiniteSource::new(1, 0.0, 2.0);
        assert_eq!(q.distribution(3).unwrap(), vec![1.0, 0.0, 0.0, 0.0]);
        assert_eq!(q.throughput(3).unwrap(), 1.5);
        assert_eq!(q.mean_response(3).unwrap(), 0.0);
        assert_eq!(q.utilization(3).unwrap(), 0.0);
        assert_eq!(q.p_block(3).unwrap(), 0.0);
        assert_eq!(lock_overhead(0.0, 2.0, 5).unwrap(), 0.0);
    }

    #[test]
    fn zero_think_time_saturates() {
        // Every customer is always at the facility: X = min(K,c)/S, R = K·S/min(K,c).
        let q = FiniteSource::new(2, 3.0, 0.0);
        assert_eq!(
            q.distribution(5).unwrap(),
            vec![0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        );
        assert!(close(q.throughput(5).unwrap(), 2.0 / 3.0, 1e-15));
        assert!(close(q.mean_response(5).unwrap(), 7.5, 1e-15));
        assert_eq!(q.utilization(5).unwrap(), 1.0);
        // An arrival among 5 sees 4 at the facility: waits for 3 completions of mean 1.5.
        let b = q.blocking(5).unwrap();
        assert_eq!(b.p_block, 1.0);
        assert!(close(b.r_block, 4.5, 1e-15));
    }

    #[test]
    fn single_source_is_a_two_state_chain() {
        // π(1) = S / (S + Z).
        let q = FiniteSource::new(1, 1.0, 3.0);
        let pi = q.distribution(1).unwrap();
        assert!(close(pi[1], 0.25, 1e-15));
        assert!(close(q.throughput(1).unwrap(), 0.25, 1e-15));
        assert!(close(q.mean_response(1).unwrap(), 1.0, 1e-15));
        assert_eq!(q.mean_wait(1).unwrap(), 0.0);
    }
}
