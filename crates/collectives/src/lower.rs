//! A skeleton lowered to an Eager Timed CCS model (thesis chapter 4 → chapters 5–6): each
//! collective becomes its message pattern, each message a start-up on its sender and a
//! transfer on the network, so the contention the collective models leave out can be
//! analysed, on a bus (one transfer at a time) and on a perfect network (no contention),
//! chapter 4's two extremes.
//!
//! The model, at one process count `p` and one value of each parameter:
//!
//! * rank `j` is a chain of agents `R_j_0 . R_j_1 …` that runs the skeleton's steps in
//!   order, loops unrolled;
//! * a message of `m` integers from `j` to `k` costs the sender `tau@start` (the start-up),
//!   then runs concurrently with the sender's next steps as a transfer that holds the network
//!   for `m · per_item` (`'get . 'release@(m·per_item)`) and ends in `'msg[j][k][s]`; the
//!   receiver waits for `msg[j][k][s]` (sends never block; `s` numbers the messages of the
//!   pair, so every receive meets its own send);
//! * scatter and broadcast: rank 0 sends to 1, …, p−1 in turn; gather and reduce: 1, …,
//!   p−1 send to rank 0, which receives them in turn; allreduce: a reduce and a broadcast;
//!   barrier: both with no data; send-receive: each rank to the next around the ring, from
//!   the previous; alltoall: each rank to every other; `compute t`: `tau@t` on every rank.
//!
//! Times are in the measurements' unit, rounded to 1/1000 of it.

use std::fmt::Write as _;

use crate::skeleton::{Skeleton, SkeletonError, SkeletonErrorKind, Step};

/// The most messages a lowered model may hold (its state space grows with them).
pub const MAX_MESSAGES: usize = 2_000;

/// The network of the lowered model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Network {
    /// One transfer at a time (the thesis' bus).
    Bus,
    /// Every transfer at once (no contention).
    Perfect,
}

impl Network {
    /// `bus` or `perfect`.
    pub fn name(self) -> &'static str {
        match self {
            Network::Bus => "bus",
            Network::Perfect => "perfect",
        }
    }
}

diag::choices! {
    /// The networks a lowered skeleton is analysed on.
    pub enum Networks {
        /// The bus.
        Bus = "bus": "One transfer at a time",
        /// The perfect network.
        Perfect = "perfect": "No contention",
        /// Both, the bus first.
        Both = "both": "Both",
    }
}

impl Networks {
    /// The networks, in the order they are analysed.
    pub fn each(self) -> &'static [Network] {
        match self {
            Networks::Bus => &[Network::Bus],
            Networks::Perfect => &[Network::Perfect],
            Networks::Both => &[Network::Bus, Network::Perfect],
        }
    }
}

/// What a lowering needs besides the skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Lowering {
    /// The processes.
    pub p: u32,
    /// Values of the skeleton's parameters (others keep their defaults).
    pub params: Vec<(String, f64)>,
    /// The start-up of a message on its sender.
    pub start: f64,
    /// The network time per integer transferred.
    pub per_item: f64,
    /// The network.
    pub network: Network,
}

/// A message's costs read off a table: the `size` form (`start + per_item·d`) fitted to
/// the real send-receive cells at the smallest process count of 2 or more, each cell's
/// `stat`; `None` when the table has no such cells.
pub fn message_costs(table: &crate::Table, stat: crate::Statistic) -> Option<(f64, f64)> {
    let g = table
        .groups()
        .into_iter()
        .find(|g| g.op == "send-receive" && !g.shared)?;
    let p = g.cells.iter().map(|c| c.p).filter(|&p| p >= 2).min()?;
    let mut at_p = g.clone();
    at_p.cells.retain(|c| c.p == p);
    let form = crate::Form::named("size")?;
    let c = crate::model::fit_form(&at_p, form, stat, crate::model::Fitting::Relative, 1).ok()?;
    let (start, per_item) = (c.coefficients()[0], c.coefficients()[1]);
    (start >= 0.0 && per_item >= 0.0).then_some((start, per_item))
}

/// Why a message's costs cannot be had.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CostsError {
    /// Neither given nor measured.
    #[error(
        "the tables have no send-receive at 2 processes or more to read a message's costs from"
    )]
    NotMeasured,
    /// A given or fitted cost that is negative or not finite.
    #[error("a message's start-up ({start}) and time per integer ({per_item}) are finite and not negative")]
    Invalid {
        /// The start-up.
        start: f64,
        /// The time per integer.
        per_item: f64,
    },
}

