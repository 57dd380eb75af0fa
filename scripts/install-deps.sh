#!/usr/bin/env bash
# Installs every Debian 12 package simthread needs to build and test.
# Idempotent: when all packages are present it prints one line and installs nothing,
# so the README's commands and .ci/run can call it every time.
set -euo pipefail

packages=(
  clang-19 llvm-19-dev llvm-19-tools libclang-rt-19-dev
  libclang-19-dev libclang-cpp19-dev  # tools/sim-gate-finder: clang's libTooling and ASTMatchers headers and library
  libzstd-dev  # LLVM's static Support library needs it: tools/sim-symbolizer links LLVM statically
  libgtest-dev libbenchmark-dev librapidcheck-dev
  libgmock-dev  # the matchers of the tests that include gmock; simthread links none of it
  # Linked only by bench/switch_bench, for its raw jump_fcontext reference
  # rows: the runtime switches with its own routine and links no Boost.
  libboost-context-dev
  ninja-build cmake
  python3   # test scripts check JSON reports and timelines with it
  chromium  # tests/timeline: opens the HTML timeline headless and checks its screenshot (~4 s)
  # tests/thirdparty: the conformance suite's libraries
  libconcurrentqueue-dev libreaderwriterqueue-dev libabsl-dev libtbb-dev liburcu-dev libcds-dev
  libxenium-dev libleveldb-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
