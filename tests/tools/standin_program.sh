#!/usr/bin/env bash
# A test double of a program built with sim-clang++: sim-run's tests use it to
# check process handling without the runtime. It reads seed= and report_json=
# from SIM_OPTIONS (later keys win, as in the runtime) and ends as told by
#   STANDIN_FAIL_SEEDS  seeds that fail (space-separated)
#   STANDIN_MODE        how they fail: verdict66 (exit 66 + JSON verdict
#                       $STANDIN_VERDICT), signal (JSON, then kill -$STANDIN_SIGNAL),
#                       exit (exit $STANDIN_STATUS), hang (sleep forever)
#   STANDIN_MESSAGE     the JSON message (already escaped) for verdict66
#   STANDIN_SLOW_SEEDS  seeds that sleep $STANDIN_SLOW_SECONDS before ending
#   STANDIN_LOG         append "seed=K options=<SIM_OPTIONS> args=<args>" here
# Every run prints a report-like block on stderr naming its seed.
set -u
seed="" report_json=""
IFS=':, ' read -r -a pairs <<< "${SIM_OPTIONS:-}"
for pair in "${pairs[@]}"; do
  case "$pair" in
    seed=*) seed="${pair#seed=}" ;;
    report_json=*) report_json="${pair#report_json=}" ;;
  esac
done
[[ -n "${STANDIN_LOG:-}" ]] && printf 'seed=%s options=%s args=%s\n' "$seed" "${SIM_OPTIONS:-}" "$*" >> "$STANDIN_LOG"
for slow in ${STANDIN_SLOW_SEEDS:-}; do
  [[ "$slow" == "$seed" ]] && sleep "${STANDIN_SLOW_SECONDS:-1}"
done

write_json() {  # verdict message
  [[ -n "$report_json" ]] || return 0
  printf '{"verdict": "%s", "seed": %s, "message": "%s", "schedule": "S1-standin%s", "trace_hash": "00000000000000%02x", "step": 7, "preemptions": 1, "replay": "SIM_OPTIONS=seed=%s standin"}\n' \
    "$1" "$seed" "$2" "$seed" "$((seed % 256))" "$seed" > "$report_json"
}

for failing in ${STANDIN_FAIL_SEEDS:-}; do
  [[ "$failing" == "$seed" ]] || continue
  printf '==================\nWARNING: standin: %s (seed=%s)\n  replay: SIM_OPTIONS=seed=%s standin\n==================\n' \
    "${STANDIN_MODE:-exit}" "$seed" "$seed" >&2
  case "${STANDIN_MODE:-exit}" in
    verdict66) write_json "${STANDIN_VERDICT:-deadlock}" "${STANDIN_MESSAGE:-standin says \\\"${STANDIN_VERDICT:-deadlock}\\\" at seed $seed}"; exit 66 ;;
    signal) write_json crash "standin crashed at seed $seed"; kill -"${STANDIN_SIGNAL:-SEGV}" $$; sleep 5; exit 99 ;;
    exit) exit "${STANDIN_STATUS:-1}" ;;
    hang) sleep "${STANDIN_HANG_SECONDS:-1000}" & wait; exit 99 ;;
  esac
done
write_json pass ""
echo "standin: seed $seed passed" >&2
exit 0