impl diag::Advise for CostsError {
    /// Give the costs (usage) when the tables cannot tell them; invalid costs are a usage
    /// error whose message names the inputs.
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            CostsError::NotMeasured => Some(diag::Advice::usage(
                "give {message-start} and {message-per-item}",
            )),
            CostsError::Invalid { .. } => Some(diag::Advice::usage("")),
        }
    }

    /// Invalid costs as the inputs that gave them (fitted costs are never invalid).
    fn message(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        match self {
            CostsError::NotMeasured => self.to_string(),
            CostsError::Invalid { .. } => diag::spell_keys(
                "{message-start} and {message-per-item} are times, finite and not negative",
                spell,
            ),
        }
    }
}

impl CostsError {
    /// The input the message is about, as a key of [`diag::Advice`], and what joins it to
    /// the message (`etccs`, `": "` for costs the tables do not have); `None` when the
    /// message names its inputs.
    pub fn input(&self) -> Option<(&'static str, &'static str)> {
        match self {
            CostsError::NotMeasured => Some(("etccs", ": ")),
            CostsError::Invalid { .. } => None,
        }
    }
}

/// A message's costs and where they come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MessageCosts {
    /// The start-up on the sender.
    pub start: f64,
    /// The network time per integer.
    pub per_item: f64,
    /// Whether both were given (else at least one was fitted to the send-receive cells).
    pub given: bool,
}

impl std::fmt::Display for MessageCosts {
    /// `a message costs its sender 2 and the network 0.01 per integer (as given)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a message costs its sender {} and the network {} per integer ({})",
            trace::text::num(self.start),
            trace::text::num(self.per_item),
            if self.given {
                "as given"
            } else {
                "from the send-receive measurements"
            }
        )
    }
}

/// [`costs`] with where they come from.
///
/// # Errors
/// A [`CostsError`].
pub fn message_costs_of(
    table: &crate::Table,
    stat: crate::Statistic,
    given: (Option<f64>, Option<f64>),
) -> Result<MessageCosts, CostsError> {
    let (start, per_item) = costs(table, stat, given)?;
    Ok(MessageCosts {
        start,
        per_item,
        given: given.0.is_some() && given.1.is_some(),
    })
}

/// An analysis of an ETCCS model's text: the states explored and the slowest execution
/// time (if the analysis found one), or why there is none.
pub type Analyse<'a> = dyn FnMut(&str) -> Result<(usize, Option<f64>), String> + 'a;

/// Lowers `s` at every point of `predicted` and analyses the model on each network of
/// `networks` with `analyse` (ETCCS model text → the states explored and the slowest
/// time, or why there is none), adding a [`crate::skeleton::Lowered`] per network to each
/// point; a model that cannot be lowered gets the reason as its note.
pub fn analyse_points(
    s: &Skeleton,
    costs: &MessageCosts,
    networks: Networks,
    predicted: &mut crate::skeleton::Predicted,
    analyse: &mut Analyse<'_>,
) {
    for point in &mut predicted.points {
        for &network in networks.each() {
            let l = Lowering {
                p: point.p as u32,
                params: point.params.clone(),
                start: costs.start,
                per_item: costs.per_item,
                network,
            };
            let mut out = crate::skeleton::Lowered {
                network: network.name(),
                time: None,
                states: 0,
                note: None,
            };
            match to_etccs(s, &l)
                .map_err(|e| e.message)
                .and_then(|m| analyse(&m))
            {
                Ok((states, time)) => (out.states, out.time) = (states, time),
                Err(note) => out.note = Some(note),
            }
            point.lowered.push(out);
        }
    }
}

/// A message's start-up and time per integer: each as `given`, else fitted to `table`
/// ([`message_costs`]).
///
/// # Errors
/// A [`CostsError`].
pub fn costs(
    table: &crate::Table,
    stat: crate::Statistic,
    given: (Option<f64>, Option<f64>),
) -> Result<(f64, f64), CostsError> {
    let (start, per_item) = match (given, message_costs(table, stat)) {
        ((Some(s), Some(b)), _) => (s, b),
        ((s, b), Some((fs, fb))) => (s.unwrap_or(fs), b.unwrap_or(fb)),
        _ => return Err(CostsError::NotMeasured),
    };
    if !(start.is_finite() && per_item.is_finite() && start >= 0.0 && per_item >= 0.0) {
        return Err(CostsError::Invalid { start, per_item });
    }
    Ok((start, per_item))
}

/// One action of a rank's chain.
enum Act {
    Tau(f64),
    Send { to: u32, seq: usize, m: f64 },
    Recv { from: u32, seq: usize },
}

/// Exact rational text of `v` rounded to 1/1000: `(12345/1000)`.
fn time(v: f64) -> String {
    let milli = (v * 1000.0).round().max(0.0) as u64;
    format!("({milli}/1000)")
}

