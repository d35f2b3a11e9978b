// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/module/model/ReactModuleInfoProvider.java` (read at commit f98df20fea4ff49359981fa55b0845fd4efb6cf2).
package com.facebook.react.module.model;

import java.util.Map;

public interface ReactModuleInfoProvider {
  Map<String, ReactModuleInfo> getReactModuleInfos();
}
