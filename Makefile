# PayHandoff — build, test and demo.
#   make demo   runs the demo on built-in sample data
#   make test   runs every test (installs missing Debian packages first)
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
SWIFT ?= swift
EMBEDDED_TARGET ?= x86_64-unknown-linux-gnu
APT_PACKAGES := libcjson-dev pkg-config
CORE_SOURCES := $(shell find Sources/PayHandoff -name '*.swift' | sort)

.PHONY: all bootstrap build demo test embedded-check vectors-check swift-test clean

all: build

bootstrap:
	@scripts/bootstrap.sh $(APT_PACKAGES)
	@command -v node >/dev/null || scripts/bootstrap.sh nodejs

build: bootstrap
	$(SWIFT) build

demo: bootstrap
	@$(SWIFT) build --product payhandoff >/dev/null
	@$$($(SWIFT) build --show-bin-path)/payhandoff demo

# The core must stay inside the Embedded Swift subset (no Codable, existentials, reflection):
# compiling it in Embedded mode here makes a regression fail the test run.
embedded-check:
	@mkdir -p .build/embedded
	swiftc -enable-experimental-feature Embedded -wmo -parse-as-library -Osize \
	  -target $(EMBEDDED_TARGET) -module-name PayHandoff \
	  -c $(CORE_SOURCES) -o .build/embedded/PayHandoff.o
	@echo "embedded-check: Sources/PayHandoff compiles as Embedded Swift ($$(stat -c %s .build/embedded/PayHandoff.o) bytes of object code)"

# The shared vectors are generated from readable case tables by an independent Python oracle;
# this fails when a JSON file and its generator disagree.
vectors-check:
	@for g in Tests/Vectors/tools/*_vectors.py; do python3 "$$g" --check; done
	@echo "vectors-check: WHATWG URLSearchParams (node) vs the checkout callback vectors"
	@node Tests/Vectors/tools/urlsearchparams_check.mjs

swift-test:
	$(SWIFT) test --disable-swift-testing

# Ends with XCTest's own summary line ("Executed N tests, with 0 failures …").
test: bootstrap embedded-check vectors-check swift-test

clean:
	rm -rf .build dist
