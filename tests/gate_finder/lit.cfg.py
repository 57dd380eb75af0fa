# lit configuration for sim-gate-finder's tests, as clang-tidy's checks are
# tested: each file is a source whose RUN lines run the tool and FileCheck.
# ctest runs lit once per file (tests/gate_finder/CMakeLists.txt) and passes
# the tools' paths in the environment.
import os

import lit.formats

config.name = "gate_finder"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".cpp"]
config.excludes = ["Inputs"]  # headers the tests include, not tests
config.test_source_root = os.path.dirname(__file__)
# Scratch files (%t) go to the build tree, never beside the sources.
config.test_exec_root = os.environ["SIM_GATE_FINDER_TEST_TMP"]
config.substitutions.append(("%gate-finder", os.environ["SIM_GATE_FINDER"]))
config.substitutions.append(("%FileCheck", os.environ["FILECHECK"]))
# LLVM's `not` (exits 0 when the command fails), beside FileCheck.
config.substitutions.append(("%not", os.path.join(os.path.dirname(os.environ["FILECHECK"]), "not")))
config.substitutions.append(("%python", os.environ.get("PYTHON", "python3")))
