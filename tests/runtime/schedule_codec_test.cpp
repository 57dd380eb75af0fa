// The schedule string: round trip, whitespace tolerance, and an error (not a
// different run) for another version, a truncated copy or an edited one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "strategy/schedule.h"

namespace {

using sim::internal::DecodeSchedule;
using sim::internal::EncodeSchedule;
using ::testing::HasSubstr;

std::string ErrorFor(const std::string& text) {
  try {
    DecodeSchedule(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ScheduleCodec, RoundTripsAndRunLengthEncodes) {
  const std::vector<std::uint32_t> decisions = {0, 0, 0, 1, 2, 2, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 12};
  const std::string text = EncodeSchedule(decisions);
  EXPECT_THAT(text, ::testing::StartsWith("S1-18-0x3.1.2x2.0.1x10.12-"));
  EXPECT_EQ(DecodeSchedule(text), decisions);
  EXPECT_EQ(DecodeSchedule(EncodeSchedule({})), std::vector<std::uint32_t>{});
}

TEST(ScheduleCodec, WhitespaceAndLineWrapsAreIgnored) {
  const std::vector<std::uint32_t> decisions = {1, 0, 1, 0, 2, 2, 2};
  std::string text = EncodeSchedule(decisions);
  text.insert(6, "\n    ");
  text.insert(2, " ");
  EXPECT_EQ(DecodeSchedule(text), decisions);
}

TEST(ScheduleCodec, OtherVersionIsNamed) {
  EXPECT_THAT(ErrorFor("S2-3-0x3-abcd"), HasSubstr("version 'S2' is not supported"));
}

TEST(ScheduleCodec, TruncatedCopyIsAnError) {
  const std::string text = EncodeSchedule({0, 1, 0, 1, 1, 0});
  EXPECT_THAT(ErrorFor(text.substr(0, text.size() - 5)), HasSubstr("truncated"));
  EXPECT_THAT(ErrorFor(text.substr(0, text.size() - 2)), HasSubstr("truncated"));
}

TEST(ScheduleCodec, EditedScheduleFailsTheCheck) {
  std::string text = EncodeSchedule({0, 1, 0, 1, 1, 0});
  text[5] = text[5] == '1' ? '0' : '1';
  EXPECT_THAT(ErrorFor(text), HasSubstr("check digits do not match"));
}

TEST(ScheduleCodec, NotASchedule) { EXPECT_THAT(ErrorFor("hello"), HasSubstr("not a simthread schedule")); }

}  // namespace
