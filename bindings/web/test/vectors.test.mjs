// The shared vectors (every Tests/Vectors/<folder>/*.json) through the typed API and the
// WebAssembly module, under Node, by Tests/Vectors/tools/vector_runner.cjs (the React Native
// binding's runner too). A suite is run by its name: the typed method where the package has
// one, else the C function of that name (payhandoff_<suite with _ for .>) called with the
// vector's input mapped onto the header's parameters, so new suites and functions run without
// a change here. A vector a JavaScript string cannot hand to the C ABI (U+0000) is skipped.
// The browser scenarios run the same runner in each engine's page (test/browser/vectors.html).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import runner from '../../../Tests/Vectors/tools/vector_runner.cjs';
import { api, payhandoff, repo, vectorsRoot } from './support.mjs';

const typed = runner.typedSuites(payhandoff, api.PayHandoffError);

const header = runner.headerFunctions(fs.readFileSync(path.join(repo, 'include', 'payhandoff.h'), 'utf8'));
const call = (name, args) => payhandoff.library.call(name, args);
const genericSuite = (suite) => runner.genericSuite(header, suite, call, api.PayHandoffError);

const totals = { passed: 0, failed: 0, skipped: 0 };

for (const { folder, file, document } of runner.vectorFiles(vectorsRoot)) {
  test(`vectors ${folder}/${file} (${document.suite})`, (t) => {
    const run = typed[document.suite] ?? genericSuite(document.suite);
    assert.ok(run, `unknown suite ${document.suite}: no typed method and no C function payhandoff_${document.suite.replace(/\./g, '_')} taking strings`);
    if (!typed[document.suite]) t.diagnostic(`suite ${document.suite}: run through the C function of its name`);
    assert.ok(document.vectors.length > 0, 'no vectors');
    const { passed, failures, skipped } = runner.runDocument(run, document, api.PayHandoffError);
    for (const skip of skipped) t.diagnostic(`skip: ${skip.id}: ${skip.reason}`);
    totals.passed += passed;
    totals.failed += failures.length;
    totals.skipped += skipped.length;
    t.diagnostic(`vectors: ${folder}/${file} (${document.suite}): ${passed} passed, ${failures.length} failed, ${skipped.length} skipped`);
    assert.deepEqual(failures, []);
  });
}

test('vectors: totals', (t) => {
  t.diagnostic(`vectors (wasm, Node): all suites: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  assert.equal(totals.failed, 0);
  assert.ok(totals.passed >= 1000, `only ${totals.passed} vectors ran`);
});