/// The ETCCS model of `s` lowered under `l`, with `analyse System`.
///
/// # Errors
/// A [`SkeletonError`]: an unbound name or negative value (as [`crate::skeleton::time`]),
/// more than [`MAX_MESSAGES`] messages, a process count of 0 or over 64.
pub fn to_etccs(s: &Skeleton, l: &Lowering) -> Result<String, SkeletonError> {
    if l.p == 0 || l.p > 64 {
        return Err(SkeletonError::new(
            SkeletonErrorKind::Limit,
            format!(
                "p = {}: an ETCCS model is analysed at 1 to 64 processes",
                l.p
            ),
        )
        .help("the state space grows quickly with p: analyse small p and compare"));
    }
    let env = crate::skeleton::bindings_at(s, f64::from(l.p), &l.params)?;
    let p = l.p as usize;
    let mut chains: Vec<Vec<Act>> = (0..p).map(|_| Vec::new()).collect();
    let mut msgs = Messages {
        seq: vec![vec![0; p]; p],
        count: 0,
    };
    lower_steps(&s.steps, &env, p, &mut chains, &mut msgs)?;
    let mut out = String::from(
        "// Lowered by vates from a skeleton: one chain of agents per rank; a message costs\n\
         // its sender the start-up, then holds the network for its transfer.\n",
    );
    let _ = writeln!(out, "agent Bus = get@0 . release@0 . Bus;");
    let _ = writeln!(
        out,
        "agent Perfect = get@0 . Perfect + release@0 . Perfect;"
    );
    for (j, chain) in chains.iter().enumerate() {
        for (i, act) in chain.iter().enumerate() {
            let next = format!("R_{j}_{}", i + 1);
            let body = match act {
                Act::Tau(t) => format!("tau@{} . {next}", time(*t)),
                Act::Send { to, seq, m } => format!(
                    "tau@{} . ('get@0 . 'release@{} . 'msg[{j}][{to}][{seq}]@0 . nil | {next})",
                    time(l.start),
                    time(m * l.per_item)
                ),
                Act::Recv { from, seq } => format!("msg[{from}][{j}][{seq}]@0 . {next}"),
            };
            let _ = writeln!(out, "agent R_{j}_{i} = {body};");
        }
        let _ = writeln!(out, "agent R_{j}_{} = nil;", chain.len());
    }
    let ranks: Vec<String> = (0..p).map(|j| format!("R_{j}_0")).collect();
    let net = match l.network {
        Network::Bus => "Bus",
        Network::Perfect => "Perfect",
    };
    let _ = writeln!(
        out,
        "agent System = ({} | {net}) \\ {{get, release, msg[*][*][*]}};",
        ranks.join(" | ")
    );
    out.push_str("analyse System\n");
    Ok(out)
}

/// The messages of a lowering: each pair's next sequence number, and the count.
struct Messages {
    seq: Vec<Vec<usize>>,
    count: usize,
}

impl Messages {
    /// The send of `m` integers from `j` to `k` on `j`'s chain; its sequence number.
    fn post(
        &mut self,
        chains: &mut [Vec<Act>],
        j: usize,
        k: usize,
        m: f64,
    ) -> Result<usize, SkeletonError> {
        self.count += 1;
        if self.count > MAX_MESSAGES {
            return Err(SkeletonError::new(
                SkeletonErrorKind::Limit,
                format!("the lowered model has over {MAX_MESSAGES} messages"),
            )
            .help("lower fewer loop iterations (a smaller count parameter) or a smaller p"));
        }
        let n = self.seq[j][k];
        self.seq[j][k] += 1;
        chains[j].push(Act::Send {
            to: k as u32,
            seq: n,
            m,
        });
        Ok(n)
    }

    /// A send and its receive, the receive next on `k`'s chain.
    fn send(
        &mut self,
        chains: &mut [Vec<Act>],
        j: usize,
        k: usize,
        m: f64,
    ) -> Result<(), SkeletonError> {
        let n = self.post(chains, j, k, m)?;
        chains[k].push(Act::Recv {
            from: j as u32,
            seq: n,
        });
        Ok(())
    }

    /// Every rank `j` sends to `(j + r) mod p`, then every rank receives: a shift, all
    /// messages in flight at once.
    fn shift(
        &mut self,
        chains: &mut [Vec<Act>],
        p: usize,
        r: usize,
        m: f64,
    ) -> Result<(), SkeletonError> {
        let seqs = (0..p)
            .map(|j| self.post(chains, j, (j + r) % p, m))
            .collect::<Result<Vec<usize>, _>>()?;
        for (j, n) in seqs.into_iter().enumerate() {
            chains[(j + r) % p].push(Act::Recv {
                from: j as u32,
                seq: n,
            });
        }
        Ok(())
    }
}

