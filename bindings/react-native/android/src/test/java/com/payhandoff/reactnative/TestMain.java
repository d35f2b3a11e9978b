// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import org.junit.runner.JUnitCore;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;

/** Runs PosIntentLauncherTest; ends with "N passed, N failed" and exits non-zero on a failure. */
public final class TestMain {
  private TestMain() {}

  public static void main(String[] args) {
    Result result = new JUnitCore().run(PosIntentLauncherTest.class);
    for (Failure failure : result.getFailures()) {
      System.out.println("FAIL: " + failure.getDescription().getDisplayName() + ": " + failure.getMessage());
    }
    int failed = result.getFailureCount();
    System.out.println("react-native-java-test: " + (result.getRunCount() - failed) + " passed, " + failed + " failed, "
        + result.getIgnoreCount() + " skipped, " + result.getRunTime() + " ms");
    System.exit(failed == 0 && result.getRunCount() > 0 ? 0 : 1);
  }
}
