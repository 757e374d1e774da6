#!/usr/bin/env bash
# Runs a command where no node can be found: in a mount namespace of its own (root only), every node on
# PATH and /usr/bin/node are covered by scripts/hidden-node.sh, which says so and exits 127. A program
# that still needs an installed Node fails there. Used by .ci/run and test/e2e/package.test.ts.
set -euo pipefail
if [ "${1:-}" != "--inside" ]; then
  exec unshare --mount --propagation private "$BASH" "$0" --inside "$@"
fi
shift
stub="$(dirname "$0")/hidden-node.sh"
for each in $(type -ap node) /usr/bin/node; do
  if [ -e "$each" ]; then mount --bind "$stub" "$each"; fi
done
exec "$@"
