//! `vates collectives skeleton`: an SPMD skeleton predicted from measured collectives.

use std::io::Write;
use std::path::PathBuf;

use collectives::model::Options;

use super::points::skeleton_grid;
use super::read_tables;
use crate::error::{CliError, Result};
use collectives::{model::Fitting, Statistic};

/// Options of `vates collectives skeleton`.
#[derive(clap::Args, Debug)]
pub struct SkeletonArgs {
    /// The skeleton (lines: `param NAME = EXPR`, `OPERATION SIZE`, `compute TIME`,
    /// `loop COUNT` … `end`; docs/cli.md).
    #[arg(value_name = "SKELETON")]
    skeleton: PathBuf,
    /// Measurement tables of the collectives it uses (as `collectives fit` reads them).
    #[arg(long = "table", required = true, value_name = "FILE")]
    tables: Vec<PathBuf>,
    /// The number of processes the OSU outputs ran on.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=i64::from(collectives::table::MAX_P)))]
    osu_np: Option<u32>,
    /// The points: `-D p=2,4,8` (required), and the skeleton's parameters (`-D n=512`),
    /// each a value, a list or a range; every combination is predicted.
    #[arg(short = 'D', value_name = "NAME=VALUES", value_parser = crate::input::parse_define, required = true)]
    define: Vec<crate::input::Define>,
    /// What the models' least squares minimise.
    #[arg(long, value_parser = crate::input::choice::<Fitting>(), default_value = "relative")]
    fitting: Fitting,
    /// The value of each measured point's repetitions that is interpolated and fitted.
    #[arg(long, value_parser = crate::input::choice::<Statistic>(), default_value = "median")]
    statistic: Statistic,
    /// Also lower the skeleton to an Eager Timed CCS model at each point and analyse it on
    /// a bus (one transfer at a time), a perfect network (no contention), or both: the
    /// contention the collective models leave out (thesis chapter 4's two extremes).
    #[arg(long, value_enum)]
    etccs: Option<NetworkArg>,
    /// With --etccs: a message's start-up on its sender, in the tables' time unit
    /// (default: the constant of `a + c·d` fitted to the tables' send-receive).
    #[arg(long, value_name = "T", requires = "etccs")]
    message_start: Option<f64>,
    /// With --etccs: the network time per integer of a message (default: the slope of that
    /// fit).
    #[arg(long, value_name = "T", requires = "etccs")]
    message_per_item: Option<f64>,
    /// With --etccs: the most states an analysis explores.
    #[arg(
        long,
        value_name = "N",
        requires = "etccs",
        default_value_t = 1_000_000
    )]
    max_states: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = crate::Format::Text)]
    format: crate::Format,
}

/// `--etccs`: the networks to analyse the lowered model on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NetworkArg {
    /// One transfer at a time.
    Bus,
    /// No contention.
    Perfect,
    /// Both.
    Both,
}

/// Runs `vates collectives skeleton`.
pub fn run(a: SkeletonArgs, out: &mut dyn Write) -> Result<()> {
    let text = termio::files::read_text(
        &a.skeleton,
        collectives::skeleton::MAX_BYTES,
        "a skeleton",
        "; a skeleton is a few lines per phase of the program",
    )?;
    let name = a.skeleton.display().to_string();
    let located =
        |e: collectives::skeleton::SkeletonError| CliError::Report(miette::Report::new(e));
    let skel = collectives::skeleton::parse(&name, &text).map_err(located)?;
    let table = read_tables(&a.tables, a.osu_np)?;
    let ops: Vec<String> = table.groups().into_iter().map(|g| g.op).collect();
    collectives::skeleton::check(&skel, (&name, &text), &ops).map_err(located)?;
    let params: Vec<&str> = skel.params.iter().map(|(n, _)| &**n).collect();
    let points = skeleton_grid(&a.define, &params)?;
    let opts = Options {
        statistic: a.statistic,
        fitting: a.fitting,
        ..Options::default()
    };
    let mut predicted =
        collectives::skeleton::predict(&skel, &table, &opts, &points).map_err(located)?;
    if let Some(net) = a.etccs {
        lowered(&a, net, &skel, &table, opts.statistic, &mut predicted)?;
    }
    let text = match a.format {
        crate::Format::Json => crate::error::json_text(&predicted)?,
        crate::Format::Text => collectives::report::skeleton_text(&predicted),
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// Lowers the skeleton at every point and analyses it on the networks of `net`.
fn lowered(
    a: &SkeletonArgs,
    net: NetworkArg,
    skel: &collectives::skeleton::Skeleton,
    table: &collectives::Table,
    stat: collectives::Statistic,
    predicted: &mut collectives::skeleton::Predicted,
) -> Result<()> {
    use collectives::lower::{costs, to_etccs, CostsError, Lowering, Network};
    let (start, per_item) =
        costs(table, stat, (a.message_start, a.message_per_item)).map_err(|e| match e {
            CostsError::NotMeasured => CliError::usage(format!(
                "--etccs: {e}; give --message-start and --message-per-item"
            )),
            CostsError::Invalid { .. } => CliError::usage(
                "--message-start and --message-per-item are times, finite and not negative",
            ),
        })?;
    let networks: &[(Network, &'static str)] = match net {
        NetworkArg::Bus => &[(Network::Bus, "bus")],
        NetworkArg::Perfect => &[(Network::Perfect, "perfect")],
        NetworkArg::Both => &[(Network::Bus, "bus"), (Network::Perfect, "perfect")],
    };
    crate::error::note(&format!(
        "note: --etccs: a message costs its sender {} and the network {} per integer ({})",
        trace::text::num(start),
        trace::text::num(per_item),
        if a.message_start.is_some() && a.message_per_item.is_some() {
            "as given"
        } else {
            "from the send-receive measurements"
        }
    ));
    for point in &mut predicted.points {
        for &(network, name) in networks {
            let l = Lowering {
                p: point.p as u32,
                params: point.params.clone(),
                start,
                per_item,
                network,
            };
            let mut out = collectives::skeleton::Lowered {
                network: name,
                time: None,
                states: 0,
                note: None,
            };
            match to_etccs(skel, &l) {
                Err(e) => out.note = Some(e.message),
                Ok(model) => {
                    let job = etccs::job::Job {
                        max_states: a.max_states,
                        ..etccs::job::Job::new("lowered.etccs", &model)
                    };
                    match job.run() {
                        Ok(etccs::job::Results::One(one)) => {
                            if let Some(an) = one.concrete().first() {
                                out.states = an.states;
                                out.time = an.exec.keys().last().map(expr::number::to_f64);
                            }
                        }
                        Ok(_) => out.note = Some("more than one analysis".into()),
                        Err(e) => {
                            out.note = Some(format!("{e} (raise --max-states, or a smaller p)"))
                        }
                    }
                }
            }
            point.lowered.push(out);
        }
    }
    Ok(())
}
