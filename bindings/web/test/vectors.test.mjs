// The shared vectors (every Tests/Vectors/<folder>/*.json) through the typed API and the
// WebAssembly module, under Node, by Tests/Vectors/tools/vector_runner.cjs (the React Native
// binding's runner too). A suite is run by its name: the typed method where the package has
// one, else the C function of that name (payhandoff_<suite with _ for .>) called with the
// vector's input mapped onto the header's parameters, so new suites and functions run without
// a change here. A vector a JavaScript string cannot hand to the C ABI (U+0000) is skipped.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import runner from '../../../Tests/Vectors/tools/vector_runner.cjs';
import { api, payhandoff, repo, vectorsRoot } from './support.mjs';

const typed = runner.typedSuites(payhandoff, api.PayHandoffError);

/** Every `PAYHANDOFF_API int32_t payhandoff_x(const char *a, const char *b_json, char **out)` of
 *  the header: name -> parameters [{type, name}] without the trailing `char **out`. */
function headerFunctions() {
  const header = fs.readFileSync(path.join(repo, 'include', 'payhandoff.h'), 'utf8');
  const functions = new Map();
  for (const match of header.matchAll(/PAYHANDOFF_API\s+int32_t\s+(payhandoff_\w+)\s*\(([^)]*)\)/g)) {
    const params = match[2].split(',').map((p) => p.trim().replace(/\s+/g, ' '));
    if (params.at(-1) !== 'char **out') continue;
    functions.set(match[1], params.slice(0, -1).map((p) => {
      const name = p.match(/(\w+)$/)[1];
      return { type: p.slice(0, -name.length).trim(), name };
    }));
  }
  return functions;
}
const header = headerFunctions();

/** A suite the typed API has no method for: its C function, arguments taken from the input by
 *  parameter name (`url` <- input.url, `options_json` <- JSON of input.options; a lone `*_json`
 *  parameter takes the one input member left). */
function genericSuite(suite) {
  const name = `payhandoff_${suite.replace(/\./g, '_')}`;
  const params = header.get(name);
  if (!params || params.some((p) => p.type !== 'const char *')) return null;
  return (input) => {
    const unused = new Set(Object.keys(input));
    const plan = params.map((p) => {
      const key = p.name.endsWith('_json') ? p.name.slice(0, -5) : p.name;
      if (key in input) {
        unused.delete(key);
        return { p, key };
      }
      return { p, key: null };
    });
    const args = plan.map(({ p, key }) => {
      if (key === null) {
        if (unused.size !== 1) throw new Error(`${name}: no input member for ${p.name}`);
        key = [...unused][0];
        unused.delete(key);
      }
      const value = input[key];
      if (!p.name.endsWith('_json')) return { name: p.name, text: runner.urlArgument(value) };
      return { name: p.name, text: JSON.stringify(value) };
    });
    const result = payhandoff.library.call(name, args);
    const body = JSON.parse(result.text);
    if (result.status === 0) return body;
    throw new api.PayHandoffError(body.code, body.field, body.message, result.status);
  };
}

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
