# iOS (no Xcode, CocoaPods or Apple SDK on this machine): included by the main Makefile.
#   make react-native-pack  the React Native package as npm packs it, into dist/react-native/
#                           (scripts/pack_react_native.sh first copies the core's sources,
#                           cJSON, the header and the Android libraries of make android next to it)
#   make ios-check          compiles the Swift files the package's podspec names as one Embedded
#                           module for arm64-apple-ios and checks the symbols it needs exist on
#                           iOS (scripts/ios_check.sh): the guard that the pod builds from source;
#                           then the pod's public headers as the framework module CocoaPods makes with
#                           use_frameworks!, compiled from C, ObjC and ObjC++ (-fmodules), and the same
#                           with the C++ bridge headers public, which must fail
BINDING_TESTS += ios-check
# npm (npm pack here, make web-pack, the npm pack --dry-run tests): NodeSource's nodejs bundles it,
# Debian's nodejs does not.
APT_npm := $(APT_node) $(if $(shell command -v npm 2>/dev/null),,npm)
APT_PACKAGES += $(APT_npm)

RN_PACK_DIR := dist/react-native

.PHONY: react-native-pack ios-check

# What the tarball is made of (the prepack step's copies in core/, lib/, android/prebuilt/ excluded):
# ios-check and react-native-test find it packed and pack again only when one of these changed.
RN_PACK_INPUTS := $(shell find bindings/react-native \( -path bindings/react-native/core -o -path bindings/react-native/lib \
  -o -path bindings/react-native/android/prebuilt -o -name node_modules \) -prune -o -type f ! -name LICENSE -print 2>/dev/null) \
  $(CORE_SOURCES) $(ABI_SOURCES) include/payhandoff.h scripts/pack_react_native.sh $(ANDROID_SO_FILES)

react-native-pack: $(RN_PACK_DIR)/pack.stamp
	@ls -l $(RN_PACK_DIR)/*.tgz | awk '{print "react-native-pack: " $$NF " (" $$5 " bytes)"}'

$(RN_PACK_DIR)/pack.stamp: $(RN_PACK_INPUTS) | android bootstrap-npm bootstrap-react-native
	@rm -rf $(RN_PACK_DIR) && mkdir -p $(RN_PACK_DIR)
	sh scripts/pack_react_native.sh
	cd bindings/react-native && npm pack --silent --ignore-scripts --pack-destination $(CURDIR)/$(RN_PACK_DIR) >/dev/null
	@touch $@

ios-check: react-native-pack
	scripts/ios_check.sh $$(ls $(RN_PACK_DIR)/*.tgz) .build/ios-check
