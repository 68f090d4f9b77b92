#!/usr/bin/env python3
"""The Machine Repair Model in SimPy, for comparison with `vates`'s simulator.

    main = par p in 1..=P { seq i in 1..=N { delay(tau_l); use(s, tau_s) } }

Deterministic durations; `s` is a SimPy `Resource` of capacity 1 (FIFO queue). All P client
processes start at time 0, in order p = 1..P, like vates's `par`.

Usage: python3 bench/simpy_mrm.py [P] [N] [tau_l] [tau_s] [reps]   (defaults 1000 1000 3 1 3)
Prints key=value lines: T (simulated completion time), uses, the wall-clock seconds of each
repetition and their median. Needs `pip install simpy`.
"""

import statistics
import sys
import time

import simpy


def client(env, server, n, tau_l, tau_s, counter):
    for _ in range(n):
        yield env.timeout(tau_l)
        with server.request() as req:
            yield req
            yield env.timeout(tau_s)
        counter[0] += 1


def run(p, n, tau_l, tau_s):
    env = simpy.Environment()
    server = simpy.Resource(env, capacity=1)
    counter = [0]
    for _ in range(p):
        env.process(client(env, server, n, tau_l, tau_s, counter))
    env.run()
    return env.now, counter[0]


def main():
    args = [int(a) for a in sys.argv[1:]]
    defaults = [1000, 1000, 3, 1, 3]
    p, n, tau_l, tau_s, reps = args + defaults[len(args):]
    secs = []
    for _ in range(max(reps, 1)):
        t0 = time.perf_counter()
        t, uses = run(p, n, tau_l, tau_s)
        secs.append(time.perf_counter() - t0)
    print(f"P={p} N={n} tau_l={tau_l} tau_s={tau_s}")
    print(f"T={t}")
    print(f"uses={uses}")
    print("runs=" + ",".join(f"{s:.3f}" for s in secs))
    print(f"seconds={statistics.median(secs):.6f}")


if __name__ == "__main__":
    main()
