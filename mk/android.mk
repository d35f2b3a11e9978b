# Android binding (bindings/android, issue 6): the JNI shim built for the host with Debian's cmake
# from bindings/android/CMakeLists.txt, the Kotlin API and its JUnit 4 tests compiled once with
# Debian's kotlinc (1.3), run on the host JVM against dist/embedded/libpayhandoff.so.
#   make android-test   ends with "N passed, N failed" (the vectors, scenarios, a second JVM
#                       restoring a snapshot, 8 threads, and everything again under -Xcheck:jni)
# default-jdk-headless: jni.h for the shim (kotlin alone may bring only a JRE).
APT_PACKAGES += cmake kotlin junit4 libandroid-json-java default-jdk-headless
BINDING_TESTS += android-test

ANDROID_DIR := bindings/android
ANDROID_BUILD := .build/android
ANDROID_SOURCES := $(shell find $(ANDROID_DIR)/src/main/kotlin $(ANDROID_DIR)/src/test/kotlin -name '*.kt' 2>/dev/null | sort)
ANDROID_LIBS := /usr/share/java/com.android.json.jar:/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar
ANDROID_JAVA_HOME = $(shell dirname $$(dirname $$(readlink -f $$(command -v javac))))

.PHONY: android-test

# Kotlin compiles only when a source changed (kotlinc takes ~15 s here): main and test sources in one
# kotlinc run. The stamp is written last, so a failed compile is retried next time.
$(ANDROID_BUILD)/classes.stamp: $(ANDROID_SOURCES) | bootstrap
	@rm -rf $(ANDROID_BUILD)/classes && mkdir -p $(ANDROID_BUILD)
	@echo "android: kotlinc $$(kotlinc -version 2>&1 | grep -o 'kotlinc-jvm [^ ]*') ($(words $(ANDROID_SOURCES)) files)"
	@kotlinc -cp $(ANDROID_LIBS) -d $(ANDROID_BUILD)/classes $(ANDROID_SOURCES) 2>&1 | grep -v -e 'Xverify:none' -e '^$$' || true
	@test -f $(ANDROID_BUILD)/classes/com/payhandoff/TestMain.class
	@touch $@

android-test: lib $(ANDROID_BUILD)/classes.stamp
	@start=$$(date +%s); \
	JAVA_HOME=$(ANDROID_JAVA_HOME) cmake -S $(ANDROID_DIR) -B $(ANDROID_BUILD)/cmake -DCMAKE_BUILD_TYPE=Release \
	  -DPAYHANDOFF_LIBRARY=$(CURDIR)/dist/embedded/libpayhandoff.so > $(ANDROID_BUILD)/cmake.log 2>&1 \
	  || { cat $(ANDROID_BUILD)/cmake.log; exit 1; }; \
	grep -o 'PayHandoff: .*' $(ANDROID_BUILD)/cmake.log | sed 's/^/android: cmake: /'; \
	cmake --build $(ANDROID_BUILD)/cmake > $(ANDROID_BUILD)/cmake-build.log 2>&1 || { cat $(ANDROID_BUILD)/cmake-build.log; exit 1; }; \
	mkdir -p $(ANDROID_BUILD)/fake-abi; \
	$(CC) -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -shared -fPIC -Wl,-soname,libpayhandoff.so -Wl,--version-script=abi/payhandoff.map $(ANDROID_DIR)/src/test/cpp/fake_abi.c \
	  -o $(ANDROID_BUILD)/fake-abi/libpayhandoff.so; \
	nm -D --defined-only $(ANDROID_BUILD)/fake-abi/libpayhandoff.so | awk '$$2 == "T" {sub(/@.*/, "", $$3); print $$3}' | sort \
	  | diff - <(sort abi/symbols.txt) > $(ANDROID_BUILD)/fake-abi/symbols.diff \
	  || { echo "android-test: src/test/cpp/fake_abi.c must define every function of abi/symbols.txt:"; cat $(ANDROID_BUILD)/fake-abi/symbols.diff; exit 1; }; \
	java -cp $(ANDROID_BUILD)/classes:/usr/share/java/kotlin-stdlib.jar:$(ANDROID_LIBS) \
	  -Dpayhandoff.jni.path=$(CURDIR)/$(ANDROID_BUILD)/cmake/libpayhandoff_jni.so -Dpayhandoff.vectors=$(CURDIR)/Tests/Vectors \
	  -Dpayhandoff.fake.abi.dir=$(CURDIR)/$(ANDROID_BUILD)/fake-abi \
	  com.payhandoff.TestMain > $(ANDROID_BUILD)/test.log 2>&1 && status=0 || status=$$?; \
	grep -E '^(FAIL|skip|android-test|-Xcheck)' $(ANDROID_BUILD)/test.log || true; \
	echo "android-test: $$(( $$(date +%s) - start )) s (cmake, JUnit, second JVM, -Xcheck:jni JVM); log: $(ANDROID_BUILD)/test.log"; \
	tail -1 $(ANDROID_BUILD)/test.log; \
	test $$status -eq 0
