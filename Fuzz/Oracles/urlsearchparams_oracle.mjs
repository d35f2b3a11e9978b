// WHATWG URLSearchParams (Node 20, no packages) as a long-lived child of FuzzCheckoutCallback
// (Fuzz/FuzzSupport/Oracle.swift): one request per line on stdin, {"query": "<raw query text>"},
// one answer per line on stdout: the decoded pairs, [[key, value], ...], in order.
//
// The raw query is the text between the callback URL's first '?' (after a blind-append repair,
// see the target) and its first '#'. URLSearchParams drops one leading '?' of its argument, so
// the query is passed with one '?' in front: a query that itself starts with '?' keeps it, as
// the WHATWG URL parser does for `new URL(u).searchParams`.

import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let out = [];
let scheduled = false;
function flush() {
  scheduled = false;
  if (out.length) process.stdout.write(out.join(""));
  out = [];
}
lines.on("line", (line) => {
  let answer;
  try {
    const { query } = JSON.parse(line);
    answer = [...new URLSearchParams("?" + query)];
  } catch (error) {
    answer = { oracle_error: String(error) };
  }
  out.push(JSON.stringify(answer) + "\n");
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});
lines.on("close", flush);
