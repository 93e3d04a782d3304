"""The start-up server (`staticroof server start`): one process that has paid for the imports
(sympy, islpy, the front ends) and forks a copy of itself for each command, so that a command
costs its analysis and not its imports.  Opt-in; a command that cannot reach it runs in its own
process exactly as without it (staticroof/launcher.py).

This package's modules the launcher imports (address, protocol, client) use only the standard
library; daemon, child and command import the analysis."""
