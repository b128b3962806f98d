#!/bin/sh
# Stops itself (SIGSTOP): SIGTERM alone would stay pending until SIGCONT.
echo stopping
kill -STOP $$
echo continued
