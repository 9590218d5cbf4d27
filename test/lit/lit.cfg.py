"""lit configuration for streamopt's FileCheck tests.

Tools come from the environment lit runs in (the virtualenv where streamopt is installed):
`streamopt`, `streamopt-run`, `filecheck` (the pip package) and, when installed, `iree-opt`.
Tests that need iree-opt say `REQUIRES: iree-opt` or live in a folder whose lit.local.cfg marks
it unsupported without it.
"""

import os
import shutil
import sys

import lit.formats

config.name = "streamopt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.local.cfg"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(
    os.environ.get("STREAMOPT_LIT_OUT", os.path.join(os.path.dirname(__file__), "Output"))
)

# Run the tools of the Python environment lit itself runs in.
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
for name in ("PYTHONPATH", "HOME", "TMPDIR", "STREAMOPT_CACHE_DIR", "STREAMOPT_PURE_PYTHON"):
    if name in os.environ:
        config.environment[name] = os.environ[name]

repo_root = os.path.dirname(os.path.dirname(config.test_source_root))
config.substitutions.append(("%examples", os.path.join(repo_root, "examples")))

if shutil.which("iree-opt", path=config.environment["PATH"]):
    config.available_features.add("iree-opt")
