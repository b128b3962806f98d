# hookside — every install and build step lives here (README quick start:
# `make demo`, `make test`).
GO       ?= go
BIN      := bin/hookside
# The version has one format for every build, computed in one place
# (tools/dist describe): X.Y.Z at a release tag, else the prerelease
# X.Y.Z-dev.N.gSHA12 (N = commits since the last vX.Y.Z tag), ".dirty"
# appended for a dirty tree — `make build`, `make dist` and the npm packages
# alike. Expanded only when a recipe uses it (LDFLAGS is recursive).
VERSION  ?= $(shell $(GO) run ./tools/dist -print-version 2>/dev/null || echo 0.0.0-dev.unknown)
COMMIT   ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS   = -X main.version=$(VERSION) -X main.commit=$(COMMIT)
# Release targets of `make dist`; `make npm-pack` / `make test-npm` build
# only this machine's target unless NPM_TARGETS says otherwise.
DIST_TARGETS ?= linux/amd64,linux/arm64,darwin/amd64,darwin/arm64,windows/amd64,windows/arm64
NPM_TARGETS  ?= $(shell $(GO) env GOOS)/$(shell $(GO) env GOARCH)
# npm keeps its cache in the checkout (.cache/npm, ignored by git).
NPM      := npm_config_cache=$(CURDIR)/.cache/npm npm_config_update_notifier=false npm

.PHONY: all deps build demo test vet unit conformance cross test-windows bench soak soak-smoke fuzz mutate clean dist generate check-generated npm-build npm-pack test-npm test-dist

all: build

deps:
	$(GO) mod download

build: deps
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/hookside

## demo: build, then play a host session over real pipes against examples/
demo: build
	$(GO) run ./examples/demo -bin $(BIN) -examples examples

## test: go vet + generated files up to date + unit tests with the race
## detector + the conformance suite + vet of every target OS (cross) + a
## 45 s soak smoke
test: deps vet check-generated unit conformance cross soak-smoke

vet:
	$(GO) vet ./...
	$(GO) vet -tags stepprobe ./internal/steps ./cmd/hookside

unit:
	$(GO) test -race -count=1 $$($(GO) list ./... | grep -v /conformance)
	$(GO) test -race -count=1 -tags stepprobe ./internal/steps

conformance: build
	$(GO) test -count=1 ./conformance/...

## cross: go vet, tests included, for linux, darwin, windows (amd64, arm64)
## and freebsd/amd64
cross: deps
	GO=$(GO) .ci/cross

## test-windows: the Windows test binaries under Wine (installs wine, wine64
## and gcc-mingw-w64-x86-64-win32 with apt-get when missing; the Wine prefix
## lives in the user cache, HOOKSIDE_WINEPREFIX overrides)
test-windows: deps
	GO=$(GO) .ci/wine/test-windows.sh

## bench: hookside side by side with the C posix_spawn floor, the Go os/exec
## floor, the exec core (hookside's runner/exec alone; figs. 1 and 1p) and a
## Node.js runner, interleaved, over real pipes (a few minutes on
## 2 cores; needs cc; writes bench/RESULTS.md and bench/results.json;
## BENCHFLAGS='-note "…"' adds a sentence about the machine). The Go
## micro-benchmarks stay runnable with `go test -bench . ./...`.
BENCHFLAGS ?=
bench: build
	$(GO) run ./bench/cmd/benchrun -bin $(BIN) -out bench $(BENCHFLAGS)

## soak: several app-servers on one home under load and faults (kill -9,
## SIGSTOP past the V2 lease, a full tmpfs home when root, a torn trust
## file) for 3 minutes, then the invariants; writes bench/SOAK.md, exits 1
## when one fails. SOAKFLAGS='-duration 20m' runs longer.
SOAKFLAGS ?=
soak: build
	$(GO) run ./bench/cmd/soak -bin $(BIN) -out bench/SOAK.md $(SOAKFLAGS)

## soak-smoke: the same for 45 s with 3 s of slack on every deadline (a
## shared machine stalls); report in bin/SOAK-smoke.md
soak-smoke: build
	$(GO) run ./bench/cmd/soak -bin $(BIN) -duration 45s -slack 3s -out bin/SOAK-smoke.md