fn lower_steps(
    steps: &[Step],
    env: &[(expr::Name, f64)],
    p: usize,
    chains: &mut Vec<Vec<Act>>,
    msgs: &mut Messages,
) -> Result<(), SkeletonError> {
    for st in steps {
        match st {
            Step::Compute { time } => {
                let t = crate::skeleton::value_at(time, env, "a compute time")?;
                for c in chains.iter_mut() {
                    c.push(Act::Tau(t));
                }
            }
            Step::Loop { count, body } => {
                let n = crate::skeleton::value_at(count, env, "a loop count")?;
                if n > MAX_MESSAGES as f64 {
                    return Err(SkeletonError::new(
                        SkeletonErrorKind::Limit,
                        format!("a loop of {n} iterations is too long to unroll into a model"),
                    )
                    .help("lower fewer iterations (a smaller count parameter)"));
                }
                for _ in 0..n.round() as u64 {
                    lower_steps(body, env, p, chains, msgs)?;
                }
            }
            Step::Collective { op, size, .. } => {
                let m = match size {
                    Some(e) => crate::skeleton::value_at(e, env, &format!("the size of {op}"))?,
                    None => 0.0,
                };
                let to_root = |chains: &mut Vec<Vec<Act>>, msgs: &mut Messages, m: f64| {
                    (1..p).try_for_each(|k| msgs.send(chains, k, 0, m))
                };
                let from_root = |chains: &mut Vec<Vec<Act>>, msgs: &mut Messages, m: f64| {
                    (1..p).try_for_each(|k| msgs.send(chains, 0, k, m))
                };
                match op.as_str() {
                    "scatter" | "broadcast" => from_root(chains, msgs, m)?,
                    "gather" | "reduce" => to_root(chains, msgs, m)?,
                    "allreduce" => {
                        to_root(chains, msgs, m)?;
                        from_root(chains, msgs, m)?;
                    }
                    "barrier" => {
                        to_root(chains, msgs, 0.0)?;
                        from_root(chains, msgs, 0.0)?;
                    }
                    "send-receive" if p > 1 => msgs.shift(chains, p, 1, m)?,
                    "send-receive" => {}
                    "alltoall" => {
                        for r in 1..p {
                            msgs.shift(chains, p, r, m)?;
                        }
                    }
                    other => {
                        return Err(SkeletonError::new(
                            SkeletonErrorKind::Unknown,
                            format!("no message pattern for `{other}`"),
                        )
                        .help("the lowering knows barrier, broadcast, scatter, gather, reduce, allreduce, alltoall and send-receive"))
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_costs_name_the_inputs() {
        use diag::Advise;
        let flags = |k: &str| Some(format!("--{k}"));
        let e = CostsError::Invalid {
            start: -1.0,
            per_item: 0.0,
        };
        assert_eq!(
            e.message(&flags),
            "--message-start and --message-per-item are times, finite and not negative"
        );
        assert!(e.advice().is_some_and(|a| a.usage && a.fix.is_empty()));
        assert_eq!(
            (e.input(), CostsError::NotMeasured.input()),
            (None, Some(("etccs", ": ")))
        );
    }

    #[test]
    fn every_point_is_analysed_on_each_network_in_order() {
        let s = crate::skeleton::parse("s.skel", "scatter 10\n").unwrap();
        let table =
            crate::read_csv("t.csv", "op,p,d,time\nscatter,2,1,1\nscatter,4,1,2\n").unwrap();
        let opts = crate::Options::default();
        let points = vec![(2.0, Vec::new()), (100.0, Vec::new())];
        let mut pr = crate::skeleton::predict(&s, &table, &opts, &points).unwrap();
        let costs = message_costs_of(&table, opts.statistic, (Some(1.0), Some(0.5))).unwrap();
        assert!(costs.given);
        assert_eq!(
            costs.to_string(),
            "a message costs its sender 1 and the network 0.5 per integer (as given)"
        );
        let mut seen = Vec::new();
        analyse_points(&s, &costs, Networks::Both, &mut pr, &mut |model| {
            seen.push(model.len());
            Ok((7, Some(3.0)))
        });
        // p = 100 cannot be lowered (over 64 processes): a note, no analysis.
        assert_eq!(seen.len(), 2);
        let nets: Vec<_> = pr.points[0]
            .lowered
            .iter()
            .map(|l| (l.network, l.states, l.time))
            .collect();
        assert_eq!(nets, [("bus", 7, Some(3.0)), ("perfect", 7, Some(3.0))]);
        assert!(pr.points[1].lowered[0]
            .note
            .as_deref()
            .unwrap()
            .contains("1 to 64"));
        assert_eq!(
            message_costs_of(&table, opts.statistic, (None, None)),
            Err(CostsError::NotMeasured)
        );
    }
}
