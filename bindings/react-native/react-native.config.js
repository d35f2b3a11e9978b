// Autolinking (React Native CLI): on Android the pure C++ TurboModule is built from
// android/CMakeLists.txt and registered in the app's generated OnLoad code by
// cxxModuleHeaderName (the class NativePayHandoffModule, kModuleName 'PayHandoff').
// iOS uses PayHandoff.podspec and codegenConfig.ios.modulesProvider. Not exercised here.
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
