#!/usr/bin/env python3
"""Converts a vates task-graph JSON file for SimGrid's DAG loaders (used by compare_simgrid.sh).

    python3 bench/simgrid_dag.py dax  GRAPH.json OUT.xml   # Pegasus DAX 2.1, create_DAG_from_DAX
    python3 bench/simgrid_dag.py dot  GRAPH.json OUT.dot   # SimGrid's DOT, create_DAG_from_dot
    python3 bench/simgrid_dag.py platform P OUT.xml        # P hosts of SPEED flop/s, no links
    python3 bench/simgrid_dag.py listsched GRAPH.json P    # the driver's list scheduler, in Python

Task k (its position in the JSON `tasks` array) is named `t<k>` in both outputs, so the C++
driver (simgrid_dag.cpp) can recover k from the activity name. A task of `time` T becomes
T * SPEED flops on hosts of SPEED flop/s, so it lasts T simulated seconds: the DAX loader
multiplies `runtime` by 4.2e9 itself, the DOT loader reads the flops from the node's `size`.
Edges carry no data (DAX: control dependencies `<child><parent/></child>`; DOT: `size="0"`),
so both loaders link the two executions directly, without a communication in between.
Repeated predecessors are written once (both loaders reject duplicate dependencies).

The JSON file is read one task at a time (`json.JSONDecoder.raw_decode` over the `tasks`
array), twice: a first pass for the ids, a second for the predecessors. Memory is the file
text plus a few bytes per task and an id dictionary, not the parsed document.

`listsched` replays, without SimGrid, the scheduler of simgrid_dag.cpp: ready tasks ordered
by (ready time, task index), idle hosts taken lowest index first. It prints the makespan, to
check that this order gives the makespan of `vates graph analyze --policy fifo`.
"""

import heapq
import json
import sys
from array import array

# Flop/s of every host. create_DAG_from_DAX assumes the DAX runtimes were measured on a
# 4.2 Gflop/s machine (it multiplies them by 4.2e9), so hosts of that speed keep the times.
SPEED = 4.2e9
SPEED_XML = "4.2Gf"

_WS = " \t\n\r"


def _skip(text, i):
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _expect(text, i, ch, path):
    if i >= len(text) or text[i] != ch:
        got = repr(text[i]) if i < len(text) else "end of file"
        sys.exit(f"{path}: expected {ch!r} at offset {i}, got {got}")
    return i + 1


def iter_tasks(text, path):
    """Yields the objects of the top-level `tasks` array, one at a time."""
    dec = json.JSONDecoder()
    i = _expect(text, _skip(text, 0), "{", path)
    i = _skip(text, i)
    found = False
    while not text.startswith("}", i):
        key, i = dec.raw_decode(text, i)
        i = _expect(text, _skip(text, i), ":", path)
        i = _skip(text, i)
        if key == "tasks":
            found = True
            i = _expect(text, i, "[", path)
            i = _skip(text, i)
            if text.startswith("]", i):
                i += 1
            else:
                while True:
                    task, i = dec.raw_decode(text, i)
                    yield task
                    i = _skip(text, i)
                    if text.startswith(",", i):
                        i = _skip(text, i + 1)
                        continue
                    i = _expect(text, i, "]", path)
                    break
        else:
            _, i = dec.raw_decode(text, i)  # other top-level keys are ignored, as in vates
        i = _skip(text, i)
        if text.startswith(",", i):
            i = _skip(text, i + 1)
        elif not text.startswith("}", i):
            _expect(text, i, "}", path)
    if not found:
        sys.exit(f"{path}: no `tasks` array: not a vates task-graph JSON file "
                 "(convert other formats with `vates graph convert IN OUT.json`)")


