/* Loads a task DAG with one of SimGrid's DAG loaders and runs it on every host of a platform
 * with a list scheduler; prints the makespan. Used by bench/compare_simgrid.sh, which writes
 * the inputs with bench/simgrid_dag.py (tasks named t<k>, no data on the edges).
 *
 *   simgrid_dag PLATFORM.xml dax|dot DAG_FILE [SimGrid --cfg/--log options]
 *
 * Scheduler (the same as `python3 bench/simgrid_dag.py listsched`): an idle host (lowest
 * index first) takes the ready task that became ready first, ties by task index k. A task is
 * ready when its last predecessor completes; its host is chosen in the completion callback of
 * that predecessor, before SimGrid releases the dependency, so the task starts at the
 * completion instant. Hosts only ever run one task at a time.
 *
 * Prints key=value lines: makespan, tasks (executions other than SimGrid's root and end),
 * completed, load_seconds (the loader call) and run_seconds (scheduling and simulation).
 * Written for the s4u API with DAG loaders (SimGrid 3.32 to 4.x): the completion callback is
 * Exec::on_completion_cb where it exists (typed activity signals), else
 * Activity::on_completion_cb (older releases).
 */
#include <simgrid/s4u.hpp>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Ready {
  double since; // simulated time at which it became ready
  long index;   // task index k, from the name t<k>; root first, end last
  sg4::Exec* exec;
};

struct Later {
  bool operator()(const Ready& a, const Ready& b) const
  {
    return a.since != b.since ? a.since > b.since : a.index > b.index;
  }
};

/* "t<k>" (DOT) or "t<k>@task" (DAX: the loader names jobs id@name). */
long task_index(const std::string& name)
{
  if (name == "root")
    return -1;
  if (name.size() > 1 && name[0] == 't' && name[1] >= '0' && name[1] <= '9')
    return std::strtol(name.c_str() + 1, nullptr, 10);
  return LONG_MAX;
}

/* Calls f(exec) whenever an execution completes. Newer releases have a typed static
 * Exec::on_completion_cb; older ones only Activity::on_completion_cb. The second overload is
 * a template on A so that it is only compiled when the first one does not apply. */
template <class E, class F>
auto on_exec_completion(F f, int) -> decltype(E::on_completion_cb(std::function<void(E const&)>()), void())
{
  E::on_completion_cb(std::function<void(E const&)>(f));
}
template <class E, class F, class A = sg4::Activity>
void on_exec_completion(F f, long)
{
  A::on_completion_cb([f](A const& a) {
    if (auto const* x = dynamic_cast<E const*>(&a))
      f(*x);
  });
}

double seconds_since(std::chrono::steady_clock::time_point t)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

int main(int argc, char** argv)
{
  sg4::Engine e(&argc, argv); // takes the --cfg and --log options out of argv
  if (argc != 4 || (std::string(argv[2]) != "dax" && std::string(argv[2]) != "dot")) {
    std::fprintf(stderr, "usage: %s PLATFORM.xml dax|dot DAG_FILE\n", argv[0]);
    return 2;
  }
  e.load_platform(argv[1]);
  const std::vector<sg4::Host*> hosts = e.get_all_hosts();
  std::unordered_map<const sg4::Host*, size_t> host_index;
  for (size_t i = 0; i < hosts.size(); i++)
    host_index[hosts[i]] = i;

  auto t0 = std::chrono::steady_clock::now();
  std::vector<sg4::ActivityPtr> dag =
      std::string(argv[2]) == "dax" ? sg4::create_DAG_from_DAX(argv[3]) : sg4::create_DAG_from_dot(argv[3]);
  double load_seconds = seconds_since(t0);
  if (dag.empty()) {
    std::fprintf(stderr, "%s: SimGrid loaded no activity\n", argv[3]);
    return 1;
  }

  auto t1 = std::chrono::steady_clock::now();
  sg4::Exec* root = nullptr;
  size_t execs    = 0;
  for (auto const& a : dag) {
    auto* x = dynamic_cast<sg4::Exec*>(a.get());
    if (x == nullptr) {
      std::fprintf(stderr, "%s: activity %s is not an execution (edges must carry no data)\n", argv[3],
                   a->get_cname());
      return 1;
    }
    execs++;
    if (x->get_name() == "root")
      root = x;
  }
  if (root == nullptr) {
    std::fprintf(stderr, "%s: no root activity\n", argv[3]);
    return 1;
  }

  std::priority_queue<Ready, std::vector<Ready>, Later> ready;
  std::set<size_t> idle;
  for (size_t i = 0; i < hosts.size(); i++)
    idle.insert(i);
  size_t completed = 0;

  auto dispatch = [&ready, &idle, &hosts]() {
    while (not ready.empty() && not idle.empty()) {
      sg4::Exec* x = ready.top().exec;
      ready.pop();
      size_t h = *idle.begin();
      idle.erase(idle.begin());
      // Starts now if the dependencies are solved, else as soon as SimGrid releases them
      // (right after this callback, for the successors of the completing task).
      x->set_host(hosts[h]);
    }
  };

  on_exec_completion<sg4::Exec>([&](sg4::Exec const& done) {
    if (done.get_state() != sg4::Activity::State::FINISHED)
      return;
    completed++;
    idle.insert(host_index.at(done.get_host()));
    double now = sg4::Engine::get_clock();
    // The successors whose only unsolved dependency is this task become ready now.
    for (auto const& s : done.get_successors())
      if (s->get_dependencies().size() == 1) {
        auto* x = static_cast<sg4::Exec*>(s.get());
        ready.push({now, task_index(x->get_name()), x});
      }
    dispatch();
  }, 0);

  ready.push({0.0, -1, root});
  dispatch();
  e.run();
  double run_seconds = seconds_since(t1);

  std::printf("makespan=%.17g\n", sg4::Engine::get_clock());
  std::printf("tasks=%zu\n", execs - 2);
  std::printf("completed=%zu\n", completed >= 2 ? completed - 2 : 0);
  std::printf("load_seconds=%.3f\n", load_seconds);
  std::printf("run_seconds=%.3f\n", run_seconds);
  if (completed != execs) {
    std::fprintf(stderr, "only %zu of %zu executions completed\n", completed, execs);
    return 1;
  }
  return 0;
}
