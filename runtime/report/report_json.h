// report_json.h: a run's outcome as one JSON object, for sim-run and CI.
//
// {"verdict": "pass"|"failure"|..., "seed": N, "message": "...",
//  "schedule": "S1-...", "trace_hash": "<16 hex>", "step": N,
//  "preemptions": N, "preemptions_before_shrink": N, "shrink_candidates": N,
//  "shrink_stopped": "" or the report's line, "replay": "...",
//  "tls_switch": "lazy"|"wrfsbase"|"syscall" (how the executions switched
//  thread-local state: core/thread_local_switch.h)}
#ifndef SIM_RUNTIME_REPORT_JSON_H_
#define SIM_RUNTIME_REPORT_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/sim.h"

namespace sim::internal {

std::string ReportJson(const Report& report, std::string_view tls_switch);
std::string PassJson(std::uint64_t seed, std::uint64_t seeds, std::string_view tls_switch);

// Writes `json` to `path`; on failure, says so on stderr (the run's verdict
// stands: a report that cannot be saved is not a reason to change it).
void WriteJsonFile(const std::string& path, const std::string& json);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_REPORT_JSON_H_
