#!/bin/sh
# Mode 0644 on purpose (the test also chmods a copy): starting it is EACCES.
exit 0
