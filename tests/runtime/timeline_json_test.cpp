// timeline=PATH writes the reported execution as Chrome Trace Event JSON
// that Perfetto opens: checked with python3's json module against the
// format's required keys, one thread_name per tid, runs that tile the step
// axis, and flows whose every start has its end inside a slice. The HTML
// rendering's structure is checked here too; tests/timeline opens it in
// headless Chromium.
#include <fcntl.h>
#include <semaphore.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "sim/sim.h"

namespace {

// The checker, run as `python3 check.py TRACE VERDICT FLOW_NAME...`
// (VERDICT is "pass" or the expected verdict).
constexpr const char* kChecker = R"PY(
import json, sys
path, verdict, flow_names = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(path) as f:
    doc = json.load(f)
assert isinstance(doc, dict), "the top level is an object"
assert doc.get("displayTimeUnit") == "ns", "displayTimeUnit is ns"
events = doc["traceEvents"]
assert isinstance(events, list) and events, "traceEvents is a non-empty list"

thread_names = {}
slices = {}
flows = {}
verdicts = []
for e in events:
    for key in ("ph", "pid", "name"):
        assert key in e, "event without %r: %r" % (key, e)
    ph = e["ph"]
    assert ph in ("M", "X", "i", "s", "f"), "unexpected phase %r" % ph
    if ph == "M":
        if e["name"] == "thread_name":
            tid = e["tid"]
            assert tid not in thread_names, "two thread_name events for tid %r" % tid
            thread_names[tid] = e["args"]["name"]
        continue
    for key in ("tid", "ts", "cat"):
        assert key in e, "event without %r: %r" % (key, e)
    assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
    if ph == "X":
        assert isinstance(e["dur"], (int, float)) and e["dur"] > 0, e
        assert "first_step" in e["args"], e
        slices.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"]))
    elif ph == "i":
        assert e.get("s") in ("t", "p", "g"), e
        assert "step" in e["args"], e
        if e["cat"] == "verdict":
            verdicts.append(e)
    else:
        assert "id" in e, e
        flows.setdefault(e["id"], []).append(e)

used = {e["tid"] for e in events if e["ph"] != "M" and e.get("s") != "g"}
assert used <= set(thread_names), "tids without a thread_name: %r" % (used - set(thread_names))
for tid, name in thread_names.items():
    assert name == ("T0 main" if tid == 0 else "T%d" % tid), "thread %r is named %r" % (tid, name)

every = sorted(s for spans in slices.values() for s in spans)
for (b0, e0), (b1, e1) in zip(every, every[1:]):
    assert e0 <= b1, "runs overlap: [%r,%r) and [%r,%r)" % (b0, e0, b1, e1)

def inside(e):
    return any(b <= e["ts"] < end for b, end in slices.get(e["tid"], []))

seen_names = set()
for fid, pair in flows.items():
    phases = sorted(p["ph"] for p in pair)
    assert phases == ["f", "s"], "flow %r has phases %r" % (fid, phases)
    start = next(p for p in pair if p["ph"] == "s")
    end = next(p for p in pair if p["ph"] == "f")
    assert start["name"] == end["name"] and start["cat"] == end["cat"], pair
    assert end.get("bp") == "e", end
    assert end["ts"] >= start["ts"], pair
    assert start["tid"] != end["tid"], pair
    assert inside(start) and inside(end), "flow %r is not inside slices: %r" % (fid, pair)
    seen_names.add(start["name"])
for name in flow_names:
    assert name in seen_names, "no %r flow among %r" % (name, sorted(seen_names))

if verdict == "pass":
    assert not verdicts, verdicts
else:
    assert len(verdicts) == 1, "one failure instant, got %r" % verdicts
    assert verdicts[0]["args"]["verdict"] == verdict, verdicts[0]
    assert verdicts[0]["s"] == "g" or inside(verdicts[0]), verdicts[0]
print("timeline ok: %d events, %d threads, %d flows (%s)" % (len(events), len(thread_names), len(flows),
      ", ".join(sorted(seen_names))))
)PY";

class TimelineTest : public testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/simthread-timeline-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs the checker; returns its exit status (0: valid), its output in `output`.
  int Check(const std::string& trace, const std::string& arguments, std::string& output) {
    std::ofstream(dir_ + "/check.py") << kChecker;
    const std::string command = "python3 " + dir_ + "/check.py " + trace + " " + arguments + " >" + dir_ +
                                "/check.out 2>&1";
    const int status = std::system(command.c_str());
    output = Read(dir_ + "/check.out");
    return status;
  }

  static std::string Read(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
  }

  static bool HavePython() { return std::system("python3 -c 'import json' >/dev/null 2>&1") == 0; }

  std::string dir_;
};

// Two tellers: check the balance under the lock, release it, debit under
// the lock again (the README's bank demo).
class Account {
 public:
  int balance() {
    std::lock_guard guard(mutex_);
    return balance_;
  }
  void Withdraw(int amount) {
    if (balance() < amount) return;
    std::lock_guard guard(mutex_);
    balance_ -= amount;
  }

 private:
  std::mutex mutex_;
  int balance_ = 100;
};

void TwoTellers() {
  Account account;
  std::thread first([&] { account.Withdraw(80); });
  std::thread second([&] { account.Withdraw(80); });
  first.join();
  second.join();
  if (account.balance() < 0) sim::fail("overdrawn");
}

