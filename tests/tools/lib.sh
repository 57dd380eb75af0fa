# lib.sh: helpers shared by the tools tests (sourced). ctest sets SIM_BIN (the
# build's bin/), SIM_LIB, STANDIN (standin_program.sh) and TEST_TMP (a fresh
# directory per test).
source "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"
