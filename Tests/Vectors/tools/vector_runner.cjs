// The JavaScript runner of the shared vectors, for every binding whose API has the typed
// methods of bindings/react-native/src/PayHandoff.ts (React Native over Node-API, web over
// WebAssembly): each suite maps to one method, a result must deep-equal the vector (object key
// order ignored), an error must have its code and field — as in Swift, C and Kotlin. Also the
// seeded input mutation the bindings' robustness tests share.
//
// One file for Node and for browsers: CommonJS for the test files under Node (both the CommonJS
// and the ES module ones), and a classic script in a page (bindings/web/test/browser/vectors.html,
// where it sets globalThis.PayHandoffVectorRunner), so every engine runs the vectors through
// the same code. It needs nothing of Node but in vectorFiles().
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.PayHandoffVectorRunner = factory();
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
'use strict';

const NUL_REASON = 'a C string cannot carry U+0000 (the URL would end there)';

/** This runner's name in a vector's `skip` member (Tests/Vectors/README.md, "Skips"). */
const RUNNER = 'javascript';

/** Thrown when a vector cannot be expressed through the C ABI; counted as skipped. */
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

/** A script's coordinator: created from `config`, or restored (`salvage`: salvaged) from the
 *  `snapshot` given; `dropped` lists the members a salvage left out. */
function scriptCoordinator(payhandoff, input) {
  if (input.snapshot === undefined) return { coordinator: payhandoff.createCoordinator(input.config) };
  if (input.salvage !== true) return { coordinator: payhandoff.restoreCoordinator(input.snapshot) };
  const salvage = payhandoff.restoreCoordinatorSalvage(input.snapshot);
  return { coordinator: salvage.coordinator, dropped: salvage.dropped.map((item) => item.member) };
}

/** A coordinator.script vector: steps of events, URLs and restores (process death: only the
 *  saved snapshot text survives). */
function runScript(payhandoff, PayHandoffError, input) {
  for (const step of input.steps || []) if (step.url !== undefined) urlArgument(step.url);
  let { coordinator, dropped } = scriptCoordinator(payhandoff, input);
  const steps = [];
  try {
    for (const step of input.steps || []) {
      if (step.restore === true) {
        const saved = coordinator.snapshotJson();
        coordinator.dispose();
        coordinator = payhandoff.restoreCoordinator(saved);
        steps.push(summary('restored', coordinator, null, null));
        continue;
      }
      let answer;
      try {
        answer = typeof step.url === 'string' ? coordinator.handleUrl(step.url, step.now) : coordinator.send(step.event);
      } catch (error) {
        // The event or URL itself was refused (as harness.c and VectorTest.kt report it): nothing was sent.
        if (!(error instanceof PayHandoffError)) throw error;
        steps.push(summary('invalid_event', coordinator, null, error));
        continue;
      }
      steps.push(summary(answer.outcome, coordinator, answer, answer.outcome === 'rejected' ? answer.error : null));
    }
  } finally {
    coordinator.dispose();
  }
  return dropped === undefined ? { steps } : { steps, dropped };
}

/** Suite name -> the typed method that runs a vector's input. */
function typedSuites(payhandoff, PayHandoffError) {
  return {
    'pos.build_url': (input) => payhandoff.buildPosUrl(input.request),
    'pos.parse_response': (input) => payhandoff.parsePosResponse(urlArgument(input.url), input.options),
    // The extras are sent as JSON text whatever their type (the vectors hold non-objects too).
    'pos.parse_result': (input) => payhandoff.parsePosResult(input.extras, input.options),
    'pos.refund_check': (input) => payhandoff.checkRefund(input.check),
    'checkout.build_request': (input) => payhandoff.buildCheckoutRequest(input.request),
    'checkout.parse_session': (input) => payhandoff.parseCheckoutSession(input.session),
    'checkout.parse_callback': (input) => payhandoff.parseCheckoutCallback(urlArgument(input.url), input.options),
    'checkout.confirmation': (input) => payhandoff.parseConfirmation(input.event),
    'coordinator.script': (input) => runScript(payhandoff, PayHandoffError, input),
  };
}

/** Whether two JSON values are equal: the same types, arrays element by element, objects with
 *  the same members in any order, numbers and strings exactly. (Results are JSON documents, so
 *  that is all a vector can hold; node:assert is not in browsers.) */
