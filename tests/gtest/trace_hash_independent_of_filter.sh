# The same seed gives the same trace hash whatever --gtest_filter selected it
# with. gtest copies its flags (the filter text among them) through the
# executable's instrumented std::string when it constructs and destroys each
# test object, inside the world: a short filter is copied in place, a long
# one on the heap, so the two ran different instrumented code on T0
# before and after the threads. Those lone-thread stretches are not hashed.
source "$(dirname "$0")/lib.sh"
hash_and_schedule() {
  run "$INSTRUMENTED" "--gtest_filter=$1"
  [[ "$rc" -ne 0 ]] || fail "the lost update was not found with --gtest_filter=$1: $out"
  sed -n 's/^  \(trace hash\|schedule\): //p' <<<"$out"
}
short=$(hash_and_schedule 'I*')
long=$(hash_and_schedule 'Instrumented.UnlockedCounterLosesAnUpdate/*')
[[ $(wc -l <<<"$short") -eq 2 ]] || fail "expected one schedule and one trace hash, got: $short"
expect_eq "$long" "$short" "same schedule and trace hash under a short and a long filter"
echo PASS
