#!/bin/sh
# Traps SIGTERM and keeps running: only SIGKILL ends it.
trap 'echo got-term' TERM
echo ready
while :; do sleep 0.05; done
