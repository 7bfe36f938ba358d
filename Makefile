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

.PHONY: deps test-deps build run test format fuzz fuzz-api bench bench-server bench-cluster bench-large bench-ssh man \
	install check-install dist clean

deps:
	@./scripts/install-deps.sh app

test-deps:
	@./scripts/install-deps.sh test
	@./scripts/python-tools.sh

# The Swift runtime and Foundation are linked in: the binary starts faster (fewer libraries to
# load) and runs where the toolchain is not installed.
RELEASE_BUILD = $(SWIFT_BUILD) -c release --static-swift-stdlib
build: deps
	$(RELEASE_BUILD) --product fakenft

run: build
	$(RELEASE_BIN) $(ARGS)

# Everything is built once, optimized and testable (-enable-testing): in-process test servers
# are stopped by cancelling them, and a debug build of swift-nio traps when that races a
# connection being accepted (apple/swift-nio#3481). End-to-end tests drive the same binary in
# tmux. A PostgreSQL cluster of the tests' own runs throughout (scripts/with-postgres.sh): the
# several-servers tests use it, and the server suite runs a second time with PostgreSQL as its store.
# Then the request parsers replay the fuzzing corpus and schemathesis fuzzes the server. First of all,
# the sources must be formatted (`make format`) and no line may be over 120 characters (the
# formatter cannot break a string literal).
# A build folder of its own, so that `make run` and `make bench` do not rebuild after it.
TEST_FLAGS = -c release -Xswiftc -enable-testing --scratch-path .build-test
TEST_BIN = .build-test/release/fakenft
test: test-deps
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift
	@if LC_ALL=C.UTF-8 grep -rn --include='*.swift' '.\{121,\}' Sources Tests Package.swift; then \
		echo "lines over 120 characters (above): break them, string literals too"; exit 1; fi
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
	$(RELEASE_BUILD) --product fakenft
	./scripts/schemathesis.sh $(RELEASE_BIN)

# The app's figures go through the gate (scripts/bench-gate.py): REGRESSED where one is more
# than 20% above docs/bench-figures.tsv; `make bench RECORD=1` records this run's there instead.
bench: test-deps
	$(RELEASE_BUILD) --product fakenft
	$(RELEASE_BUILD) --product fakenft-bench
	{ .build/release/fakenft-bench && ./scripts/bench-startup.py $(RELEASE_BIN) 20; } \
		| ./scripts/bench-gate.py $(if $(RECORD),--record) docs/bench-figures.tsv
	./scripts/bench-server.sh $(RELEASE_BIN)
	./scripts/with-postgres.sh ./scripts/bench-cluster.sh $(RELEASE_BIN)
	FAKENFT_TEST_POSTGRES_FSYNC=on ./scripts/with-postgres.sh ./scripts/bench-durable.sh $(RELEASE_BIN)
	./scripts/with-postgres.sh ./scripts/bench-large.sh $(RELEASE_BIN)
	./scripts/bench-ssh.py $(RELEASE_BIN)

bench-server: test-deps
	$(RELEASE_BUILD) --product fakenft
	$(RELEASE_BUILD) --product fakenft-bench
	./scripts/bench-server.sh $(RELEASE_BIN)

# Two servers on one PostgreSQL behind nginx under wrk for DURATION seconds (default 20), then
# every acknowledged write checked in the database (docs/deploy.md's set-up); then writes with
# PostgreSQL flushing every commit (fsync on) beside pgbench on the same cluster, and through
# two crashes of PostgreSQL under writes (nothing acknowledged may be lost).
bench-cluster: test-deps
	$(RELEASE_BUILD) --product fakenft
	./scripts/with-postgres.sh ./scripts/bench-cluster.sh $(RELEASE_BIN)
	FAKENFT_TEST_POSTGRES_FSYNC=on ./scripts/with-postgres.sh ./scripts/bench-durable.sh $(RELEASE_BIN)

# One server on USERS users and NFTS NFTs (100000 and 1000000), on SQLite and PostgreSQL: seed
# and start-up times, memory per user and per NFT, a users page and an NFT by id under wrk.
bench-large: test-deps
	$(RELEASE_BUILD) --product fakenft
	./scripts/with-postgres.sh ./scripts/bench-large.sh $(RELEASE_BIN)

# The shop over SSH beside OpenSSH's sshd running the same app (ForceCommand) against the same server:
# connect to the catalog, a key's echo, memory and CPU of idle sessions, sessions held (as root: sshd).
bench-ssh: test-deps
	$(RELEASE_BUILD) --product fakenft
	./scripts/bench-ssh.py $(RELEASE_BIN)

# The man page and the shell completions, generated by the release binary from the same
# declarations as --help (no second build).
man: build
	mkdir -p .build/manual
	./scripts/manual.py $(RELEASE_BIN) .build/manual/fakenft.1
	$(RELEASE_BIN) --generate-completion-script bash > .build/manual/fakenft.bash
	$(RELEASE_BIN) --generate-completion-script zsh > .build/manual/_fakenft
	$(RELEASE_BIN) --generate-completion-script fish > .build/manual/fakenft.fish

# A stripped binary with the Swift runtime and Foundation linked in (it runs without the
# toolchain: only Debian's libraries, which `make run` installs), its man page and completions.
install: man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 -s $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/fakenft
	install -m 644 .build/manual/fakenft.1 $(DESTDIR)$(PREFIX)/share/man/man1/fakenft.1
	install -m 644 .build/manual/fakenft.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/fakenft
	install -m 644 .build/manual/_fakenft $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_fakenft
	install -m 644 .build/manual/fakenft.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/fakenft.fish

# Installs into a scratch folder and checks that the result stands alone (scripts/check-install.sh).
check-install: deps
	./scripts/check-install.sh

# A tarball of that install (PREFIX /usr/local), in .build/dist.
dist:
	rm -rf .build/dist/root
	$(MAKE) install DESTDIR=$(CURDIR)/.build/dist/root PREFIX=/usr/local
	tar -C .build/dist/root -czf .build/dist/fakenft-$$($(RELEASE_BIN) --version)-linux-$$(uname -m).tar.gz usr

clean:
	rm -rf .build .build-fuzz .venv
