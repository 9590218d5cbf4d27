"""`python -m streamopt` runs the command-line tool."""

from streamopt.cli import main

main()
