# Benchmarks and library sizes (issue 10); included by the main Makefile.
#   make bench            release build of Benchmarks/ (own scratch path) and one run: warm-up,
#                         samples, median and spread per case, ratios against Foundation measured
#                         in the same run; prints a table and writes bench/results.json (git-ignored).
#                         BENCH_ARGS=--quick for a short run; BENCH_ARGS='--only SUBSTRING' times
#                         only the matching Swift-run cases and their baselines (the Node and JVM
#                         runs are whole; results.json is left alone). Node per-call overhead via the
#                         React Native binding's Node-API addon when it is built (Benchmarks/node-overhead.js).
#   make bench-callgrind  instructions per call of the main cases (callgrind): the stable figure
#                         on a shared machine, where wall-clock times are noisy.
#   make size             builds both libraries (make lib), the Android ones (make android) and the
#                         .wasm modules (make web) and prints, per library: stripped size, NEEDED
#                         entries and exported symbols; then every artifact against its goal and
#                         a table of its bytes by component (scripts/size_report.py).
BENCH_SCRATCH ?= .build/bench
BENCH_BIN := $(BENCH_SCRATCH)/release/PayHandoffBenchmarks
BENCH_ARGS ?=
BENCH_CALLS ?= 500

.PHONY: bench bench-build bench-callgrind size

bench-build:
	$(SWIFT) build -c release --scratch-path $(BENCH_SCRATCH) --product PayHandoffBenchmarks

# dist/embedded is loaded into the run with dlopen (the library apps ship); lib builds it.
# Then the Node per-call overhead through the React Native binding's Node-API addon, when
# make react-native-test has built it (.build/react-native), and the JVM's through the Android
# binding's Kotlin API (mk/bench-jvm.mk) when make android-test has built the JNI shim.
bench: lib bench-build
	$(BENCH_BIN) $(BENCH_ARGS)
	@if command -v node >/dev/null; then node Benchmarks/node-overhead.js .build/react-native $(BENCH_ARGS); \
	 else echo "Node per-call overhead: not measured (no node)"; fi
	@$(MAKE) --no-print-directory bench-jvm

bench-callgrind: lib bench-build
	Benchmarks/callgrind.sh $(BENCH_BIN) $(BENCH_CALLS)

# The size goals (issue 26), bytes of the stripped library: dist/embedded and each Android ABI
# (cJSON and the JNI shim included). dist/full (the whole standard library inside) has none and is
# left out of the component tables.
SIZE_GOAL_embedded := 280000
SIZE_GOAL_ANDROID := 300000
SIZE_ARTIFACTS += "embedded x86_64=.build/lib/embedded/libpayhandoff.so:dist/embedded/libpayhandoff.so@$(SIZE_GOAL_embedded)" \
  $(foreach abi,$(ANDROID_ABIS),"android $(abi)=.build/android-libs/$(abi)/libpayhandoff.so:dist/android/jni/$(abi)/libpayhandoff.so@$(SIZE_GOAL_ANDROID)")

# Each library's NEEDED entries and exports, then scripts/size_report.py: every artifact against
# its goal (met, or missed by how many bytes), then each one's bytes by component (JSON doors,
# coordinator, POS, checkout, query, support, C ABI, standard library, cJSON, libc, ...) from the
# unstripped copies' symbols (.build/lib, .build/android-libs) or the .wasm's name section.
size: lib android
	@printf '%-46s %12s  %-52s %s\n' "library (stripped)" "bytes" "NEEDED" "exported"
	@for lib in $(foreach f,$(LIB_FLAVOURS),dist/$(f)/libpayhandoff.so) $(foreach abi,$(ANDROID_ABIS),dist/android/jni/$(abi)/libpayhandoff.so); do \
	  needed=$$(readelf -d $$lib | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' '); \
	  exported=$$(nm -D --defined-only --extern-only $$lib | awk '$$2 != "A"' | wc -l); \
	  printf '%-46s %12s  %-52s %s\n' $$lib "$$(stat -c %s $$lib)" "$$needed" "$$exported"; \
	done
	@echo
	@python3 scripts/size_report.py $(SIZE_ARTIFACTS)
