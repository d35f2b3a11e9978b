# Android (bindings/android, issues 6 and 17).
#   make android          dist/android/jni/<ABI>/libpayhandoff.so for arm64-v8a, armeabi-v7a, x86, x86_64
#                         (Embedded Swift core + C ABI, cJSON and the JNI shim in one library per ABI,
#                         built here with swiftc/clang/ld.lld and Debian's cross headers: no NDK, no
#                         Swift SDK for Android), dist/android/payhandoff-<version>.aar, its
#                         native-debug-symbols.zip and the Maven repository dist/maven/
#   make android-check    the ELF checks of scripts/check_android_libs.py on every library, and the
#                         checker on a deliberately wrong library (it must find problems)
#   make android-harness  the C harness against each library: arm64 under qemu-aarch64 with a
#                         heap-tagging allocator (and the control run it must stop), armv7 under
#                         qemu-arm, x86 in the host's 32-bit mode (or qemu-i386), x86_64 natively
#   make android-test     the JUnit suite (host JVM) against the classes.jar taken out of the AAR: the
#                         vectors, scenarios, a second JVM restoring a snapshot, threads, an ABI
#                         mismatch, everything again under -Xcheck:jni; ends with "N passed, N failed".
#                         Native side: the JNI shim built for the host with Debian's cmake from
#                         bindings/android/CMakeLists.txt over dist/embedded/libpayhandoff.so; then
#                         the in-process suites again with the AAR's own jni/x86_64/libpayhandoff.so
#                         loaded by System.loadLibrary("payhandoff"), as an app loads it; and the
#                         Swift SDK layout (a libpayhandoff.so without JNI functions next to
#                         libpayhandoff_jni.so) loading through the Kotlin fallback.
#   make android-publish-check  dist/maven (POM, Gradle module metadata, sources/javadoc jars, the
#                         .md5/.sha1/.sha256 of every file) and dist/android/native-debug-symbols.zip
#                         (build-ids equal to the AAR's stripped libraries), then the checker on
#                         corrupted copies (scripts/check_maven_layout.py)
#   make maven-check      dist/maven resolved offline by Debian's Maven (scripts/maven_check.sh)
#   make proguard-check   an app minified by Debian's ProGuard with the AAR's consumer rules logs
#                         NotOurs, not an obfuscated name (scripts/proguard_check.sh)
# default-jdk-headless: jni.h for the shim and `jar` (kotlin alone may bring only a JRE).
APT_android := cmake kotlin junit4 libandroid-json-java default-jdk-headless \
  qemu-user gcc-aarch64-linux-gnu gcc-arm-linux-gnueabi libc6-dev-arm64-cross libc6-dev-armel-cross \
  gcc-i686-linux-gnu libc6-dev-i386-cross maven libmaven-dependency-plugin-java proguard-cli
APT_PACKAGES += $(APT_android)
BINDING_TESTS += android-check android-harness android-test android-publish-check maven-check proguard-check

ANDROID_DIR := bindings/android
ANDROID_BUILD := .build/android
ANDROID_ABIS := arm64-v8a armeabi-v7a x86 x86_64
ANDROID_MAIN_SOURCES := $(shell find $(ANDROID_DIR)/src/main/kotlin -name '*.kt' 2>/dev/null | sort)
ANDROID_TEST_SOURCES := $(shell find $(ANDROID_DIR)/src/test/kotlin -name '*.kt' 2>/dev/null | sort)
ANDROID_LIBS := /usr/share/java/com.android.json.jar:/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar
ANDROID_KOTLIN_STDLIB := /usr/share/java/kotlin-stdlib.jar
ANDROID_JAVA_HOME = $(shell dirname $$(dirname $$(readlink -f $$(command -v javac))))
# The library version (abi/payhandoff.json; payhandoff_version() reports it); the AAR is named after it.
ANDROID_VERSION := $(shell python3 tools/abigen/abigen.py --get library_version)
ANDROID_AAR := dist/android/payhandoff-$(ANDROID_VERSION).aar
ANDROID_SO := $(foreach abi,$(ANDROID_ABIS),$(abi)=dist/android/jni/$(abi)/libpayhandoff.so)

.PHONY: android android-libs android-check android-harness android-test android-publish-check maven-check proguard-check