function jsonEqual(a, b) {
  if (a === b) return typeof a !== 'number' || Object.is(a, b);
  if (typeof a === 'string' && typeof b === 'string') {
    const x = squareData(a);
    const y = squareData(b);
    return x !== undefined && y !== undefined && jsonEqual(x, y);
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEqual(a[key], b[key]));
}

const SQUARE_DATA = 'square-commerce-v1://payment/create?data=';

/** Square's iOS request carries its JSON in `data=`, in no fixed key order: such a string is
 *  compared by that JSON, percent-decoded (Tests/Vectors/README.md, "Comparing results");
 *  undefined for any other string, or one whose rest does not decode. */
function squareData(text) {
  if (!text.startsWith(SQUARE_DATA)) return undefined;
  try {
    return JSON.parse(decodeURIComponent(text.slice(SQUARE_DATA.length)));
  } catch (e) {
    return undefined;
  }
}

/** Every `PAYHANDOFF_API int32_t payhandoff_x(const char *a, const char *b_json, char **out)` of
 *  include/payhandoff.h's text: name -> parameters [{type, name}] without the trailing `char **out`. */
function headerFunctions(headerText) {
  const functions = new Map();
  for (const match of headerText.matchAll(/PAYHANDOFF_API\s+int32_t\s+(payhandoff_\w+)\s*\(([^)]*)\)/g)) {
    const params = match[2].split(',').map((p) => p.trim().replace(/\s+/g, ' '));
    if (params[params.length - 1] !== 'char **out') continue;
    functions.set(match[1], params.slice(0, -1).map((p) => {
      const name = p.match(/(\w+)$/)[1];
      return { type: p.slice(0, -name.length).trim(), name };
    }));
  }
  return functions;
}

/** A suite the typed API has no method for, run through the C function of its name
 *  (payhandoff_<suite with _ for .>) with the vector's input mapped onto the header's parameters
 *  (`url` <- input.url, `options_json` <- JSON of input.options; a lone `*_json` parameter takes
 *  the one input member left). `call(name, [{name, text}])` calls the C function and returns
 *  {status, text}. Null when there is no such function taking strings. */
function genericSuite(functions, suite, call, PayHandoffError) {
  const name = `payhandoff_${suite.replace(/\./g, '_')}`;
  const params = functions.get(name);
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
    const result = call(name, args);
    const body = JSON.parse(result.text);
    if (result.status === 0) return body;
    throw new PayHandoffError(body.code, body.field, body.message, result.status);
  };
}

/** The C function a suite's calls go through (to tell whether a module has the suite at all):
 *  the typed suites' own, else the function of the suite's name. */
const SUITE_FUNCTIONS = {
  'checkout.confirmation': 'payhandoff_checkout_parse_confirmation',
  'coordinator.script': 'payhandoff_coordinator_send',
};
function suiteFunction(suite) {
  return SUITE_FUNCTIONS[suite] ?? `payhandoff_${suite.replace(/\./g, '_')}`;
}

/** Runs one vector; returns null when it agrees, else what differs. Throws Skip. */
function runVector(run, vector, PayHandoffError) {
  let result;
  let error = null;
  try {
    result = run(vector.input);
  } catch (e) {
    if (e instanceof Skip) throw e;
    if (!(e instanceof PayHandoffError)) return `threw ${e && e.stack}`;
    error = e;
  }
  const { ok, error: expected } = vector.expect;
  if ((ok === undefined) === (expected === undefined)) return 'expect must hold exactly one of ok or error';
  if (ok !== undefined) {
    if (error) return `expected success, got ${error.code} [${error.field}] ${error.message}`;
    return jsonEqual(result, ok) ? null : `result differs: ${JSON.stringify(result)}`;
  }
  if (!error) return `expected error ${expected.code}, got success ${JSON.stringify(result)}`;
  if (error.code !== expected.code) return `expected error ${expected.code}, got ${error.code} [${error.field}]`;
  if ('field' in expected && expected.field !== error.field) {
    return `expected field ${expected.field}, got ${error.field} (${error.code})`;
  }
  return null;
}

/** Every vector file: each folder of `root` but tools/, files sorted (Node only). */
function vectorFiles(root) {
  const fs = require('node:fs');
  const path = require('node:path');
  const files = [];
  const folders = fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'tools');
  for (const folder of folders.map((e) => e.name).sort()) {
    for (const file of fs.readdirSync(path.join(root, folder)).filter((f) => f.endsWith('.json')).sort()) {
      files.push({ folder, file, document: JSON.parse(fs.readFileSync(path.join(root, folder, file), 'utf8')) });
    }
  }
  return files;
}

