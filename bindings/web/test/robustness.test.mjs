// Hostile strings through every method of the typed API and the module: NULs, lone surrogates,
// control bytes, broken escapes, oversized text. Every call answers a document or throws a
// PayHandoffError with a known code; the module never traps (it would then refuse every later
// call). Deterministic: a fixed-seed generator.
import test from 'node:test';
import assert from 'node:assert/strict';
import runner from '../../../Tests/Vectors/tools/vector_runner.cjs';
import { api, checkout, payhandoff, T0 } from './support.mjs';

const full = payhandoff;

const { generator, mutate } = runner;

const CODES = new Set([
  'invalid_argument', 'invalid_json', 'validation', 'malformed_url', 'callback_mismatch', 'unknown_flow',
  'duplicate', 'invalid_state', 'unsupported_version', 'limit_exceeded', 'gateway_error', 'conflict', 'not_eligible',
]);

const SEEDS = [
  '{"transaction":"venta","usertoken":"t","identifier":"o","amount":"100.00","urlScheme":"myapp"}',
  'myapp://result=aprobada&amount=100.00&transactionid=7&identifier=o',
  'https://shop.example/checkout-callback?status=completed&card_id=card_1',
  '{"kind":"cards","return_url":"https://shop.example/checkout-callback","nonce":"0123456789abcdef0123"}',
  `{"type":"checkout.start","flow_id":"c1","now":${T0},"kind":"cards","return_url":"https://shop.example/cb"}`,
  '{"version":1,"config":{},"flows":[],"refunded":{}}',
];
/** A JSON document made from text, or the text itself when it is no longer JSON. */
function asValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function expectTyped(what, call, codes = CODES) {
  try {
    call();
  } catch (error) {
    assert.ok(error instanceof api.PayHandoffError, `${what}: ${error && error.stack}`);
    assert.ok(codes.has(error.code), `${what}: code ${error.code}`);
    assert.ok(error.field === null || typeof error.field === 'string', what);
  }
}

// Each module (the checkout module answers what it lacks with `unsupported` too).
for (const [module, payhandoff, codes] of [['payhandoff.wasm', full, CODES],
  ['payhandoff-checkout.wasm', checkout, new Set([...CODES, 'unsupported'])]]) {
test(`every method answers or throws a typed error for 1500 rounds of mutated inputs (15000 calls, ${module})`, () => {
  const random = generator(0x5eed);
  const coordinator = payhandoff.createCoordinator();
  try {
    for (let i = 0; i < 1500; i++) {
      const a = mutate(SEEDS[Math.floor(random() * SEEDS.length)], random);
      const b = mutate(SEEDS[Math.floor(random() * SEEDS.length)], random);
      const calls = {
        buildPosUrl: () => payhandoff.buildPosUrl(asValue(a)),
        parsePosResponse: () => payhandoff.parsePosResponse(a, asValue(b)),
        checkRefund: () => payhandoff.checkRefund(asValue(a)),
        buildCheckoutRequest: () => payhandoff.buildCheckoutRequest(asValue(a)),
        parseCheckoutSession: () => payhandoff.parseCheckoutSession(asValue(a)),
        parseCheckoutCallback: () => payhandoff.parseCheckoutCallback(a, asValue(b)),
        parseConfirmation: () => payhandoff.parseConfirmation(asValue(a)),
        send: () => coordinator.send(asValue(a)),
        handleUrl: () => coordinator.handleUrl(a, T0 + i),
        restoreCoordinator: () => payhandoff.restoreCoordinator(a).dispose(),
      };
      for (const [name, call] of Object.entries(calls)) expectTyped(`${name} round ${i}`, call, codes);
    }
    assert.equal(coordinator.snapshot().version, 4, 'the module still answers');
  } finally {
    coordinator.dispose();
  }
});
}

test('lone surrogates are refused before TextEncoder, naming the parameter (as Kotlin and React Native do)', () => {
  const lone = (field) => ({ name: 'PayHandoffError', code: 'invalid_argument', field, status: 1 });
  const answer = 'myapp://result=aprobada&amount=1.00&identifier=o';
  assert.throws(() => payhandoff.parsePosResponse(`${answer}&name=\ud800x`, { urlScheme: 'myapp' }), lone('url'));
  assert.throws(() => payhandoff.parsePosResponse(`${answer}&name=x\udfff`, { urlScheme: 'myapp' }), lone('url'));
  assert.throws(() => payhandoff.parsePosResponse(answer, { urlScheme: 'myapp', identifier: 'o\ud800' }), lone('options_json'));
  assert.throws(() => payhandoff.parsePosResult({ result: 'aprobada', ['\udc00']: 'v' }), lone('extras_json'));
  assert.throws(() => payhandoff.restoreCoordinator('{"version":3}\ud800'), lone('snapshot_json'));
  assert.throws(() => payhandoff.restoreCoordinatorSalvage({ version: 3, config: {}, flows: [{ id: '\ud800' }] }), lone('snapshot_json'));
  // The raw C call through the glue refuses it the same way (nothing is allocated or called).
  assert.throws(() => payhandoff.library.call('payhandoff_pos_build_url', [{ name: 'request_json', text: '{"a":"\udbff"}' }]), lone('request_json'));
  // A pair is one character: it crosses as 4 UTF-8 bytes.
  assert.equal(payhandoff.parsePosResponse(`${answer}&name=\ud83d\udcb3`, { urlScheme: 'myapp' }).name, '\ud83d\udcb3');
});

test('large inputs: a 4 MB URL is refused with limit_exceeded and the module keeps working', () => {
  const url = `myapp://result=aprobada&identifier=o&reference=${'a'.repeat(4 * 1024 * 1024)}`;
  assert.throws(() => payhandoff.parsePosResponse(url, { urlScheme: 'myapp' }), { code: 'limit_exceeded' });
  assert.equal(payhandoff.parsePosResponse('myapp://result=aprobada&amount=1.00&identifier=o', { urlScheme: 'myapp' }).result, 'approved');
});

test('memory stays flat: 20000 calls that allocate, free and throw', () => {
  const memory = () => payhandoff.library.exports.memory.buffer.byteLength;
  const run = () => {
    for (let i = 0; i < 10000; i++) {
      payhandoff.parseCheckoutCallback('https://shop.example/cb/ph_0123456789abcdef?status=completed&card_id=card_1',
        { kind: 'cards', return_url: 'https://shop.example/cb', nonce: '0123456789abcdef' });
      try {
        payhandoff.buildPosUrl({ transaction: 'venta' });
      } catch (error) {
        if (!(error instanceof api.PayHandoffError)) throw error;
      }
    }
  };
  run();
  const before = memory();
  run();
  assert.equal(memory(), before, 'linear memory did not grow on the second 10000 rounds');
});