# Each kotlinc run takes ~15 s here: the Kotlin API (what the AAR ships) and the tests compile
# only when one of their sources changed. The stamps are written last, so a failed compile is
# retried next time. -module-name: the AAR's classes.jar holds META-INF/payhandoff.kotlin_module,
# not a main.kotlin_module that would clash with another library's in an APK.
$(ANDROID_BUILD)/main.stamp: $(ANDROID_MAIN_SOURCES) | bootstrap-android
	@rm -rf $(ANDROID_BUILD)/main-classes && mkdir -p $(ANDROID_BUILD)
	@echo "android: kotlinc $$(kotlinc -version 2>&1 | grep -o 'kotlinc-jvm [^ ]*'): the Kotlin API ($(words $(ANDROID_MAIN_SOURCES)) files)"
	@kotlinc -module-name payhandoff -cp $(ANDROID_LIBS) -d $(ANDROID_BUILD)/main-classes $(ANDROID_MAIN_SOURCES) 2>&1 | grep -v -e 'Xverify:none' -e '^$$' || true
	@test -f $(ANDROID_BUILD)/main-classes/com/payhandoff/PayHandoff.class
	@touch $@

# The libraries and the AAR are files with their inputs, so each test of this fragment (and
# react-native-pack, ios-check) finds them built and rebuilds nothing.
ANDROID_SO_FILES := $(foreach abi,$(ANDROID_ABIS),dist/android/jni/$(abi)/libpayhandoff.so)
ANDROID_LIB_INPUTS := $(CORE_SOURCES) $(ABI_SOURCES) $(wildcard third_party/cjson/*) $(wildcard $(ANDROID_DIR)/src/main/cpp/*) \
  abi/android.map abi/android/bionic-libc-api24.txt scripts/build_android_libs.sh

$(ANDROID_SO_FILES) &: $(ANDROID_LIB_INPUTS) | bootstrap-android
	@scripts/build_android_libs.sh $(ANDROID_ABIS)

android-libs: $(ANDROID_SO_FILES)

# package_aar.sh leaves an AAR with the same bytes alone (so the JUnit classes compiled against
# it stay up to date): the stamp says it ran.
$(ANDROID_BUILD)/aar.stamp: $(ANDROID_SO_FILES) $(ANDROID_BUILD)/main.stamp scripts/package_aar.sh scripts/maven_layout.py \
  $(ANDROID_DIR)/consumer-rules.pro abi/payhandoff.json
	@scripts/package_aar.sh $(ANDROID_BUILD)/main-classes $(ANDROID_KOTLIN_STDLIB)
	@touch $@

android: $(ANDROID_BUILD)/aar.stamp

# The deliberately wrong library: cJSON compiled the ordinary glibc way (fortified, C11, exported,
# no SONAME, 4 KB pages, libc.so.6).
android-check: android
	@mkdir -p .build/android-check
	@$(CC) -O2 -D_FORTIFY_SOURCE=2 -std=c11 -shared -fPIC -w third_party/cjson/cJSON.c -o .build/android-check/glibc-cjson.so
	@scripts/check_android_libs.py $(ANDROID_SO)
	@scripts/check_android_libs.py --expect-failures x86_64=.build/android-check/glibc-cjson.so

android-harness: android
	@scripts/run_android_harness.sh $(ANDROID_ABIS)

# The tests compile against the classes.jar inside the AAR (they reach internal declarations only
# by reflection: kotlinc 1.3 ignores -Xfriend-paths for a jar) and run with it on the class path: what an app gets is what is tested.
$(ANDROID_BUILD)/test.stamp: $(ANDROID_TEST_SOURCES) $(ANDROID_AAR)
	@rm -rf $(ANDROID_BUILD)/test-classes && mkdir -p $(ANDROID_BUILD)/test-classes
	@python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("classes.jar"))' \
	  $(ANDROID_AAR) $(ANDROID_BUILD)/aar-classes.jar
	@echo "android: kotlinc: the JUnit tests ($(words $(ANDROID_TEST_SOURCES)) files) against classes.jar from $(ANDROID_AAR)"
	@kotlinc -module-name payhandoff -Xfriend-paths=$(ANDROID_BUILD)/aar-classes.jar -cp $(ANDROID_BUILD)/aar-classes.jar:$(ANDROID_LIBS) \
	  -d $(ANDROID_BUILD)/test-classes $(ANDROID_TEST_SOURCES) 2>&1 | grep -v -e 'Xverify:none' -e '^$$' || true
	@test -f $(ANDROID_BUILD)/test-classes/com/payhandoff/TestMain.class
	@touch $@

android-test: lib android $(ANDROID_BUILD)/test.stamp
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
	java -cp $(ANDROID_BUILD)/test-classes:$(ANDROID_BUILD)/aar-classes.jar:$(ANDROID_KOTLIN_STDLIB):$(ANDROID_LIBS) \
	  -Dpayhandoff.jni.path=$(CURDIR)/$(ANDROID_BUILD)/cmake/libpayhandoff_jni.so -Dpayhandoff.vectors=$(CURDIR)/Tests/Vectors \
	  -Dpayhandoff.fake.abi.dir=$(CURDIR)/$(ANDROID_BUILD)/fake-abi \
	  com.payhandoff.TestMain > $(ANDROID_BUILD)/test.log 2>&1 && status=0 || status=$$?; \
	grep -E '^(FAIL|skip|android-test|-Xcheck)' $(ANDROID_BUILD)/test.log || true; \
	echo "android-test: host shim over dist/embedded: $$(tail -1 $(ANDROID_BUILD)/test.log)"; \
	rm -rf $(ANDROID_BUILD)/aar-jni && mkdir -p $(ANDROID_BUILD)/aar-jni/libc; \
	python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("jni/x86_64/libpayhandoff.so", sys.argv[2])' $(ANDROID_AAR) $(ANDROID_BUILD)/aar-jni; \
	ln -sfn $$(readlink -f $$($(CC) -print-file-name=libc.so.6)) $(ANDROID_BUILD)/aar-jni/libc/libc.so; \
	LD_LIBRARY_PATH=$(CURDIR)/$(ANDROID_BUILD)/aar-jni/libc java -Djava.library.path=$(CURDIR)/$(ANDROID_BUILD)/aar-jni/jni/x86_64 \
	  -cp $(ANDROID_BUILD)/test-classes:$(ANDROID_BUILD)/aar-classes.jar:$(ANDROID_KOTLIN_STDLIB):$(ANDROID_LIBS) -Dpayhandoff.vectors=$(CURDIR)/Tests/Vectors \
	  com.payhandoff.TestMain --in-process-only > $(ANDROID_BUILD)/test-aar.log 2>&1 && aar_status=0 || aar_status=$$?; \
	grep -E '^FAIL' $(ANDROID_BUILD)/test-aar.log || true; \
	echo "android-test: the AAR's jni/x86_64/libpayhandoff.so by System.loadLibrary (vectors, scenarios, typed API, threads, Billpocket answers): $$(tail -1 $(ANDROID_BUILD)/test-aar.log)"; \
	rm -rf $(ANDROID_BUILD)/sdk-layout && mkdir -p $(ANDROID_BUILD)/sdk-layout; \
	ln -s $(CURDIR)/dist/embedded/libpayhandoff.so $(CURDIR)/$(ANDROID_BUILD)/cmake/libpayhandoff_jni.so $(ANDROID_BUILD)/sdk-layout/; \
	loaded=$$(java -Djava.library.path=$(CURDIR)/$(ANDROID_BUILD)/sdk-layout -cp $(ANDROID_BUILD)/test-classes:$(ANDROID_BUILD)/aar-classes.jar:$(ANDROID_KOTLIN_STDLIB):$(ANDROID_LIBS) \
	  com.payhandoff.AbiChild 2>&1 | tail -1); \
	case "$$loaded" in "loaded: ABI "*) sdk=0;; *) sdk=1;; esac; \
	if [ $$sdk -eq 0 ]; then echo "1 passed, 0 failed" > $(ANDROID_BUILD)/test-sdk.log; else echo "FAIL: $$loaded" > $(ANDROID_BUILD)/test-sdk.log; echo "0 passed, 1 failed" >> $(ANDROID_BUILD)/test-sdk.log; fi; \
	echo "android-test: the Swift SDK layout (libpayhandoff.so without JNI, then libpayhandoff_jni.so) by System.loadLibrary: $$loaded"; \
	echo "android-test: $$(( $$(date +%s) - start )) s (cmake, JUnit, second JVM, -Xcheck:jni JVM, the AAR's library, the SDK layout); classes from $(ANDROID_AAR); logs: $(ANDROID_BUILD)/test.log, test-aar.log"; \
	tail -q -n1 $(ANDROID_BUILD)/test.log $(ANDROID_BUILD)/test-aar.log $(ANDROID_BUILD)/test-sdk.log | awk '{p += $$1; f += $$3} END {print p " passed, " f " failed"}'; \
	test $$status -eq 0 && test $$aar_status -eq 0 && test $$sdk -eq 0

android-publish-check: android
	@scripts/check_maven_layout.py dist
	@scripts/check_maven_layout.py --expect-failures dist

maven-check: android
	@scripts/maven_check.sh

proguard-check: android
	@JAVA_HOME=$(ANDROID_JAVA_HOME) scripts/proguard_check.sh $(ANDROID_AAR) $(ANDROID_KOTLIN_STDLIB) /usr/share/java/com.android.json.jar
