# Sanitizers and process death (issue 9).
#   make sanitizers      XCTest under AddressSanitizer (all tests, each in its own process: swift
#                        test --parallel, 140 s -> 90 s here; a report fails its process and the
#                        run, a leak at any process's exit included; LeakSanitizer with
#                        Tests/Sanitizers/lsan.supp) and the thread check under ThreadSanitizer
#                        (Tests/Sanitizers/ThreadCheck; PAYHANDOFF_TSAN_SELFTEST=1 make tsan drops
#                        its mutex on purpose and must fail with race reports)
#   make process-death   SIGKILL at every point of both flows, restart from the saved snapshot,
#                        compare with an uninterrupted run (Tests/ProcessDeath), both libraries
# Each sanitizer builds in its own scratch path (.build/asan, .build/tsan).
ASAN_SCRATCH := .build/asan
TSAN_SCRATCH := .build/tsan
SANITIZER_ENV := SWIFT_BACKTRACE=enable=no

BINDING_TESTS += sanitizers process-death

.PHONY: sanitizers asan tsan process-death

sanitizers: asan tsan

# Builds what the tests run and no more: the test bundle, the payhandoff binary the CLI tests start
# and the thread check (not the fuzzers, the model check or the benchmarks: -35 % of the build).
ASAN_PRODUCTS := payhandoff PayHandoffThreadCheck PayHandoffPackageTests
asan: bootstrap-swift
	@mkdir -p $(ASAN_SCRATCH)/logs
	@for product in $(ASAN_PRODUCTS); do \
	  $(SWIFT) build --sanitize=address --scratch-path $(ASAN_SCRATCH) --product $$product > $(ASAN_SCRATCH)/logs/build-$$product.log 2>&1 \
	    || { grep -E 'error:' $(ASAN_SCRATCH)/logs/build-$$product.log; echo "asan: $$product did not build ($(ASAN_SCRATCH)/logs/build-$$product.log)"; exit 1; }; \
	done
	@$(SANITIZER_ENV) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=1 \
	  $(SWIFT) test --skip-build --parallel --sanitize=address --scratch-path $(ASAN_SCRATCH) --disable-swift-testing \
	  > $(ASAN_SCRATCH)/logs/test.log 2>&1 && status=0 || status=$$?; \
	  grep -E '^(.*error: |==[0-9]+==ERROR)' $(ASAN_SCRATCH)/logs/test.log | head -20 || true; \
	  echo "asan: $$(grep -cE '^\[[0-9]+/[0-9]+\] Testing' $(ASAN_SCRATCH)/logs/test.log) tests, each in its own process; AddressSanitizer reports: $$(grep -c '==ERROR: AddressSanitizer' $(ASAN_SCRATCH)/logs/test.log || true), LeakSanitizer reports: $$(grep -c '==ERROR: LeakSanitizer' $(ASAN_SCRATCH)/logs/test.log || true) (exit $$status; log: $(ASAN_SCRATCH)/logs/test.log)"; \
	  test $$status -eq 0

# Only the thread check (Tests/Sanitizers/ThreadCheck), the core and the C ABI are built with
# ThreadSanitizer: the program XCTest's ThreadTests runs, in a build of its own (not every test target).
tsan: bootstrap-swift
	@mkdir -p $(TSAN_SCRATCH)/logs
	@$(SWIFT) build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --product PayHandoffThreadCheck > $(TSAN_SCRATCH)/logs/build.log 2>&1 \
	  || { grep -E 'error:' $(TSAN_SCRATCH)/logs/build.log; echo "tsan: the build failed ($(TSAN_SCRATCH)/logs/build.log)"; exit 1; }
	@$(SANITIZER_ENV) TSAN_OPTIONS=halt_on_error=0:second_deadlock_stack=1 \
	  $$($(SWIFT) build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --show-bin-path)/PayHandoffThreadCheck > $(TSAN_SCRATCH)/logs/test.log 2>&1 && status=0 || status=$$?; \
	  grep -E 'FAIL|WARNING: ThreadSanitizer' $(TSAN_SCRATCH)/logs/test.log | head -20 || true; \
	  echo "tsan: $$(grep '^thread-check: 16' $(TSAN_SCRATCH)/logs/test.log); ThreadSanitizer warnings: $$(grep -c 'WARNING: ThreadSanitizer' $(TSAN_SCRATCH)/logs/test.log || true) (exit $$status)"; \
	  test $$status -eq 0 && ! grep -q 'WARNING: ThreadSanitizer' $(TSAN_SCRATCH)/logs/test.log
	@# The control: without the mutex the header requires, ThreadSanitizer must see the races. A race
	@# is seen only when the threads overlap, which a loaded machine can prevent (0 warnings once,
	@# with every other step of make test beside it): up to three runs, the first that sees one counts.
	@export $(SANITIZER_ENV) PAYHANDOFF_TSAN_SELFTEST=1 TSAN_OPTIONS=halt_on_error=0; \
	  bin=$$($(SWIFT) build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --show-bin-path); \
	  for run in 1 2 3; do \
	    { $$bin/PayHandoffThreadCheck > $(TSAN_SCRATCH)/logs/selftest.log 2>&1; } 2>/dev/null || true; \
	    races=$$(grep -c 'WARNING: ThreadSanitizer' $(TSAN_SCRATCH)/logs/selftest.log || true); \
	    test "$$races" -gt 0 && break; \
	  done; \
	  echo "tsan: control (the shared handle without its mutex): $$races ThreadSanitizer warnings in run $$run of at most 3, as expected if above 0"; \
	  test "$$races" -gt 0

process-death: lib
	@mkdir -p .build/process-death
	@for f in $(LIB_FLAVOURS); do \
	  $(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -pedantic -Iinclude Tests/ProcessDeath/driver.c \
	    -Ldist/$$f -lpayhandoff -lcjson -Wl,-rpath,$(CURDIR)/dist/$$f -o .build/process-death/driver-$$f; \
	done
	@python3 Tests/ProcessDeath/kill_test.py $(foreach f,$(LIB_FLAVOURS),.build/process-death/driver-$(f))