## fuzz: a short run of every fuzzer (corpora live in testdata/)
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzCompile -fuzztime 20s ./matcher/
	$(GO) test -run '^$$' -fuzz FuzzParse$$ -fuzztime 20s ./output/
	$(GO) test -run '^$$' -fuzz FuzzNearMiss -fuzztime 20s ./output/
	$(GO) test -run '^$$' -fuzz FuzzParseFile -fuzztime 20s ./runner/config/
	$(GO) test -run '^$$' -fuzz FuzzTopLevel -fuzztime 20s ./rpc/
	$(GO) test -run '^$$' -fuzz FuzzMembers -fuzztime 20s ./internal/jsonscan/
	$(GO) test -run '^$$' -fuzz FuzzBuildStdin -fuzztime 20s ./runner/
	$(GO) test -run '^$$' -fuzz FuzzParseShebang -fuzztime 20s ./runner/
	$(GO) test -run '^$$' -fuzz FuzzUnmarshal -fuzztime 20s ./internal/jsonexact/

## mutate: mutation testing of the pure packages with gremlins (pinned;
## fetched from the Go module proxy on first use). Not part of `make test`:
## it runs each package's tests once per mutant (tens of minutes on 2 cores).
## Efficacy = killed / (killed + lived); the target is at least 85%.
GREMLINS     ?= $(GO) run github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
MUTATE_FLAGS ?= --workers 1 --timeout-coefficient 30
# truststore: only the trust evaluation (state.go) is pure.
NOT_STATE_GO := (^|/)([^s]|s[^t]|st[^a]|sta[^t]|stat[^e]|state[^.])[^/]*\.go$$
mutate:
	$(GREMLINS) unleash $(MUTATE_FLAGS) ./output
	$(GREMLINS) unleash $(MUTATE_FLAGS) ./matcher
	$(GREMLINS) unleash $(MUTATE_FLAGS) ./v2bridge/expr
	$(GREMLINS) unleash $(MUTATE_FLAGS) --exclude-files '$(NOT_STATE_GO)' ./truststore

## dist: reproducible release builds for $(DIST_TARGETS): dist/hookside-<version>-<os>-<arch>.tar.gz
## (.zip for Windows) with README.md and LICENSE, dist/SHA256SUMS, and the npm
## platform packages in dist/npm/. Fails, naming it, when a target does not build.
dist:
	$(GO) run ./tools/dist -out dist -targets $(DIST_TARGETS)

## generate: the TypeScript protocol types from the protocol schema, and the
## man pages `hookside man` writes (cmd/hookside/manpages, rendered from the
## command tree: run it after changing a --help text)
generate:
	$(GO) run ./tools/tsgen
	$(GO) test -count=1 -run '^TestManPagesEmbedded$$' ./cmd/hookside -update-man

## check-generated: fail when the committed generated files differ from the
## schema or the command tree
check-generated:
	$(GO) run ./tools/tsgen -check
	$(GO) test -count=1 -run '^TestManPagesEmbedded$$' ./cmd/hookside

## npm-build: compile the main npm package (packages/npm/hookside/src → lib/)
npm-build:
	cd packages/npm/hookside && $(NPM) ci --ignore-scripts --no-audit --no-fund --loglevel=error && ./node_modules/.bin/tsc -p .

## npm-pack: dist for $(NPM_TARGETS) plus the main package, packed into dist/npm/*.tgz
npm-pack: npm-build
	$(GO) run ./tools/dist -out dist -targets $(NPM_TARGETS) -npm-main packages/npm/hookside
	cd dist/npm && for d in */; do (cd "$$d" && $(NPM) pack --ignore-scripts --loglevel=error --pack-destination .. >/dev/null) || exit 1; done

## test-dist: build one target twice, the second time from an empty build
## cache, and require byte-identical artefacts (minutes on 2 cores; more than
## go test's default 10 min timeout on a loaded machine)
test-dist:
	HOOKSIDE_TEST_DIST=1 $(GO) test -count=1 -timeout 40m -run TestDistIsReproducible -v ./tools/dist/

## test-npm: pack every npm package, install them from the tarballs into a
## temporary project, type-check and run packages/npm/example/host.ts end to end
test-npm: npm-pack
	bash packages/npm/test/e2e.sh

clean:
	rm -rf bin dist packages/npm/hookside/lib
