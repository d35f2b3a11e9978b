// The shared vectors (Tests/Vectors/{pos,checkout,flows,hostile}) through the typed TypeScript
// API, the Node-API addon and the C++ bridge, against the real core, by
// Tests/Vectors/tools/vector_runner.cjs (the web binding's runner too): every result must
// deep-equal the vector (object key order ignored) and every error must have its code and
// field, as in Swift (Tests/PayHandoffTests) and C (Tests/CHarness). A vector that a JavaScript
// string cannot hand to the C ABI is skipped and counted, with the reason.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const runner = require('../../../Tests/Vectors/tools/vector_runner.cjs');
const { api, payhandoff, addon, vectorsRoot } = require('./support');

const suites = runner.typedSuites(payhandoff, api.PayHandoffError);
const totals = { passed: 0, failed: 0, skipped: 0 };

for (const { folder, file, document } of runner.vectorFiles(vectorsRoot)) {
  test(`vectors ${folder}/${file} (${document.suite})`, (t) => {
    assert.ok(suites[document.suite], `unknown suite ${document.suite}`);
    assert.ok(document.vectors.length > 0, 'no vectors');
    const openBefore = addon.openCoordinators();
    const { passed, failures, skipped } = runner.runDocument(suites[document.suite], document, api.PayHandoffError);
    for (const skip of skipped) t.diagnostic(`skip: ${skip.id}: ${skip.reason}`);
    totals.passed += passed;
    totals.failed += failures.length;
    totals.skipped += skipped.length;
    const line = `vectors: ${folder}/${file} (${document.suite}): ${passed} passed, ${failures.length} failed, ${skipped.length} skipped`;
    t.diagnostic(line);
    assert.equal(addon.openCoordinators(), openBefore, 'every coordinator of the scripts was disposed');
    assert.deepEqual(failures, []);
  });
}

test('vectors: totals', (t) => {
  t.diagnostic(`vectors: all suites: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  assert.equal(totals.failed, 0);
  assert.ok(totals.passed >= 1000, `only ${totals.passed} vectors ran`);
});
