# Sanitizers and process death (issue 9).
#   make sanitizers      XCTest under AddressSanitizer (all tests, each in its own process: swift
#                        test --parallel, 140 s -> 90 s here; a report fails its process and the
#                        run, a leak at any process's exit included; LeakSanitizer with
#                        Tests/Sanitizers/lsan.supp) and the threads test under ThreadSanitizer
#   make process-death   SIGKILL at every point of both flows, restart from the saved snapshot,
#                        compare with an uninterrupted run (Tests/ProcessDeath), both libraries
# Each sanitizer builds in its own scratch path (.build/asan, .build/tsan).
ASAN_SCRATCH := .build/asan
TSAN_SCRATCH := .build/tsan
SANITIZER_ENV := SWIFT_BACKTRACE=enable=no

BINDING_TESTS += sanitizers process-death

.PHONY: sanitizers asan tsan process-death

sanitizers: asan tsan

asan: bootstrap
	@$(SWIFT) build --build-tests --sanitize=address --scratch-path $(ASAN_SCRATCH) 2>&1 | grep -E 'error:' || true
	@mkdir -p $(ASAN_SCRATCH)/logs
	@$(SANITIZER_ENV) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=1 \
	  $(SWIFT) test --skip-build --parallel --sanitize=address --scratch-path $(ASAN_SCRATCH) --disable-swift-testing \
	  > $(ASAN_SCRATCH)/logs/test.log 2>&1 && status=0 || status=$$?; \
	  grep -E '^(.*error: |==[0-9]+==ERROR)' $(ASAN_SCRATCH)/logs/test.log | head -20 || true; \
	  echo "asan: $$(grep -cE '^\[[0-9]+/[0-9]+\] Testing' $(ASAN_SCRATCH)/logs/test.log) tests, each in its own process; AddressSanitizer reports: $$(grep -c '==ERROR: AddressSanitizer' $(ASAN_SCRATCH)/logs/test.log || true), LeakSanitizer reports: $$(grep -c '==ERROR: LeakSanitizer' $(ASAN_SCRATCH)/logs/test.log || true) (exit $$status; log: $(ASAN_SCRATCH)/logs/test.log)"; \
	  test $$status -eq 0

tsan: bootstrap
	@$(SWIFT) build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH) 2>&1 | grep -E 'error:' || true
	@mkdir -p $(TSAN_SCRATCH)/logs
	@$(SANITIZER_ENV) TSAN_OPTIONS=halt_on_error=0:second_deadlock_stack=1 \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --disable-swift-testing \
	  --filter 'PayHandoffABITests.ThreadTests' > $(TSAN_SCRATCH)/logs/test.log 2>&1 && status=0 || status=$$?; \
	  grep -E 'error: |WARNING: ThreadSanitizer' $(TSAN_SCRATCH)/logs/test.log | head -20 || true; \
	  echo "tsan: $$(grep -E 'Executed [0-9]+ test' $(TSAN_SCRATCH)/logs/test.log | tail -1 | sed 's/^[[:space:]]*//'); ThreadSanitizer warnings: $$(grep -c 'WARNING: ThreadSanitizer' $(TSAN_SCRATCH)/logs/test.log || true) (exit $$status)"; \
	  test $$status -eq 0 && ! grep -q 'WARNING: ThreadSanitizer' $(TSAN_SCRATCH)/logs/test.log

process-death: lib
	@mkdir -p .build/process-death
	@for f in $(LIB_FLAVOURS); do \
	  $(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -pedantic -Iinclude Tests/ProcessDeath/driver.c \
	    -Ldist/$$f -lpayhandoff -lcjson -Wl,-rpath,$(CURDIR)/dist/$$f -o .build/process-death/driver-$$f; \
	done
	@python3 Tests/ProcessDeath/kill_test.py $(foreach f,$(LIB_FLAVOURS),.build/process-death/driver-$(f))
