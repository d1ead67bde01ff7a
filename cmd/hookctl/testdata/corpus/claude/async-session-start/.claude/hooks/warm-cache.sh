#!/usr/bin/env bash
# Warm the dependency cache in the background: the first line tells Claude
# Code to go on without waiting; the report follows once the work is done.
# The work lasts until the session stops (the Stop hook leaves a mark; at
# most 4 s), so it is still running when the model is first called, as a
# real install would be.
set -euo pipefail
cat > /dev/null
echo '{"async": true, "asyncTimeout": 120000}'
mkdir -p .cache
for _ in $(seq 80); do
  [ -e .cache/session-stopped ] && break
  sleep 0.05
done
echo "Dependency cache warmed: 312 packages."
