#![allow(missing_docs)] // the crate front page's example, run as a test

fn main() {
    let tour = tour::run(true).expect("the embedded examples run");
    // The Machine Repair Model's table: T^l against simulated T, saturation at P* = 4.
    assert!(tour.text.contains("P* = (tau_l + tau_s)/tau_s = 4"));
    assert!(tour.text.contains("<- P*: largest gap"));
    // Every method has its section.
    for section in [
        "1. The Machine Repair Model",
        "5. Task graphs",
        "6. Message passing",
        "7. Shared memory",
        "8. Task-parallel programs",
    ] {
        assert!(tour.text.contains(section), "{section}");
    }
    let names: Vec<&str> = tour.pictures.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "mrm_sweep.svg",
            "mrm_trace.json",
            "mrm_gantt.svg",
            "adi.svg",
            "membank.svg",
            "blast_gantt.svg",
            "etccs_scatter.svg"
        ]
    );
    assert!(tour.pictures.iter().all(|(_, c)| !c.is_empty()));
    assert!(tour::run(false).unwrap().pictures.is_empty());
}
