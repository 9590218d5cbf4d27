"""The old name of `streamopt.parser.token_values`, kept for stream.py alone.

TODO(#20): remove when stream.py imports `streamopt.parser.token_values` (the branch that
splits it into a package).
"""

from streamopt.parser.token_values import attribute_from_token, integer_literal

__all__ = ["attribute_from_token", "integer_literal"]
