// json.h: the little JSON sim-run needs: reading the one flat object a child
// writes with SIM_OPTIONS=report_json=PATH, and writing --report-json.
//
// Not a general JSON library: the reader accepts any valid JSON but keeps only
// an object's top-level string, number, bool and null members (nested values
// are parsed and dropped); numbers are kept as their source text.
#ifndef SIM_TOOLS_SIM_RUN_JSON_H_
#define SIM_TOOLS_SIM_RUN_JSON_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/json_string.h"

namespace simrun {

// A top-level JSON object: member name -> value. Strings are unescaped;
// numbers, true, false and null keep their literal text.
using JsonObject = std::map<std::string, std::string>;

// Parses `text` as one JSON object. nullopt when it is not valid JSON or not
// an object (a child that died while writing leaves a truncated file).
std::optional<JsonObject> ParseJsonObject(std::string_view text);

using sim::common::JsonString;  // common/json_string.h, shared with the runtime

}  // namespace simrun

#endif  // SIM_TOOLS_SIM_RUN_JSON_H_
