// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import android.app.Activity;
import android.content.ActivityNotFoundException;
import android.content.Intent;
import android.os.Bundle;
import com.facebook.react.bridge.ReactApplicationContext;
import com.facebook.react.module.model.ReactModuleInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.Test;

/**
 * PosIntentLauncher's Java logic on the host JVM, through fakes (src/test/java/android, …/facebook)
 * that record what the module does: the intent documents of issue 39's providers into the calls
 * made on an Intent, result Bundles into the result document, the queue before JavaScript listens
 * and across a new process, and that no value reaches a log or an error.
 */
public class PosIntentLauncherTest {
  private static final String SECRET = "sk_affiliate_5ecret_do_not_print";

  /** Square on Android as the spec's document has it (typed extras). */
  private static final String SQUARE = "{\"action\":\"com.squareup.pos.action.CHARGE\",\"package\":\"com.squareup\",\"extras\":["
      + "{\"key\":\"com.squareup.pos.CLIENT_ID\",\"value\":\"sq0idp-app\"},"
      + "{\"key\":\"com.squareup.pos.API_VERSION\",\"value\":\"v2.0\"},"
      + "{\"key\":\"com.squareup.pos.TOTAL_AMOUNT\",\"type\":\"int\",\"value\":10000},"
      + "{\"key\":\"com.squareup.pos.CURRENCY_CODE\",\"type\":\"string\",\"value\":\"USD\"},"
      + "{\"key\":\"com.squareup.pos.TENDER_TYPES\",\"type\":\"string_array\",\"value\":[\"com.squareup.pos.TENDER_CARD\",\"com.squareup.pos.TENDER_CASH\"]},"
      + "{\"key\":\"com.squareup.pos.AUTO_RETURN_TIMEOUT_MS\",\"type\":\"long\",\"value\":3200},"
      + "{\"key\":\"com.squareup.pos.REQUEST_METADATA\",\"value\":\"ord-1~0123456789abcdef\"}]}";

  private static final String CLIP = "{\"action\":\"android.intent.action.MAIN\","
      + "\"component\":\"com.payclip.blaze.pinpad/com.payclip.blaze.pinpad.shared.ui.MainActivity\",\"extras\":["
      + "{\"key\":\"PAYMENT_REFERENCE\",\"value\":\"ord-1~0123456789abcdef\"},"
      + "{\"key\":\"PAYMENT_AMOUNT\",\"value\":\"100.00\"},"
      + "{\"key\":\"PAYMENT_AUTO_RETURN\",\"type\":\"bool\",\"value\":true},"
      + "{\"key\":\"PAYMENT_RETRY\",\"type\":\"bool\",\"value\":false}]}";

  private static final String SUMUP = "{\"action\":\"android.intent.action.VIEW\",\"data\":"
      + "\"sumupmerchant://pay/1.0?total=100.00&currency=EUR&affiliate-key=" + SECRET + "&app-id=com.example&foreign-tx-id=ord-1~0123456789abcdef\",\"extras\":[]}";

  // ---- intent document → Intent -------------------------------------------------------------

  @Test
  public void squareDocumentPutsEachExtraWithItsJavaType() throws Exception {
    Intent intent = PosIntents.toIntent(SQUARE);
    assertEquals(Arrays.asList(
        "new Intent(com.squareup.pos.action.CHARGE)",
        "setPackage(com.squareup)",
        "putExtra(String) com.squareup.pos.CLIENT_ID=sq0idp-app",
        "putExtra(String) com.squareup.pos.API_VERSION=v2.0",
        "putExtra(int) com.squareup.pos.TOTAL_AMOUNT=10000",
        "putExtra(String) com.squareup.pos.CURRENCY_CODE=USD",
        "putExtra(String[]) com.squareup.pos.TENDER_TYPES=[com.squareup.pos.TENDER_CARD, com.squareup.pos.TENDER_CASH]",
        "putExtra(long) com.squareup.pos.AUTO_RETURN_TIMEOUT_MS=3200",
        "putExtra(String) com.squareup.pos.REQUEST_METADATA=ord-1~0123456789abcdef"), intent.calls);
    // The Bundle holds Java types, not text: Square reads TOTAL_AMOUNT with getIntExtra.
    assertEquals(Integer.valueOf(10000), intent.getExtras().get("com.squareup.pos.TOTAL_AMOUNT"));
    assertEquals(Long.valueOf(3200), intent.getExtras().get("com.squareup.pos.AUTO_RETURN_TIMEOUT_MS"));
  }

