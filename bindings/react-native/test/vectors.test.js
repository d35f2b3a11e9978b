// The shared vectors (Tests/Vectors/{pos,checkout,flows}) through the typed TypeScript API,
// the Node-API addon and the C++ bridge, against the real core: every result must deep-equal
// the vector (object key order ignored) and every error must have its code and field, as in
// Swift (Tests/PayHandoffTests) and C (Tests/CHarness). A vector that a JavaScript string
// cannot hand to the C ABI is skipped and counted, with the reason.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { api, payhandoff, addon, vectorsRoot } = require('./support');

const NUL_REASON = 'a C string cannot carry U+0000 (the URL would end there)';

/** Throws Skip when the vector cannot be expressed through the C ABI. */
class Skip extends Error {}

function urlArgument(url) {
  if (typeof url === 'string' && url.includes('\u0000')) throw new Skip(NUL_REASON);
  return url;
}

/** {"outcome", "flows": {id: state}, "effects": ["id:type"], "error"?: {"code", "field"}} as in
 *  Tests/Vectors/README.md, FlowVectorTests.swift and harness.c. */
function summary(outcome, coordinator, answer, error) {
  const flows = {};
  for (const flow of coordinator.snapshot().flows) flows[flow.id] = flow.state;
  const effects = [];
  for (const transition of answer ? answer.transitions : []) {
    for (const effect of transition.effects) effects.push(`${transition.flow_id}:${effect.type}`);
  }
  const s = { outcome, flows, effects };
  if (error) s.error = { code: error.code, field: error.field };
  return s;
}

function runScript(input) {
  for (const step of input.steps || []) if (step.url !== undefined) urlArgument(step.url);
  let coordinator = payhandoff.createCoordinator(input.config);
  const steps = [];
  try {
    for (const step of input.steps || []) {
      if (step.restore === true) {
        // Process death: only the saved snapshot text survives.
        const saved = coordinator.snapshotJson();
        coordinator.dispose();
        coordinator = payhandoff.restoreCoordinator(saved);
        steps.push(summary('restored', coordinator, null, null));
        continue;
      }
      let answer;
      if (typeof step.url === 'string') {
        answer = coordinator.handleUrl(step.url, step.now);
      } else {
        try {
          answer = coordinator.send(step.event);
        } catch (error) {
          if (!(error instanceof api.PayHandoffError)) throw error;
          steps.push(summary('invalid_event', coordinator, null, error));
          continue;
        }
      }
      steps.push(summary(answer.outcome, coordinator, answer, answer.outcome === 'rejected' ? answer.error : null));
    }
  } finally {
    coordinator.dispose();
  }
  return { steps };
}

const suites = {
  'pos.build_url': (input) => payhandoff.buildPosUrl(input.request),
  'pos.parse_response': (input) => payhandoff.parsePosResponse(urlArgument(input.url), input.options),
  // The extras are sent as JSON text whatever their type (the vectors hold non-objects too).
  'pos.parse_result': (input) => payhandoff.parsePosResult(input.extras, input.options),
  'pos.refund_check': (input) => payhandoff.checkRefund(input.check),
  'checkout.build_request': (input) => payhandoff.buildCheckoutRequest(input.request),
  'checkout.parse_session': (input) => payhandoff.parseCheckoutSession(input.session),
  'checkout.parse_callback': (input) => payhandoff.parseCheckoutCallback(urlArgument(input.url), input.options),
  'checkout.confirmation': (input) => payhandoff.parseConfirmation(input.event),
  'coordinator.script': runScript,
};

/** Runs one vector; returns null when it agrees, else what differs. */
function runVector(suite, vector) {
  let result;
  let error = null;
  try {
    result = suites[suite](vector.input);
  } catch (e) {
    if (e instanceof Skip) throw e;
    if (!(e instanceof api.PayHandoffError)) return `threw ${e && e.stack}`;
    error = e;
  }
  const { ok, error: expected } = vector.expect;
  if ((ok === undefined) === (expected === undefined)) return 'expect must hold exactly one of ok or error';
  if (ok !== undefined) {
    if (error) return `expected success, got ${error.code} [${error.field}] ${error.message}`;
    try {
      assert.deepStrictEqual(result, ok);
    } catch (e) {
      return `result differs: ${JSON.stringify(result)}`;
    }
    return null;
  }
  if (!error) return `expected error ${expected.code}, got success ${JSON.stringify(result)}`;
  if (error.code !== expected.code) return `expected error ${expected.code}, got ${error.code} [${error.field}]`;
  if ('field' in expected && expected.field !== error.field) {
    return `expected field ${expected.field}, got ${error.field} (${error.code})`;
  }
  return null;
}

const totals = { passed: 0, failed: 0, skipped: 0 };

for (const folder of ['pos', 'checkout', 'flows', 'hostile']) {
  const dir = path.join(vectorsRoot, folder);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  for (const file of files) {
    const document = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    test(`vectors ${folder}/${file} (${document.suite})`, (t) => {
      assert.ok(suites[document.suite], `unknown suite ${document.suite}`);
      assert.ok(document.vectors.length > 0, 'no vectors');
      const failures = [];
      let passed = 0;
      let skipped = 0;
      const openBefore = addon.openCoordinators();
      for (const vector of document.vectors) {
        let problem;
        try {
          problem = runVector(document.suite, vector);
        } catch (e) {
          if (!(e instanceof Skip)) throw e;
          skipped++;
          t.diagnostic(`skip: ${vector.id}: ${e.message}`);
          continue;
        }
        if (problem) failures.push(`${vector.id}: ${problem}`);
        else passed++;
      }
      totals.passed += passed;
      totals.failed += failures.length;
      totals.skipped += skipped;
      const line = `vectors: ${folder}/${file} (${document.suite}): ${passed} passed, ${failures.length} failed, ${skipped} skipped`;
      t.diagnostic(line);
      assert.equal(addon.openCoordinators(), openBefore, 'every coordinator of the scripts was disposed');
      assert.deepEqual(failures, []);
    });
  }
}

test('vectors: totals', (t) => {
  t.diagnostic(`vectors: all suites: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  assert.equal(totals.failed, 0);
  assert.ok(totals.passed >= 1000, `only ${totals.passed} vectors ran`);
});
