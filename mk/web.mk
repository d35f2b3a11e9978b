# The web surface (bindings/web, issue 19): included by the main Makefile.
#   make web        dist/web/: payhandoff-checkout.wasm (what loadPayHandoff() loads: the core built
#                   with -D PAYHANDOFF_CHECKOUT_ONLY, no POS flows, refunds, ledger or payhandoff_pos_*
#                   exports) and payhandoff.wasm (everything: loadPayHandoff({ pos: true })), both
#                   core + C ABI as Embedded Swift for wasm32-unknown-none-wasm, cJSON from Debian's
#                   source against wasi-libc, wasm-ld + wasm-opt -Oz; the ES module package (lib/,
#                   package.json), LICENSE.cJSON
#   make web-pack   dist/web/payhandoff-web-<version>.tgz: the package as npm packs it (lib/, both .wasm,
#                   LICENSE, LICENSE.cJSON, README.md, package.json)
#   make web-test   web-libc-test, then builds web, then the shared vectors on both modules and the
#                   package's tests under node --test, then, in three browser engines (WEB_ENGINES:
#                   Chromium, WebKitGTK, Firefox ESR) and for each module of dist/web (WEB_MODULES),
#                   the shared vectors in the page (on the checkout module: POS calls unsupported,
#                   scripts ended at their first pos.* event; counted passed / ended at unsupported /
#                   failed / skipped), and on the checkout module (the first of WEB_MODULES, what the
#                   demo PWA loads) the end-to-end scenarios (mock gateway on loopback, the demo PWA
#                   under a strict CSP, its service worker, storage failures, the back/forward
#                   cache); one line per engine and module: "web-test: <engine>: N passed, M failed
#                   (<module>: …)". Screenshots and browser logs: .build/web/browser/<engine>/<module>/
#                   WEB_ENGINES=chromium make web-test runs one engine.
#   make web-libc-test  what the .wasm takes from bindings/web/wasm instead of wasi-libc: cJSON's
#                   number functions against glibc's and wasi-libc's own, arc4random_buf against
#                   a counting, a real and a failing random_get (a few seconds)
#   make demo-web   starts the mock gateway and the demo PWA on 127.0.0.1 and prints the URL to open
#   make size-web   each .wasm's size, raw and gzipped, and its bytes by component (from a
#                   name-section build of the same code; make size prints it too); the goal
#                   (SIZE_GOAL_WEB) is the checkout module's: it is what a checkout page loads
#   make bench-web  cost from JavaScript in Node and in each engine: compile, instantiate and first
#                   call of each module, then per call next to new URL(...).searchParams on the
#                   same callback (not part of make test)
# Debian packages: wasi-libc (libc for wasm32), compiler-rt's wasm32 builtins, binaryen (wasm-opt),
# wabt (wasm-objdump, for the size report), chromium + chromium-driver + python3-selenium (Debian's
# Python 3, /usr/bin/python3); webkit2gtk-driver (WebKitWebDriver; MiniBrowser comes with
# libwebkit2gtk-4.1-0) + xvfb (an X server for it: its --headless hung); firefox-esr +
# python3-websockets (WebDriver BiDi, which Firefox speaks itself: no geckodriver is packaged);
# openssl (the mock gateway's certificate).
APT_web := wasi-libc libclang-rt-14-dev-wasm32 binaryen wabt node-typescript \
  chromium chromium-driver python3-selenium openssl \
  webkit2gtk-driver xvfb firefox-esr python3-websockets
APT_web += $(APT_node) $(APT_npm)
APT_PACKAGES += $(APT_web)
BINDING_TESTS += web-test

