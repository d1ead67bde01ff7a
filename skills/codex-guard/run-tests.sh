#!/bin/sh
# The project's tests (a stand-in the example runs): it prints what the
# release scenario scripts, so Codex's run and the simulation compare.
printf '12 passing'
