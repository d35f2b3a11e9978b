// The shared vectors (every Tests/Vectors/<folder>/*.json) through the typed API and the
// WebAssembly module, under Node: every result must deep-equal the vector (object key order
// ignored) and every error must have its code and field, as in Swift, C, Kotlin and React
// Native. A suite is run by its name: the typed API's method where the package has one, else
// the C function of that name (payhandoff_<suite with _ for .>) called with the vector's input
// mapped onto the header's parameters, so new suites and functions run without a change here.
// A vector that a JavaScript string cannot hand to the C ABI (U+0000) is skipped and counted.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { api, payhandoff, repo, vectorsRoot } from './support.mjs';

const NUL_REASON = 'a C string cannot carry U+0000 (the URL would end there)';

class Skip extends Error {}

function urlArgument(url) {
  if (typeof url === 'string' && url.includes('\u0000')) throw new Skip(NUL_REASON);
  return url;
}

/** {"outcome", "flows": {id: state}, "effects": ["id:type"], "error"?: {"code", "field"}}
 *  as in Tests/Vectors/README.md. */
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
        // Process death (a reload): only the saved snapshot text survives.
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

const typed = {
  'pos.build_url': (input) => payhandoff.buildPosUrl(input.request),
  'pos.parse_response': (input) => payhandoff.parsePosResponse(urlArgument(input.url), input.options),
  'pos.refund_check': (input) => payhandoff.checkRefund(input.check),
  'checkout.build_request': (input) => payhandoff.buildCheckoutRequest(input.request),
  'checkout.parse_session': (input) => payhandoff.parseCheckoutSession(input.session),
  'checkout.parse_callback': (input) => payhandoff.parseCheckoutCallback(urlArgument(input.url), input.options),
  'checkout.confirmation': (input) => payhandoff.parseConfirmation(input.event),
  'coordinator.script': runScript,
};

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
      if (!p.name.endsWith('_json')) return { name: p.name, text: urlArgument(value) };
      return { name: p.name, text: JSON.stringify(value) };
    });
    const result = payhandoff.library.call(name, args);
    const body = JSON.parse(result.text);
    if (result.status === 0) return body;
    throw new api.PayHandoffError(body.code, body.field, body.message, result.status);
  };
}

function runVector(run, vector) {
  let result;
  let error = null;
  try {
    result = run(vector.input);
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
    } catch {
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
const folders = fs
  .readdirSync(vectorsRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'tools')
  .map((entry) => entry.name)
  .sort();

for (const folder of folders) {
  const dir = path.join(vectorsRoot, folder);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  for (const file of files) {
    const document = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    test(`vectors ${folder}/${file} (${document.suite})`, (t) => {
      const run = typed[document.suite] ?? genericSuite(document.suite);
      assert.ok(run, `unknown suite ${document.suite}: no typed method and no C function payhandoff_${document.suite.replace(/\./g, '_')} taking strings`);
      if (!typed[document.suite]) t.diagnostic(`suite ${document.suite}: run through the C function of its name`);
      assert.ok(document.vectors.length > 0, 'no vectors');
      const failures = [];
      let passed = 0;
      let skipped = 0;
      for (const vector of document.vectors) {
        let problem;
        try {
          problem = runVector(run, vector);
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
      t.diagnostic(`vectors: ${folder}/${file} (${document.suite}): ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
      assert.deepEqual(failures, []);
    });
  }
}

test('vectors: totals', (t) => {
  t.diagnostic(`vectors (wasm, Node): all suites: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  assert.equal(totals.failed, 0);
  assert.ok(totals.passed >= 1000, `only ${totals.passed} vectors ran`);
});