  @Test
  public void clipDocumentSetsTheComponentAndBooleans() throws Exception {
    Intent intent = PosIntents.toIntent(CLIP);
    assertEquals(Arrays.asList(
        "new Intent(android.intent.action.MAIN)",
        "setComponent(com.payclip.blaze.pinpad, com.payclip.blaze.pinpad.shared.ui.MainActivity)",
        "putExtra(String) PAYMENT_REFERENCE=ord-1~0123456789abcdef",
        "putExtra(String) PAYMENT_AMOUNT=100.00",
        "putExtra(boolean) PAYMENT_AUTO_RETURN=true",
        "putExtra(boolean) PAYMENT_RETRY=false"), intent.calls);
    // Android's flattened form: a class starting with '.' is in the package; with a package too, it must agree.
    assertEquals(Arrays.asList("new Intent(a)", "setComponent(com.x, com.x.Main)", "setPackage(com.x)"),
        PosIntents.toIntent("{\"action\":\"a\",\"package\":\"com.x\",\"component\":\"com.x/.Main\"}").calls);
  }

  @Test
  public void sumupDocumentSetsTheDataUri() throws Exception {
    Intent intent = PosIntents.toIntent(SUMUP);
    assertEquals(2, intent.calls.size());
    assertEquals("new Intent(android.intent.action.VIEW)", intent.calls.get(0));
    assertTrue(intent.calls.get(1).startsWith("setData(sumupmerchant://pay/1.0?total=100.00&"));
    assertNull(intent.getExtras());
    // Billpocket's document as today's core writes it (no type: strings; no data, no component).
    Intent billpocket = PosIntents.toIntent("{\"action\":\"billpocket.payments.START\",\"package\":\"com.billpocket.billpocket\","
        + "\"extras\":[{\"key\":\"transaction\",\"value\":\"venta\"},{\"key\":\"userToken\",\"value\":\"" + SECRET + "\"}]}");
    assertEquals(Arrays.asList("new Intent(billpocket.payments.START)", "setPackage(com.billpocket.billpocket)",
        "putExtra(String) transaction=venta", "putExtra(String) userToken=" + SECRET), billpocket.calls);
  }

