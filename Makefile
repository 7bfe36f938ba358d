# FakeNFT for the terminal. `make run` and `make test` install what they need first.
PREFIX ?= /usr/local
SWIFT ?= swift
RELEASE_BIN = .build/release/fakenft
DEBUG_BIN = .build/debug/fakenft

.PHONY: deps build run test bench install clean

deps:
	@./scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product fakenft

run: build
	$(RELEASE_BIN) $(ARGS)

# End-to-end tests drive the debug binary in tmux, so it is built before the test run.
test: deps
	$(SWIFT) build --product fakenft
	FAKENFT_BIN=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test

bench: deps
	$(SWIFT) build -c release --product fakenft
	$(SWIFT) build -c release --product fakenft-bench
	.build/release/fakenft-bench

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/fakenft

clean:
	rm -rf .build
