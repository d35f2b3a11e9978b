# PayHandoff — build, test and demo.
#   make demo        runs the demo on built-in sample data
#   make lib         builds the C ABI library twice into dist/ (full Swift runtime, Embedded Swift)
#   make test        runs every test (installs missing Debian packages first)
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

.PHONY: all bootstrap build demo test embedded-check vectors-check swift-test lib abi-check c-harness clean

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
lib: bootstrap
	@mkdir -p dist/full dist/embedded .build/lib/full .build/lib/embedded
	$(SWIFT) build -c release --product PayHandoffABI -Xswiftc -static-stdlib \
	  -Xlinker --version-script=$(CURDIR)/abi/payhandoff.map -Xlinker -soname=libpayhandoff.so
	cp $$($(SWIFT) build -c release --show-bin-path)/libPayHandoffABI.so .build/lib/full/libpayhandoff.so
	swiftc $(EMBEDDED_FLAGS) -target-cpu $(EMBEDDED_CPU) $(EMBEDDED_LINK_FLAGS) -emit-library $(CORE_SOURCES) $(ABI_SOURCES) $(EMBEDDED_UNICODE) \
	  -lcjson -Xlinker --version-script=abi/payhandoff.map -Xlinker -soname=libpayhandoff.so \
	  -o .build/lib/embedded/libpayhandoff.so
	@# .build/lib/* keep their symbol tables (for valgrind's reports); dist/ gets stripped copies.
	for f in $(LIB_FLAVOURS); do $(STRIP) -o dist/$$f/libpayhandoff.so .build/lib/$$f/libpayhandoff.so; done
	@for f in $(LIB_FLAVOURS); do \
	  echo "lib: dist/$$f/libpayhandoff.so $$(stat -c %s dist/$$f/libpayhandoff.so) bytes stripped, needs: $$(readelf -d dist/$$f/libpayhandoff.so | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"; \
	done

# The exported symbols of each library, abi/symbols.txt and the header's declarations must be
# the same set; the header must compile as C11 and C++17 without a warning.
abi-check: lib
	@mkdir -p .build/abi-check
	@grep -E '^PAYHANDOFF_API' include/payhandoff.h | grep -oE 'payhandoff_[a-z0-9_]+\(' | tr -d '(' | sort > .build/abi-check/header.txt
	@sort abi/symbols.txt > .build/abi-check/symbols.txt
	@diff -u .build/abi-check/symbols.txt .build/abi-check/header.txt || { echo "abi-check: header and abi/symbols.txt differ"; exit 1; }
	@for f in $(LIB_FLAVOURS); do \
	  nm -D --defined-only --extern-only dist/$$f/libpayhandoff.so | awk '$$2 != "A" {sub(/@.*/, "", $$3); print $$3}' | sort > .build/abi-check/$$f.txt; \
	  diff -u .build/abi-check/symbols.txt .build/abi-check/$$f.txt || { echo "abi-check: dist/$$f exports differ from abi/symbols.txt"; exit 1; }; \
	done
	@needed=$$(readelf -d dist/embedded/libpayhandoff.so | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | grep -vE '^(libc\.so\.6|libcjson\.so\.1)$$' || true); \
	  test -z "$$needed" || { echo "abi-check: dist/embedded needs more than libc and libcjson: $$needed"; exit 1; }
	@printf '#include "payhandoff.h"\nint main(void) { return payhandoff_abi_version() == PAYHANDOFF_ABI_VERSION ? 0 : 1; }\n' > .build/abi-check/use.c
	@cp .build/abi-check/use.c .build/abi-check/use.cpp
	$(CC) -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -c .build/abi-check/use.c -o .build/abi-check/use-c.o
	$(CXX) -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude -c .build/abi-check/use.cpp -o .build/abi-check/use-cpp.o
	@echo "abi-check: $$(wc -l < abi/symbols.txt) symbols; header, abi/symbols.txt and both libraries agree; dist/embedded needs only libc and libcjson; header is clean C11 and C++17"

# The C harness, linked as a plain C program against each dist/ library and run; then run
# under valgrind against the same library before stripping (.build/lib/*: identical code, with
# symbol names, which Tests/CHarness/valgrind.supp needs to name the Swift enum-code false
# positives it suppresses). Any other memory error or a definitely lost byte fails the run.
c-harness: lib
	@mkdir -p .build/c-harness
	@total_passed=0; total_failed=0; \
	for f in $(LIB_FLAVOURS); do \
	  $(CC) $(HARNESS_FLAGS) Tests/CHarness/harness.c -Ldist/$$f -lpayhandoff -lcjson \
	    -Wl,-rpath,$(CURDIR)/dist/$$f -o .build/c-harness/harness-$$f; \
	  $(CC) $(HARNESS_FLAGS) Tests/CHarness/harness.c -L.build/lib/$$f -lpayhandoff -lcjson \
	    -Wl,-rpath,$(CURDIR)/.build/lib/$$f -o .build/c-harness/harness-$$f-valgrind; \
	  .build/c-harness/harness-$$f Tests/Vectors > .build/c-harness/$$f.log 2>&1 && status=0 || status=$$?; \
	  grep -E '^(FAIL|note):' .build/c-harness/$$f.log || true; \
	  summary=$$(tail -1 .build/c-harness/$$f.log); echo "c-harness: dist/$$f: $$summary"; \
	  total_passed=$$((total_passed + $$(echo "$$summary" | awk '{print $$1}'))); \
	  total_failed=$$((total_failed + $$(echo "$$summary" | awk '{print $$3}') + (status != 0 && $$(echo "$$summary" | awk '{print $$3}') == 0))); \
	  $(VALGRIND) --suppressions=Tests/CHarness/valgrind.supp --log-file=.build/c-harness/valgrind-$$f.log \
	    .build/c-harness/harness-$$f-valgrind Tests/Vectors > /dev/null 2>&1 && vstatus=0 || vstatus=$$?; \
	  echo "c-harness: valgrind $$f: $$(grep -oE 'ERROR SUMMARY: [0-9]+ errors' .build/c-harness/valgrind-$$f.log), definitely lost: $$(grep -oE 'definitely lost: [0-9,]+ bytes' .build/c-harness/valgrind-$$f.log | grep -oE '[0-9,]+' || echo 0) bytes (valgrind exit $$vstatus; 99 = memory errors)"; \
	  if grep -qE 'ERROR SUMMARY: [1-9]' .build/c-harness/valgrind-$$f.log; then total_failed=$$((total_failed + 1)); fi; \
	done; \
	echo "c-harness: $$total_passed passed, $$total_failed failed (full + embedded, valgrind included)"; \
	test $$total_failed -eq 0

swift-test:
	$(SWIFT) test --disable-swift-testing

# Ends with XCTest's own summary line ("Executed N tests, with 0 failures …"); XCTest also
# drives the C harness in-process (Tests/CHarnessTests).
test: bootstrap embedded-check vectors-check abi-check c-harness $(BINDING_TESTS) swift-test

clean:
	rm -rf .build dist
