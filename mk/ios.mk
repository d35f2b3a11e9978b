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
APT_PACKAGES += $(if $(shell command -v npm 2>/dev/null),,npm)

RN_PACK_DIR := dist/react-native

.PHONY: react-native-pack ios-check

react-native-pack: android
	@rm -rf $(RN_PACK_DIR) && mkdir -p $(RN_PACK_DIR)
	sh scripts/pack_react_native.sh
	cd bindings/react-native && npm pack --silent --ignore-scripts --pack-destination $(CURDIR)/$(RN_PACK_DIR) >/dev/null
	@ls -l $(RN_PACK_DIR)/*.tgz | awk '{print "react-native-pack: " $$NF " (" $$5 " bytes)"}'

ios-check: bootstrap react-native-pack
	scripts/ios_check.sh $$(ls $(RN_PACK_DIR)/*.tgz) .build/ios-check