WEB_DIR := bindings/web
WEB_DIST := dist/web
WEB_BUILD := .build/web
WEB_WASM := $(WEB_DIST)/payhandoff.wasm
WEB_CHECKOUT_WASM := $(WEB_DIST)/payhandoff-checkout.wasm
# The modules dist/web holds, each tested in every engine and measured by bench-web (a module
# added to dist/web is one more name here, next to its build rule). The first is what
# loadPayHandoff() loads by default: the browser scenarios of the demo PWA (a checkout page) run on
# it; the others run the shared vectors only (scenarios.py --scenarios-on names another module).
WEB_MODULES := payhandoff-checkout.wasm payhandoff.wasm
# The browser engines web-test and bench-web run.
WEB_ENGINES ?= chromium webkit firefox
WEB_TS_SOURCES := $(wildcard $(WEB_DIR)/src/*.ts) $(addprefix bindings/react-native/src/,types.ts vocabulary.ts versions.ts redaction.ts) $(WEB_DIR)/tools/esm-specifiers.mjs
WEB_PYTHON := /usr/bin/python3
WEB_OUTPUTS := $(addprefix $(WEB_DIST)/,$(WEB_MODULES)) $(WEB_DIST)/lib/web/src/index.js
# make demo-web's ports on 127.0.0.1 (the tests take free ones).
WEB_DEMO_PORT ?= 8417
WEB_DEMO_GATEWAY_PORT ?= 8418

.PHONY: web web-pack web-test web-libc-test web-node-test web-browser-test demo-web size-web bench-web

WEB_WASM_INPUTS := $(CORE_SOURCES) $(ABI_SOURCES) abi/symbols.txt scripts/build-wasm.sh third_party/cjson/cJSON.c \
  third_party/cjson/cJSON.h $(wildcard bindings/web/wasm/*.c)

$(WEB_WASM): $(WEB_WASM_INPUTS) | bootstrap-web
	@scripts/build-wasm.sh $@ $(WEB_BUILD)/wasm $(CORE_SOURCES) $(ABI_SOURCES)

# The checkout module: the same sources with -D PAYHANDOFF_CHECKOUT_ONLY, without the
# payhandoff_pos_* exports (scripts/build-wasm.sh --checkout), in a build folder of its own.
$(WEB_CHECKOUT_WASM): $(WEB_WASM_INPUTS) | bootstrap-web
	@scripts/build-wasm.sh --checkout $@ $(WEB_BUILD)/wasm-checkout $(CORE_SOURCES) $(ABI_SOURCES)

$(WEB_DIST)/lib/web/src/index.js: $(WEB_TS_SOURCES) $(WEB_DIR)/tsconfig.json $(WEB_DIR)/package.json | bootstrap-web
	@rm -rf $(WEB_DIST)/lib && mkdir -p $(WEB_DIST)
	tsc -p $(WEB_DIR)/tsconfig.json --outDir $(WEB_DIST)/lib
	@node $(WEB_DIR)/tools/esm-specifiers.mjs $(WEB_DIST)/lib/react-native/src
	@cp $(WEB_DIR)/package.json $(WEB_DIST)/package.json

web: $(WEB_OUTPUTS)
	@for m in $(WEB_MODULES); do echo "web: $(WEB_DIST)/$$m: $$(stat -c %s $(WEB_DIST)/$$m) bytes, $$(python3 scripts/size_report.py --gzip $(WEB_DIST)/$$m) gzip -9 (scripts/size_report.py's measure)"; done
	@echo "web: $(WEB_DIST)/lib/web/src/index.js (the ES module package)"

# npm pack in dist/web (the package's own folder, where make web copies package.json): the
# licence and README next to it first. web-node-test's test/package.test.mjs checks the result.
web-pack: $(WEB_OUTPUTS)
	@cp LICENSE $(WEB_DIST)/LICENSE && cp $(WEB_DIR)/README.md $(WEB_DIST)/README.md
	@rm -f $(WEB_DIST)/payhandoff-web-*.tgz
	@cd $(WEB_DIST) && npm pack --silent --ignore-scripts --pack-destination $(CURDIR)/$(WEB_DIST) > /dev/null
	@ls -l $(WEB_DIST)/payhandoff-web-*.tgz | awk '{print "web-pack: " $$NF " (" $$5 " bytes)"}'

web-node-test: web-pack
	@echo "web-test: tsc $$(tsc --version | cut -d' ' -f2) --noEmit: the web API against the React Native API (test/api.check.ts)"
	@tsc -p $(WEB_DIR)/tsconfig.check.json
	@echo "web-test: node --test against $(addprefix $(WEB_DIST)/,$(WEB_MODULES))"
	@mkdir -p $(WEB_BUILD); PAYHANDOFF_WEB_DIST=$(CURDIR)/$(WEB_DIST) PAYHANDOFF_VECTORS=$(CURDIR)/Tests/Vectors \
	  node --test --test-reporter=spec $(WEB_DIR)/test/*.test.mjs > $(WEB_BUILD)/node-test.log 2>&1 && status=0 || status=$$?; \
	grep -E '^(✖|ℹ vectors \(wasm)|^\s+(AssertionError|Error)' $(WEB_BUILD)/node-test.log || true; \
	echo "web-test: node: $$(sed -n 's/^ℹ pass //p' $(WEB_BUILD)/node-test.log) passed, $$(sed -n 's/^ℹ fail //p' $(WEB_BUILD)/node-test.log) failed (log: $(WEB_BUILD)/node-test.log)"; \
	test $$status -eq 0

# Natively and as wasm32-wasi under Node's WASI (scripts/run_wasm_libc_tests.sh); needs no wasm build.
web-libc-test: | bootstrap-web
	@CC=$(CC) scripts/run_wasm_libc_tests.sh $(WEB_BUILD)/wasm-libc

# The engines run side by side, each in a process of its own (its own servers, ports, Xvfb and
# log: .build/web/browser-test-<engine>.log); each one's lines are printed when it ends, in order.
# WEB_BROWSER_JOBS=1 runs them one after another.
WEB_BROWSER_JOBS ?= $(words $(WEB_ENGINES))
web-browser-test: $(WEB_OUTPUTS)
	@rm -f $(WEB_BUILD)/browser-test-*.out; status=0; pids=(); engines=($(WEB_ENGINES)); \
	for engine in "$${engines[@]}"; do \
	  while (( $$(jobs -rp | wc -l) >= $(WEB_BROWSER_JOBS) )); do wait -n || true; done; \
	  $(WEB_PYTHON) $(WEB_DIR)/test/browser/scenarios.py --dist $(WEB_DIST) --out $(WEB_BUILD)/browser \
	    --engines $$engine --modules "$(WEB_MODULES)" --log $(WEB_BUILD)/browser-test-$$engine.log > $(WEB_BUILD)/browser-test-$$engine.out 2>&1 & pids+=($$!); \
	done; \
	for i in "$${!engines[@]}"; do wait $${pids[$$i]} || status=1; cat $(WEB_BUILD)/browser-test-$${engines[$$i]}.out; done; \
	exit $$status

# The two modules build side by side (swiftc -wmo compiles on one core; their build folders are their own).
web-test: bootstrap-web
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory web-libc-test && libc_status=0 || libc_status=$$?; \
	$(MAKE) --no-print-directory -j2 web; \
	$(MAKE) --no-print-directory web-node-test && node_status=0 || node_status=$$?; \
	$(MAKE) --no-print-directory web-browser-test && browser_status=0 || browser_status=$$?; \
	echo "web-test: $$(( $$(date +%s) - start )) s (libc number functions, wasm and package build when stale, node --test, $(WEB_ENGINES))"; \
	test $$libc_status -eq 0 -a $$node_status -eq 0 -a $$browser_status -eq 0

demo-web: $(WEB_OUTPUTS)
	@node $(WEB_DIR)/demo/server.mjs --dist $(WEB_DIST) --state $(WEB_BUILD)/demo --port $(WEB_DEMO_PORT) --gateway-port $(WEB_DEMO_GATEWAY_PORT)

# The goal for what a checkout page downloads (issue 26): bytes raw / gzip -9. It is the checkout
# module's (what loadPayHandoff() loads); the full module, which only a page that drives the POS
# app loads, is reported without a goal.
SIZE_GOAL_WEB := 250000/100000
WEB_NAMES := $(WEB_BUILD)/wasm/payhandoff.names.wasm
WEB_CHECKOUT_NAMES := $(WEB_BUILD)/wasm-checkout/payhandoff-checkout.names.wasm
WEB_SIZE_ARTIFACTS := "dist/web checkout=$(WEB_CHECKOUT_NAMES):$(WEB_CHECKOUT_WASM)@$(SIZE_GOAL_WEB)" \
  "dist/web full=$(WEB_NAMES):$(WEB_WASM)"
SIZE_ARTIFACTS += $(WEB_SIZE_ARTIFACTS)

# Each module with its name section (identical code), for the size report's components.
$(WEB_NAMES): $(WEB_WASM)
	@scripts/build-wasm.sh --names $(WEB_BUILD)/wasm $@

$(WEB_CHECKOUT_NAMES): $(WEB_CHECKOUT_WASM)
	@scripts/build-wasm.sh --names $(WEB_BUILD)/wasm-checkout $@

size-web: $(WEB_NAMES) $(WEB_CHECKOUT_NAMES)
	@python3 scripts/size_report.py $(WEB_SIZE_ARTIFACTS)

# make size (mk/bench.mk) reports both .wasm too.
size: $(WEB_NAMES) $(WEB_CHECKOUT_NAMES)

bench-web: $(WEB_OUTPUTS)
	@for module in $(WEB_MODULES); do node $(WEB_DIR)/bench/web-overhead.mjs --dist $(WEB_DIST) --module $$module $(BENCH_ARGS) || exit 1; done
	@$(WEB_PYTHON) $(WEB_DIR)/bench/web-overhead-browsers.py --dist $(WEB_DIST) --engines "$(WEB_ENGINES)" --modules "$(WEB_MODULES)" $(BENCH_ARGS)
