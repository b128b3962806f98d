#!/usr/bin/env bash
# Exec-form plugin hook: the endpoint arrives as an argument
# (${user_config.api_url}), the token from CLAUDE_PLUGIN_OPTION_API_TOKEN.
cat >/dev/null
echo "endpoint=$1 token=${CLAUDE_PLUGIN_OPTION_API_TOKEN:-unset} level=${CLAUDE_PLUGIN_OPTION_LEVEL:-unset} data=$(basename "$CLAUDE_PLUGIN_DATA")"
