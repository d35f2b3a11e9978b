# SPDX-License-Identifier: Apache-2.0
# iOS: the C++ TurboModule, the bridge and the PayHandoff core (prebuilt, see README).
# NOT EXERCISED HERE (no CocoaPods / Xcode on the build machine).
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

  s.source_files = "cpp/PayHandoffBridge.{h,cpp}", "cpp/PayHandoffBridgeCalls.h", "cpp/NativePayHandoffModule.h",
                   "ios/*.{h,mm}", "include/payhandoff.h"
  s.public_header_files = "cpp/PayHandoffBridge.h", "cpp/PayHandoffBridgeCalls.h", "include/payhandoff.h"
  # Generated forwarding (tools/abigen) that PayHandoffBridge.cpp includes; not compiled on its own.
  s.preserve_paths = "cpp/PayHandoffBridgeCalls.inc"
  # The core as an XCFramework built from the Swift package (Embedded Swift, device + simulator),
  # copied here before `pod install`; it exports only payhandoff_* (include/payhandoff.h).
  s.vendored_frameworks = "ios/PayHandoffCore.xcframework"
  s.pod_target_xcconfig = {
    "CLANG_CXX_LANGUAGE_STANDARD" => "c++20",
    "HEADER_SEARCH_PATHS" => "\"$(PODS_TARGET_SRCROOT)/cpp\" \"$(PODS_TARGET_SRCROOT)/include\""
  }

  # React Native's helper: React-Core, ReactCommon/turbomodule, codegen for codegenConfig.
  install_modules_dependencies(s)
end
