#!/bin/sh
# Prints 1 MiB on stdout and 1 MiB on stderr.
head -c 1048576 /dev/zero | tr '\000' o
head -c 1048576 /dev/zero | tr '\000' e >&2
