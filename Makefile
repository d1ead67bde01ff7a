# Hook Studio. `make run` builds and opens the app; `make test` runs every test.
# Both install whatever is missing first (scripts/setup.sh).
SHELL := /bin/bash
GO_TEST_FLAGS ?= -race -count=1
# Listed, not ./...: frontend/node_modules holds Go files of npm packages.
GO_PKGS := ./app/... ./cmd/... ./skills/...
GOBIN := $(shell go env GOPATH)/bin

.PHONY: run test test-go test-frontend test-e2e frontend build build-dev hookctl fuzz bench clean

run: build
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "no display: starting under xvfb-run (install a desktop session to see the window)"; \
	  exec xvfb-run -a ./build/bin/hookstudio; \
	fi; exec ./build/bin/hookstudio

test: test-go test-thirdparty test-frontend test-e2e

# The runs against @dwmkerr/mock-llm, a third-party OpenAI-compatible server
# (a frontend devDependency): test-go skips them without frontend/node_modules,
# here they are required, so a fresh clone runs them too.
.PHONY: test-thirdparty
test-thirdparty:
	./scripts/setup.sh go frontend
	HOOKSTUDIO_REQUIRE_MOCK_LLM=1 go test $(GO_TEST_FLAGS) -run 'MockLLM' ./app/llm ./cmd/hookctl

test-go:
	./scripts/setup.sh go
	go vet $(GO_PKGS)
	@test -z "$$(gofmt -l app cmd skills main.go)" || { gofmt -l app cmd skills main.go; echo "gofmt: the files above need formatting"; exit 1; }
	go test $(GO_TEST_FLAGS) $(GO_PKGS)

# The lock check fails when package-lock.json drifts from package.json or loses
# another platform's native bundler packages (README, "The lockfile").
test-frontend:
	./scripts/setup.sh frontend
	node scripts/check-lockfile.mjs frontend
	cd frontend && npm ci --dry-run --no-audit --no-fund --loglevel=error >/dev/null
	cd frontend && npm run typecheck && npm run lint && npm test

frontend:
	./scripts/setup.sh frontend
	cd frontend && npm run build

# The production binary, as `wails build` makes it (without packaging).
build: frontend
	./scripts/setup.sh go desktop
	go build -tags desktop,production -ldflags "-w -s" -o build/bin/hookstudio .

# The dev binary serves frontend/dist and the IPC on a local port, for browser tests.
build-dev: frontend
	./scripts/setup.sh go desktop
	go build -tags dev -o build/bin/hookstudio-dev .

test-e2e: build build-dev
	./scripts/setup.sh e2e
	cd frontend && xvfb-run -a -s "-screen 0 1440x900x24 -nolisten tcp" node --test --test-concurrency=1 e2e/*.e2e.mjs

hookctl:
	go build -o build/bin/hookctl ./cmd/hookctl

# Run each fuzzer for a while (CI runs their seed corpus as part of go test).
FUZZTIME ?= 2m
fuzz:
	go test -run='^$$' -fuzz=FuzzParseHooks -fuzztime=$(FUZZTIME) ./app/skills
	go test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./app/jsondoc
	go test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./app/scenario

bench:
	go test -run='^$$' -bench=. -benchmem $(GO_PKGS)

clean:
	rm -rf build/bin
