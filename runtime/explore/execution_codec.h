// execution_codec.h: what an execution that ran in another process sends
// back (isolated_execution.h), as bytes: its Outcome and its strategy's
// recording. The process that encodes is a fork of the one that decodes, so
// addresses (a Site's descriptor and return addresses, an Event's object)
// mean the same thing on both sides.
#ifndef SIM_RUNTIME_EXECUTION_CODEC_H_
#define SIM_RUNTIME_EXECUTION_CODEC_H_

#include <optional>
#include <string>
#include <string_view>

#include "core/world.h"
#include "strategy/recording.h"

namespace sim::internal {

// Appends `outcome` to `bytes`.
void EncodeOutcome(const Outcome& outcome, std::string& bytes);

// The outcome that starts at `bytes` (advanced past it), or nullopt when the
// bytes end before it does.
std::optional<Outcome> DecodeOutcome(std::string_view& bytes);

void EncodeStrategyRecording(const StrategyRecording& recording, std::string& bytes);
std::optional<StrategyRecording> DecodeStrategyRecording(std::string_view& bytes);

}  // namespace sim::internal

#endif  // SIM_RUNTIME_EXECUTION_CODEC_H_
