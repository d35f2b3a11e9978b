// PosIntentLauncher's JavaScript side (src/posIntentLauncher.ts) against a fake of the Java module
// that behaves as PosIntentLauncherModule does (results kept until taken, the device event
// carrying none), and the redaction of issue 39's secret-bearing members. The Java side's own
// tests: make react-native-java-test.
//   PAYHANDOFF_RN_BUILD  the build dir (compiled API in lib/)
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const util = require('node:util');

const build = process.env.PAYHANDOFF_RN_BUILD;
if (!build) throw new Error('PAYHANDOFF_RN_BUILD is not set (run `make react-native-test`)');
const launcher = require(path.join(build, 'lib', 'posIntentLauncher.js'));
const { guard } = require(path.join(build, 'lib', 'redaction.js'));

/** The Java module as the app sees it: startForResult records, results wait until takeResults. */
function fakeNative() {
  const listeners = new Set();
  const native = {
    started: [],
    waiting: [],
    takes: 0,
    async startForResult(intentJson, flowId) {
      native.started.push([JSON.parse(intentJson), flowId]);
      return 0x5a00 + native.started.length - 1;
    },
    async takeResults() {
      native.takes++;
      const out = JSON.stringify(native.waiting);
      native.waiting = [];
      return out;
    },
    /** onActivityResult: kept, then the event (no data). */
    arrive(result) {
      native.waiting.push(result);
      for (const l of listeners) l();
    },
  };
  const events = {
    addListener(type, listener) {
      assert.equal(type, launcher.POS_RESULTS_EVENT);
      listeners.add(listener);
      return { remove: () => listeners.delete(listener) };
    },
    count: () => listeners.size,
  };
  return { native, events };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const result = (flowId, extras = { 'com.squareup.pos.SERVER_TRANSACTION_ID': 'srv-1' }) =>
  ({ request_code: 0x5a00, result_code: -1, flow_id: flowId, extras });

test('startForResult passes the intent document as JSON text with its flow', async () => {
  const { native, events } = fakeNative();
  const l = new launcher.PosIntentLauncher(native, events);
  const intent = { action: 'com.squareup.pos.action.CHARGE', package: 'com.squareup',
    extras: [{ key: 'com.squareup.pos.TOTAL_AMOUNT', type: 'int', value: 10000 }] };
  assert.equal(await l.startForResult(intent, 'sale-1'), 0x5a00);
  assert.deepEqual(native.started, [[intent, 'sale-1']]);
});

test('results that waited are delivered at subscription, later ones on the event, each once, in order', async () => {
  const { native, events } = fakeNative();
  native.waiting.push(result('before-1'), result('before-2', null));
  const l = new launcher.PosIntentLauncher(native, events);
  const got = [];
  const sub = l.onResult((r) => got.push(r.flow_id + ':' + JSON.stringify(r.extras)));
  await settle();
  assert.deepEqual(got, ['before-1:{"com.squareup.pos.SERVER_TRANSACTION_ID":"srv-1"}', 'before-2:null']);
  native.arrive(result('after'));
  native.arrive(result('after-2'));
  await settle();
  assert.deepEqual(got.slice(2), ['after:{"com.squareup.pos.SERVER_TRANSACTION_ID":"srv-1"}', 'after-2:{"com.squareup.pos.SERVER_TRANSACTION_ID":"srv-1"}']);
  assert.equal(native.waiting.length, 0);
  sub.remove();
  assert.equal(events.count(), 0);
  native.arrive(result('unheard'));
  await settle();
  assert.equal(got.length, 4);
  assert.equal(native.waiting.length, 1, 'a result nobody listens for waits in the module');
  // The next subscriber gets it.
  const later = [];
  l.onResult((r) => later.push(r.flow_id));
  await settle();
  assert.deepEqual(later, ['unheard']);
});

test('one listener at a time; a throwing listener does not lose the next results', async () => {
  const { native, events } = fakeNative();
  const l = new launcher.PosIntentLauncher(native, events);
  const errors = [];
  const got = [];
  const sub = l.onResult((r) => {
    got.push(r.flow_id);
    if (r.flow_id === 'bad') throw new Error('listener failed');
  }, (e) => errors.push(e.message));
  assert.throws(() => l.onResult(() => {}), /already has a listener/);
  native.waiting.push(result('bad'), result('good'));
  native.arrive(result('third'));
  await settle();
  assert.deepEqual(got, ['bad', 'good', 'third']);
  assert.deepEqual(errors, ['listener failed']);
  sub.remove();
  sub.remove();
  l.onResult(() => {}).remove();
});

test('a take that fails or is not an array reaches onError', async () => {
  const { native, events } = fakeNative();
  native.takeResults = async () => '{"not":"an array"}';
  const errors = [];
  new launcher.PosIntentLauncher(native, events).onResult(() => assert.fail('no result'), (e) => errors.push(e.message));
  await settle();
  assert.deepEqual(errors, ['PosIntentLauncher: takeResults did not give an array']);
});

test('index.js binds posIntentLauncher to NativeModules.PosIntentLauncher and DeviceEventEmitter (null without it)', async () => {
  const rn = require(path.join(build, 'node_modules', 'react-native'));
  const { native } = fakeNative();
  rn.NativeModules.PosIntentLauncher = native;
  const index = require(path.join(build, 'lib', 'index.js'));
  assert.ok(index.posIntentLauncher instanceof index.PosIntentLauncher);
  const got = [];
  const sub = index.posIntentLauncher.onResult((r) => got.push(r.flow_id));
  native.waiting.push(result('w1'));
  rn.DeviceEventEmitter.emit(index.POS_RESULTS_EVENT);
  await settle();
  assert.deepEqual(got, ['w1']);
  sub.remove();
  // Loaded without the Java module (iOS, or not linked): null.
  delete rn.NativeModules.PosIntentLauncher;
  for (const key of Object.keys(require.cache)) if (key.startsWith(path.join(build, 'lib'))) delete require.cache[key];
  assert.equal(require(path.join(build, 'lib', 'index.js')).posIntentLauncher, null);
});

test('posResultEvent is the pos.result event with result_code and extras (null kept)', () => {
  assert.deepEqual(launcher.posResultEvent({ ...result('sale-9', null), result_code: 0, other_extras: { n: 1 } }, 5),
    { type: 'pos.result', flow_id: 'sale-9', now: 5, result_code: 0, extras: null });
});

test('printing an intent or a request hides the affiliate key, the SumUp URI and every echo of the token', () => {
  const token = '0123456789abcdef0123';
  const doc = guard({
    version: 1, pos_app: 'sumup', url: `sumupmerchant://pay/1.0?affiliate-key=sk_aff&foreign-tx-id=o~${token}`,
    intent: { action: 'android.intent.action.VIEW', data: `sumupmerchant://pay/1.0?affiliate-key=sk_aff&foreign-tx-id=o~${token}`, extras: [] },
    request: { affiliate_key: 'sk_aff' },
    square: { action: 'com.squareup.pos.action.CHARGE', package: 'com.squareup', extras: [
      { key: 'com.squareup.pos.REQUEST_METADATA', value: `o~${token}` }, { key: 'com.squareup.pos.TOTAL_AMOUNT', type: 'int', value: 100 }] },
    clip: { action: 'android.intent.action.MAIN', component: 'c/d', extras: [{ key: 'PAYMENT_REFERENCE', value: `o~${token}` }] },
  }, true);
  const shown = util.inspect(doc, { depth: 10 });
  assert.doesNotMatch(shown, /sk_aff/);
  assert.doesNotMatch(shown, new RegExp(token));
  assert.match(shown, /sumupmerchant:<redacted>/);
  assert.match(shown, /o~<redacted>/);
  assert.match(shown, /value: 100/);
  // The data stays whole for the app (and for JSON.stringify, which sends it to the module).
  assert.match(JSON.stringify(doc), new RegExp(`foreign-tx-id=o~${token}`));
  assert.equal(doc.request.affiliate_key, 'sk_aff');
});
