#!/usr/bin/env bash
# go test -exec wrapper: runs one Windows test binary under Wine in the
# prefix prepared by test-windows.sh (WINEPREFIX and HOOKSIDE_WINE exported
# there). Console only: no display is needed.
set -euo pipefail
: "${WINEPREFIX:?run through .ci/wine/test-windows.sh}"
export WINEDEBUG=-all
unset DISPLAY WAYLAND_DISPLAY
# The first Wine process of a prefix starts the wineserver, which keeps that
# process's stderr open for as long as it runs; with test binaries running
# in parallel it outlives the one that started it, and `go test` then waits
# for that binary's output to end ("Test I/O incomplete"). So the server is
# started here, detached from the test's output (a no-op when one runs).
wineserver -p10 </dev/null >/dev/null 2>&1 || true
exec "${HOOKSIDE_WINE:-wine}" "$@"
