#!/usr/bin/env bash
# Warm the dependency cache in the background: the first line tells Claude
# Code to go on without waiting; what follows is the hook's own report.
set -euo pipefail
echo '{"async": true, "asyncTimeout": 120000}'
mkdir -p .cache && touch .cache/warmed
echo "Dependency cache warmed: 312 packages."
