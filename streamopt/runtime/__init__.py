"""A reference HAL runtime in Python that executes lowered IR on real bytes."""
