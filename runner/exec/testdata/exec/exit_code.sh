#!/bin/sh
# Exits with the code given as $1.
echo "exiting $1" >&2
exit "$1"
