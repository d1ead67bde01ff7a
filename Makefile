# Hook Studio. `make run` builds and opens the app; `make test` runs every test.
# Both install whatever is missing first (scripts/setup.sh).
SHELL := /bin/bash
GO_TEST_FLAGS ?= -race -count=1
# Listed, not ./...: frontend/node_modules holds Go files of npm packages.
GO_PKGS := ./app/... ./cmd/...

.PHONY: test test-go test-fuzz-seeds bench hookctl clean

test: test-go

test-go:
	./scripts/setup.sh go
	go vet $(GO_PKGS)
	test -z "$$(gofmt -l app cmd)" || { gofmt -l app cmd; echo "gofmt: files above need formatting"; exit 1; }
	go test $(GO_TEST_FLAGS) $(GO_PKGS)

# Run each fuzzer for a while (CI runs their seed corpus as part of go test).
FUZZTIME ?= 2m
fuzz:
	go test -run='^$$' -fuzz=FuzzParseHooks -fuzztime=$(FUZZTIME) ./app/skills
	go test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./app/jsondoc
	go test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./app/scenario

bench:
	go test -run='^$$' -bench=. -benchmem ./app/...

hookctl:
	go build -o build/bin/hookctl ./cmd/hookctl

clean:
	rm -rf build/bin
