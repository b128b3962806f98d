#!/bin/sh
# Prints endlessly.
exec yes hookside
