// report_json.cpp: minimal JSON for reports (strings escaped per RFC 8259).
#include "report/report_json.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "common/json_string.h"

namespace sim::internal {
namespace {

using common::JsonString;

}  // namespace

std::string ReportJson(const Report& report, std::string_view tls_switch) {
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016" PRIx64, report.trace_hash);
  char signature[32];
  std::snprintf(signature, sizeof signature, "%016" PRIx64, report.failure_signature);
  return "{\"verdict\": " + JsonString(to_string(report.verdict)) + ", \"seed\": " + std::to_string(report.seed) +
         ", \"seeds_passed\": " + std::to_string(report.seeds_passed) + ", \"message\": " + JsonString(report.message) +
         ", \"schedule\": " + JsonString(report.schedule) + ", \"trace_hash\": " + JsonString(hash) +
         ", \"step\": " + std::to_string(report.step) + ", \"preemptions\": " + std::to_string(report.preemptions) +
         ", \"preemptions_before_shrink\": " + std::to_string(report.preemptions_before_shrink) +
         ", \"shrink_candidates\": " + std::to_string(report.shrink_candidates) + ", \"minimum_at_least\": " +
         (report.minimum_at_least ? std::to_string(*report.minimum_at_least) : std::string("null")) +
         ", \"shrink_stopped\": " + JsonString(report.shrink_stopped) + ", \"replay\": " + JsonString(report.replay) +
         ", \"race_flipped\": " + JsonString(report.race_flipped) +
         ", \"race_flipped_schedule\": " + JsonString(report.race_flipped_schedule) +
         ", \"race_flipped_replay\": " + JsonString(report.race_flipped_replay) +
         ", \"failure_signature\": " + JsonString(signature) + ", \"tls_switch\": " + JsonString(tls_switch) + "}\n";
}

std::string PassJson(std::uint64_t seed, std::uint64_t seeds, std::string_view tls_switch) {
  return "{\"verdict\": \"pass\", \"seed\": " + std::to_string(seed) + ", \"seeds_passed\": " + std::to_string(seeds) +
         ", \"tls_switch\": " + JsonString(tls_switch) + "}\n";
}

void WriteJsonFile(const std::string& path, const std::string& json) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr || std::fwrite(json.data(), 1, json.size(), file) != json.size()) {
    std::fprintf(stderr, "simthread: cannot write report_json=%s: %s\n", path.c_str(), std::strerror(errno));
  }
  if (file != nullptr) std::fclose(file);
}

}  // namespace sim::internal
