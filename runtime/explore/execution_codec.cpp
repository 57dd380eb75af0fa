// execution_codec.cpp: an execution's outcome and recording <-> bytes (see
// execution_codec.h). Plain values
// are copied as they lie in memory: both ends are the same build on the same
// machine.
#include "explore/execution_codec.h"

#include <cstring>
#include <type_traits>

namespace sim::internal {
namespace {

class ByteWriter {
 public:
  explicit ByteWriter(std::string& bytes) : bytes_(bytes) {}

  template <typename T>
  void Value(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void Text(const std::string& text) {
    Value(text.size());
    bytes_.append(text);
  }
  void Texts(const std::vector<std::string>& texts) {
    Value(texts.size());
    for (const std::string& text : texts) Text(text);
  }
  template <typename T>
  void Values(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    Value(values.size());
    bytes_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  }

 private:
  std::string& bytes_;
};

// Every read fails once one has: the caller checks ok() at the end.
class ByteReader {
 public:
  explicit ByteReader(std::string_view& bytes) : bytes_(bytes) {}

  template <typename T>
  void Value(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!Take(sizeof value)) return;
    std::memcpy(&value, bytes_.data() - sizeof value, sizeof value);
  }
  void Text(std::string& text) {
    std::size_t size = 0;
    Value(size);
    if (!Take(size)) return;
    text.assign(bytes_.data() - size, size);
  }
  void Texts(std::vector<std::string>& texts) {
    std::size_t count = 0;
    Value(count);
    if (!ok_ || count > bytes_.size()) return Fail();
    texts.resize(count);
    for (std::string& text : texts) Text(text);
  }
  template <typename T>
  void Values(std::vector<T>& values) {
    std::size_t count = 0;
    Value(count);
    if (!ok_ || count > bytes_.size() / sizeof(T)) return Fail();
    values.resize(count);
    if (!Take(count * sizeof(T))) return;
    std::memcpy(values.data(), bytes_.data() - count * sizeof(T), count * sizeof(T));
  }
  bool ok() const { return ok_; }

 private:
  bool Take(std::size_t size) {
    if (!ok_ || bytes_.size() < size) {
      Fail();
      return false;
    }
    bytes_.remove_prefix(size);
    return true;
  }
  void Fail() { ok_ = false; }

  std::string_view& bytes_;
  bool ok_ = true;
};

// One list of the fields, for both directions.
template <typename Coder, typename OutcomeRef>
void CodeOutcome(Coder& coder, OutcomeRef& outcome) {
  coder.Value(outcome.verdict);
  coder.Text(outcome.message);
  coder.Text(outcome.schedule_mismatch);
  coder.Value(outcome.trace_hash);
  coder.Value(outcome.steps);
  coder.Value(outcome.preemptions);
  coder.Value(outcome.threads_left_running);
  coder.Texts(outcome.threads);
  coder.Texts(outcome.last_events);
  coder.Value(outcome.events_left_out);
  coder.Value(outcome.signal_number);
  coder.Value(outcome.process_suspect);
  coder.Values(outcome.anchored);
  coder.Value(outcome.failure_signature);
  coder.Texts(outcome.story);
  coder.Values(outcome.events);
  coder.Value(outcome.race_to_flip);
}

template <typename Coder, typename ChoiceRef>
void CodeChoice(Coder& coder, ChoiceRef& choice) {
  coder.Value(choice.current);
  coder.Value(choice.current_points);
  coder.Value(choice.current_enabled);
  coder.Value(choice.switch_by_default);
  coder.Values(choice.enabled);
  coder.Values(choice.also_try);
}

}  // namespace

void EncodeOutcome(const Outcome& outcome, std::string& bytes) {
  ByteWriter writer(bytes);
  CodeOutcome(writer, outcome);
}

std::optional<Outcome> DecodeOutcome(std::string_view& bytes) {
  Outcome outcome;
  ByteReader reader(bytes);
  CodeOutcome(reader, outcome);
  if (!reader.ok()) return std::nullopt;
  return outcome;
}

void EncodeStrategyRecording(const StrategyRecording& recording, std::string& bytes) {
  ByteWriter writer(bytes);
  writer.Value(recording.seed);
  writer.Value(recording.choice_points);
  writer.Value(recording.reduced);
  writer.Value(recording.choices.size());
  for (const ChoiceRecord& choice : recording.choices) CodeChoice(writer, choice);
}

std::optional<StrategyRecording> DecodeStrategyRecording(std::string_view& bytes) {
  StrategyRecording recording;
  ByteReader reader(bytes);
  std::size_t choices = 0;
  reader.Value(recording.seed);
  reader.Value(recording.choice_points);
  reader.Value(recording.reduced);
  reader.Value(choices);
  if (!reader.ok() || choices > bytes.size()) return std::nullopt;
  recording.choices.resize(choices);
  for (ChoiceRecord& choice : recording.choices) CodeChoice(reader, choice);
  if (!reader.ok()) return std::nullopt;
  return recording;
}

}  // namespace sim::internal
