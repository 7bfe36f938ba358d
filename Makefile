# FakeNFT for the terminal. `make run` and `make test` install what they need first: `make run`
# the libraries of the build and the app only, `make test` the test tools as well.
PREFIX ?= /usr/local
SWIFT ?= swift
# Every build resolves the versions pinned in Package.resolved, never newer ones.
SWIFT_BUILD = $(SWIFT) build --force-resolved-versions
RELEASE_BIN = .build/release/fakenft
# `make fuzz FUZZ_TIME=3600` fuzzes longer; `make fuzz-api EXAMPLES=3000` sends more cases.
FUZZ_TIME ?= 60
FUZZ_FLAGS = --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
	-Xswiftc -DFUZZING -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld

.PHONY: deps test-deps build run test format fuzz fuzz-api bench bench-server bench-cluster man install clean

deps:
	@./scripts/install-deps.sh app

test-deps:
	@./scripts/install-deps.sh test
	@./scripts/python-tools.sh

build: deps
	$(SWIFT_BUILD) -c release --product fakenft

run: build
	$(RELEASE_BIN) $(ARGS)

# Everything is built once, optimized and testable (-enable-testing): in-process test servers
# are stopped by cancelling them, and a debug build of swift-nio traps when that races a
# connection being accepted (apple/swift-nio#3481). End-to-end tests drive the same binary in
# tmux. A PostgreSQL cluster of the tests' own runs throughout (scripts/with-postgres.sh): the
# several-servers tests use it, and the server suite runs a second time with PostgreSQL as its store.
# Then the request parsers replay the fuzzing corpus and schemathesis fuzzes the server. First of all,
# the sources must be formatted (`make format`).
# A build folder of its own, so that `make run` and `make bench` do not rebuild after it.
TEST_FLAGS = -c release -Xswiftc -enable-testing --scratch-path .build-test
TEST_BIN = .build-test/release/fakenft
test: test-deps
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift
	$(SWIFT_BUILD) $(TEST_FLAGS) --build-tests
	FAKENFT_BIN=$(CURDIR)/$(TEST_BIN) ./scripts/with-postgres.sh sh -c '$(SWIFT) test $(TEST_FLAGS) --skip-build && \
		FAKENFT_TEST_STORE=postgres $(SWIFT) test $(TEST_FLAGS) --skip-build --filter FakeNFTServerTests'
	.build-test/release/fakenft-fuzz Tests/Fuzz/corpus/*
	./scripts/schemathesis.sh $(TEST_BIN)

# Formats the sources as .swift-format says (swift-format comes with the toolchain); `make test`
# fails on code that is not formatted so.
format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests Package.swift

# libFuzzer on the request parsers for FUZZ_TIME seconds; new inputs join Tests/Fuzz/corpus.
fuzz: test-deps
	$(SWIFT_BUILD) --product fakenft-fuzz $(FUZZ_FLAGS)
	mkdir -p .build-fuzz/corpus
	cd .build-fuzz && ./debug/fakenft-fuzz -max_total_time=$(FUZZ_TIME) -dict=../Tests/Fuzz/requests.dict \
		corpus ../Tests/Fuzz/corpus

# schemathesis against the server, with EXAMPLES cases per operation (default 300).
fuzz-api: test-deps
	$(SWIFT_BUILD) -c release --product fakenft
	./scripts/schemathesis.sh $(RELEASE_BIN)

bench: test-deps
	$(SWIFT_BUILD) -c release --product fakenft
	$(SWIFT_BUILD) -c release --product fakenft-bench
	.build/release/fakenft-bench
	./scripts/bench-startup.py $(RELEASE_BIN) 20
	./scripts/bench-server.sh $(RELEASE_BIN)
	./scripts/with-postgres.sh ./scripts/bench-cluster.sh $(RELEASE_BIN)

bench-server: test-deps
	$(SWIFT_BUILD) -c release --product fakenft
	./scripts/bench-server.sh $(RELEASE_BIN)

# Two servers on one PostgreSQL behind nginx under wrk for DURATION seconds (default 60), then
# every acknowledged write checked in the database (docs/deploy.md's set-up).
bench-cluster: test-deps
	$(SWIFT_BUILD) -c release --product fakenft
	./scripts/with-postgres.sh ./scripts/bench-cluster.sh $(RELEASE_BIN)

# The man page, generated from the same declarations as --help (swift-argument-parser's plugin).
man:
	mkdir -p .build/manual
	$(SWIFT) package --allow-writing-to-directory .build/manual generate-manual --output-directory .build/manual

install: build man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/fakenft
	install -m 644 .build/manual/fakenft.1 $(DESTDIR)$(PREFIX)/share/man/man1/fakenft.1

clean:
	rm -rf .build .build-fuzz .venv
