# HybridHost: `make demo` runs the demo app, `make test` runs every test. Both install missing
# system packages first (scripts/install-deps).
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
DEBUG_BIN := .build/debug/hybrid
RELEASE_BIN := .build/release/hybrid
DEMO_DATA ?= $(CURDIR)/.build-demo-data

.PHONY: demo test deps embed build release dts bench clean

deps:
	@scripts/install-deps

embed:
	@python3 scripts/embed-js

build: deps embed
	$(SWIFT) build

release: deps embed
	$(SWIFT) build -c release

demo: release
	$(RELEASE_BIN) run js/apps/demo --data-dir $(DEMO_DATA)

test: deps
	python3 scripts/embed-js --check
	$(SWIFT) build
	$(DEBUG_BIN) contracts check
	$(DEBUG_BIN) contracts dts --output js/types/hybrid.d.ts --check
	$(SWIFT) test
	$(DEBUG_BIN) test js/tests

dts: build
	$(DEBUG_BIN) contracts dts --output js/types/hybrid.d.ts

bench: release
	$(RELEASE_BIN) bench bridge
	$(RELEASE_BIN) bench startup

clean:
	rm -rf .build .build-demo-data
