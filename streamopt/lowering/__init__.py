"""Lowering passes: async to cmd, cmd to hal, and the expansion of moves."""