class Graph:
    """Ids, times and predecessor indices of a task-graph JSON file, in flat arrays."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.text = f.read()
        self.path = path
        self.index = {}
        self.times = array("d")
        for k, task in enumerate(iter_tasks(self.text, path)):
            if not isinstance(task, dict) or "id" not in task or "time" not in task:
                sys.exit(f"{path}: task {k} needs an `id` and a `time`")
            t = task["time"]
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not t >= 0:
                sys.exit(f"{path}: task {k} ({task['id']}): time must be a number >= 0")
            if task["id"] in self.index:
                sys.exit(f"{path}: task {k}: duplicate id {task['id']!r}")
            self.index[task["id"]] = k
            self.times.append(float(t))

    def __len__(self):
        return len(self.times)

    def preds(self):
        """Yields (k, predecessor indices of task k, deduplicated, in file order)."""
        for k, task in enumerate(iter_tasks(self.text, self.path)):
            seen = []
            for p in task.get("preds", ()):
                j = self.index.get(p)
                if j is None:
                    sys.exit(f"{self.path}: task {k} ({task['id']}): unknown predecessor {p!r}")
                if j == k:
                    sys.exit(f"{self.path}: task {k} ({task['id']}) is its own predecessor")
                if j not in seen:
                    seen.append(j)
            yield k, seen


def write_dax(g, out):
    n = len(g)
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n')
    w(f"<!-- {n} tasks from {g.path}; runtime in seconds (SimGrid: x 4.2e9 flops) -->\n")
    w('<adag xmlns="http://pegasus.isi.edu/schema/DAX" version="2.1" '
      f'name="vates" jobCount="{n}" fileCount="0">\n')
    for k, t in enumerate(g.times):
        w(f'  <job id="t{k}" name="task" runtime="{t!r}"/>\n')
    for k, ps in g.preds():
        if ps:
            w(f'  <child ref="t{k}">')
            w("".join(f'<parent ref="t{j}"/>' for j in ps))
            w("</child>\n")
    w("</adag>\n")


def write_dot(g, out):
    w = out.write
    w("digraph G {\n")
    w(f"  // {len(g)} tasks from {g.path}; size = time x {SPEED:g} flops, edges carry no data\n")
    # Declares both attributes with a default: SimGrid calls atof(agget(.., "size")) on every
    # node and edge, which needs the attribute to exist in the graph.
    w('  node [size="0"];\n  edge [size="0"];\n')
    for k, t in enumerate(g.times):
        w(f'  t{k} [size="{t * SPEED!r}"];\n')
    for k, ps in g.preds():
        for j in ps:
            w(f"  t{j} -> t{k};\n")
    w("}\n")


def write_platform(p, out):
    out.write("<?xml version='1.0'?>\n")
    out.write('<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n')
    out.write('<platform version="4.1">\n  <zone id="vates" routing="Full">\n')
    for h in range(p):
        out.write(f'    <host id="h{h}" speed="{SPEED_XML}"/>\n')
    out.write("  </zone>\n</platform>\n")


def list_schedule(g, p):
    """The list scheduler of simgrid_dag.cpp, on the exact task times."""
    n = len(g)
    succ = [[] for _ in range(n)]
    missing = array("i", bytes(4 * n))
    for k, ps in g.preds():
        missing[k] = len(ps)
        for j in ps:
            succ[j].append(k)
    ready = [(0.0, k) for k in range(n) if missing[k] == 0]
    heapq.heapify(ready)
    idle = list(range(p))
    running = []  # (end, host, task)
    now = 0.0
    done = 0
    while True:
        while ready and idle:
            _, k = heapq.heappop(ready)
            h = heapq.heappop(idle)
            heapq.heappush(running, (now + g.times[k], h, k))
        if not running:
            break
        now, h, k = heapq.heappop(running)
        done += 1
        heapq.heappush(idle, h)
        for c in succ[k]:
            missing[c] -= 1
            if missing[c] == 0:
                heapq.heappush(ready, (now, c))
    if done != n:
        sys.exit(f"{g.path}: only {done} of {n} tasks ran (a cycle?)")
    return now


def main():
    args = sys.argv[1:]
    if len(args) != 3 or args[0] not in ("dax", "dot", "platform", "listsched"):
        sys.exit(__doc__)
    cmd = args[0]
    if cmd == "platform":
        with open(args[2], "w", encoding="utf-8") as out:
            write_platform(int(args[1]), out)
    elif cmd == "listsched":
        g = Graph(args[1])
        print(f"makespan={list_schedule(g, int(args[2])):.17g}")
        print(f"tasks={len(g)}")
    else:
        g = Graph(args[1])
        with open(args[2], "w", encoding="utf-8", buffering=1 << 20) as out:
            (write_dax if cmd == "dax" else write_dot)(g, out)


if __name__ == "__main__":
    main()
