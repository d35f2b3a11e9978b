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
# Debian packages, per need (bootstrap-NAME installs APT_NAME; each target asks only for its own, so
# make demo installs three packages and make android no browser); bootstrap installs every list
# (APT_PACKAGES, which each mk/*.mk fragment extends), as make test does.
APT_core := libcjson-dev pkg-config
# make demo: the CLI links the doctor, whose FoundationXML loads libxml2 at run time.
APT_demo := $(APT_core) libxml2
APT_valgrind := valgrind
# Node (vectors-check's URLSearchParams, every binding's tests): NodeSource's or Debian's.
APT_node := $(if $(shell command -v node 2>/dev/null),,nodejs)
APT_PACKAGES := $(APT_demo) $(APT_valgrind) $(APT_node)
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
# APT_PACKAGES (and names them APT_<fragment> for its own targets) and its test target to
# BINDING_TESTS (run by `make test` before XCTest).
BINDING_TESTS :=
include $(sort $(wildcard mk/*.mk))

.PHONY: all bootstrap build demo demo-packages-check test embedded-check vectors-check swift-build swift-test lib lib-full abi-check c-harness clean help

all: build

bootstrap:
	@scripts/bootstrap.sh $(sort $(APT_PACKAGES))

bootstrap-%:
	@scripts/bootstrap.sh $(APT_$*)

build: bootstrap-swift
	$(SWIFT) build

demo: bootstrap-demo
	@$(SWIFT) build --product payhandoff >/dev/null
	@$$($(SWIFT) build --show-bin-path)/payhandoff demo

# The core and the C ABI layer must stay inside the Embedded Swift subset (no Codable,
# existentials, reflection): the Embedded library of make lib is that compile, so a regression fails
# here (and the build is not done twice: lib and every binding's test reuse it).
embedded-check: dist/embedded/libpayhandoff.so
	@echo "embedded-check: Sources/PayHandoff + Sources/PayHandoffABI compile as one Embedded Swift module (dist/embedded/libpayhandoff.so, $$(stat -c %s dist/embedded/libpayhandoff.so) bytes stripped)"

# make demo asks a fresh machine only for what the demo needs (issue 36): the Swift toolchain and these.
DEMO_EXPECTED_PACKAGES := libcjson-dev pkg-config libxml2
demo-packages-check:
	@got=$$($(MAKE) --no-print-directory -n demo | sed -n 's|^scripts/bootstrap.sh ||p'); \
	  test "$$got" = "$(DEMO_EXPECTED_PACKAGES)" || { echo "demo-packages-check: make demo asks for '$$got', expected '$(DEMO_EXPECTED_PACKAGES)'"; exit 1; }; \
	  echo "demo-packages-check: make demo installs only $$got (make test: $(words $(sort $(APT_PACKAGES))) packages)"

# The shared vectors are generated from readable case tables by an independent Python oracle;
# this fails when a JSON file and its generator disagree.
vectors-check: | bootstrap-node
	@for g in Tests/Vectors/tools/*_vectors.py; do python3 "$$g" --check; done
	@echo "vectors-check: WHATWG URLSearchParams (node) vs the checkout callback vectors"
	@node Tests/Vectors/tools/urlsearchparams_check.mjs

# dist/full: the SwiftPM dynamic library with the Swift runtime linked in statically.
# dist/embedded: core + ABI as Embedded Swift; needs only libc and libcjson.
# Both export only payhandoff_* (abi/payhandoff.map) and are stripped.
# Each library is written under a temporary name and renamed into place: cp, strip -o and the
# linker rewrite an existing file in place, and a process that has it mapped (a harness under
# valgrind while another make in this tree runs `lib`) then dies of SIGBUS (issue 20).
LIB_FILES := $(foreach f,$(LIB_FLAVOURS),dist/$(f)/libpayhandoff.so)
# What the libraries are built from: a target that needs them (abi-check, c-harness, the
# bindings' tests) rebuilds them only when one of these changed.
LIB_INPUTS := $(CORE_SOURCES) $(ABI_SOURCES) $(wildcard Sources/CcJSON/*) abi/payhandoff.map Package.swift

lib: $(LIB_FILES)
	@for f in $(LIB_FLAVOURS); do \
	  echo "lib: dist/$$f/libpayhandoff.so $$(stat -c %s dist/$$f/libpayhandoff.so) bytes stripped, needs: $$(readelf -d dist/$$f/libpayhandoff.so | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"; \
	done

# The SwiftPM library alone (make test builds it beside the Embedded one).
lib-full: dist/full/libpayhandoff.so

dist/full/libpayhandoff.so: $(LIB_INPUTS) | bootstrap-core
	@mkdir -p dist/full .build/lib/full
	$(SWIFT) build -c release --product PayHandoffABI -Xswiftc -static-stdlib \
	  -Xlinker --version-script=$(CURDIR)/abi/payhandoff.map -Xlinker -soname=libpayhandoff.so
	cp $$($(SWIFT) build -c release --show-bin-path)/libPayHandoffABI.so .build/lib/full/libpayhandoff.so.new
	@# .build/lib/* keep their symbol tables (for valgrind's reports); dist/ gets stripped copies.
	$(STRIP) -o $@.new .build/lib/full/libpayhandoff.so.new
	mv -f .build/lib/full/libpayhandoff.so.new .build/lib/full/libpayhandoff.so; mv -f $@.new $@

# The Embedded build is also make embedded-check's proof that the core and the C ABI stay inside
# the subset: a declaration outside it fails this compile.
dist/embedded/libpayhandoff.so: $(LIB_INPUTS) | bootstrap-core
	@mkdir -p dist/embedded .build/lib/embedded
	swiftc $(EMBEDDED_FLAGS) -target-cpu $(EMBEDDED_CPU) $(EMBEDDED_LINK_FLAGS) -emit-library $(CORE_SOURCES) $(ABI_SOURCES) $(EMBEDDED_UNICODE) \
	  -lcjson -Xlinker --version-script=abi/payhandoff.map -Xlinker -soname=libpayhandoff.so \
	  -o .build/lib/embedded/libpayhandoff.so.new
	$(STRIP) -o $@.new .build/lib/embedded/libpayhandoff.so.new
	mv -f .build/lib/embedded/libpayhandoff.so.new .build/lib/embedded/libpayhandoff.so; mv -f $@.new $@

# The exported symbols, abi/symbols.txt and the header agree; the header is clean C11/C++17.
abi-check: lib
	@CC=$(CC) CXX=$(CXX) scripts/abi_check.sh $(LIB_FLAVOURS)

# The C harness against each dist/ library, then under valgrind (scripts/run_c_harness.sh).
c-harness: lib | bootstrap-valgrind
	@CC=$(CC) scripts/run_c_harness.sh $(LIB_FLAVOURS)

# The debug build every target that runs Swift code in debug shares (swift-test, the doctor's
# and the CLI's tests inside it, model-check-test, the README checks): all products and tests at once.
swift-build: bootstrap-swift
	@mkdir -p .build; start=$$(date +%s); \
	$(SWIFT) build --build-tests > .build/swift-build.log 2>&1 && status=0 || status=$$?; \
	grep -E 'error:' .build/swift-build.log | sort -u | head -40 || true; \
	echo "swift-build: debug build of every product and test target: $$(tail -1 .build/swift-build.log) ($$(( $$(date +%s) - start )) s; $$(grep -E 'warning:' .build/swift-build.log | sort -u | wc -l) warnings; log: .build/swift-build.log)"; \
	test $$status -eq 0

# Ends with XCTest's own summary line ("Executed N tests, with 0 failures …"); XCTest also
# drives the C harness in-process (Tests/CHarnessTests) and runs the doctor's and the CLI's tests.
swift-test: swift-build
	$(SWIFT) test --skip-build --disable-swift-testing

# make test: every check, then a table of where the time went (scripts/timed_steps.py; the figures
# also in .build/test-times.json). Steps run one after another; targets joined by + run side by side
# (each in its own make; its output printed whole when it ends): a step pairs work that leaves a core
# idle (valgrind, qemu, a JVM, one swiftc -wmo, XCTest in one process) with other work, and its
# members never build the same file (each builds what only it needs, or what an earlier step built).
# bg:TARGET starts a target and goes straight on: the sanitizers (about 6 min on one core, from
# their own build folders) run beside every later step, and the run waits for them at the end.
# Every target of BINDING_TESTS must appear (the runner refuses a list that drops one).
# TEST_KEEP_GOING=1 runs every step even after one failed.
TEST_STEPS ?= demo-packages-check \
  embedded-check+lib-full+vectors-check+abigen-check \
  bg:sanitizers \
  abi-check+react-native-java-test \
  android-libs+c-harness \
  android+process-death \
  android-harness+android-test \
  android-check+android-publish-check+maven-check+proguard-check+react-native-pack \
  swift-build+ios-check+react-native-test \
  fuzz-test+model-check-test+readme-swift-check+readme-doctor-check \
  swift-test+consumer-check \
  web-test
test: bootstrap
	@python3 scripts/timed_steps.py --make "$(MAKE)" --require "$(BINDING_TESTS) swift-test embedded-check vectors-check abi-check c-harness" \
	  $(if $(TEST_KEEP_GOING),--keep-going) $(TEST_STEPS)

clean:
	rm -rf .build dist

help:
	@python3 scripts/make_help.py Makefile $(sort $(wildcard mk/*.mk))
