// STAND-IN for React Native's codegen output, for one purpose only: compiling
// cpp/NativePayHandoffModule.h here, so that its forwarding matches PayHandoffBridge.h (names,
// argument and return types). It is not React Native and proves nothing about the JSI glue.
// The real header declares NativePayHandoffCxxSpec<T> from src/NativePayHandoff.ts; this one
// only checks, like codegen's spec does, that T has each method with a matching signature.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace facebook {
namespace jsi {
class Runtime {};
} // namespace jsi
namespace react {
class CallInvoker {};

template <typename T> class NativePayHandoffCxxSpec {
 public:
  static constexpr const char *kModuleName = "PayHandoff";

 protected:
  explicit NativePayHandoffCxxSpec(std::shared_ptr<CallInvoker> jsInvoker) : jsInvoker_(std::move(jsInvoker)) {
    using R = jsi::Runtime &;
    using S = std::string;
    static_assert(std::is_same_v<decltype(&T::abiVersion), double (T::*)(R)>);
    static_assert(std::is_same_v<decltype(&T::version), S (T::*)(R)>);
    static_assert(std::is_same_v<decltype(&T::posBuildUrl), S (T::*)(R, S)>);
    static_assert(std::is_same_v<decltype(&T::posParseResponse), S (T::*)(R, S, S)>);
    static_assert(std::is_same_v<decltype(&T::posParseResult), S (T::*)(R, S, S)>);
    static_assert(std::is_same_v<decltype(&T::posRefundCheck), S (T::*)(R, S)>);
    static_assert(std::is_same_v<decltype(&T::checkoutBuildRequest), S (T::*)(R, S)>);
    static_assert(std::is_same_v<decltype(&T::checkoutParseSession), S (T::*)(R, S)>);
    static_assert(std::is_same_v<decltype(&T::checkoutParseCallback), S (T::*)(R, S, S)>);
    static_assert(std::is_same_v<decltype(&T::checkoutParseConfirmation), S (T::*)(R, S)>);
    static_assert(std::is_same_v<decltype(&T::coordinatorCreate), S (T::*)(R, std::optional<S>)>);
    static_assert(std::is_same_v<decltype(&T::coordinatorRestore), S (T::*)(R, S)>);
    static_assert(std::is_same_v<decltype(&T::coordinatorSend), S (T::*)(R, double, S)>);
    static_assert(std::is_same_v<decltype(&T::coordinatorHandleUrl), S (T::*)(R, double, S, double)>);
    static_assert(std::is_same_v<decltype(&T::coordinatorSnapshot), S (T::*)(R, double)>);
    static_assert(std::is_same_v<decltype(&T::coordinatorDispose), bool (T::*)(R, double)>);
  }

  std::shared_ptr<CallInvoker> jsInvoker_;
};
} // namespace react
} // namespace facebook