/** Runs every vector of a document; {passed, failures, skipped: [{id, reason}]}. A vector whose
 *  `skip` names this runner is skipped with its reason, as is one a JavaScript string cannot hand
 *  to the C ABI (U+0000 in a URL); neither counts as passed. */
function runDocument(run, document, PayHandoffError) {
  const failures = [];
  const skipped = [];
  let passed = 0;
  for (const vector of document.vectors) {
    const reason = vector.skip && vector.skip[RUNNER];
    if (reason !== undefined) {
      skipped.push({ id: vector.id, reason });
      continue;
    }
    let problem;
    try {
      problem = runVector(run, vector, PayHandoffError);
    } catch (e) {
      if (!(e instanceof Skip)) throw e;
      skipped.push({ id: vector.id, reason: e.message });
      continue;
    }
    if (problem) failures.push(`${vector.id}: ${problem}`);
    else passed++;
  }
  return { passed, failures, skipped };
}

// ---- printing never shows a secret (issue 36) ----------------------------------------------------

/** Members whose string value is a secret (compared lower-case). */
const SECRET_KEYS = new Set(['usertoken', 'pin', 'token', 'nonce', 'api_key', 'affiliate_key']);

/** Adds to `secrets` the secrets `value` (a vector's input, or a result as JSON data) holds: strings
 *  at SECRET_KEYS, and in URLs the ph_<nonce> segment and usertoken= / pin= / affiliate-key= (SumUp) values. */
