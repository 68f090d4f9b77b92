//! Closed single-chain queueing networks: the model that the MVA solvers take.

use serde::{Deserialize, Serialize};

use crate::error::{QueueingError, Result};

/// How a center serves its customers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CenterKind {
    /// A single-server FCFS center with exponential service (or any center satisfying the BCMP
    /// conditions): a customer's residence time grows with the queue it finds,
    /// `R_k(n) = D_k · (1 + Q_k(n−1))`.
    Queueing,
    /// An infinite-server (pure delay) center: no queueing, `R_k(n) = D_k`.
    Delay,
}

/// One service center of a [`Network`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Center {
    /// A name used in error messages and reports (for example `"bus"`).
    pub name: String,
    /// Queueing or delay center.
    pub kind: CenterKind,
    /// Service demand `D_k = V_k · S_k`: the total service one customer needs from this center
    /// per cycle (visit ratio times mean service time per visit). Finite and non-negative.
    pub demand: f64,
}

impl Center {
    /// A queueing (FCFS, single-server) center with the given demand per cycle.
    pub fn queueing(name: impl Into<String>, demand: f64) -> Self {
        Self {
            name: name.into(),
            kind: CenterKind::Queueing,
            demand,
        }
    }

    /// A delay (infinite-server) center with the given demand per cycle.
    pub fn delay(name: impl Into<String>, demand: f64) -> Self {
        Self {
            name: name.into(),
            kind: CenterKind::Delay,
            demand,
        }
    }
}

/// A closed, single-chain (single-class) queueing network.
///
/// Every customer cycles through the same [`centers`](Network::centers), then "thinks" for
/// [`think_time`](Network::think_time) (an extra delay that is not counted in the response
/// time), and starts again. In the task-graph engine the customers are the executing tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Network {
    /// The service centers, in a fixed order; solutions report per-center values in this order.
    pub centers: Vec<Center>,
    /// Think time `Z` per cycle, outside the centers. Finite and non-negative.
    pub think_time: f64,
}

impl Network {
    /// A network with the given centers and think time (not yet validated; the solvers call
    /// [`Network::validate`]).
    pub fn new(centers: Vec<Center>, think_time: f64) -> Self {
        Self {
            centers,
            think_time,
        }
    }

    /// Checks that every demand and the think time are finite and non-negative, and that the
    /// throughput is bounded (some demand or the think time is positive).
    ///
    /// # Errors
    ///
    /// [`QueueingError::InvalidDemand`] (naming the first bad center),
    /// [`QueueingError::InvalidThinkTime`] or [`QueueingError::UnboundedThroughput`].
    pub fn validate(&self) -> Result<()> {
        for (index, c) in self.centers.iter().enumerate() {
            if !(c.demand.is_finite() && c.demand >= 0.0) {
                return Err(QueueingError::InvalidDemand {
                    index,
                    name: c.name.clone(),
                    value: c.demand,
                });
            }
        }
        if !(self.think_time.is_finite() && self.think_time >= 0.0) {
            return Err(QueueingError::InvalidThinkTime(self.think_time));
        }
        if self.think_time == 0.0 && self.total_demand() == 0.0 {
            return Err(QueueingError::UnboundedThroughput);
        }
        Ok(())
    }

    /// Total service demand `D = Σ_k D_k` over all centers: the response time of a lone
    /// customer.
    pub fn total_demand(&self) -> f64 {
        self.centers.iter().map(|c| c.demand).sum()
    }

    /// The largest demand over the *queueing* centers, `D_max` (0 if there are none). For
    /// large populations the throughput approaches `1 / D_max`.
    pub fn max_queueing_demand(&self) -> f64 {
        self.centers
            .iter()
            .filter(|c| c.kind == CenterKind::Queueing)
            .map(|c| c.demand)
            .fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_bad_center() {
        let net = Network::new(
            vec![Center::queueing("bus", 1.0), Center::delay("cpu", -2.0)],
            1.0,
        );
        let err = net.validate().unwrap_err();
        assert_eq!(
            err,
            QueueingError::InvalidDemand {
                index: 1,
                name: "cpu".into(),
                value: -2.0
            }
        );
        assert!(err.to_string().contains("`cpu`"));
        assert!(err.to_string().contains("index 1"));
    }

    #[test]
    fn validation_rejects_nan_and_infinite_values() {
        let nan = Network::new(vec![Center::queueing("m", f64::NAN)], 1.0);
        assert!(matches!(
            nan.validate(),
            Err(QueueingError::InvalidDemand { index: 0, .. })
        ));
        let inf = Network::new(vec![Center::queueing("m", 1.0)], f64::INFINITY);
        assert!(matches!(
            inf.validate(),
            Err(QueueingError::InvalidThinkTime(z)) if z.is_infinite()
        ));
        let neg = Network::new(vec![], -1.0);
        assert_eq!(neg.validate(), Err(QueueingError::InvalidThinkTime(-1.0)));
    }

    #[test]
    fn validation_rejects_unbounded_throughput() {
        let net = Network::new(vec![Center::queueing("m", 0.0)], 0.0);
        assert_eq!(net.validate(), Err(QueueingError::UnboundedThroughput));
        // Think time alone is fine (X = n / Z).
        assert!(Network::new(vec![], 2.0).validate().is_ok());
    }

    #[test]
    fn demand_summaries() {
        let net = Network::new(
            vec![
                Center::queueing("a", 2.0),
                Center::delay("d", 5.0),
                Center::queueing("b", 3.0),
            ],
            1.0,
        );
        assert_eq!(net.total_demand(), 10.0);
        assert_eq!(net.max_queueing_demand(), 3.0);
        assert_eq!(Network::new(vec![], 1.0).max_queueing_demand(), 0.0);
    }
}
