# embed_asset.cmake: one file as a header holding it in a C++ raw string
# literal, so the runtime (a static archive linked into user programs)
# carries the file's bytes and reads nothing at run time.
#
# Usage: cmake -DINPUT=<file> -DOUTPUT=<header> -DNAME=<identifier> -P embed_asset.cmake
# The header defines sim::internal::NAME, a std::string_view of the file's
# bytes, exactly (so an asset holds no comment it does not want written).
set(delimiter "sim_asset")
file(READ "${INPUT}" content)
string(FIND "${content}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} holds )${delimiter}\", which would end its raw string literal early: "
                      "choose another delimiter in ${CMAKE_CURRENT_LIST_FILE}")
endif()
get_filename_component(header_name "${OUTPUT}" NAME)
string(MAKE_C_IDENTIFIER "SIM_EMBEDDED_${header_name}_" guard)
string(TOUPPER "${guard}" guard)
file(WRITE "${OUTPUT}" "// Generated from ${INPUT} by ${CMAKE_CURRENT_LIST_FILE}: edit the asset, not this file.
#ifndef ${guard}
#define ${guard}

#include <string_view>

namespace sim::internal {

inline constexpr std::string_view ${NAME} = R\"${delimiter}(${content})${delimiter}\";

}  // namespace sim::internal

#endif  // ${guard}
")
