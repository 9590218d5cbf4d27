"""`python -m streamopt` runs the command-line tool."""

from streamopt.opt_command import console_main

console_main()
