//! `vates campaign run --backend slurm`: the campaign's cells as Slurm job arrays
//! ([`study::slurm`]).

use std::io::Write;

use study::file::Campaign;
use study::folder::Study;
use study::slurm::SlurmError;

use super::{follow, read_campaign, study_error, write_manifest, RunArgs};
use crate::error::{CliError, Result};

/// Seconds between two looks at the queue by default.
const DEFAULT_POLL: f64 = 5.0;

/// The job arrays' options (over the campaign file's `[slurm]`).
#[derive(clap::Args, Debug)]
pub struct SlurmArgs {
    /// With --backend slurm: the partition.
    #[arg(long, value_name = "NAME")]
    partition: Option<String>,
    /// With --backend slurm: the account.
    #[arg(long, value_name = "NAME")]
    account: Option<String>,
    /// With --backend slurm: no other job on a cell's node.
    #[arg(long)]
    exclusive: bool,
    /// With --backend slurm: a further sbatch option, one word (`--qos=short`); repeatable.
    #[arg(
        long = "sbatch-option",
        value_name = "OPTION",
        allow_hyphen_values = true
    )]
    sbatch_options: Vec<String>,
    /// With --backend slurm: seconds between two looks at the queue.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_POLL)]
    poll: f64,
}

impl SlurmArgs {
    /// The first of these flags given, if any (they mean nothing to a local campaign).
    pub(super) fn given(&self) -> Option<&'static str> {
        [
            (self.partition.is_some(), "--partition"),
            (self.account.is_some(), "--account"),
            (self.exclusive, "--exclusive"),
            (!self.sbatch_options.is_empty(), "--sbatch-option"),
            (self.poll != DEFAULT_POLL, "--poll"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// The options of the campaign file `c`'s `[slurm]` with these flags over them.
    pub(super) fn options(&self, c: &Campaign) -> Result<study::file::SlurmOptions> {
        if let Some(bad) = self
            .sbatch_options
            .iter()
            .find(|o| !study::file::is_sbatch_option(o))
        {
            return Err(CliError::usage(format!(
                "--sbatch-option `{bad}` is not one sbatch option: give each as one word, \
                 e.g. --sbatch-option=--qos=short"
            )));
        }
        Ok(c.slurm.overridden_by(&study::file::SlurmOptions {
            partition: self.partition.clone(),
            account: self.account.clone(),
            exclusive: self.exclusive,
            options: self.sbatch_options.clone(),
        }))
    }
}

/// `vates campaign run --backend slurm`: every unfinished cell as job arrays.
pub(super) fn run(a: RunArgs, out: &mut dyn Write) -> Result<()> {
    let (c, text) = read_campaign(&a.file)?;
    if !(a.slurm.poll.is_finite() && (0.05..=3600.0).contains(&a.slurm.poll)) {
        return Err(CliError::usage(format!(
            "--poll {}: give seconds from 0.05 to 3600",
            a.slurm.poll
        )));
    }
    let options = a.slurm.options(&c)?;
    let dir = a.output.unwrap_or_else(|| study::folder::default_dir(&c));
    // The tasks run on other nodes: the study is named by its absolute path.
    std::fs::create_dir_all(&dir).map_err(|e| CliError::write(&dir, &e))?;
    let dir = std::fs::canonicalize(&dir).map_err(|e| CliError::read(&dir, &e))?;
    let study = Study::open(&dir, &c, &text).map_err(study_error)?;
    let mut cell_args = Vec::new();
    if let Some(t) = &a.recorder.ompt_tool {
        let t = std::fs::canonicalize(t).map_err(|e| CliError::read(t, &e))?;
        cell_args.extend(["--ompt-tool".to_string(), t.display().to_string()]);
    }
    if let Some(hz) = a.recorder.clock_hz {
        cell_args.extend(["--clock-hz".to_string(), hz.to_string()]);
    }
    let cfg = study::slurm::SlurmConfig {
        vates: std::env::current_exe()
            .map_err(|e| CliError::msg(format!("cannot find this vates binary: {e}")))?,
        cell_args,
        options,
        poll: std::time::Duration::from_secs_f64(a.slurm.poll),
        commands: study::slurm::Commands::default(),
    };
    let cancel = termio::interrupt::flag();
    let what = format!("measuring {} on Slurm", c.name);
    let m = follow(&what, false, |on| {
        study::slurm::run(&study, &c, &cfg, &cancel, on)
    })
    .map_err(|e| match e {
        SlurmError::Study(e) => study_error(e),
        e => CliError::advised(&e).unwrap_or_else(|| CliError::msg(e.to_string())),
    })?;
    write_manifest(&m, &dir, a.format, out)
}
