//! The example models embedded in the binary (from `examples/pamela/`), for `vates demo`.

/// One embedded example model.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// Short name: the file stem (`mrm`).
    pub name: &'static str,
    /// Path in the repository, used as the label in diagnostics.
    pub path: &'static str,
    /// The model text.
    pub text: &'static str,
}

/// Every embedded example, by name.
pub const EXAMPLES: &[Example] = &[
    Example {
        name: "adi_i",
        path: "examples/pamela/adi_i.pam",
        text: include_str!("../../../examples/pamela/adi_i.pam"),
    },
    Example {
        name: "adi_j",
        path: "examples/pamela/adi_j.pam",
        text: include_str!("../../../examples/pamela/adi_j.pam"),
    },
    Example {
        name: "apsp",
        path: "examples/pamela/apsp.pam",
        text: include_str!("../../../examples/pamela/apsp.pam"),
    },
    Example {
        name: "branching",
        path: "examples/pamela/branching.pam",
        text: include_str!("../../../examples/pamela/branching.pam"),
    },
    Example {
        name: "chaining",
        path: "examples/pamela/chaining.pam",
        text: include_str!("../../../examples/pamela/chaining.pam"),
    },
    Example {
        name: "chaining_seq",
        path: "examples/pamela/chaining_seq.pam",
        text: include_str!("../../../examples/pamela/chaining_seq.pam"),
    },
    Example {
        name: "datapar",
        path: "examples/pamela/datapar.pam",
        text: include_str!("../../../examples/pamela/datapar.pam"),
    },
    Example {
        name: "membank",
        path: "examples/pamela/membank.pam",
        text: include_str!("../../../examples/pamela/membank.pam"),
    },
    Example {
        name: "mrm",
        path: "examples/pamela/mrm.pam",
        text: include_str!("../../../examples/pamela/mrm.pam"),
    },
    Example {
        name: "network",
        path: "examples/pamela/network.pam",
        text: include_str!("../../../examples/pamela/network.pam"),
    },
    Example {
        name: "pipeline",
        path: "examples/pamela/pipeline.pam",
        text: include_str!("../../../examples/pamela/pipeline.pam"),
    },
    Example {
        name: "pipeline3",
        path: "examples/pamela/pipeline3.pam",
        text: include_str!("../../../examples/pamela/pipeline3.pam"),
    },
    Example {
        name: "stride_bench",
        path: "examples/pamela/stride_bench.pam",
        text: include_str!("../../../examples/pamela/stride_bench.pam"),
    },
    Example {
        name: "vector_par",
        path: "examples/pamela/vector_par.pam",
        text: include_str!("../../../examples/pamela/vector_par.pam"),
    },
    Example {
        name: "vector_pipe",
        path: "examples/pamela/vector_pipe.pam",
        text: include_str!("../../../examples/pamela/vector_pipe.pam"),
    },
    Example {
        name: "vector_seq",
        path: "examples/pamela/vector_seq.pam",
        text: include_str!("../../../examples/pamela/vector_seq.pam"),
    },
];

/// The example called `name`.
pub fn get(name: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.name == name)
}