function collectSecrets(value, secrets) {
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, secrets);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (SECRET_KEYS.has(key.toLowerCase()) && typeof member === 'string') secrets.add(member);
      collectSecrets(member, secrets);
    }
  } else if (typeof value === 'string') {
    for (const pattern of [/(?<![/:])\/ph_([A-Za-z0-9._~-]+)/g, /[?&/]usertoken=([^&#]*)/gi, /[?&/]pin=([^&#]*)/gi,
                         /[?&]affiliate-key=([^&#]*)/gi]) {
      for (const match of value.matchAll(pattern)) {
        secrets.add(match[1]);
        try { secrets.add(decodeURIComponent(match[1])); } catch (e) { /* not percent-encoded text */ }
      }
    }
  }
  return secrets;
}

/** Secrets long enough to look for in printed text (vectors use one-letter tokens too). */
function meaningful(secrets) {
  return [...secrets].filter((s) => s.length >= 4 && s !== 'true').sort();
}

/** What a vector's typed calls hand the app — the result or the error, and for a script every
 *  answer, every refused event's error and the snapshot before each restore and at the end — and
 *  the vector's secrets, those the library made included (read from those values as data). */
function produced(payhandoff, PayHandoffError, suite, input) {
  const values = [];
  const suites = typedSuites(payhandoff, PayHandoffError);
  let coordinator;
  if (suite === 'coordinator.script') {
    try {
      coordinator = scriptCoordinator(payhandoff, input).coordinator;
    } catch (error) {
      if (!(error instanceof PayHandoffError)) throw error;
      values.push(error);  // a snapshot restore refused: nothing else to print
    }
  }
  if (coordinator) {
    try {
      for (const step of input.steps || []) {
        try {
          if (step.restore === true) {
            values.push(coordinator.snapshot());
            const saved = coordinator.snapshotJson();
            coordinator.dispose();
            coordinator = payhandoff.restoreCoordinator(saved);
          } else if (typeof step.url === 'string') {
            if (step.url.includes('\u0000')) continue;
            values.push(coordinator.handleUrl(step.url, step.now));
          } else {
            values.push(coordinator.send(step.event));
          }
        } catch (error) {
          if (!(error instanceof PayHandoffError)) throw error;
          values.push(error);
        }
      }
      values.push(coordinator.snapshot());
      try {
        values.push(payhandoff.restoreCoordinatorSalvage(coordinator.snapshotJson()));
      } catch (error) {
        if (!(error instanceof PayHandoffError)) throw error;
        values.push(error);
      }
    } finally {
      coordinator.dispose();
      const last = values[values.length - 1];
      if (last && last.coordinator) last.coordinator.dispose();
    }
  } else if (suite !== 'coordinator.script') {
    try {
      if (typeof input.url === 'string' && input.url.includes('\u0000')) return { values, secrets: [] };
      values.push(suites[suite](input));
    } catch (error) {
      if (!(error instanceof PayHandoffError)) throw error;
      values.push(error);
    }
  }
  const secrets = collectSecrets(input, new Set());
  for (const value of values) collectSecrets(JSON.parse(JSON.stringify(value) ?? 'null'), secrets);
  return { values, secrets: meaningful(secrets) };
}

/** How React Native's console prints a value into the native log (logcat, os_log): its own copy
 *  of an old Node util.inspect, which lists Object.keys and shows an accessor as [Getter] without
 *  calling it (react-native packages/polyfills/console.js, facebook/react-native
 *  00aa7551931b26108b044be1ac8890cff361a245: formatValue, formatProperty). The same rules, here. */
function nativeLogInspect(value, depth = 10, seen = []) {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? `'${value}'` : String(value);
  if (value instanceof Error) return `[${Error.prototype.toString.call(value)}]`;
  if (seen.includes(value)) return '[Circular]';
  if (depth < 0) return '[Object]';
  seen.push(value);
  const parts = Object.keys(value).map((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key) || { value: value[key] };
    const shown = descriptor.get ? (descriptor.set ? '[Getter/Setter]' : '[Getter]') : nativeLogInspect(descriptor.value, depth - 1, seen);
    return Array.isArray(value) && /^\d+$/.test(key) ? shown : `${key}: ${shown}`;
  });
  seen.pop();
  return Array.isArray(value) ? `[ ${parts.join(', ')} ]` : `{ ${parts.join(', ')} }`;
}

/** `value` printed every way a Node program prints one (Node only): console.log (a Console over a
 *  string), util.inspect (all depths; also with showHidden), util.format's %s %o %O %j-free forms,
 *  String() and a template literal, and React Native's native log (nativeLogInspect). Not
 *  JSON.stringify: that is the data, secrets included, by decision (redaction.ts). */
function nodePrinted(value) {
  const util = require('node:util');
  const { Console } = require('node:console');
  const { Writable } = require('node:stream');
  let logged = '';
  const sink = new Writable({ write(chunk, encoding, done) { logged += chunk; done(); } });
  new Console({ stdout: sink, stderr: sink }).log(value);
  return [logged, util.inspect(value, { depth: Infinity }), util.inspect(value, { depth: Infinity, showHidden: true }),
    util.format('%s %o %O', value, value, value), String(value), `${value}`, nativeLogInspect(value)].join('\n');
}

/** Every vector of `root` through `produced`, each value through nodePrinted (Node only): how
 *  many values were printed, how many secrets looked for, and where one was shown. */
function printedSecrets(payhandoff, PayHandoffError, root) {
  let values = 0;
  let looked = 0;
  const shown = [];
  for (const { folder, file, document } of vectorFiles(root)) {
    for (const vector of document.vectors) {
      if (vector.skip && vector.skip[RUNNER] !== undefined) continue;
      const { values: made, secrets } = produced(payhandoff, PayHandoffError, document.suite, vector.input);
      looked += secrets.length;
      for (const value of made) {
        values++;
        const printed = nodePrinted(value);
        for (const secret of secrets) if (printed.includes(secret)) shown.push(`${folder}/${file} ${vector.id}: '${secret}' in ${printed.slice(0, 600)}`);
      }
    }
  }
  return { values, looked, shown };
}

// ---- seeded mutation (robustness tests) --------------------------------------------------------

/** xorshift32: the same sequence every run. */
function generator(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

const PIECES = ['\u0000', '\ud800', '\udfff', '\uffff', '%', '%zz', '%00', '&', '=', '"', '\\', '{', '}', '[', ']', ':', ',', '😀', 'é', '\u007f', '\n', '1e400', '-0', '9007199254740993', 'null'];

/** `text` with one to four random insertions (hostile pieces, any UTF-16 unit) or deletions. */
function mutate(text, random) {
  const chars = [...text];
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * (chars.length + 1));
    const roll = random();
    if (roll < 0.4) chars.splice(at, 0, PIECES[Math.floor(random() * PIECES.length)]);
    else if (roll < 0.7) chars.splice(at, 1 + Math.floor(random() * 3));
    else chars.splice(at, 0, String.fromCharCode(Math.floor(random() * 0x10000)));
  }
  return chars.join('');
}

return {
  NUL_REASON, RUNNER, Skip, urlArgument, summary, runScript, typedSuites, jsonEqual, headerFunctions, genericSuite, suiteFunction,
  runVector, runDocument, vectorFiles, generator, mutate, collectSecrets, produced, nativeLogInspect, nodePrinted, printedSecrets,
};
});
