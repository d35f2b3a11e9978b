// The shared vectors (every Tests/Vectors/<folder>/*.json) through the typed API and each module
// of dist/web, under Node, by Tests/Vectors/tools/vector_runner.cjs (the React Native binding's
// runner too). A suite is run by its name: the typed method where the package has one, else the
// C function of that name (payhandoff_<suite with _ for .>) called with the vector's input mapped
// onto the header's parameters, so new suites and functions run without a change here. A vector
// a JavaScript string cannot hand to the C ABI (U+0000) is skipped.
//
// Both modules run every file: the full module (payhandoff.wasm) as the runner runs it; the
// checkout module (payhandoff-checkout.wasm) as test/browser/module_vectors.cjs says — every POS
// function's vector expects `unsupported` naming the function, a script runs until its first
// pos.* event, which must be refused `unsupported` (field `type`) with the snapshot unchanged,
// and counts as "ended at unsupported", and the full module's final snapshot of that script
// must be refused the same way by the checkout module's restore (naming flows[i] or the ledger).
// The browser scenarios run the same in each engine's page (test/browser/vectors.html).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import runner from '../../../Tests/Vectors/tools/vector_runner.cjs';
import moduleVectors from './browser/module_vectors.cjs';
import { api, checkout, checkoutPath, payhandoff, repo, vectorsRoot, wasmPath } from './support.mjs';

const header = runner.headerFunctions(fs.readFileSync(path.join(repo, 'include', 'payhandoff.h'), 'utf8'));
const files = runner.vectorFiles(vectorsRoot);

for (const [module, under] of [[path.basename(checkoutPath), checkout], [path.basename(wasmPath), payhandoff]]) {
  const call = (name, args) => under.library.call(name, args);
  const genericSuite = (suite) => runner.genericSuite(header, suite, call, api.PayHandoffError);
  const totals = { passed: 0, unsupported: 0, failed: 0, skipped: 0, expectedUnsupported: 0, restoresRefused: 0 };

  for (const { folder, file, document } of files) {
    test(`vectors ${module} ${folder}/${file} (${document.suite})`, (t) => {
      assert.ok(document.vectors.length > 0, 'no vectors');
      const result = moduleVectors.runFile(runner, { payhandoff: under, full: payhandoff, PayHandoffError: api.PayHandoffError, genericSuite }, document);
      for (const skip of result.skipped) t.diagnostic(`skip: ${skip.id}: ${skip.reason}`);
      totals.passed += result.passed;
      totals.unsupported += result.unsupported;
      totals.failed += result.failures.length;
      totals.skipped += result.skipped.length;
      totals.expectedUnsupported += result.expectedUnsupported;
      totals.restoresRefused += result.restoresRefused;
      t.diagnostic(`vectors: ${module} ${folder}/${file} (${document.suite}): ${result.passed} passed`
        + (result.expectedUnsupported ? ` (each as unsupported)` : '')
        + `, ${result.unsupported} ended at unsupported, ${result.failures.length} failed, ${result.skipped.length} skipped`);
      assert.deepEqual(result.failures, []);
      assert.ok(result.passed + result.unsupported > 0, 'nothing ran');
    });
  }

  test(`vectors ${module}: totals`, (t) => {
    t.diagnostic(`vectors (wasm, Node, ${module}): all suites: ${totals.passed} passed`
      + (totals.expectedUnsupported ? ` (${totals.expectedUnsupported} of them POS calls refused as unsupported)` : '')
      + `, ${totals.unsupported} ended at unsupported`
      + (totals.unsupported ? ` (the full module's final snapshot holding POS flows or ledger entries refused by restore and salvage: ${totals.restoresRefused})` : '')
      + `, ${totals.failed} failed, ${totals.skipped} skipped`);
    assert.equal(totals.failed, 0);
    assert.ok(totals.passed >= 1000, `only ${totals.passed} vectors ran`);
  });
}
