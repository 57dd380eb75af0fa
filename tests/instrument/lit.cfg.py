# lit configuration for the simthread pass tests. Each test is an .ll file
# run through opt -passes=sim, or a .cpp compiled by clang -fpass-plugin, and
# checked with FileCheck. Paths come from lit.site.cfg.py in the build tree.
import os

import lit.formats

config.name = "simthread-instrument"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".cpp"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.sim_exec_root

# FileCheck, not, llvm-nm and friends of the same LLVM as the plugin.
config.environment["PATH"] = os.pathsep.join(
    [config.sim_llvm_tools_dir, config.environment.get("PATH", "")])

tools = config.sim_llvm_tools_dir
config.substitutions.append(("%plugin", config.sim_plugin))
# Most tests check one transformation; cloning for the fast path is tested
# by its own files through %sim-opt-with-twin.
config.substitutions.append(
    ("%sim-opt-with-twin",
     f"{tools}/opt -load-pass-plugin={config.sim_plugin} -passes=sim"))
config.substitutions.append(
    ("%sim-opt",
     f"{tools}/opt -load-pass-plugin={config.sim_plugin} -passes=sim "
     "-sim-clone-for-fast-path=false"))
config.substitutions.append(("%clangxx", f"{tools}/clang++"))
