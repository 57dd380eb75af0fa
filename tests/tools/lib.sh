# lib.sh: helpers shared by the tools tests (sourced). ctest sets SIM_BIN (the
# build's bin/), SIM_LIB, STANDIN (standin_program.sh) and TEST_TMP (a fresh
# directory per test).
source "$(dirname "${BASH_SOURCE[0]}")/../lib/assert.sh"
rm -rf "$TEST_TMP" && mkdir -p "$TEST_TMP"

# The tls_switch modes this machine runs (runtime/core/thread_local_switch.h):
# wrfsbase only where the kernel reports FSGSBASE (bit 1 of AT_HWCAP2).
tls_switch_modes() {
  local hwcap2
  hwcap2=$(LD_SHOW_AUXV=1 /bin/true | awk '/AT_HWCAP2/ {print $2}')
  echo lazy syscall
  if (( ${hwcap2:-0} & 2 )); then echo wrfsbase; fi
}
