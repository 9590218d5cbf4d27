"""streamopt: an opt-style tool for IREE's stream and hal IR, built around move semantics for
cross-device transfers."""

__version__ = "0.1.0"
# The IREE release whose printed IR streamopt reads and prints (its op definitions and syntax;
# the `test` extra installs this iree-base-compiler).
IREE_VERSION = "3.13.0"