  @Test
  public void wrongDocumentsAreRefusedNamingTheMemberNeverTheValue() {
    String[][] cases = {
        {"{\"action\":", "the intent is not a JSON object"},
        {"[\"" + SECRET + "\"]", "the intent is not a JSON object"},
        {"{\"package\":\"com.squareup\"}", "intent.action is missing"},
        {"{\"action\":7}", "intent.action is not a string"},
        {"{\"action\":\"a\",\"flags\":1}", "intent.flags is not a member of an intent document"},
        {"{\"action\":\"a\",\"package\":\"\"}", "intent.package is empty"},
        {"{\"action\":\"a\",\"data\":\"\"}", "intent.data is empty"},
        {"{\"action\":\"a\",\"component\":\"com.x\"}", "intent.component is not \"package/class\""},
        {"{\"action\":\"a\",\"component\":\"com.x/\"}", "intent.component is not \"package/class\""},
        {"{\"action\":\"a\",\"component\":\"com.x/a/b\"}", "intent.component is not \"package/class\""},
        {"{\"action\":\"a\",\"package\":\"com.y\",\"component\":\"com.x/.A\"}", "intent.component names another package than intent.package"},
        {"{\"action\":\"a\",\"extras\":{}}", "intent.extras is not an array"},
        {"{\"action\":\"a\",\"extras\":[\"" + SECRET + "\"]}", "intent.extras[0] is not an object"},
        {"{\"action\":\"a\",\"extras\":[{\"value\":\"" + SECRET + "\"}]}", "intent.extras[0].key is missing"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"\",\"value\":\"" + SECRET + "\"}]}", "intent.extras[0].key is empty"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"value\":\"" + SECRET + "\",\"secret\":true}]}", "intent.extras[0].secret is not a member of an extra"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"value\":\"" + SECRET + "\"},{\"key\":\"k\",\"value\":\"x\"}]}", "intent.extras has k twice"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\"}]}", "intent extra k has no value"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"value\":null}]}", "intent extra k has no value"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"value\":10000}]}", "intent extra k is not a string"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"int\",\"value\":\"10000\"}]}", "intent extra k is not a number"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"int\",\"value\":2147483648}]}", "intent extra k is outside an int's range"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"int\",\"value\":-2147483649}]}", "intent extra k is outside an int's range"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"int\",\"value\":100.5}]}", "intent extra k is not an integer (a fraction, an exponent or beyond 64 bits)"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"long\",\"value\":1e3}]}", "intent extra k is not an integer (a fraction, an exponent or beyond 64 bits)"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"long\",\"value\":9223372036854775808}]}", "intent extra k is not an integer (a fraction, an exponent or beyond 64 bits)"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"bool\",\"value\":\"true\"}]}", "intent extra k is not a boolean"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"string_array\",\"value\":\"" + SECRET + "\"}]}", "intent extra k is not an array of strings"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"string_array\",\"value\":[\"" + SECRET + "\",1]}]}", "intent extra k[1] is not a string"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"parcelable\",\"value\":\"" + SECRET + "\"}]}", "intent extra k has an unknown type (string, int, long, bool, string_array)"},
        {"{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":1,\"value\":\"" + SECRET + "\"}]}", "intent.extras[0].type is not a string"},
    };
    for (String[] c : cases) {
      try {
        PosIntents.toIntent(c[0]);
        fail("accepted: " + c[1]);
      } catch (PosIntents.BadIntentException e) {
        assertEquals(c[0], c[1], e.getMessage());
        assertFalse(e.getMessage().contains(SECRET));
      }
    }
    // The extremes that fit are put as they are.
    try {
      Intent intent = PosIntents.toIntent("{\"action\":\"a\",\"extras\":[{\"key\":\"i\",\"type\":\"int\",\"value\":2147483647},"
          + "{\"key\":\"j\",\"type\":\"int\",\"value\":-2147483648},{\"key\":\"l\",\"type\":\"long\",\"value\":9223372036854775807}]}");
      assertEquals(Arrays.asList("new Intent(a)", "putExtra(int) i=2147483647", "putExtra(int) j=-2147483648",
          "putExtra(long) l=9223372036854775807"), intent.calls);
    } catch (PosIntents.BadIntentException e) {
      fail(e.getMessage());
    }
  }

  // ---- result → document -----------------------------------------------------------------------

  @Test
  public void resultWithoutDataHasNullExtras() throws Exception {
    JSONObject r = PosIntents.result(0x5A00, 0, null, "sale-1");
    assertEquals("{\"request_code\":23040,\"result_code\":0,\"flow_id\":\"sale-1\",\"extras\":null}", r.toString());
    JSONObject empty = PosIntents.result(0x5A01, -1, new Intent("x"), "sale-2");
    assertEquals(0, empty.getJSONObject("extras").length());
    assertFalse(empty.has("other_extras"));
    assertFalse(empty.has("unsupported_extras"));
  }

  @Test
  public void resultSplitsStringExtrasFromTypedOnes() throws Exception {
    Bundle nested = new Bundle().with("n", 1).with("s", "t");
    Object parcelable = new Object() {
      @Override
      public String toString() {
        return SECRET;
      }
    };
    Bundle extras = new Bundle()
        .with("com.squareup.pos.SERVER_TRANSACTION_ID", "srv-1")
        .with("com.squareup.pos.REQUEST_METADATA", "ord-1~0123456789abcdef")
        .with("spanned", new StringBuilder("text"))
        .with("int", 7)
        .with("long_safe", 9007199254740991L)
        .with("long_big", 9007199254740993L)
        .with("bool", true)
        .with("double", 1.5)
        .with("nan", Double.NaN)
        .with("strings", new String[] {"a", null})
        .with("ints", new int[] {1, 2})
        .with("longs", new long[] {1L, Long.MAX_VALUE})
        .with("list", new ArrayList<>(Arrays.asList("x", "y")))
        .with("bundle", nested)
        .with("null", null)
        .with("parcelable", parcelable)
        .with("bundle_with_parcelable", new Bundle().with("p", parcelable));
    JSONObject r = PosIntents.result(0x5A02, -1, Intent.withExtras(extras), "sale-3");
    JSONObject strings = r.getJSONObject("extras");
    assertEquals(3, strings.length());
    assertEquals("srv-1", strings.getString("com.squareup.pos.SERVER_TRANSACTION_ID"));
    assertEquals("ord-1~0123456789abcdef", strings.getString("com.squareup.pos.REQUEST_METADATA"));
    assertEquals("text", strings.getString("spanned"));
    JSONObject others = r.getJSONObject("other_extras");
    assertEquals(7, others.get("int"));
    assertEquals(9007199254740991L, others.get("long_safe"));
    // Beyond 2^53 JavaScript's number would round it: it travels as its decimal text.
    assertEquals("9007199254740993", others.get("long_big"));
    assertEquals(Boolean.TRUE, others.get("bool"));
    assertEquals(1.5, others.getDouble("double"), 0);
    assertEquals("[\"a\",null]", others.getJSONArray("strings").toString());
    assertEquals("[1,2]", others.getJSONArray("ints").toString());
    assertEquals("[1,\"9223372036854775807\"]", others.getJSONArray("longs").toString());
    assertEquals("[\"x\",\"y\"]", others.getJSONArray("list").toString());
    assertEquals("{\"n\":1,\"s\":\"t\"}", others.getJSONObject("bundle").toString());
    assertTrue(others.isNull("null"));
    assertEquals(11, others.length());
    assertEquals("[\"bundle_with_parcelable\",\"nan\",\"parcelable\"]", r.getJSONArray("unsupported_extras").toString());
    assertFalse(r.toString().contains(SECRET));
  }

