//! Message latency between two threads by ping-pong over `std::sync::mpsc`.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::time::Instant;

use crate::stat::measure;
use crate::team::team;
use crate::{Options, ProbeError, Stat};

/// The cache line the receiver of a message touches once per.
const LINE: usize = 64;

/// Writes one byte per cache line of a message: the receiver consumes the message, so its
/// lines move to the receiver's core as the data of a copied message would. (The `Vec` itself
/// is moved, not copied.)
fn touch(msg: &mut [u8]) {
    for i in (0..msg.len()).step_by(LINE) {
        msg[i] = msg[i].wrapping_add(1);
    }
}

/// The one-way latency of a message of each of `sizes` bytes (half the round trip of a
/// ping-pong with a second thread); `step(bytes)` is called before each size.
pub(crate) fn latencies(
    options: &Options,
    sizes: &[u64],
    step: &mut dyn FnMut(u64),
) -> Result<Vec<Stat>, ProbeError> {
    let (to_echo, echo_in) = channel::<Vec<u8>>();
    let (echo_out, from_echo) = channel::<Vec<u8>>();
    let echo_in = Mutex::new(echo_in);
    let echo_out = Mutex::new(echo_out);
    let helper = |_| {
        let (Ok(rx), Ok(tx)) = (echo_in.lock(), echo_out.lock()) else {
            return;
        };
        echo(&rx, &tx);
    };
    let leader = move || {
        let mut out = Vec::with_capacity(sizes.len());
        for &bytes in sizes {
            step(bytes);
            out.push(ping_pong(options, bytes, &to_echo, &from_echo)?);
        }
        // Dropping `to_echo` here ends the echo thread.
        Ok(out)
    };
    team("channel", 2, helper, leader)?
}

/// Sends every message back after touching it, until the leader hangs up.
fn echo(rx: &Receiver<Vec<u8>>, tx: &Sender<Vec<u8>>) {
    while let Ok(mut msg) = rx.recv() {
        touch(&mut msg);
        if tx.send(msg).is_err() {
            return;
        }
    }
}

/// The one-way latency of a message of `bytes` bytes.
fn ping_pong(
    options: &Options,
    bytes: u64,
    tx: &Sender<Vec<u8>>,
    rx: &Receiver<Vec<u8>>,
) -> Result<Stat, ProbeError> {
    let gone = || ProbeError::Unmeasurable {
        what: "channel".into(),
        reason: "the echo thread stopped".into(),
    };
    let mut msg = Some(message(bytes)?);
    let stat = measure("channel", options, |n| {
        let mut m = msg.take().ok_or_else(gone)?;
        let t = Instant::now();
        for _ in 0..n {
            touch(&mut m);
            tx.send(m).map_err(|_| gone())?;
            m = rx.recv().map_err(|_| gone())?;
        }
        let elapsed = t.elapsed();
        msg = Some(m);
        Ok(elapsed)
    })?;
    Ok(stat.halved())
}

/// A message of `bytes` bytes, allocated without aborting on failure.
fn message(bytes: u64) -> Result<Vec<u8>, ProbeError> {
    let fail = || ProbeError::Memory {
        what: "channel".into(),
        bytes,
    };
    let len = usize::try_from(bytes).map_err(|_| fail())?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| fail())?;
    v.resize(len, 1u8);
    Ok(v)
}
