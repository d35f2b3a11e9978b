# React Native binding (bindings/react-native): included by the main Makefile.
#   make react-native-test   tsc --strict over src/; the C++ bridge's own test (plain, under
#                            valgrind memcheck and helgrind); the TurboModule class compiled
#                            against a codegen stand-in (forwarding only); the Node-API addon
#                            (the TurboModule's methods over the same bridge) and the compiled
#                            TypeScript API under `node --test` against the real core; the packed
#                            tarball's Android autolinking layout (test/package-layout.test.js: the
#                            upstream rules it needs, android/CMakeLists.txt configured for each
#                            ABI, npm pack --dry-run against the expected file list).
#   make react-native-java-test  the package's Java (PosIntentLauncher) by javac and JUnit, no Android SDK
#                            android/'s Java compiled against signature-only stand-ins of React Native
#                            and android.* (android/src/test/stand-ins), then its JUnit suite on the
#                            host JVM against recording fakes (android/src/test/java); no logging call.
# The JSI integration (React Native's headers, ios/, android/'s Gradle build) is not compiled here.
APT_react-native := node-typescript
# Node-API headers: NodeSource's nodejs ships them; with Debian's nodejs they are in libnode-dev.
APT_react-native += $(if $(wildcard /usr/include/node/node_api.h),,libnode-dev) $(APT_valgrind) $(APT_node)
APT_PACKAGES += $(APT_react-native)
BINDING_TESTS += react-native-test react-native-java-test
# The Java module's compile and JUnit run: javac, JUnit 4, Android's org.json (the platform's, on the host).
APT_react-native-java := default-jdk-headless junit4 libandroid-json-java
APT_PACKAGES += $(APT_react-native-java)

RN_DIR := bindings/react-native
RN_BUILD := $(CURDIR)/.build/react-native
RN_LIB_FLAVOUR ?= embedded
RN_LIB_DIR := $(CURDIR)/dist/$(RN_LIB_FLAVOUR)
RN_CXXFLAGS := -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude -I$(RN_DIR)/cpp
RN_LINK := -L$(RN_LIB_DIR) -lpayhandoff -Wl,-rpath,$(RN_LIB_DIR) -pthread
# valgrind runs against the same library before stripping (.build/lib/*), as c-harness does.
RN_VG_LINK := -L$(CURDIR)/.build/lib/$(RN_LIB_FLAVOUR) -lpayhandoff -Wl,-rpath,$(CURDIR)/.build/lib/$(RN_LIB_FLAVOUR) -pthread
# Node's headers: /usr/include/node (Debian, NodeSource), else next to the node binary.
RN_NODE_INCLUDE ?= $(firstword $(wildcard /usr/include/node/node_api.h $(dir $(shell command -v node 2>/dev/null))../include/node/node_api.h))

.PHONY: react-native-test react-native-java-test

