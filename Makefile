# Hook Studio. `make run` builds and opens the app; `make test` runs every test.
# Both install whatever is missing first (scripts/setup.sh).
SHELL := /bin/bash
GO_TEST_FLAGS ?= -race -count=1 -timeout 30m
# Build tags of every build and test: SQLite's full-text search (FTS5, the search across runs
# and sessions: docs/search.md). Kept apart from GO_TEST_FLAGS so overriding those keeps them;
# a build without them says "this build has no full-text search" when searched.
GO_TAGS := sqlite_fts5
# Listed, not ./...: frontend/node_modules holds Go files of npm packages.
GO_PKGS := ./app/... ./cmd/... ./skills/...
GOBIN := $(shell go env GOPATH)/bin

# Stamped into every binary (app/platform/version): wails.json's productVersion, which
# is also the Windows and macOS bundle version; `make release VERSION=1.2.3`.
VERSION ?= $(shell sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' wails.json)
COMMIT ?= $(shell c=$$(git rev-parse --short=7 HEAD 2>/dev/null) && { git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; echo $$c; })
DATE ?= $(shell date -u +%Y-%m-%d)
LDFLAGS := -X hookstudio/app/platform/version.Version=$(VERSION) -X hookstudio/app/platform/version.Commit=$(COMMIT) -X hookstudio/app/platform/version.Date=$(DATE)
# Windows: cgo (SQLite) through Debian's mingw-w64.
WIN_ENV := CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ GOOS=windows GOARCH=amd64

.PHONY: run test test-go test-frontend test-e2e test-windows frontend bindings build build-dev hookctl screenshots \
	release release-linux release-windows release-hookctl fuzz bench clean

run: build
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "no display: starting under xvfb-run (install a desktop session to see the window)"; \
	  exec xvfb-run -a ./build/bin/hookstudio; \
	fi; exec ./build/bin/hookstudio

test: test-go test-thirdparty test-agents test-frontend test-e2e test-windows

# The runs against @dwmkerr/mock-llm, a third-party OpenAI-compatible server
# (a frontend devDependency): test-go skips them without frontend/node_modules,
# here they are required, so a fresh clone runs them too.
.PHONY: test-thirdparty
test-thirdparty:
	./scripts/setup.sh go frontend
	HOOKSTUDIO_REQUIRE_MOCK_LLM=1 go test -tags $(GO_TAGS) $(GO_TEST_FLAGS) -run 'MockLLM' ./app/agent/llm ./cmd/hookctl

# The real agents against hookctl capture: Claude Code's CLI (offline, a
# throw-away HOME, a project's hooks) and the official OpenAI client, from
# tools/agents (their own npm folder; never the app's dependencies).
.PHONY: test-agents
test-agents:
	./scripts/setup.sh go agents
	HOOKSTUDIO_REQUIRE_AGENTS=1 go test -tags $(GO_TAGS) $(GO_TEST_FLAGS) -run 'RealAgent' ./cmd/hookctl

test-go:
	./scripts/setup.sh go
	go vet -tags $(GO_TAGS) $(GO_PKGS)
	@test -z "$$(gofmt -l app cmd skills main.go)" || { gofmt -l app cmd skills main.go; echo "gofmt: the files above need formatting"; exit 1; }
	go test -tags $(GO_TAGS) $(GO_TEST_FLAGS) -skip 'RealAgent' $(GO_PKGS)

# The lock check fails when package-lock.json drifts from package.json or loses
# another platform's native bundler packages (README, "The lockfile"); the bindings
# check when frontend/wailsjs is not what the bound Go types generate.
test-frontend:
	./scripts/setup.sh go wails frontend
	./scripts/bindings.sh --check
	node scripts/check-lockfile.mjs frontend
	cd frontend && npm ci --dry-run --no-audit --no-fund --loglevel=error >/dev/null
	cd frontend && npm run typecheck && npm run lint && npm test

# frontend/wailsjs from the bound Go types, as `wails build` does before it builds.
bindings:
	./scripts/setup.sh go wails
	./scripts/bindings.sh

frontend: bindings
	./scripts/setup.sh frontend
	cd frontend && npm run build

# The production binary, as `wails build` makes it (without packaging).
build: frontend
	./scripts/setup.sh go desktop
	go build -tags desktop,production,$(GO_TAGS) -ldflags "-w -s $(LDFLAGS)" -o build/bin/hookstudio .

# The dev binary serves frontend/dist and the IPC on a local port, for browser tests.
build-dev: frontend
	./scripts/setup.sh go desktop
	go build -tags dev,$(GO_TAGS) -ldflags "$(LDFLAGS)" -o build/bin/hookstudio-dev .

test-e2e: build build-dev hookctl
	./scripts/setup.sh e2e agents
	cd frontend && xvfb-run -a -s "-screen 0 1440x900x24 -nolisten tcp" node --test --test-concurrency=1 e2e/*.e2e.mjs

# Flakes show under load: the Go suite five times and the e2e suite three
# times, each beside a CPU hog on every core (busy loops the target starts and
# stops). Not part of `make test`; run it before relying on a new test.
STRESS_COUNT ?= 5
STRESS_E2E ?= 3
.PHONY: test-stress
test-stress: build build-dev hookctl
	./scripts/setup.sh go frontend e2e agents
	@set -e; hogs=""; for i in $$(seq $$(nproc)); do (while :; do :; done) & hogs="$$hogs $$!"; done; \
	trap 'kill $$hogs 2>/dev/null' EXIT; \
	go test -tags $(GO_TAGS) -race -timeout 60m -count=$(STRESS_COUNT) -skip 'RealAgent' $(GO_PKGS); \
	HOOKSTUDIO_REQUIRE_AGENTS=1 go test -tags $(GO_TAGS) -race -timeout 60m -count=$(STRESS_COUNT) -run 'RealAgent' ./cmd/hookctl; \
	for i in $$(seq $(STRESS_E2E)); do \
	  echo "e2e under load: round $$i of $(STRESS_E2E)"; \
	  (cd frontend && xvfb-run -a -s "-screen 0 1440x900x24 -nolisten tcp" node --test --test-concurrency=1 e2e/*.e2e.mjs); \
	done

# The README's screenshots (docs/screenshots), taken by the e2e tests at 1280×800.
screenshots: build build-dev hookctl
	./scripts/setup.sh e2e agents
	cd frontend && HOOKSTUDIO_SCREENSHOTS=$(CURDIR)/docs/screenshots xvfb-run -a -s "-screen 0 1440x900x24 -nolisten tcp" node --test --test-concurrency=1 e2e/*.e2e.mjs

hookctl:
	go build -tags $(GO_TAGS) -ldflags "$(LDFLAGS)" -o build/bin/hookctl ./cmd/hookctl

# Everything that can be built here, into build/bin (README, "Releases").
release: release-linux release-windows release-hookctl
	@cd build/bin && ls -l hookstudio hookstudio.exe hookstudio_*.deb hookctl-*
	go test -count=1 -run TestReleaseBinaries ./app/platform/version -args -release=$(CURDIR)/build/bin -want-version=$(VERSION) -want-commit=$(COMMIT)

# The Windows cross-builds (app and hookctl), checked by their PE headers and
# imports, so that `make test` notices a broken cross-build.
test-windows: release-windows
	$(WIN_ENV) go build -tags $(GO_TAGS) -ldflags "-s -w $(LDFLAGS)" -o build/bin/hookctl-windows-amd64.exe ./cmd/hookctl
	go test -count=1 -run TestReleaseBinaries ./app/platform/version -args -release=$(CURDIR)/build/bin \
	  -artifacts=hookstudio.exe,hookctl-windows-amd64.exe -want-version=$(VERSION) -want-commit=$(COMMIT)

# The Linux desktop app and a .deb with it and hookctl.
release-linux: build release-hookctl
	./scripts/setup.sh release
	./scripts/package-deb.sh $(VERSION) build/bin/hookstudio build/bin/hookctl-linux-amd64 build/bin/hookstudio_$(VERSION)_amd64.deb

# The Windows desktop app, cross-compiled: WebView2 through go-webview2 (pure
# Go), SQLite through mingw-w64; icon, manifest and version info from
# build/windows/hookstudio.rc, linked in as a .syso for this one build.
release-windows: frontend
	./scripts/setup.sh go windows
	syso=zz_hookstudio_windows_amd64.syso; trap 'rm -f $$syso' EXIT; \
	./scripts/windows-resources.sh $(VERSION) $$syso && \
	$(WIN_ENV) go build -tags desktop,production,$(GO_TAGS) -ldflags "-w -s -H windowsgui $(LDFLAGS)" -o build/bin/hookstudio.exe .

# hookctl for every platform the toolchains here reach. macOS has no C cross
# compiler here: those builds are without cgo, so without the run history
# (hookctl says so); build on a Mac for one with it (README, "Releases").
release-hookctl:
	./scripts/setup.sh go release
	CGO_ENABLED=1 GOOS=linux GOARCH=amd64 go build -tags $(GO_TAGS) -ldflags "-s -w $(LDFLAGS)" -o build/bin/hookctl-linux-amd64 ./cmd/hookctl
	CGO_ENABLED=1 CC=aarch64-linux-gnu-gcc GOOS=linux GOARCH=arm64 go build -tags $(GO_TAGS) -ldflags "-s -w $(LDFLAGS)" -o build/bin/hookctl-linux-arm64 ./cmd/hookctl
	$(WIN_ENV) go build -tags $(GO_TAGS) -ldflags "-s -w $(LDFLAGS)" -o build/bin/hookctl-windows-amd64.exe ./cmd/hookctl
	CGO_ENABLED=0 GOOS=darwin GOARCH=amd64 go build -tags $(GO_TAGS) -ldflags "-s -w $(LDFLAGS)" -o build/bin/hookctl-darwin-amd64 ./cmd/hookctl
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 go build -tags $(GO_TAGS) -ldflags "-s -w $(LDFLAGS)" -o build/bin/hookctl-darwin-arm64 ./cmd/hookctl

# Run each fuzzer for a while (CI runs their seed corpus as part of go test).
FUZZTIME ?= 2m
fuzz:
	go test -run='^$$' -fuzz=FuzzParseHooks -fuzztime=$(FUZZTIME) ./app/hooks/skills
	go test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./app/format/jsondoc
	go test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./app/agent/scenario

bench:
	go test -tags $(GO_TAGS) -run='^$$' -bench=. -benchmem $(GO_PKGS)

clean:
	rm -rf build/bin
