"""streamopt: an opt-style tool for IREE's stream and hal IR, built around move semantics for
cross-device transfers."""

__version__ = "0.1.0"
