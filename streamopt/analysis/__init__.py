"""Analyses over the op graph, each computed once per module run."""
