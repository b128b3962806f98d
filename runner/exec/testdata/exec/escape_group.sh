#!/bin/sh
# Starts a child in a new session (out of the hook's process group, so no
# group kill reaches it) that keeps stdout and stderr open for 1 s. Waits
# until the child has left the group (it creates the file $1), then exits.
setsid sh -c 'touch "$1"; exec sleep 1' escapee "$1" &
while [ ! -e "$1" ]; do sleep 0.01; done
echo hi
exit 0
