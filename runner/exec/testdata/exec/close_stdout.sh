#!/bin/sh
# Closes stdout early, then keeps running a bit and reports on stderr.
printf early
exec 1>&-
sleep 0.2
echo late >&2
exit 0