TEST_F(TimelineTest, FailingRunIsValidChromeTraceJson) {
  if (!HavePython()) GTEST_SKIP() << "python3 is not installed; the JSON check needs it";
  const std::string path = dir_ + "/bank.json";
  std::optional<sim::Report> report = sim::explore(TwoTellers, {.seeds = 200, .timeline = path});
  ASSERT_TRUE(report.has_value());
  ASSERT_TRUE(std::filesystem::exists(path));
  std::string output;
  EXPECT_EQ(Check(path, "failure 'unlock -> lock' 'exit -> join' 'create -> start'", output), 0) << output;
  // The reported (shrunk) execution, not the first failing one: same step count.
  const std::string json = Read(path);
  EXPECT_NE(json.find("\"steps\":" + std::to_string(report->step) + ","), std::string::npos) << json.substr(0, 400);
  EXPECT_NE(json.find("\"name\":\"failure: overdrawn (in T0)\""), std::string::npos);
  EXPECT_NE(json.find("timeline_json_test.cpp:"), std::string::npos) << "sites are named";
}

// Waits that must block whatever the schedule (the other side sleeps first,
// and virtual time moves only when nothing can run), so every flow kind
// shows up in a passing replay of one seed.
void EveryFlowKind() {
  std::mutex mutex;
  std::condition_variable ready_changed;
  bool ready = false;
  sem_t items;
  sem_init(&items, 0, 0);
  std::thread consumer([&] {
    std::unique_lock lock(mutex);
    while (!ready) ready_changed.wait(lock);
    lock.unlock();
    sem_wait(&items);
  });
  std::this_thread::sleep_for(std::chrono::seconds(1));
  {
    std::lock_guard guard(mutex);
    ready = true;
  }
  ready_changed.notify_one();
  std::this_thread::sleep_for(std::chrono::seconds(1));
  sem_post(&items);
  consumer.join();
  sem_destroy(&items);
}

TEST_F(TimelineTest, ReplayedPassHasEveryFlowKind) {
  if (!HavePython()) GTEST_SKIP() << "python3 is not installed; the JSON check needs it";
  const std::string path = dir_ + "/flows.json";
  EXPECT_FALSE(sim::explore(EveryFlowKind, {.first_seed = 3, .seeds = 1, .timeline = path}).has_value());
  ASSERT_TRUE(std::filesystem::exists(path)) << "one execution (a replay) writes its timeline when it passes";
  std::string output;
  EXPECT_EQ(Check(path, "pass 'notify -> wait returns' 'sem_post -> sem_wait' 'exit -> join' 'create -> start'", output),
            0)
      << output;
  EXPECT_NE(Read(path).find("\"virtual_time_ns\":1000000000"), std::string::npos) << "virtual time is in args";
}

TEST_F(TimelineTest, ExploringManySeedsWritesNoTimelineWhenAllPass) {
  const std::string path = dir_ + "/none.json";
  EXPECT_FALSE(sim::explore(EveryFlowKind, {.seeds = 3, .timeline = path}).has_value());
  EXPECT_FALSE(std::filesystem::exists(path)) << "no execution is reported, so none is drawn";
}

TEST_F(TimelineTest, RelativePathGoesToBazelUndeclaredOutputs) {
  setenv("TEST_UNDECLARED_OUTPUTS_DIR", dir_.c_str(), 1);
  std::optional<sim::Report> report = sim::explore(TwoTellers, {.seeds = 200, .timeline = "bank-timeline.json"});
  unsetenv("TEST_UNDECLARED_OUTPUTS_DIR");
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/bank-timeline.json"));
  EXPECT_FALSE(std::filesystem::exists("bank-timeline.json"));
}

TEST_F(TimelineTest, HtmlIsSelfContained) {
  const std::string path = dir_ + "/bank.html";
  ASSERT_TRUE(sim::explore(TwoTellers, {.seeds = 200, .timeline = path}).has_value());
  const std::string html = Read(path);
  ASSERT_FALSE(html.empty());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("T0 main"), std::string::npos);
  EXPECT_NE(html.find("failure: overdrawn (in T0)"), std::string::npos);
  EXPECT_NE(html.find("<title>"), std::string::npos) << "hover text";
  EXPECT_NE(html.find("step "), std::string::npos);
  // Nothing from the network: the only URL is the SVG namespace.
  std::string rest = html;
  for (std::size_t at; (at = rest.find("http://www.w3.org/2000/svg")) != std::string::npos;) rest.erase(at, 26);
  EXPECT_EQ(rest.find("http:"), std::string::npos);
  EXPECT_EQ(rest.find("https:"), std::string::npos);
  EXPECT_EQ(rest.find(" src="), std::string::npos);
  EXPECT_EQ(rest.find("<link"), std::string::npos);
  EXPECT_EQ(rest.find("@import"), std::string::npos);
}

TEST_F(TimelineTest, UnwritablePathIsReportedNotFatal) {
  testing::internal::CaptureStderr();
  std::optional<sim::Report> report =
      sim::explore(TwoTellers, {.seeds = 200, .timeline = dir_ + "/no/such/dir/t.json"});
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(report.has_value());
  EXPECT_NE(err.find("simthread: cannot write the timeline to '" + dir_ + "/no/such/dir/t.json'"), std::string::npos)
      << err;
}

}  // namespace
