// seeds_bench.cpp: seeds per second of sim-run on a small program, next to
// running the same program the same number of times without simthread, with
// the per-seed cost split into its layers, and sim-run with its fork servers
// (the default) next to sim-run spawning a process per seed.
//
// Every row spawns kRunsPerIteration processes (posix_spawn, stdin, stdout
// and stderr on /dev/null, J in flight at once, as sim-run does) and waits
// for them; items_per_second is processes (seeds) per second, and
// child_cpu_ms the user + system CPU time of the processes (and of theirs,
// for sim-run) per process, from getrusage(RUSAGE_CHILDREN): less disturbed
// by other load than wall time, so the per-layer split uses it. The program is
// examples/programs/correct_counter.cpp (3 threads x 20 locked increments).
//
//   BM_Spawn/native/jobs:J         clang++-19 -O1 build: exec + ld.so + the
//                                  program on real threads
//   BM_Spawn/sim_no_world/jobs:1   the sim-clang++ build, SIM_OPTIONS unset:
//                                  + the runtime's libraries and static init
//   BM_Spawn/sim_world_aslr_off/jobs:1
//                                  SIM_OPTIONS=seed=K with this process's
//                                  personality already ADDR_NO_RANDOMIZE, so
//                                  whole-program mode does not re-exec itself:
//                                  + the world
//   BM_Spawn/sim_world/jobs:J      SIM_OPTIONS=seed=K: + the re-exec that
//                                  turns ASLR off (what every seed pays)
//   BM_SimRunSpawn/jobs:J          `sim-run --no-fork-server --seeds 1000
//                                  --jobs J -- PROG`: + sim-run (report JSON
//                                  and stderr files, process groups,
//                                  classification)
//   BM_SimRun/jobs:J               `sim-run --seeds 1000 --jobs J -- PROG`,
//                                  which forks each seed from J fork servers:
//                                  the spawn, exec, ld.so and static
//                                  initialisation of BM_SimRunSpawn replaced
//                                  by a fork after main's wrapper
// The two sim-run rows run the same seeds; their ratio is the fork server's
// speed-up, both sides measured in one run.
//
// The same, per core, on executions_bench's scenarios (bench/scenarios.h),
// built as bench/scenario_program with an argument naming the scenario:
//   BM_SpawnScenario/S/native/jobs:1   the clang++-19 build, a process per run
//   BM_SimRunScenario/S/jobs:J         `sim-run --seeds 1000 --jobs J --
//                                      scenario_program S` (fork servers)
// S is registry (2 threads, 8 synchronisation operations) or lock_loop_4x200
// (4 threads, 200).
//
// usage: seeds_bench [--native PATH] [--sim PATH] [--sim-run PATH]
//                    [--scenario-native PATH] [--scenario-sim PATH]
//                    [benchmark flags]
// The defaults are relative to this executable (build/bin/bench/):
// correct_counter_native and scenario_program{,_native} beside it,
// ../examples/correct_counter, ../sim-run.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace {

double ChildrenCpuMs() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

constexpr int kRunsPerIteration = 1000;

std::string native_program;
std::string sim_program;
std::string sim_run_program;
std::string scenario_native_program;
std::string scenario_sim_program;
std::uint64_t next_seed = 0;  // every world row gets seeds no earlier row used
// The sim-run rows' seeds, apart from the other rows' (which start at 0).
constexpr std::uint64_t first_sim_run_seed = 1'000'000;

