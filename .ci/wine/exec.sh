#!/usr/bin/env bash
# go test -exec wrapper: runs one Windows test binary under Wine in the
# prefix prepared by test-windows.sh (WINEPREFIX and HOOKSIDE_WINE exported
# there). Console only: no display is needed.
set -euo pipefail
: "${WINEPREFIX:?run through .ci/wine/test-windows.sh}"
export WINEDEBUG=-all
unset DISPLAY WAYLAND_DISPLAY
exec "${HOOKSIDE_WINE:-wine}" "$@"
