# libFuzzer targets of Fuzz/ (issue 9).
#   make fuzz                 runs every target for FUZZ_SECONDS (default 60) each
#   make fuzz-test            the same for 10 s each (part of `make test`)
#   make fuzz FUZZ_TARGETS=FuzzAmount FUZZ_SECONDS=300
# Built with --sanitize=fuzzer in their own scratch path (.build/fuzz). Seeds are generated from
# Tests/Vectors by Fuzz/seeds.py into .build/fuzz/seeds; new corpus entries go to
# .build/fuzz/corpus/<target> and crash files to .build/fuzz/artifacts/ (all under .build/, so
# never in git). A crash or property violation fails the run and names the file; reproduce it
# without the fuzzer flags with `swift build --product <target>` and `<bin>/<target> <file>`.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= FuzzPOSAnswer FuzzCheckoutCallback FuzzAmount FuzzABIJSON FuzzCoordinator
FUZZ_SCRATCH := .build/fuzz
FUZZ_FLAGS := --scratch-path $(FUZZ_SCRATCH) --sanitize=fuzzer -Xswiftc -DPAYHANDOFF_FUZZING

BINDING_TESTS += fuzz-test

.PHONY: fuzz fuzz-build fuzz-test

fuzz-build: bootstrap
	@for t in $(FUZZ_TARGETS); do \
	  $(SWIFT) build $(FUZZ_FLAGS) --product $$t 2>&1 | grep -vE '^(\[[0-9]+/[0-9]+\]|Building for|Write swift-version)' || true; \
	  test -x $(FUZZ_SCRATCH)/debug/$$t || { echo "fuzz: $$t did not build"; exit 1; }; \
	done

fuzz: fuzz-build
	@python3 Fuzz/seeds.py $(FUZZ_SCRATCH)/seeds > /dev/null
	@mkdir -p $(FUZZ_SCRATCH)/artifacts $(FUZZ_SCRATCH)/logs
	@total=0; failed=0; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_SCRATCH)/corpus/$$t; \
	  SWIFT_BACKTRACE=enable=no $(FUZZ_SCRATCH)/debug/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=20 \
	    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(FUZZ_SCRATCH)/artifacts/$$t- \
	    $(FUZZ_SCRATCH)/corpus/$$t $(FUZZ_SCRATCH)/seeds/$$t > $(FUZZ_SCRATCH)/logs/$$t.log 2>&1 && status=0 || status=$$?; \
	  runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_SCRATCH)/logs/$$t.log | tail -1); runs=$${runs:-0}; \
	  cov=$$(grep -oE 'cov: [0-9]+' $(FUZZ_SCRATCH)/logs/$$t.log | tail -1); \
	  total=$$((total + runs)); \
	  if [ $$status -ne 0 ]; then \
	    failed=$$((failed + 1)); \
	    echo "fuzz: $$t FAILED (exit $$status) after $$runs executions:"; \
	    grep -E 'property violated|ERROR: |Test unit written' $(FUZZ_SCRATCH)/logs/$$t.log | head -5; \
	  else \
	    echo "fuzz: $$t: $$runs executions in $(FUZZ_SECONDS) s, $$cov, corpus $$(ls $(FUZZ_SCRATCH)/corpus/$$t | wc -l) files, no crash or property violation"; \
	  fi; \
	done; \
	echo "fuzz: $$total executions in total ($(words $(FUZZ_TARGETS)) targets x $(FUZZ_SECONDS) s), $$failed failed"; \
	test $$failed -eq 0

fuzz-test:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=10
