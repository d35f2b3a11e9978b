// The shared vectors on either module of dist/web, for the Node tests (test/vectors.test.mjs) and
// the page in each browser engine (test/browser/vectors.js): one file, CommonJS under Node and a
// classic script in the page (where it sets globalThis.PayHandoffModuleVectors), over the runner
// every JavaScript binding uses (Tests/Vectors/tools/vector_runner.cjs).
//
// On the full module (payhandoff.wasm) a file runs exactly as the runner runs it. On the checkout
// module (payhandoff-checkout.wasm: no POS functions, POS flows, refunds or ledger) what it was
// built without must be refused, never dropped or answered:
//   - a suite of a payhandoff_pos_* function: every vector expects PayHandoffError `unsupported`
//     naming the function (posBuildUrl …), status -6, whatever its input;
//   - a coordinator.script: its steps run and must agree with the vector up to the first pos.*
//     event, which must throw `unsupported` (field `type`, status -6) and leave the snapshot as
//     it was; the script then counts as "ended at unsupported", not as passed (the steps after
//     it are not run). A pos.* event the glue refuses before any module code runs (a lone
//     surrogate: invalid_argument, field event_json), or whose type the full module does not
//     know either (validation, field type: pos.approve), is compared with the vector like any step.
//     Each script that ended there is also run whole on the full module, when one is given, and
//     the full module's final snapshot restored on the checkout module: one holding a POS flow
//     or a ledger entry must be refused `unsupported` naming it (flows[i] of the first POS flow,
//     or ledger.sales[0] …), by restore and by salvage.
//   - every other suite runs as on the full module.
// Counts per file: passed, ended at unsupported, failed, skipped (never a step not run counted
// as passed).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.PayHandoffModuleVectors = factory();
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
'use strict';

const UNSUPPORTED_STATUS = -6;

/** The field the glue names for a C function the module lacks: calls.ts's forwarder name. */
function forwarderName(cFunction) {
  return cFunction.replace(/^payhandoff_/, '').replace(/_([a-z0-9])/g, (_, letter) => letter.toUpperCase());
}

function isPosEvent(step) {
  const event = step.event;
  return typeof event === 'object' && event !== null && !Array.isArray(event) && typeof event.type === 'string' && event.type.startsWith('pos.');
}

/** What the refusal of a snapshot names: flows[i] of its first POS flow, else the first entry
 *  of the first ledger list that has one (ledger.sales[0] …); restore and salvage alike. Empty
 *  when it holds neither (the checkout module restores it). */
function posContent(snapshot) {
  const names = [];
  const flows = Array.isArray(snapshot.flows) ? snapshot.flows : [];
  const index = flows.findIndex((flow) => flow && flow.type === 'pos');
  if (index >= 0) names.push(`flows[${index}]`);
  const ledger = snapshot.ledger || {};
  for (const key of ['sales', 'refunds', 'unknown']) if (Array.isArray(ledger[key]) && ledger[key].length > 0) names.push(`ledger.${key}[0]`);
  return names;
}

/** Why `error` is not the checkout module's `unsupported` naming `field` (a string, or a
 *  predicate on the field), or null when it is. */
function notUnsupported(error, PayHandoffError, field) {
  if (!(error instanceof PayHandoffError)) return `threw ${error && error.stack ? error.stack : error}`;
  const fieldOk = typeof field === 'function' ? field(error.field) : error.field === field;
  if (error.code !== 'unsupported' || !fieldOk || error.status !== UNSUPPORTED_STATUS) {
    return `expected unsupported [${typeof field === 'function' ? field.description : field}] status -6, got ${error.code} [${error.field}] status ${error.status}: ${error.message}`;
  }
  return null;
}

/** A POS function's suite on the checkout module: each vector must be refused unsupported. */
function runUnsupportedDocument(runner, run, document, PayHandoffError, field) {
  const vectors = document.vectors.map((vector) => ({ ...vector, expect: { error: { code: 'unsupported', field } } }));
  // The runner compares code and field; the status is checked here.
  const checked = (input) => {
    try {
      return run(input);
    } catch (error) {
      if (error instanceof PayHandoffError && error.code === 'unsupported' && error.status !== UNSUPPORTED_STATUS) {
        throw new Error(`unsupported with status ${error.status}, not ${UNSUPPORTED_STATUS}`);
      }
      throw error;
    }
  };
  const { passed, failures, skipped } = runner.runDocument(checked, { ...document, vectors }, PayHandoffError);
  return { passed, unsupported: 0, failures, skipped, expectedUnsupported: passed, restoresRefused: 0 };
}

/** One coordinator.script vector on the checkout module, up to its first pos.* event.
 *  Returns {ended: index of the step refused unsupported, or null; problem: text or null}. */