  // ---- the module ------------------------------------------------------------------------------

  /**
   * A module over fakes: its context, the app's activity and the preferences (`disk` is the file
   * across processes). A start goes as on Android: the module starts PosResultActivity for a
   * result, Android creates it (attach + onCreate), it starts the POS app.
   */
  private static final class Harness {
    final Map<String, Object> disk;
    final FakePreferences preferences;
    final String[] asked = new String[1];
    final ReactApplicationContext context;
    final Activity activity = new Activity();
    final PosIntentLauncherModule module;
    final Map<Integer, PosResultActivity> launchers = new HashMap<>();
    final Map<Integer, Intent> launcherIntents = new HashMap<>();

    Harness(Map<String, Object> disk) {
      this.disk = disk;
      preferences = new FakePreferences(disk);
      context = new ReactApplicationContext(preferences.context(asked));
      context.currentActivity = activity;
      module = new PosIntentLauncherModule(context);
    }

    Harness() {
      this(new HashMap<>());
    }

    /** startForResult, then Android creating PosResultActivity; the promise as it settled. */
    RecordingPromise launch(String json, String flowId) {
      RecordingPromise p = new RecordingPromise();
      int before = activity.started.size();
      module.startForResult(json, flowId, p);
      if (activity.started.size() == before) return p; // refused before any start
      assertEquals("settled only once the POS app was started", 0, p.settled);
      Intent launcherIntent = activity.started.get(before);
      int code = activity.requestCodes.get(before);
      PosResultActivity launcher = new PosResultActivity().attach(new FakePreferences(disk).context(new String[1]), launcherIntent);
      launcher.onCreate(null);
      launchers.put(code, launcher);
      launcherIntents.put(code, launcherIntent);
      return p;
    }

    int start(String json, String flowId) {
      RecordingPromise p = launch(json, flowId);
      assertEquals(1, p.settled);
      assertNull(p.code, p.message);
      return (Integer) p.resolved;
    }

    /** The POS app answers: PosResultActivity gets it, finishes, and the app's activity hears that. */
    void answer(int code, int resultCode, Intent data) {
      PosResultActivity launcher = launchers.get(code);
      launcher.onActivityResult(code, resultCode, data);
      assertTrue(launcher.finished);
      assertEquals(Integer.valueOf(Activity.RESULT_OK), launcher.resultCode);
      context.deliverActivityResult(activity, code, Activity.RESULT_OK, null);
    }

    JSONArray take() throws Exception {
      RecordingPromise p = new RecordingPromise();
      module.takeResults(p);
      assertEquals(1, p.settled);
      return new JSONArray((String) p.resolved);
    }
  }

