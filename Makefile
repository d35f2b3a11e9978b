# PayHandoff — build, test and demo. `make help` lists every target (this header and mk/*.mk's).
#   make demo            runs the demo on built-in sample data
#   make test            runs every test (installs missing Debian packages first)
#   make lib             builds the C ABI library twice into dist/ (full Swift runtime, Embedded Swift)
#   make embedded-check  compiles the core and the C ABI as Embedded Swift (fails on anything outside the subset)
#   make vectors-check   the shared vectors equal what their Python generators write; URLSearchParams agrees
#   make abi-check       exported symbols, abi/symbols.txt and the header agree (scripts/abi_check.sh)
#   make c-harness       the C harness over the vectors against both libraries, and under valgrind
#   make swift-test      XCTest (core, Foundation, CLI, doctor, the C harness in-process)
#   make clean           removes .build and dist
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
SWIFT ?= swift
EMBEDDED_TARGET ?= x86_64-unknown-linux-gnu
APT_PACKAGES := libcjson-dev pkg-config valgrind
CORE_SOURCES := $(shell find Sources/PayHandoff -name '*.swift' | sort)
ABI_SOURCES := $(shell find Sources/PayHandoffABI -name '*.swift' | sort)
CC ?= cc
CXX ?= c++
STRIP ?= strip
# The core and the ABI compiled as one Embedded Swift module; PAYHANDOFF_SINGLE_MODULE drops
# the ABI's `import PayHandoff` (there is no separate core module then).
EMBEDDED_FLAGS := -enable-experimental-feature Embedded -wmo -parse-as-library -Osize \
  -target $(EMBEDDED_TARGET) -module-name PayHandoff -D PAYHANDOFF_SINGLE_MODULE -I Sources/CcJSON -Xcc -fPIC
# Nehalem (x86-64-v2: SSE4.2, what Android's x86_64 ABI requires anyway) lets LLVM round
# doubles inline (roundsd) where the standard library sizes hash tables; with plain x86-64 it
# calls ceil/trunc and the library would need libm besides libc and libcjson.
EMBEDDED_CPU ?= nehalem
# One section per function and data object, and the linker drops every section no exported
# function reaches (with the version script, only payhandoff_* are roots): -37 KB stripped.
EMBEDDED_LINK_FLAGS ?= -Xfrontend -function-sections -Xlinker --gc-sections
EMBEDDED_UNICODE := $(dir $(shell command -v swiftc))../lib/swift/embedded/$(EMBEDDED_TARGET)/libswiftUnicodeDataTables.a
HARNESS_FLAGS := -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude
LIB_FLAVOURS := full embedded
VALGRIND := valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99

# Bindings and other test suites live in mk/*.mk: each adds its Debian packages to
# APT_PACKAGES and its test target to BINDING_TESTS (run by `make test` before XCTest).
BINDING_TESTS :=
include $(sort $(wildcard mk/*.mk))

.PHONY: all bootstrap build demo test embedded-check vectors-check swift-test lib abi-check c-harness clean help

all: build

bootstrap:
	@scripts/bootstrap.sh $(APT_PACKAGES)
	@command -v node >/dev/null || scripts/bootstrap.sh nodejs

build: bootstrap
	$(SWIFT) build

demo: bootstrap
	@$(SWIFT) build --product payhandoff >/dev/null
	@$$($(SWIFT) build --show-bin-path)/payhandoff demo

# The core and the C ABI layer must stay inside the Embedded Swift subset (no Codable,
# existentials, reflection): compiling them in Embedded mode here makes a regression fail the test run.
embedded-check: bootstrap
	@mkdir -p .build/embedded
	swiftc $(EMBEDDED_FLAGS) -c $(CORE_SOURCES) $(ABI_SOURCES) -o .build/embedded/PayHandoff.o
	@echo "embedded-check: Sources/PayHandoff + Sources/PayHandoffABI compile as Embedded Swift ($$(stat -c %s .build/embedded/PayHandoff.o) bytes of object code)"

# The shared vectors are generated from readable case tables by an independent Python oracle;
# this fails when a JSON file and its generator disagree.
vectors-check:
	@for g in Tests/Vectors/tools/*_vectors.py; do python3 "$$g" --check; done
	@echo "vectors-check: WHATWG URLSearchParams (node) vs the checkout callback vectors"
	@node Tests/Vectors/tools/urlsearchparams_check.mjs

# dist/full: the SwiftPM dynamic library with the Swift runtime linked in statically.
# dist/embedded: core + ABI as Embedded Swift; needs only libc and libcjson.
# Both export only payhandoff_* (abi/payhandoff.map) and are stripped.
# Each library is written under a temporary name and renamed into place: cp, strip -o and the
# linker rewrite an existing file in place, and a process that has it mapped (a harness under
# valgrind while another make in this tree runs `lib`) then dies of SIGBUS (issue 20).
lib: bootstrap
	@mkdir -p dist/full dist/embedded .build/lib/full .build/lib/embedded
	$(SWIFT) build -c release --product PayHandoffABI -Xswiftc -static-stdlib \
	  -Xlinker --version-script=$(CURDIR)/abi/payhandoff.map -Xlinker -soname=libpayhandoff.so
	cp $$($(SWIFT) build -c release --show-bin-path)/libPayHandoffABI.so .build/lib/full/libpayhandoff.so.new
	swiftc $(EMBEDDED_FLAGS) -target-cpu $(EMBEDDED_CPU) $(EMBEDDED_LINK_FLAGS) -emit-library $(CORE_SOURCES) $(ABI_SOURCES) $(EMBEDDED_UNICODE) \
	  -lcjson -Xlinker --version-script=abi/payhandoff.map -Xlinker -soname=libpayhandoff.so \
	  -o .build/lib/embedded/libpayhandoff.so.new
	@# .build/lib/* keep their symbol tables (for valgrind's reports); dist/ gets stripped copies.
	for f in $(LIB_FLAVOURS); do $(STRIP) -o dist/$$f/libpayhandoff.so.new .build/lib/$$f/libpayhandoff.so.new; done
	for f in $(LIB_FLAVOURS); do mv -f .build/lib/$$f/libpayhandoff.so.new .build/lib/$$f/libpayhandoff.so; mv -f dist/$$f/libpayhandoff.so.new dist/$$f/libpayhandoff.so; done
	@for f in $(LIB_FLAVOURS); do \
	  echo "lib: dist/$$f/libpayhandoff.so $$(stat -c %s dist/$$f/libpayhandoff.so) bytes stripped, needs: $$(readelf -d dist/$$f/libpayhandoff.so | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"; \
	done

# The exported symbols, abi/symbols.txt and the header agree; the header is clean C11/C++17.
abi-check: lib
	@CC=$(CC) CXX=$(CXX) scripts/abi_check.sh $(LIB_FLAVOURS)

# The C harness against each dist/ library, then under valgrind (scripts/run_c_harness.sh).
c-harness: lib
	@CC=$(CC) scripts/run_c_harness.sh $(LIB_FLAVOURS)

swift-test:
	$(SWIFT) test --disable-swift-testing

# Ends with XCTest's own summary line ("Executed N tests, with 0 failures …"); XCTest also
# drives the C harness in-process (Tests/CHarnessTests).
test: bootstrap embedded-check vectors-check abi-check c-harness $(BINDING_TESTS) swift-test

clean:
	rm -rf .build dist

help:
	@python3 scripts/make_help.py Makefile $(sort $(wildcard mk/*.mk))
