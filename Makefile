# hookside — every install and build step lives here (README quick start:
# `make demo`, `make test`).
GO       ?= go
BIN      := bin/hookside
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)

.PHONY: all deps build demo test vet unit conformance cross test-windows bench fuzz mutate clean

all: build

deps:
	$(GO) mod download

build: deps
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/hookside

## demo: build, then play a host session over real pipes against examples/
demo: build
	$(GO) run ./examples/demo -bin $(BIN) -examples examples

## test: go vet + unit tests with the race detector + the conformance suite
test: deps vet unit conformance

vet:
	$(GO) vet ./...

unit:
	$(GO) test -race -count=1 $$($(GO) list ./... | grep -v /conformance)

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

## bench: hookside side by side with the spawn floor and a Node.js runner,
## interleaved, over real pipes (a few minutes on 2 cores; writes
## bench/RESULTS.md and bench/results.json). The Go micro-benchmarks stay
## runnable with `go test -bench . ./...`.
bench: build
	$(GO) run ./bench/cmd/benchrun -bin $(BIN) -out bench

## fuzz: a short run of every fuzzer (corpora live in testdata/)
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzCompile -fuzztime 20s ./matcher/
	$(GO) test -run '^$$' -fuzz FuzzParse$$ -fuzztime 20s ./output/
	$(GO) test -run '^$$' -fuzz FuzzParseFile -fuzztime 20s ./runner/config/
	$(GO) test -run '^$$' -fuzz FuzzTopLevel -fuzztime 20s ./rpc/
	$(GO) test -run '^$$' -fuzz FuzzMembers -fuzztime 20s ./internal/jsonscan/
	$(GO) test -run '^$$' -fuzz FuzzBuildStdin -fuzztime 20s ./runner/

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

clean:
	rm -rf bin
