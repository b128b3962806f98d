#!/bin/sh
# Prints bytes that are not UTF-8 (octal escapes: printf is POSIX).
printf '\377\376ok\300\n'
printf '\355\240\200' >&2
