#!/bin/sh
# Forks a child that inherits (and so keeps open) stdout and stderr, then
# exits 0 at once. The child must not keep the run alive or survive it.
sleep 30 &
echo started
exit 0
