# SPDX-License-Identifier: Apache-2.0
# iOS: the C++ TurboModule and bridge, and the PayHandoff core compiled from source in the pod:
# the Swift core and C ABI as one Swift module, cJSON as C. No prebuilt framework.
# `npm pack` (prepack: scripts/pack_react_native.sh) copies the sources into core/; make ios-check
# compiles exactly the Swift files these globs name for arm64-apple-ios (Embedded Swift) and fails
# on anything Linux-only. CocoaPods and Xcode themselves are not on the build machine: this file
# is checked (globs, module map, flags), not run.
require "json"

package = JSON.parse(File.read(File.join(__dir__, "package.json")))

Pod::Spec.new do |s|
  s.name         = "PayHandoff"
  s.version      = package["version"]
  s.summary      = package["description"]
  s.homepage     = "https://github.com/payhandoff/payhandoff"
  s.license      = { :type => package["license"] }   # "Apache-2.0" (SPDX), from package.json
  s.authors      = "PayHandoff"
  s.platforms    = { :ios => "15.1" }
  s.source       = { :path => "." }
  s.swift_version = "6.0"

  # A literal array of strings: scripts/podspec_sources.py reads it for make ios-check.
  s.source_files = [
    "cpp/PayHandoffBridge.{h,cpp}", "cpp/PayHandoffBridgeCalls.h", "cpp/NativePayHandoffModule.h",
    "ios/*.{h,mm}",
    "core/include/payhandoff.h",
    "core/Sources/PayHandoff/**/*.swift",
    "core/Sources/PayHandoffABI/*.swift",
    "core/third_party/cjson/cJSON.{c,h}"
  ]
  # Public: the C header only. With use_frameworks! CocoaPods puts every public header in the
  # umbrella header of a framework module that Objective-C and Swift importers compile as C/ObjC;
  # the C++ headers (<optional>, <string>) would fail there ("'optional' file not found"). They
  # stay private: the pod's own .mm/.cpp reach them through HEADER_SEARCH_PATHS. make ios-check
  # builds the module CocoaPods would make from these lines and imports it from C, ObjC and ObjC++.
  s.public_header_files = "core/include/payhandoff.h"
  s.private_header_files = "cpp/PayHandoffBridge.h", "cpp/PayHandoffBridgeCalls.h", "cpp/NativePayHandoffModule.h",
                           "core/third_party/cjson/cJSON.h"
  # ios/CcJSON: the module map the Swift files import cJSON through. PayHandoffBridgeCalls.inc:
  # generated forwarding (tools/abigen) that PayHandoffBridge.cpp includes; not compiled on its own.
  s.preserve_paths = "ios/CcJSON/*", "cpp/PayHandoffBridgeCalls.inc"
  s.pod_target_xcconfig = {
    "CLANG_CXX_LANGUAGE_STANDARD" => "c++20",
    "HEADER_SEARCH_PATHS" => "\"$(PODS_TARGET_SRCROOT)/cpp\" \"$(PODS_TARGET_SRCROOT)/core/include\" \"$(PODS_TARGET_SRCROOT)/core/third_party/cjson\"",
    # The core and the ABI are one module here (as in the Embedded builds): the ABI's
    # `import PayHandoff` is compiled out, and `import CcJSON` finds ios/CcJSON/module.modulemap.
    "SWIFT_ACTIVE_COMPILATION_CONDITIONS" => "$(inherited) PAYHANDOFF_SINGLE_MODULE",
    "SWIFT_INCLUDE_PATHS" => "$(inherited) \"$(PODS_TARGET_SRCROOT)/ios/CcJSON\"",
    "OTHER_SWIFT_FLAGS" => "$(inherited) -Xcc -I\"$(PODS_TARGET_SRCROOT)/core/third_party/cjson\""
  }

  # React Native's helper: React-Core, ReactCommon/turbomodule, codegen for codegenConfig.
  install_modules_dependencies(s)
end
