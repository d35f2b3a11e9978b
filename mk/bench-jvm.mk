# JVM per-call overhead of the Android binding (issue 10); included by the main Makefile.
#   make bench-jvm   Benchmarks/jvm-overhead/JvmOverhead.kt: the Kotlin API over the JNI shim that
#                    make android-test builds, on the host JVM against dist/embedded, minus the C ABI
#                    round trips of the last make bench; prints a table and appends "jvm" to
#                    bench/results.json. BENCH_ARGS=--quick for a short run. Not part of make test.
# ANDROID_DIR and ANDROID_BUILD come from mk/android.mk, which the sorted include reads first.
BENCH_JVM_BUILD := .build/bench-jvm
BENCH_JVM_JNI := $(ANDROID_BUILD)/cmake/libpayhandoff_jni.so
BENCH_JVM_SOURCES := Benchmarks/jvm-overhead/JvmOverhead.kt \
  $(shell find $(ANDROID_DIR)/src/main/kotlin -name '*.kt' 2>/dev/null | sort)

.PHONY: bench-jvm bench-jvm-run

# Compiles only when a source changed (kotlinc takes ~15 s); the stamp is written last, so a failed
# compile is retried next time.
$(BENCH_JVM_BUILD)/classes.stamp: $(BENCH_JVM_SOURCES)
	@rm -rf $(BENCH_JVM_BUILD)/classes && mkdir -p $(BENCH_JVM_BUILD)
	@echo "bench-jvm: kotlinc ($(words $(BENCH_JVM_SOURCES)) files)"
	@kotlinc -cp /usr/share/java/com.android.json.jar -d $(BENCH_JVM_BUILD)/classes $(BENCH_JVM_SOURCES) 2>&1 | grep -v -e 'Xverify:none' -e '^$$' || true
	@test -f $(BENCH_JVM_BUILD)/classes/com/payhandoff/bench/JvmOverheadKt.class
	@touch $@

# Checked before kotlinc runs: where android-test never ran, Kotlin may not be installed either, and
# make bench must report the figure as missing rather than fail.
bench-jvm:
	@if [ ! -f $(BENCH_JVM_JNI) ]; then \
	  echo "JVM per-call overhead: not measured ($(BENCH_JVM_JNI) missing; make android-test builds it)"; \
	elif ! command -v kotlinc >/dev/null || ! command -v java >/dev/null; then \
	  echo "JVM per-call overhead: not measured (no kotlinc or java; make android-test installs them)"; \
	else $(MAKE) --no-print-directory bench-jvm-run; fi

bench-jvm-run: $(BENCH_JVM_BUILD)/classes.stamp
	@java -cp $(BENCH_JVM_BUILD)/classes:/usr/share/java/kotlin-stdlib.jar:/usr/share/java/com.android.json.jar \
	  -Dpayhandoff.jni.path=$(CURDIR)/$(BENCH_JVM_JNI) com.payhandoff.bench.JvmOverheadKt $(BENCH_ARGS)
