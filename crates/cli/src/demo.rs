//! `vates demo`: the guided tour ([`tour`]) on the embedded examples, the commands to try
//! next, and with `--out DIR` its pictures written there.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use crate::error::{write_file, CliError, Result};

/// Runs the tour.
pub fn run(out_dir: Option<&Path>, out: &mut dyn Write) -> Result<()> {
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(dir).map_err(|e| CliError::write(dir, &e))?;
    }
    let tour = tour::run(out_dir.is_some()).map_err(|e| CliError::msg(e.to_string()))?;
    let mut s = tour.text;
    s.push_str(TRY);
    if let Some(dir) = out_dir {
        let names: Vec<&str> = tour.pictures.iter().map(|(n, _)| *n).collect();
        for (name, contents) in &tour.pictures {
            write_file(&dir.join(name), contents.as_bytes())?;
        }
        let _ = writeln!(s, "\nWrote {} to {}", diag::and_list(&names), dir.display());
    }
    crate::error::print(out, &s)
}

/// The commands to try next, on the repository's examples.
const TRY: &str = "
Try it yourself:
  vates pamela bound examples/pamela/mrm.pam -D N=10 -D P=4 -D tau_l=3 -D tau_s=1
  vates pamela sim   examples/pamela/mrm.pam -D N=10 -D P=4 -D tau_l=3 -D tau_s=1 --gantt mrm.svg --trace mrm.json
  vates pamela sweep examples/pamela/mrm.pam -D P=1..64 -D N=100 -D tau_l=3 -D tau_s=1 --plot mrm_sweep.svg
  vates graph analyze examples/graphs/blast-chameleon-small-001.json -D P=8 --gantt blast.svg
  vates etccs analyse examples/etccs/scatter_gather.etccs --agent ScatterGatherBus -D p=2..4
  vates etccs analyse examples/etccs/scatter_gather.etccs --agent ScatterGatherBus -D p=3 --explain --gantt sg_run.svg
  vates etccs analyse examples/etccs/scatter.etccs -D p=2..8 --plot scatter.svg
  vates etccs analyse examples/etccs/parametric.etccs
  vates semi predict examples/semi/ge.tg --samples examples/semi/ge_samples.csv --machine examples/semi/machine.json -D N=1600 -D P=2 --gantt ge.svg
  vates taskpar fit examples/taskpar/train.csv --app sparselu -o sparselu.json && vates taskpar predict sparselu.json -n 160 -p 1..4 --plot sparselu.svg
  vates collectives fit examples/collectives/here.csv --op broadcast,allreduce --statistic min --plot collectives/
  vates collectives skeleton examples/collectives/geometric.skel --table examples/collectives/here.csv -D p=2 -D n=64,256,1024
  vates compare examples/studies/fib --plot fib.svg
  vates probe --mpi --quick -o mine.csv   (needs openmpi-bin and libopenmpi-dev)
";
