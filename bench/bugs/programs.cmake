# The bug-finding suite's programs, read by bench/bugs/CMakeLists.txt (which
# builds them) and tests/bugs/CMakeLists.txt (which checks them).
#
# SIM_BUG_PROGRAMS: program:source:preemptions[:extra compiler flag]. The
# source is programs/<source>.cpp; preemptions is how many the bug needs
# exactly (dfs:k-1 runs every schedule without a failure, dfs:k finds it),
# which tests/bugs/ checks and docs/bug-finding.md reports.
set(SIM_BUG_PROGRAMS
  lazy_init_race:lazy_init_race:1
  inventory_reserve:inventory_reserve:1
  hit_counter:hit_counter:1
  transfer_deadlock:transfer_deadlock:1
  lost_wakeup:lost_wakeup:1
  queue_if_not_while:queue_if_not_while:1
  session_use_after_free:session_use_after_free:1
  publish_before_init:publish_before_init:1
  worker_handle_order:worker_handle_order:1
  double_checked_flag:double_checked_flag:1
  refcount_release:refcount_release:1
  connection_limit:connection_limit:1
  single_flight_refresh:single_flight_refresh:2
  snapshot_trylock:snapshot_trylock:2
  treiber_stack_aba:treiber_stack_aba:3
  dining_philosophers:dining_philosophers:1
  dining_philosophers_4:dining_philosophers:1:-DPHILOSOPHERS=4)
# Programs that also have a -DHALF_FIXED variant (a partial fix that must still fail).
set(SIM_BUG_HALF_FIXED lazy_init_race hit_counter lost_wakeup double_checked_flag connection_limit)
