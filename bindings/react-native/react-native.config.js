// Autolinking (React Native CLI, Expo): on Android this package is a library (android/build.gradle:
// codegen for src/NativePayHandoff.ts, and PayHandoffPackage, which offers no module) plus the C++
// TurboModule below: autolinking adds android/CMakeLists.txt to the app's CMake build, links
// payhandoff_rn, and the generated autolinking.cpp creates NativePayHandoffModule (kModuleName
// 'PayHandoff') by this header name. README, "Android autolinking"; test/package-layout.test.js.
// iOS uses PayHandoff.podspec and codegenConfig.ios.modulesProvider.
module.exports = {
  dependency: {
    platforms: {
      android: {
        cxxModuleCMakeListsModuleName: 'payhandoff_rn',
        cxxModuleCMakeListsPath: 'CMakeLists.txt',
        cxxModuleHeaderName: 'NativePayHandoffModule',
      },
    },
  },
};
