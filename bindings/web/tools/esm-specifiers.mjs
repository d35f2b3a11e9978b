// Gives every relative import in the compiled React Native sources of the web package its `.js`
// (issue 36): the web package is an ES module ("type": "module"), where Node and TypeScript's
// node16/nodenext resolution take a relative specifier as written (TS2835 without the extension),
// while bindings/react-native/src imports without one, as its CommonJS package and Metro expect.
// Run by make web after tsc, over dist/web/lib/react-native/src (.js and .d.ts files).
//   node bindings/web/tools/esm-specifiers.mjs DIR
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: esm-specifiers.mjs DIR');
  process.exit(2);
}
let changed = 0;
for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))) {
  const file = path.join(dir, name);
  const before = fs.readFileSync(file, 'utf8');
  // `from './x'`, `import './x'`, `import('./x')`: relative, and no extension yet.
  const after = before.replace(/(\bfrom\s+|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*?)(?<!\.js|\.mjs|\.cjs|\.json)\2/g,
    (match, lead, quote, specifier) => `${lead}${quote}${specifier}.js${quote}`);
  if (after !== before) {
    fs.writeFileSync(file, after);
    changed++;
  }
}
console.log(`esm-specifiers: ${dir}: ${changed} files given .js specifiers`);
