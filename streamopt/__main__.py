"""`python -m streamopt` runs the command-line tool."""

from streamopt.cli import console_main

console_main()
