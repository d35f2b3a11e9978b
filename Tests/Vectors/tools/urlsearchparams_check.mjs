// Checks the checkout.parse_callback vectors against WHATWG URLSearchParams (Node 20, no packages).
//
//     node Tests/Vectors/tools/urlsearchparams_check.mjs
//
// For every vector whose expect is `ok`, the query of the input URL (the fragment cut at the
// first '#', then the text after the first '?'; when the registered return URL has its own
// query Q and the callback's query begins with Q + '?', the text after that '?': a gateway
// appended '?status=…' blindly; with no '?' and a last path segment `ph_<nonce>&…`, the text after
// that '&': a gateway appended '&status=…' to a URL without a query) is parsed with URLSearchParams and compared with the expected
// document:
//   - status, and card_id / payment_id and reason when the document has them, equal get(key);
//     when the document lacks one of those (PayHandoff drops empty values), get(key) is null or "";
//   - verified is true exactly when the WHATWG URL parser sees a last path segment `ph_…` (ok
//     vectors never carry a wrong nonce; PayHandoff compares the nonce itself);
//   - every extra entry equals get(key), and every key URLSearchParams sees is either one
//     PayHandoff reads itself or an extra entry.
// This shows that PayHandoff's callback decoding agrees with URLSearchParams wherever both
// accept the input (vectors expecting an error are inputs PayHandoff refuses on purpose).
// Prints one line per disagreement and a final "N passed, N failed"; exits 1 on any failure.

import { readFileSync } from "node:fs";

const file = new URL("../checkout/parse_callback.json", import.meta.url);
const document = JSON.parse(readFileSync(file, "utf8"));
if (document.suite !== "checkout.parse_callback") {
  console.error(`unexpected suite ${JSON.stringify(document.suite)} in ${file.pathname}`);
  process.exit(2);
}

const OWN_KEYS = ["status", "card_id", "payment_id", "reason"];

function rawQuery(url) {
  const hash = url.indexOf("#");
  const beforeFragment = hash < 0 ? url : url.slice(0, hash);
  const question = beforeFragment.indexOf("?");
  return question < 0 ? "" : beforeFragment.slice(question + 1);
}

// A gateway that appended '&status=…' to a return URL without a query (issue 24): no '?', and
// the last path segment is `ph_<nonce>&…`; the query is the text after that '&' (the fragment cut).
function ampersandQuery(url) {
  const hash = url.indexOf("#");
  const beforeFragment = hash < 0 ? url : url.slice(0, hash);
  if (beforeFragment.includes("?")) return null;
  const slash = beforeFragment.lastIndexOf("/");
  const segment = beforeFragment.slice(slash + 1);
  const ampersand = segment.indexOf("&");
  return segment.startsWith("ph_") && ampersand > 0 ? segment.slice(ampersand + 1) : null;
}

function queryOf(url, returnURL) {
  const appended = ampersandQuery(url);
  if (appended !== null) return appended;
  const query = rawQuery(url);
  const own = rawQuery(returnURL);
  return own !== "" && query.startsWith(own + "?") ? query.slice(own.length + 1) : query;
}

function carriesNonceSegment(url) {
  const segments = new URL(url).pathname.split("/");
  return segments.length > 1 && segments[segments.length - 1].startsWith("ph_");
}

function show(value) {
  return value === null || value === undefined ? String(value) : JSON.stringify(value);
}

let passed = 0;
let failed = 0;
for (const vector of document.vectors) {
  const expected = vector.expect && vector.expect.ok;
  if (!expected) continue;
  const params = new URLSearchParams(queryOf(vector.input.url, vector.input.options.return_url));
  const problems = [];
  const same = (what, want, got) => {
    if (want !== got) problems.push(`${what}: expected ${show(want)}, URLSearchParams ${show(got)}`);
  };

  same("status", expected.status, params.get("status"));
  for (const key of ["card_id", "payment_id", "reason"]) {
    if (Object.hasOwn(expected, key)) {
      same(key, expected[key], params.get(key));
    } else {
      const got = params.get(key);
      if (got !== null && got !== "") problems.push(`${key}: absent from the result, URLSearchParams ${show(got)}`);
    }
  }
  same("verified", expected.verified, carriesNonceSegment(vector.input.url));
  const extra = expected.extra || {};
  for (const [key, value] of Object.entries(extra)) {
    same(`extra[${JSON.stringify(key)}]`, value, params.get(key));
  }
  for (const key of new Set(params.keys())) {
    if (!OWN_KEYS.includes(key) && !Object.hasOwn(extra, key)) {
      problems.push(`key ${JSON.stringify(key)}: seen by URLSearchParams, missing from extra`);
    }
  }

  if (problems.length === 0) {
    passed += 1;
  } else {
    failed += 1;
    for (const problem of problems) console.log(`${vector.id}: ${problem}`);
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