  @Test
  public void startGoesThroughPosResultActivityAndTheResultIsTakenOnce() throws Exception {
    Harness h = new Harness();
    assertEquals("module name", "PosIntentLauncher", h.module.getName());
    assertEquals(PosResultStore.PREFERENCES + " mode 0", h.asked[0]);
    assertEquals(Arrays.asList((Object) h.module), new ArrayList<Object>(h.context.listeners));
    int code = h.start(SQUARE, "sale-42");
    assertEquals(PosResultStore.FIRST_REQUEST_CODE, code);
    // The app's activity started PosResultActivity (explicit, carrying the POS intent and the code) ...
    assertEquals(Arrays.asList(code), h.activity.requestCodes);
    assertEquals(Arrays.asList("new Intent(PosResultActivity)", "putExtra(Parcelable) com.payhandoff.reactnative.TARGET=Intent",
        "putExtra(int) com.payhandoff.reactnative.REQUEST_CODE=" + code), h.activity.started.get(0).calls);
    // ... which started the POS app's intent, with its typed extras, for a result with the same code.
    PosResultActivity launcher = h.launchers.get(code);
    assertEquals(Arrays.asList(code), launcher.requestCodes);
    assertEquals("putExtra(int) com.squareup.pos.TOTAL_AMOUNT=10000", launcher.started.get(0).calls.get(4));
    assertFalse(launcher.finished);
    assertEquals(0, h.take().length());

    Bundle extras = new Bundle().with("com.squareup.pos.SERVER_TRANSACTION_ID", "srv-1");
    h.answer(code, -1, Intent.withExtras(extras));
    // The event says that results wait; it carries none of them.
    assertEquals(Arrays.asList("PosIntentLauncher.results null"), h.context.events);
    JSONArray taken = h.take();
    assertEquals(1, taken.length());
    assertEquals("{\"request_code\":23040,\"result_code\":-1,\"flow_id\":\"sale-42\",\"extras\":{\"com.squareup.pos.SERVER_TRANSACTION_ID\":\"srv-1\"}}",
        taken.getJSONObject(0).toString());
    assertEquals("taken once", 0, h.take().length());
    // Delivered again (a replayed result): the launch is complete, nothing is added, no event.
    h.answer(code, -1, Intent.withExtras(extras));
    assertEquals(0, h.take().length());
    assertEquals(1, h.context.events.size());
    assertEquals("every write is a commit (on disk before the call returns)", 0, h.preferences.applies);
  }

  @Test
  public void resultsOfOtherLaunchesAreLeftAlone() throws Exception {
    Harness h = new Harness();
    int code = h.start(CLIP, "sale-1");
    h.context.deliverActivityResult(h.activity, 1, -1, Intent.withExtras(new Bundle().with("a", "b")));
    h.context.deliverActivityResult(h.activity, code + 1, -1, null); // in the range, never started
    h.launchers.get(code).onActivityResult(code + 1, -1, null);       // PosResultActivity: not a waiting launch
    assertEquals(0, h.take().length());
    assertTrue(h.context.events.isEmpty());
    h.answer(code, 0, null);
    JSONArray taken = h.take();
    assertEquals(1, taken.length());
    assertTrue(taken.getJSONObject(0).isNull("extras"));
    assertEquals(0, taken.getJSONObject(0).getInt("result_code"));
  }

  @Test
  public void aResultBeforeJavaScriptListensWaitsAndSurvivesANewProcess() throws Exception {
    Map<String, Object> disk = new HashMap<>();
    Harness first = new Harness(disk);
    int code = first.start(CLIP, "sale-7");
    first.context.jsNotReady = true;
    first.answer(code, -1,
        Intent.withExtras(new Bundle().with("PAYMENT_RESPONSE", "{\"reference\":\"ord-1~0123456789abcdef\",\"status\":\"approved\"}")));
    assertTrue(first.context.events.isEmpty());
    // The process dies before JavaScript takes it; the next one's module finds it on disk.
    Harness next = new Harness(disk);
    JSONArray taken = next.take();
    assertEquals(1, taken.length());
    assertEquals("sale-7", taken.getJSONObject(0).getString("flow_id"));
    assertEquals("{\"reference\":\"ord-1~0123456789abcdef\",\"status\":\"approved\"}",
        taken.getJSONObject(0).getJSONObject("extras").getString("PAYMENT_RESPONSE"));
    assertEquals(0, new Harness(disk).take().length());
  }