RN_JAVA_BUILD := $(CURDIR)/.build/react-native-java
RN_JAVA_MAIN := $(sort $(wildcard $(RN_DIR)/android/src/main/java/com/payhandoff/reactnative/*.java))
RN_JAVA_STANDINS := $(sort $(shell find $(RN_DIR)/android/src/test/stand-ins -name '*.java' 2>/dev/null))
RN_JAVA_TESTS := $(sort $(shell find $(RN_DIR)/android/src/test/java -name '*.java' 2>/dev/null))
RN_JAVA_LIBS := /usr/share/java/com.android.json.jar
RN_JUNIT := /usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar
# --release 8: the library's build.gradle sets no compileOptions, and AGP's default is Java 8.
RN_JAVAC := javac --release 8 -encoding UTF-8 -Xlint:all,-options -Werror

# The module never logs (its intents hold SumUp's affiliate key or Billpocket's user token, its
# results may hold tokens): no logging call may appear in it. Every stand-in names its upstream
# file; every fake says it is one.
react-native-java-test: | bootstrap-react-native-java
	@rm -rf $(RN_JAVA_BUILD) && mkdir -p $(RN_JAVA_BUILD)/stand-ins $(RN_JAVA_BUILD)/main $(RN_JAVA_BUILD)/test
	@start=$$(date +%s%N); \
	if grep -nE 'android\.util\.Log|\bLog\.[a-z]+\(|FLog|System\.(out|err)|printStackTrace|Timber' $(RN_JAVA_MAIN); then \
	  echo "react-native-java-test: a logging call in the module (above): it must never log"; exit 1; fi; \
	for f in $(RN_JAVA_STANDINS); do grep -q '^// Upstream: ' $$f || { echo "react-native-java-test: $$f cites no upstream file"; exit 1; }; done; \
	for f in $(RN_JAVA_TESTS); do grep -q 'TEST FAKE\|@Test\|JUnitCore' $$f || { echo "react-native-java-test: $$f is neither a fake nor a test"; exit 1; }; done; \
	echo "react-native-java-test: $$(javac -version 2>&1): $(words $(RN_JAVA_STANDINS)) stand-ins, then $(words $(RN_JAVA_MAIN)) module sources against them"; \
	$(RN_JAVAC) -Xlint:-serial -d $(RN_JAVA_BUILD)/stand-ins $(RN_JAVA_STANDINS); \
	$(RN_JAVAC) -cp $(RN_JAVA_BUILD)/stand-ins:$(RN_JAVA_LIBS) -d $(RN_JAVA_BUILD)/main $(RN_JAVA_MAIN); \
	$(RN_JAVAC) -cp $(RN_JAVA_BUILD)/stand-ins:$(RN_JAVA_BUILD)/main:$(RN_JAVA_LIBS):$(RN_JUNIT) -d $(RN_JAVA_BUILD)/test $(RN_JAVA_TESTS); \
	java -cp $(RN_JAVA_BUILD)/test:$(RN_JAVA_BUILD)/main:$(RN_JAVA_BUILD)/stand-ins:$(RN_JAVA_LIBS):$(RN_JUNIT) \
	  com.payhandoff.reactnative.TestMain; \
	echo "react-native-java-test: done in $$(( ($$(date +%s%N) - start) / 1000000 )) ms"

react-native-test: lib react-native-pack | bootstrap-react-native
	@test -n "$(RN_NODE_INCLUDE)" || { echo "react-native-test: node_api.h not found (set RN_NODE_INCLUDE)"; exit 1; }
	@rm -rf $(RN_BUILD) && mkdir -p $(RN_BUILD)/node_modules/react-native
	@start=$$(date +%s%N); \
	echo "react-native-test: tsc $$(tsc --version | cut -d' ' -f2) --noEmit --strict over $(RN_DIR)/src and test/types.check.ts"; \
	tsc -p $(RN_DIR)/tsconfig.json --noEmit --strict; \
	tsc -p $(RN_DIR)/tsconfig.check.json --strict; \
	mkdir -p $(RN_BUILD)/readme && node $(RN_DIR)/test/readme-check.js $(RN_DIR)/README.md $(RN_BUILD)/readme/readme.check.ts; \
	tsc --noEmit --strict --target ES2020 --module commonjs --lib ES2020 $(RN_BUILD)/readme/readme.check.ts \
	  $(RN_DIR)/types/react-native-ambient.d.ts $(RN_DIR)/test/readme-hosts.d.ts; \
	tsc -p $(RN_DIR)/tsconfig.json --outDir $(RN_BUILD)/lib; \
	$(CXX) $(RN_CXXFLAGS) $(RN_DIR)/cpp/PayHandoffBridge.cpp $(RN_DIR)/cpp/test/bridge_test.cpp $(RN_LINK) -o $(RN_BUILD)/bridge_test; \
	$(RN_BUILD)/bridge_test; \
	$(CXX) $(RN_CXXFLAGS) -g $(RN_DIR)/cpp/PayHandoffBridge.cpp $(RN_DIR)/cpp/test/bridge_test.cpp $(RN_VG_LINK) -o $(RN_BUILD)/bridge_test_vg; \
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
	  --suppressions=Tests/CHarness/valgrind.supp $(RN_BUILD)/bridge_test_vg | sed 's/^/memcheck: /'; \
	valgrind -q --tool=helgrind --error-exitcode=98 --suppressions=$(RN_DIR)/cpp/test/helgrind.supp \
	  $(RN_BUILD)/bridge_test_vg | sed 's/^/helgrind: /'; \
	$(CXX) $(RN_CXXFLAGS) -I$(RN_DIR)/cpp/test/stub-rn $(RN_DIR)/cpp/PayHandoffBridge.cpp $(RN_DIR)/cpp/test/module_forwarding_test.cpp \
	  $(RN_LINK) -o $(RN_BUILD)/module_test; \
	$(RN_BUILD)/module_test; \
	$(CXX) $(RN_CXXFLAGS) -fPIC -shared -I$(dir $(RN_NODE_INCLUDE)) -DNODE_GYP_MODULE_NAME=payhandoff_rn_test \
	  $(RN_DIR)/node/addon.cpp $(RN_DIR)/cpp/PayHandoffBridge.cpp $(RN_LINK) -o $(RN_BUILD)/payhandoff.node; \
	cp $(RN_DIR)/test/stubs/react-native.js $(RN_BUILD)/node_modules/react-native/index.js; \
	echo "react-native-test: node --test against dist/$(RN_LIB_FLAVOUR)/libpayhandoff.so"; \
	PAYHANDOFF_RN_BUILD=$(RN_BUILD) PAYHANDOFF_VECTORS=$(CURDIR)/Tests/Vectors PAYHANDOFF_ROOT=$(CURDIR) \
	  PAYHANDOFF_RN_TARBALL=$$(ls $(CURDIR)/$(RN_PACK_DIR)/react-native-payhandoff-*.tgz) \
	  node --test --test-reporter=spec $(RN_DIR)/test/*.test.js 2>&1 | tee $(RN_BUILD)/node-test.log; \
	echo "react-native-test: done in $$(( ($$(date +%s%N) - start) / 1000000 )) ms"
