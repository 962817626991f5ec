# The wazero habit, over the commands README.md gives: `make test` is
# scripts/test (installs the test tools if missing, then go test -race).
GO ?= go

.PHONY: test check install

test:
	./scripts/test

check:
	$(GO) run ./cmd/gatectl check -m examples/quickstart/gate.toml

install:
	$(GO) install ./cmd/gatectl