  @Test
  public void theProcessDiesWhileThePosAppIsInFront() throws Exception {
    Map<String, Object> disk = new HashMap<>();
    Harness before = new Harness(disk);
    int code = before.start(SQUARE, "sale-9");
    PosResultActivity launcher = before.launchers.get(code);
    // Android saves the activity's state when it goes to the background, then the process dies.
    Bundle saved = new Bundle();
    launcher.onSaveInstanceState(saved);
    // The POS app finishes: Android creates the process and PosResultActivity again from its saved
    // state and its Intent, with no React Native running, and delivers the result to it.
    PosResultActivity recreated = new PosResultActivity().attach(new FakePreferences(disk).context(new String[1]),
        before.launcherIntents.get(code));
    recreated.onCreate(saved);
    assertTrue("not started a second time", recreated.started.isEmpty());
    assertFalse(recreated.finished);
    recreated.onActivityResult(code, -1, Intent.withExtras(new Bundle().with("com.squareup.pos.CLIENT_TRANSACTION_ID", "cli-1")));
    assertTrue(recreated.finished);
    // React Native drops the app activity's result (its context is not ready): no module hears it.
    // JavaScript starts later, restores the coordinator, subscribes, and takes the result.
    Harness after = new Harness(disk);
    JSONArray taken = after.take();
    assertEquals(1, taken.length());
    assertEquals("sale-9", taken.getJSONObject(0).getString("flow_id"));
    assertEquals("cli-1", taken.getJSONObject(0).getJSONObject("extras").getString("com.squareup.pos.CLIENT_TRANSACTION_ID"));
    assertEquals("request codes go on where the last process stopped", code + 1, after.start(SQUARE, "sale-10"));
  }

  @Test
  public void aLauncherNotStartedByTheModuleStartsNothing() {
    Intent strange = new Intent("x");
    PosResultActivity launcher = new PosResultActivity().attach(new FakePreferences().context(new String[1]), strange);
    launcher.onCreate(null);
    assertTrue(launcher.started.isEmpty());
    assertTrue(launcher.finished);
    PosResultActivity noIntent = new PosResultActivity().attach(new FakePreferences().context(new String[1]), null);
    noIntent.onCreate(null);
    assertTrue(noIntent.finished);
  }

  @Test
  public void failedStartsRejectAndForgetTheLaunch() throws Exception {
    Harness h = new Harness();
    RecordingPromise p = new RecordingPromise();
    h.context.currentActivity = null;
    h.module.startForResult(SQUARE, "sale-1", p);
    assertEquals("no_activity", p.code);
    h.context.currentActivity = h.activity;

    // PosResultActivity cannot start the POS app (not installed): rejected, launch forgotten.
    int code = PosResultStore.FIRST_REQUEST_CODE;
    RecordingPromise missing = new RecordingPromise();
    h.module.startForResult(SUMUP, "sale-2", missing);
    PosResultActivity launcher = new PosResultActivity().attach(new FakePreferences(h.disk).context(new String[1]), h.activity.started.get(0));
    launcher.failNext = new ActivityNotFoundException("No Activity found to handle Intent");
    launcher.onCreate(null);
    assertEquals("not_found", missing.code);
    assertEquals(1, missing.settled);
    assertTrue(launcher.finished);
    assertEquals(Integer.valueOf(Activity.RESULT_CANCELED), launcher.resultCode);
    h.context.deliverActivityResult(h.activity, code, Activity.RESULT_CANCELED, null);
    assertTrue("nothing waits: no event", h.context.events.isEmpty());
    launcher.onActivityResult(code, 0, null);
    assertEquals("the forgotten launch's code is not ours any more", 0, h.take().length());

    RecordingPromise denied = new RecordingPromise();
    h.module.startForResult(CLIP, "sale-3", denied);
    PosResultActivity second = new PosResultActivity().attach(new FakePreferences(h.disk).context(new String[1]), h.activity.started.get(1));
    second.failNext = new SecurityException("Permission Denial");
    second.onCreate(null);
    assertEquals("not_permitted", denied.code);

    // The app's activity cannot start PosResultActivity (not in the merged manifest).
    h.activity.failNext = new ActivityNotFoundException("PosResultActivity");
    RecordingPromise noLauncher = new RecordingPromise();
    h.module.startForResult(CLIP, "sale-4", noLauncher);
    assertEquals("not_found", noLauncher.code);

    p = new RecordingPromise();
    h.module.startForResult("{\"action\":\"a\",\"extras\":[{\"key\":\"k\",\"type\":\"int\",\"value\":\"" + SECRET + "\"}]}", "sale-5", p);
    assertEquals("bad_intent", p.code);
    assertEquals("intent extra k is not a number", p.message);

    p = new RecordingPromise();
    h.module.startForResult(SQUARE, "", p);
    assertEquals("bad_intent", p.code);
    assertEquals(2, h.activity.started.size());
  }