// Runs `runs` processes, `jobs` at a time; argv_for(i) and env_for(i) give
// the i-th process's argv and extra environment entries. Returns an error
// message, or "" when every process exited 0.
template <typename ArgvFor, typename EnvFor>
std::string SpawnMany(int runs, int jobs, ArgvFor argv_for, EnvFor env_for) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> base_env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, "SIM_OPTIONS=", 12) != 0) base_env.push_back(*entry);
  }
  std::string error;
  int started = 0, running = 0;
  while (started < runs || running > 0) {
    while (started < runs && running < jobs && error.empty()) {
      std::vector<std::string> words = argv_for(started);
      std::vector<std::string> extra = env_for(started);
      std::vector<char*> argv, envp = base_env;
      for (std::string& word : words) argv.push_back(word.data());
      argv.push_back(nullptr);
      for (std::string& entry : extra) envp.push_back(entry.data());
      envp.push_back(nullptr);
      pid_t pid;
      const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
      if (rc != 0) {
        error = "posix_spawn " + words[0] + ": " + std::strerror(rc);
        break;
      }
      ++started;
      ++running;
    }
    if (running == 0) break;
    int status;
    if (wait(&status) < 0) return std::string("wait: ") + std::strerror(errno);
    --running;
    if (error.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      error = "a child did not exit 0 (status " + std::to_string(status) + ")";
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  return error;
}

// Items are processes (seeds); child_cpu_ms their CPU time each.
void ReportPerProcess(benchmark::State& state, double cpu_before) {
  state.SetItemsProcessed(state.iterations() * kRunsPerIteration);
  state.counters["child_cpu_ms"] = (ChildrenCpuMs() - cpu_before) / (state.iterations() * kRunsPerIteration);
}

// kRunsPerIteration processes of `argv` per iteration, J = state.range(0)
// at a time; each gets SIM_OPTIONS=seed=K with a seed no earlier row used
// when `seeded`.
void SpawnRuns(benchmark::State& state, const std::vector<std::string>& argv, bool seeded) {
  const int jobs = static_cast<int>(state.range(0));
  const double cpu_before = ChildrenCpuMs();
  for (auto _ : state) {
    const std::uint64_t first = next_seed;
    next_seed += kRunsPerIteration;
    const std::string error = SpawnMany(
        kRunsPerIteration, jobs, [&](int) { return argv; },
        [&](int i) {
          return seeded ? std::vector<std::string>{"SIM_OPTIONS=races=0:seed=" + std::to_string(first + i)}
                        : std::vector<std::string>{};
        });
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
  }
  ReportPerProcess(state, cpu_before);
}

enum class Mode { kNative, kSimNoWorld, kSimWorldAslrOff, kSimWorld };

void BM_Spawn(benchmark::State& state, Mode mode) {
  const std::string& program = mode == Mode::kNative ? native_program : sim_program;
  const bool world = mode == Mode::kSimWorld || mode == Mode::kSimWorldAslrOff;
  // Personality is inherited across exec: with ADDR_NO_RANDOMIZE already set
  // whole-program mode sees nothing to turn off and does not re-exec.
  const int saved_personality = personality(0xffffffff);
  if (mode == Mode::kSimWorldAslrOff &&
      personality(static_cast<unsigned long>(saved_personality) | ADDR_NO_RANDOMIZE) == -1) {
    state.SkipWithError("personality(ADDR_NO_RANDOMIZE) is not allowed here");
    return;
  }
  SpawnRuns(state, {program}, world);
  if (mode == Mode::kSimWorldAslrOff) personality(static_cast<unsigned long>(saved_personality));
}

// The scenario's native build, one process per run, as BM_Spawn/native.
void BM_SpawnScenario(benchmark::State& state, const char* scenario) {
  SpawnRuns(state, {scenario_native_program, scenario}, /*seeded=*/false);
}

enum class SimRunMode { kForkServer, kSpawn };

// `sim-run` over kRunsPerIteration seeds per iteration of `program` with
// `arguments`, J = state.range(0) jobs.
void SimRunSeeds(benchmark::State& state, SimRunMode mode, const std::string& program,
                 const std::vector<std::string>& arguments) {
  const int jobs = static_cast<int>(state.range(0));
  const double cpu_before = ChildrenCpuMs();
  // Both modes run the seeds [first_sim_run_seed, + 1000) of their iteration,
  // so the ratio compares the same executions.
  std::uint64_t first = first_sim_run_seed;
  for (auto _ : state) {
    std::vector<std::string> command{
        sim_run_program, "--seeds",           std::to_string(kRunsPerIteration), "--start", std::to_string(first),
        "--jobs",        std::to_string(jobs)};
    first += kRunsPerIteration;
    if (mode == SimRunMode::kSpawn) command.push_back("--no-fork-server");
    command.push_back("--");
    command.push_back(program);
    command.insert(command.end(), arguments.begin(), arguments.end());
    // races=0, as the spawned rows: the world's cost, not the detector's.
    const std::string error = SpawnMany(
        1, 1, [&](int) { return command; }, [](int) { return std::vector<std::string>{"SIM_OPTIONS=races=0"}; });
    if (!error.empty()) {
      state.SkipWithError(("sim-run: " + error).c_str());
      break;
    }
  }
  ReportPerProcess(state, cpu_before);
}

void BM_SimRun(benchmark::State& state, SimRunMode mode) { SimRunSeeds(state, mode, sim_program, {}); }

void BM_SimRunScenario(benchmark::State& state, const char* scenario) {
  SimRunSeeds(state, SimRunMode::kForkServer, scenario_sim_program, {scenario});
}

// Every row runs once per job count (one iteration: kRunsPerIteration
// processes), timed by the wall clock.
void PerJobCount(benchmark::internal::Benchmark* row, std::initializer_list<int> jobs) {
  for (int j : jobs) row->Arg(j);
  row->ArgName("jobs")->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
}

void Register() {
  PerJobCount(benchmark::RegisterBenchmark("BM_Spawn/native", BM_Spawn, Mode::kNative), {1, 2});
  PerJobCount(benchmark::RegisterBenchmark("BM_Spawn/sim_no_world", BM_Spawn, Mode::kSimNoWorld), {1});
  PerJobCount(benchmark::RegisterBenchmark("BM_Spawn/sim_world_aslr_off", BM_Spawn, Mode::kSimWorldAslrOff), {1});
  PerJobCount(benchmark::RegisterBenchmark("BM_Spawn/sim_world", BM_Spawn, Mode::kSimWorld), {1, 2});
  PerJobCount(benchmark::RegisterBenchmark("BM_SimRunSpawn", BM_SimRun, SimRunMode::kSpawn), {1, 2});
  PerJobCount(benchmark::RegisterBenchmark("BM_SimRun", BM_SimRun, SimRunMode::kForkServer), {1, 2});
  for (const char* scenario : {"registry", "lock_loop_4x200"}) {
    const std::string name(scenario);
    PerJobCount(
        benchmark::RegisterBenchmark(("BM_SpawnScenario/" + name + "/native").c_str(), BM_SpawnScenario, scenario),
        {1});
    PerJobCount(benchmark::RegisterBenchmark(("BM_SimRunScenario/" + name).c_str(), BM_SimRunScenario, scenario),
                {1, 2});
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path here = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  native_program = here / "correct_counter_native";
  sim_program = here / ".." / "examples" / "correct_counter";
  sim_run_program = here / ".." / "sim-run";
  scenario_native_program = here / "scenario_program_native";
  scenario_sim_program = here / "scenario_program";
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string* path = arg == "--native"            ? &native_program
                        : arg == "--sim"             ? &sim_program
                        : arg == "--sim-run"         ? &sim_run_program
                        : arg == "--scenario-native" ? &scenario_native_program
                        : arg == "--scenario-sim"    ? &scenario_sim_program
                                                     : nullptr;
    if (path != nullptr && i + 1 < argc) {
      *path = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  int rest_count = static_cast<int>(rest.size());
  Register();
  benchmark::Initialize(&rest_count, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_count, rest.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