function runScriptUntilPos(runner, payhandoff, PayHandoffError, vector) {
  const input = vector.input;
  const steps = input.steps || [];
  for (const step of steps) if (step.url !== undefined) runner.urlArgument(step.url); // throws Skip for U+0000
  const expected = vector.expect.ok ? vector.expect.ok.steps : null;
  if (!expected) return { ended: null, problem: 'a script whose vector expects an error is not run to a pos.* event here' };
  let coordinator;
  try {
    coordinator = payhandoff.createCoordinator(input.config);
  } catch (error) {
    return { ended: null, problem: `createCoordinator threw ${error && error.code} [${error && error.field}]` };
  }
  try {
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      const want = expected[i];
      let got;
      if (step.restore === true) {
        const saved = coordinator.snapshotJson();
        coordinator.dispose();
        coordinator = payhandoff.restoreCoordinator(saved);
        got = runner.summary('restored', coordinator, null, null);
      } else {
        // A pos.* type the full module itself does not know (refused validation, field type) is
        // no POS event: both modules answer it alike.
        const unknownType = want && want.outcome === 'invalid_event' && want.error && want.error.code === 'validation' && want.error.field === 'type';
        const pos = isPosEvent(step) && !unknownType;
        const before = pos ? coordinator.snapshotJson() : null;
        let answer = null;
        let error = null;
        try {
          answer = typeof step.url === 'string' ? coordinator.handleUrl(step.url, step.now) : coordinator.send(step.event);
        } catch (e) {
          if (!(e instanceof PayHandoffError)) throw e;
          error = e;
        }
        if (pos && error && error.field !== 'event_json') {
          const problem = notUnsupported(error, PayHandoffError, 'type');
          if (problem) return { ended: null, problem: `step ${i} (${step.event.type}): ${problem}` };
          const after = coordinator.snapshotJson();
          if (after !== before) return { ended: null, problem: `step ${i} (${step.event.type}): refused, but the snapshot changed` };
          return { ended: i, problem: null };
        }
        if (pos && !error) {
          return { ended: null, problem: `step ${i} (${step.event.type}): answered ${answer.outcome}${answer.error ? ` ${answer.error.code} [${answer.error.field}]` : ''}, expected unsupported` };
        }
        got = error
          ? runner.summary('invalid_event', coordinator, null, error)
          : runner.summary(answer.outcome, coordinator, answer, answer.outcome === 'rejected' ? answer.error : null);
      }
      if (!runner.jsonEqual(got, want)) return { ended: null, problem: `step ${i} differs: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}` };
    }
    return { ended: null, problem: null };
  } finally {
    coordinator.dispose();
  }
}

/** The full module's final snapshot of a script (null when the full run throws: not a case here). */
function fullSnapshot(full, input) {
  let coordinator = full.createCoordinator(input.config);
  try {
    for (const step of input.steps || []) {
      if (step.restore === true) {
        const saved = coordinator.snapshotJson();
        coordinator.dispose();
        coordinator = full.restoreCoordinator(saved);
        continue;
      }
      try {
        if (typeof step.url === 'string') coordinator.handleUrl(step.url, step.now);
        else coordinator.send(step.event);
      } catch (error) {
        // The vector has it as invalid_event: nothing was sent.
      }
    }
    return coordinator.snapshotJson();
  } finally {
    coordinator.dispose();
  }
}

/** A snapshot with POS content restored on the checkout module, by restore and by salvage:
 *  refused unsupported naming it. Null when it is (or holds none: nothing to check; see
 *  posContent), else the problem. */
function checkRestoreRefused(payhandoff, PayHandoffError, text) {
  const names = posContent(JSON.parse(text));
  if (names.length === 0) return null;
  const field = names[0];
  for (const [name, restore] of [['restoreCoordinator', (t) => payhandoff.restoreCoordinator(t)],
    ['restoreCoordinatorSalvage', (t) => payhandoff.restoreCoordinatorSalvage(t)]]) {
    let restored;
    try {
      restored = restore(text);
    } catch (error) {
      const problem = notUnsupported(error, PayHandoffError, field);
      if (problem) return `${name}: ${problem}`;
      continue;
    }
    (restored.coordinator || restored).dispose();
    return `${name}: restored a snapshot holding ${names.join(', ')}, expected unsupported`;
  }
  return null;
}

/** A coordinator.script document on the checkout module. `full` (the API over the full module,
 *  optional) checks the restore of each ended script's final snapshot. */