  @Test
  public void theQueueKeepsTheNewestResults() throws Exception {
    Harness h = new Harness();
    h.context.jsNotReady = true;
    for (int i = 0; i < PosResultStore.CAPACITY + 3; i++) {
      int code = h.start(CLIP, "sale-" + i);
      h.answer(code, -1, null);
    }
    JSONArray taken = h.take();
    assertEquals(PosResultStore.CAPACITY, taken.length());
    assertEquals("sale-3", taken.getJSONObject(0).getString("flow_id"));
    assertEquals("sale-" + (PosResultStore.CAPACITY + 2), taken.getJSONObject(PosResultStore.CAPACITY - 1).getString("flow_id"));
  }

  @Test
  public void requestCodesStayInTheirRangeBelow16Bits() throws Exception {
    Harness h = new Harness();
    List<Integer> codes = new ArrayList<>();
    for (int i = 0; i < PosResultStore.REQUEST_CODES + 2; i++) codes.add(h.start(CLIP, "f" + i));
    assertEquals(PosResultStore.FIRST_REQUEST_CODE + PosResultStore.REQUEST_CODES - 1, (int) codes.get(PosResultStore.REQUEST_CODES - 1));
    assertEquals(PosResultStore.FIRST_REQUEST_CODE, (int) codes.get(PosResultStore.REQUEST_CODES));
    for (int code : codes) assertTrue(code >= PosResultStore.FIRST_REQUEST_CODE && code < 0x10000);
    // The code taken over belongs to its newest launch.
    h.answer(PosResultStore.FIRST_REQUEST_CODE, -1, null);
    assertEquals("f" + PosResultStore.REQUEST_CODES, h.take().getJSONObject(0).getString("flow_id"));
  }

  @Test
  public void aDamagedFileReadsAsEmpty() throws Exception {
    Map<String, Object> disk = new HashMap<>();
    disk.put("results", "{not json " + SECRET);
    disk.put("launches", "{\"23040\":5}");
    Harness h = new Harness(disk);
    assertEquals(0, h.take().length());
    int code = h.start(CLIP, "sale-1");
    h.answer(code, -1, null);
    assertEquals(1, h.take().length());
  }

  @Test
  public void nothingIsPrintedAndInvalidateStopsListening() throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(printed, true, "UTF-8");
    System.setOut(capture);
    System.setErr(capture);
    Harness h;
    try {
      h = new Harness();
      int code = h.start(SUMUP, "sale-1");
      h.activity.failNext = new ActivityNotFoundException(SECRET);
      h.module.startForResult(SUMUP, "sale-2", new RecordingPromise());
      h.module.startForResult("{\"action\":\"" + SECRET, "sale-3", new RecordingPromise());
      h.context.jsNotReady = true;
      h.answer(code, -1, Intent.withExtras(new Bundle().with("token", SECRET)));
      assertTrue(h.take().toString().contains(SECRET)); // handed to JavaScript, and only there
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    assertEquals("", printed.toString("UTF-8"));
    h.module.invalidate();
    assertTrue(h.context.listeners.isEmpty());
  }

  @Test
  public void thePackageOffersTheLauncherAndNeverPayHandoff() {
    PayHandoffPackage pkg = new PayHandoffPackage();
    ReactApplicationContext context = new ReactApplicationContext(new FakePreferences().context(new String[1]));
    assertNotNull(pkg.getModule("PosIntentLauncher", context));
    assertTrue(pkg.getModule("PosIntentLauncher", context) instanceof PosIntentLauncherModule);
    assertNull("the C++ module's name: no Java module may shadow it", pkg.getModule("PayHandoff", context));
    Map<String, ReactModuleInfo> infos = pkg.getReactModuleInfoProvider().getReactModuleInfos();
    assertEquals(1, infos.size());
    ReactModuleInfo info = infos.get("PosIntentLauncher");
    assertEquals("PosIntentLauncher", info.name());
    assertEquals("com.payhandoff.reactnative.PosIntentLauncherModule", info.className());
    assertFalse(info.isTurboModule);
    assertFalse(info.isCxxModule);
    assertFalse(info.canOverrideExistingModule);
  }
}
