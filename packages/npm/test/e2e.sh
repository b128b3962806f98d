#!/usr/bin/env bash
# make test-npm: the npm packages end to end. Expects `make npm-pack` to
# have filled dist/npm/ (tarballs of the main package and of this machine's
# platform package). Installs them from the tarballs into a temporary
# project (the @hookside scope points at an unreachable registry, so they
# can only come from the tarballs; typescript, @types/node and
# vscode-jsonrpc come from the npm registry), type-checks the example host
# (and the client test, client.ts) with tsc --noEmit, runs them against the
# packed binary, and checks the
# binary resolution (platform package, HOOKSIDE_BINARY, the missing-package
# error).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
export npm_config_cache="$root/.cache/npm" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
unset HOOKSIDE_BINARY
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-npm: FAIL: $*" >&2; exit 1; }

platform=$(node -p 'process.platform + "-" + process.arch')
main_tgz=$(ls "$root"/dist/npm/hookside-[0-9]*.tgz 2>/dev/null | head -1)
plat_tgz=$(ls "$root"/dist/npm/hookside-"$platform"-*.tgz 2>/dev/null | head -1)
[ -n "$main_tgz" ] || fail "no main package tarball in dist/npm (run make npm-pack)"
[ -n "$plat_tgz" ] || fail "no tarball of @hookside/$platform in dist/npm: make dist did not build this platform"
for t in "$root"/dist/npm/*.tgz; do
  printf '  %-60s %8d bytes\n' "$(basename "$t")" "$(wc -c <"$t")"
  tar -xzOf "$t" package/package.json | node -e '
    const p = JSON.parse(require("fs").readFileSync(0, "utf8"));
    if (p.scripts && Object.keys(p.scripts).length) { console.error(p.name + " has scripts: " + Object.keys(p.scripts)); process.exit(1); }' \
    || fail "$(basename "$t") has install scripts"
done
files=$(tar -tzf "$plat_tgz" | sort | tr '\n' ' ')
[ "$files" = "package/LICENSE package/bin/hookside package/package.json " ] || fail "platform package holds more than the binary: $files"

# Fixtures: a user config with a PreToolUse deny and a Stop continuation, a
# workspace with one hook that needs trust.
mkdir -p "$tmp/home" "$tmp/ws/.git" "$tmp/ws/hooks" "$tmp/proj"
cat >"$tmp/home/config.json" <<'JSON'
{"hooks": {"enabled": true, "events": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"rm -rf is not allowed\"}}'"}]},
                 {"matcher": "Slow", "hooks": [{"type": "command", "command": "sleep 30"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"run the tests first\"}'"}]}]}}}
JSON
echo 'ref: refs/heads/main' >"$tmp/ws/.git/HEAD"
printf '#!/bin/sh\ncat >/dev/null\necho workspace says hi\n' >"$tmp/ws/hooks/context.sh"
chmod +x "$tmp/ws/hooks/context.sh"
echo '{"hooks": {"events": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./hooks/context.sh"}]}]}}}' >"$tmp/ws/zcode.json"

cd "$tmp/proj"
echo '{"name": "example-host", "version": "0.0.0", "private": true}' >package.json
printf '@hookside:registry=http://127.0.0.1:9/\nfetch-retries=0\n' >.npmrc
cp "$root/packages/npm/example/host.ts" "$root/packages/npm/test/client.ts" .
cat >tsconfig.json <<'JSON'
{"compilerOptions": {"target": "ES2022", "module": "node16", "moduleResolution": "node16", "strict": true,
  "types": ["node"], "outDir": "out", "skipLibCheck": false}, "files": ["host.ts", "client.ts"]}
JSON
t0=$SECONDS
npm install --ignore-scripts --no-audit --no-fund --loglevel=error "$main_tgz" "$plat_tgz" typescript@~5.9.3 @types/node@^20.9.5 >/dev/null
echo "  npm install: $((SECONDS - t0)) s"
[ -x "node_modules/@hookside/$platform/bin/hookside" ] || fail "@hookside/$platform was not installed from its tarball"

./node_modules/.bin/tsc --noEmit -p . || fail "the example host (or the client test) does not type-check"
./node_modules/.bin/tsc -p .
bin=$(node -p 'require("hookside").resolveBinary()')
[ "$bin" = "$PWD/node_modules/@hookside/$platform/bin/hookside" ] || fail "resolveBinary() = $bin, not the platform package's binary"
"$bin" version --json
HOOKSIDE_HOME="$tmp/home" EXAMPLE_WORKSPACE="$tmp/ws" node out/host.js || fail "the example host failed"
HOOKSIDE_HOME="$tmp/home" EXAMPLE_WORKSPACE="$tmp/ws" node out/client.js || fail "the client test failed"

out=$(HOOKSIDE_BINARY=/nonexistent/hookside node -e 'try { require("hookside").resolveBinary() } catch (e) { console.log(e.message) }')
case $out in *"HOOKSIDE_BINARY=/nonexistent/hookside does not exist"*) ;; *) fail "HOOKSIDE_BINARY override: $out" ;; esac
[ "$(HOOKSIDE_BINARY="$bin" node -p 'require("hookside").resolveBinary()')" = "$bin" ] || fail "HOOKSIDE_BINARY is not used"
mv "node_modules/@hookside/$platform" "$tmp/aside"
out=$(node -e 'try { require("hookside").resolveBinary(); console.log("found") } catch (e) { console.log(e.message) }')
mv "$tmp/aside" "node_modules/@hookside/$platform"
case $out in *"platform package @hookside/$platform is not installed"*) ;; *) fail "missing platform package error: $out" ;; esac
echo "test-npm: ok"
