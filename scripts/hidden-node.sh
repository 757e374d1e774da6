#!/bin/sh
# What `node` runs where scripts/without-node.sh hid it: a program that still needs an installed Node
# fails, saying why.
echo "node is hidden here" >&2
exit 127
