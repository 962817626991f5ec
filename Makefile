# The wazero habit, over the commands README.md gives: `make test` is
# scripts/test (installs the test tools if missing, then go test -race).
GO ?= go
# How long make fuzz runs each fuzz target.
FUZZTIME ?= 10s

.PHONY: test check install fuzz lint

test:
	./scripts/test

check:
	$(GO) run ./cmd/gatectl check -m examples/quickstart/gate.toml

# -buildvcs=true: gatectl --version names the commit it was built from
# even where GOFLAGS says -buildvcs=false.
install:
	$(GO) install -buildvcs=true ./cmd/gatectl

# Every fuzz target of the repository, FUZZTIME each, one after the other
# on one worker (scripts/fuzz); stops at the first that fails.
fuzz:
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz

# What CI checks besides the tests: gofmt, go vet, staticcheck at the
# version CI pins (scripts/lint).
lint:
	./scripts/lint
