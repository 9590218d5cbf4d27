# A lit suite that tests IR with streamopt, configured by streamopt.lit (see its docstring):
#   lit examples/lit-suite
# Copy this file into a suite of your own; only the name is this suite's.
import streamopt.lit

config.name = "streamopt-example"
streamopt.lit.configure(config)
