// Extracts README.md's TypeScript examples into one file for `tsc --noEmit --strict`, so the
// documented code keeps compiling against the API. Imports are merged per module and
// 'react-native-payhandoff' points at src/index.ts; the host libraries are the stand-ins of
// test/readme-hosts.d.ts; the app's own names the examples assume are declared below.
// Usage: node test/readme-check.js README.md OUT.ts
//        node test/readme-check.js --first README.md OUT.ts   (make consumer-check, issue 36)
// --first: the first example only (*First integration*), importing 'react-native-payhandoff' as
// an app does, for a fresh project where the packed tarball is installed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const first = process.argv[2] === '--first';
const [readmePath, outPath] = process.argv.slice(first ? 3 : 2);
const readme = fs.readFileSync(readmePath, 'utf8');
const found = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
if (found.length === 0) throw new Error('no ts blocks in README');
const blocks = first ? found.slice(0, 1) : found;

const imports = new Map(); // module -> { default?: string, names: Set<string> }
const body = [];
for (const block of blocks) {
  for (const line of block.split('\n')) {
    const m = line.match(/^import\s+(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s+'([^']+)';$/);
    if (!m) {
      body.push(line);
      continue;
    }
    const entry = imports.get(m[3]) || { names: new Set() };
    if (m[1]) entry.default = m[1];
    for (const name of (m[2] || '').split(',').map((n) => n.trim()).filter(Boolean)) entry.names.add(name);
    imports.set(m[3], entry);
  }
}

const index = first ? 'react-native-payhandoff' : path.resolve(path.dirname(readmePath), 'src', 'index');
const head = [...imports].map(([module, entry]) => {
  const from = module === 'react-native-payhandoff' ? index : module;
  const parts = [entry.default, entry.names.size ? `{ ${[...entry.names].join(', ')} }` : null].filter(Boolean);
  return `import ${parts.join(', ')} from '${from}';`;
});
const prelude = [
  `import type { Coordinator as __Coordinator, Effect as __Effect } from '${index}';`,
  'declare const usertoken: string;',
  'declare const coordinator: __Coordinator;',
  'declare function otherRouter(url: string): void;',
  'declare const myBackend: { createSession(kind: string, returnUrl: string): Promise<{ checkout_url: string }> };',
  'declare const ui: { show(flowId: string, effect: __Effect): void };',
  // Defined by a later example (One coordinator for the app): the first one uses it alone.
  ...(first ? ['declare function saveSnapshot(text: string): Promise<void>;'] : []),
];
fs.writeFileSync(outPath, [...head, ...prelude, ...body, 'export {};', ''].join('\n'));
console.log(`readme-check: ${first ? 'the first of ' : ''}${found.length} TypeScript examples from ${path.basename(readmePath)}`);
