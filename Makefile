# HybridHost: `make demo` runs the demo app, `make test` runs every test. Both install missing
# system packages first (scripts/install-deps).
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
DEBUG_BIN := .build/debug/hybrid
RELEASE_BIN := .build/release/hybrid
BENCH_BIN := .build/release/hybrid-bench
DEMO_DATA ?= $(CURDIR)/.build-demo-data
# Fuzzing: seconds per target for `make fuzz`; `make test` runs each target briefly, with a fixed
# seed (scripts/fuzz), so that its result does not change from run to run.
FUZZ_SECONDS ?= 60
FUZZ_TEST_SECONDS ?= 10
FUZZ_BIN := .build/fuzz/debug/hybrid-fuzz

# The soak: seconds for `make soak` (make test runs 60), and the hybrid it runs.
SOAK_SECONDS ?= 300
SOAK_BIN ?= $(DEBUG_BIN)
# Where `make soak` leaves its RSS samples (seconds,MB) and their plot (scripts/plot-soak).
SOAK_SAMPLES ?= .build/soak-rss.csv
SOAK_HEAP ?= .build/soak-heap.jsonl
SOAK_PLOT ?= .build/soak-rss.png

.PHONY: demo test deps build release deb dts bench fuzz fuzz-build soak clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

# Swift's runtime and Foundation linked statically: 30% faster start-up and 4 MiB less resident
# than loading them as shared libraries (hybrid-bench startup).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product hybrid

# The Debian packages, hybrid_VERSION-1_ARCH.deb and its -dbgsym, in .build/deb (scripts/make-deb:
# the binary stripped, Depends from what it links, completions, man pages, the sync server's unit).
deb: release
	scripts/make-deb --binary .build/release/hybrid --out .build/deb

# Each demo starts from a fresh data dir, so it shows the whole story (scripts/demo): a sync
# server and a patch server run beside the app, with fresh secrets, and stop with it; the demo's
# users and devices get their tokens from `hybrid sync-server token` and `hybrid patch-server
# token`, as they would from the app's auth server. The bug, the signed fix published to half the
# devices and swapped into the running app, the rollout raised, a bad patch rolled back by the
# devices and halted by the server.
demo: release
	scripts/demo $(RELEASE_BIN) $(DEMO_DATA)

# The tests run beside a throwaway PostgreSQL cluster (scripts/with-postgres), so that the sync
# server's and the patch server's tests run against both of their stores; the cluster is removed
# however they end.
# scripts/wpt checks the web-platform-tests subset against Tests/WebPlatformTests/expectations.json.
# The Swift tests take 2 to 6 minutes; scripts/with-deadline stops a run that hangs at SWIFT_TEST_SECONDS
# and names the tests still running, instead of leaving it to CI's limit.
SWIFT_TEST_SECONDS ?= 1500
# A crash ends at once, with the signal, instead of waiting on Swift's backtracer: on this kind of
# machine swift-backtrace can hang (it held a crashed hybrid, and the test waiting for it, for 10
# minutes and more).
test: export SWIFT_BACKTRACE = enable=no
test: deps
	SWIFT=$(SWIFT) scripts/check-imports
	$(SWIFT) build --explicit-target-dependency-import-check=error
	$(DEBUG_BIN) contracts check
	$(DEBUG_BIN) contracts dts --output js/types/hybrid.d.ts --check
	scripts/fuzz-sync-server $(DEBUG_BIN)
	scripts/fuzz-patch-server $(DEBUG_BIN)
	scripts/with-postgres scripts/with-deadline $(SWIFT_TEST_SECONDS) $(SWIFT) test --explicit-target-dependency-import-check=error
	$(DEBUG_BIN) test js/tests
	Tests/DebugAdapter/dap_client.py $(DEBUG_BIN)
	scripts/wpt --self-test
	scripts/wpt --runtime hybrid --hybrid $(DEBUG_BIN) --quiet
	Tests/ViewsTests/tmux-interactive.sh $(DEBUG_BIN)
	Tests/HybridHostTests/tmux-repl.sh $(DEBUG_BIN)
	Tests/DebugAdapter/tmux-debug.sh $(DEBUG_BIN)
	scripts/check-deb $(DEBUG_BIN)
	scripts/soak --self-test
	scripts/soak $(DEBUG_BIN) --seconds 60
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_TEST_SECONDS) FUZZ_SEED=1

dts: build
	$(DEBUG_BIN) contracts dts --output js/types/hybrid.d.ts

# The benchmarks are an executable of their own, built beside the release `hybrid` they measure.
# The sync server's over PostgreSQL run beside a throwaway cluster (scripts/with-postgres), each in
# one of its own; sync-server starts release `hybrid sync-server serve` processes (about 3 minutes);
# idle-connections holds 20,000 connections against one (about 2 minutes); web runs the files of
# Benchmarks/web/ under hybrid run and node (needs node and python3; about 2 minutes).
bench: release
	$(SWIFT) build -c release --static-swift-stdlib --product hybrid-bench
	$(BENCH_BIN) bridge
	$(BENCH_BIN) schema
	$(BENCH_BIN) startup
	$(BENCH_BIN) modules
	$(BENCH_BIN) storage
	$(BENCH_BIN) view
	$(BENCH_BIN) patch
	$(BENCH_BIN) network
	$(BENCH_BIN) sync
	$(BENCH_BIN) sync-scopes
	$(BENCH_BIN) watch
	$(BENCH_BIN) web
	scripts/with-postgres $(BENCH_BIN) sync-postgres
	scripts/with-postgres $(BENCH_BIN) sync-server
	$(BENCH_BIN) idle-connections

# The fuzzing build: hybrid-fuzz and every Swift module it links instrumented for libFuzzer and
# AddressSanitizer, in a build folder of its own (its flags differ from every other build's).
fuzz-build: deps
	$(SWIFT) build --scratch-path .build/fuzz --product hybrid-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DHYBRID_FUZZING

# Each target for FUZZ_SECONDS from its seed corpus; prints executions per target, fails on a
# crash, a finding, a timeout or running out of memory, with the input saved (scripts/fuzz).
fuzz: fuzz-build
	scripts/fuzz $(FUZZ_BIN) $(FUZZ_SECONDS)

# The soak (scripts/soak): js/apps/soak's mixed workload for SOAK_SECONDS against a local server,
# with a signed patch dropped every 3 s; fails on RSS still growing past its warm-up plateau, a
# call unanswered, a crash or a patch not applied. The debug build by default: its thread checks
# are on. `make soak SOAK_BIN=.build/release/hybrid` soaks a release build made beforehand. The
# RSS samples go to SOAK_SAMPLES and the engine's heap figures (HYBRID_HEAP_STATS) to SOAK_HEAP;
# scripts/plot-soak draws both into SOAK_PLOT (a PNG, with RSS at 5, 30 and 60 minutes and the
# second half's growth printed beside it).
soak: build
	scripts/soak $(SOAK_BIN) --seconds $(SOAK_SECONDS) --samples $(SOAK_SAMPLES) --heap-stats $(SOAK_HEAP)
	scripts/plot-soak $(SOAK_SAMPLES) $(SOAK_PLOT) --heap $(SOAK_HEAP)

clean:
	rm -rf .build .build-demo-data
