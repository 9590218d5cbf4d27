"""The IR core: op graph, types and attributes, the parsed-file container and the verifier."""
