// whole_program_main.cpp: the bug programs as whole programs. Each
// program's object (its `int main()` compiled as bug_main, as for the
// explore driver) linked with this main runs as users run theirs:
// SIM_OPTIONS=seed=K ./prog, sim-run, sim-run --strategy dfs:P
// (bench/whole_program_bugs.py).
int bug_main();

int main() { return bug_main(); }
