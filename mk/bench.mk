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
#   make size             builds both libraries (make lib) and the Android ones (make android) and
#                         prints, per library: stripped size, NEEDED entries and the number of
#                         exported symbols (Android: payhandoff_* and the JNI functions).
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

size: lib android
	@printf '%-46s %12s  %-52s %s\n' "library (stripped)" "bytes" "NEEDED" "exported"
	@for lib in $(foreach f,$(LIB_FLAVOURS),dist/$(f)/libpayhandoff.so) $(foreach abi,$(ANDROID_ABIS),dist/android/jni/$(abi)/libpayhandoff.so); do \
	  needed=$$(readelf -d $$lib | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' '); \
	  exported=$$(nm -D --defined-only --extern-only $$lib | awk '$$2 != "A"' | wc -l); \
	  printf '%-46s %12s  %-52s %s\n' $$lib "$$(stat -c %s $$lib)" "$$needed" "$$exported"; \
	done
	@echo "Android goal: at most 400 KB (409600 bytes) per ABI, cJSON and the JNI shim included"