function runScriptDocument(runner, payhandoff, full, PayHandoffError, document) {
  const typed = runner.typedSuites(payhandoff, PayHandoffError);
  const failures = [];
  const skipped = [];
  let passed = 0;
  let unsupported = 0;
  let restoresRefused = 0;
  for (const vector of document.vectors) {
    const reason = vector.skip && vector.skip[runner.RUNNER];
    if (reason !== undefined) {
      skipped.push({ id: vector.id, reason });
      continue;
    }
    const snapshot = vector.input.snapshot;
    if (snapshot !== undefined && posContent(snapshot && typeof snapshot === 'object' ? snapshot : {}).length > 0) {
      // A script starting from a snapshot with POS content (flows/recovery.json): the checkout
      // module refuses that restore or salvage `unsupported`, naming a POS flow or ledger entry —
      // or, where the full module refuses the document, with the vector's own error.
      const names = posContent(snapshot);
      const expected = vector.expect.error;
      try {
        const made = vector.input.salvage === true ? payhandoff.restoreCoordinatorSalvage(snapshot) : payhandoff.restoreCoordinator(snapshot);
        (made.coordinator || made).dispose();
        failures.push(`${vector.id}: restored a snapshot holding ${names.join(', ')}, expected unsupported`);
      } catch (error) {
        const own = expected && error instanceof PayHandoffError && error.code === expected.code
          && (expected.field === undefined || error.field === expected.field);
        const problem = own ? null : notUnsupported(error, PayHandoffError, Object.assign((f) => names.includes(f), { description: names.join(' or ') }));
        if (problem) failures.push(`${vector.id}: ${problem}`);
        else if (own) passed++;
        else { unsupported++; restoresRefused++; }
      }
      continue;
    }
    if (snapshot !== undefined && (vector.input.steps || []).some(isPosEvent)) {
      failures.push(`${vector.id}: a script from a snapshot without POS content but with pos.* steps is not run on the checkout module`);
      continue;
    }
    if (!(vector.input.steps || []).some(isPosEvent)) {
      let problem;
      try {
        problem = runner.runVector(typed['coordinator.script'], vector, PayHandoffError);
      } catch (e) {
        if (!(e instanceof runner.Skip)) throw e;
        skipped.push({ id: vector.id, reason: e.message });
        continue;
      }
      if (problem) failures.push(`${vector.id}: ${problem}`);
      else passed++;
      continue;
    }
    let result;
    try {
      result = runScriptUntilPos(runner, payhandoff, PayHandoffError, vector);
    } catch (e) {
      if (e instanceof runner.Skip) {
        skipped.push({ id: vector.id, reason: e.message });
        continue;
      }
      failures.push(`${vector.id}: threw ${e && e.stack ? e.stack : e}`);
      continue;
    }
    if (result.problem) {
      failures.push(`${vector.id}: ${result.problem}`);
      continue;
    }
    if (result.ended === null) {
      // Every pos.* event was refused by the glue before the module (the vector says so too).
      passed++;
      continue;
    }
    if (full) {
      const text = fullSnapshot(full, vector.input);
      const problem = checkRestoreRefused(payhandoff, PayHandoffError, text);
      if (problem) {
        failures.push(`${vector.id}: the full module's final snapshot on the checkout module: ${problem}`);
        continue;
      }
      if (posContent(JSON.parse(text)).length > 0) restoresRefused++;
    }
    unsupported++;
  }
  return { passed, unsupported, failures, skipped, expectedUnsupported: 0, restoresRefused };
}

/**
 * Runs one vector file on a module. `payhandoff`: the API over the module under test; `full`:
 * the API over the full module (for the checkout module's restore checks; may be null);
 * `genericSuite(suite)`: the runner's C-function suite for the module. Returns {passed,
 * unsupported, failures, skipped, expectedUnsupported, restoresRefused}.
 */
function runFile(runner, { payhandoff, full, PayHandoffError, genericSuite }, document) {
  const typed = runner.typedSuites(payhandoff, PayHandoffError);
  const cFunction = runner.suiteFunction(document.suite);
  if (!payhandoff.pos && cFunction.startsWith('payhandoff_pos_')) {
    const run = typed[document.suite] || genericSuite(document.suite)
      // A POS suite with no typed method: the module lacks its function, so call it by name.
      || ((input) => payhandoff.library.call(cFunction, []));
    return runUnsupportedDocument(runner, run, document, PayHandoffError, forwarderName(cFunction));
  }
  if (!payhandoff.pos && document.suite === 'coordinator.script') {
    return runScriptDocument(runner, payhandoff, full, PayHandoffError, document);
  }
  const run = typed[document.suite] || genericSuite(document.suite);
  if (!run) {
    return { passed: 0, unsupported: 0, failures: [`unknown suite ${document.suite}: no typed method and no C function ${cFunction} taking strings`], skipped: [], expectedUnsupported: 0, restoresRefused: 0 };
  }
  const { passed, failures, skipped } = runner.runDocument(run, document, PayHandoffError);
  return { passed, unsupported: 0, failures, skipped, expectedUnsupported: 0, restoresRefused: 0 };
}

return { UNSUPPORTED_STATUS, forwarderName, isPosEvent, posContent, runFile, checkRestoreRefused };
});
