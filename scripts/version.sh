#!/bin/sh
# Prints the semantic version of the checkout from its git tags (vMAJOR.MINOR.PATCH):
#   on a tag                v0.8.0
#   after a tag             v0.8.0+3.gabc1234      (3 commits later; build metadata)
#   no tag                  v0.0.0-dev+abc1234
#   uncommitted changes     ... plus .dirty
#   not a git checkout      v0.0.0-dev
set -eu
if ! git rev-parse --git-dir >/dev/null 2>&1; then echo v0.0.0-dev; exit 0; fi
dirty=""
if ! git diff --quiet HEAD -- 2>/dev/null; then dirty=".dirty"; fi
if desc=$(git describe --tags --long --match 'v[0-9]*.[0-9]*.[0-9]*' 2>/dev/null); then
  # v0.8.0-3-gabc1234 -> tag v0.8.0, distance 3, hash gabc1234
  hash=${desc##*-}; rest=${desc%-*}; n=${rest##*-}; tag=${rest%-*}
  if [ "$n" = 0 ] && [ -z "$dirty" ]; then echo "$tag"; exit 0; fi
  if [ "$n" = 0 ]; then echo "$tag+dirty"; exit 0; fi
  echo "$tag+$n.$hash$dirty"
else
  echo "v0.0.0-dev+$(git rev-parse --short=7 HEAD)$dirty"
fi
