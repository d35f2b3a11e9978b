// What a user gets from the npm package (make web-pack: dist/web/payhandoff-web-<version>.tgz):
// npm pack --dry-run in dist/web lists exactly the tarball's files, and those are the expected set
// (the compiled sources, both .wasm, the licences, README, package.json); the manifest is publishable.
//   PAYHANDOFF_WEB_DIST  the package folder (dist/web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const dist = path.resolve(process.env.PAYHANDOFF_WEB_DIST ?? path.join(repo, 'dist', 'web'));
const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'package.json'), 'utf8'));
const tarball = path.join(dist, `payhandoff-web-${manifest.version}.tgz`);

/** The compiled files tsc writes for the .ts files of a source folder (lib/<folder>/X.js and X.d.ts). */
const compiled = (folder, names) => names.flatMap((f) => [`lib/${folder}/${f}.js`, `lib/${folder}/${f}.d.ts`]);

test('npm pack --dry-run lists exactly the files of the tarball make web-pack wrote, and nothing else', () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dist, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const listed = JSON.parse(out)[0].files.map((f) => f.path).sort();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'payhandoff-web-pack-'));
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', work]);
    const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
    assert.deepEqual(listed, walk(path.join(work, 'package')).map((f) => path.relative(path.join(work, 'package'), f)).sort());
    assert.equal(fs.readFileSync(path.join(work, 'package', 'LICENSE'), 'utf8'), fs.readFileSync(path.join(repo, 'LICENSE'), 'utf8'));
    for (const module of ['payhandoff-checkout.wasm', 'payhandoff.wasm']) {
      assert.deepEqual(fs.readFileSync(path.join(work, 'package', module)), fs.readFileSync(path.join(dist, module)), module);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const web = fs.readdirSync(path.join(repo, 'bindings/web/src')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
  const expected = [
    'package.json', 'README.md', 'LICENSE', 'LICENSE.cJSON', 'payhandoff-checkout.wasm', 'payhandoff.wasm',
    ...compiled('web/src', web),
    // The types shared with the React Native package (tsconfig rootDir is bindings/).
    ...compiled('react-native/src', ['types', 'vocabulary', 'versions', 'redaction']),
  ].sort();
  assert.deepEqual(listed, expected);
});

test('every relative import of the compiled package names its .js file (node16/nodenext resolution, issue 36)', () => {
  // An ES module package: TypeScript's node16 and nodenext resolution refuse an extensionless
  // relative import in its .d.ts files (TS2835), and Node's in its .js files.
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
  const bare = [];
  for (const file of walk(path.join(dist, 'lib')).filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      if (!match[1].endsWith('.js')) bare.push(`${path.relative(dist, file)}: ${match[1]}`);
    }
  }
  assert.deepEqual(bare, []);
});

test('package.json is publishable: Apache-2.0, a repository, not private, exact files, no scripts', () => {
  assert.equal(manifest.name, 'payhandoff-web');
  assert.equal(manifest.license, 'Apache-2.0');
  assert.equal(manifest.private, undefined);
  assert.equal(manifest.repository.type, 'git');
  assert.match(manifest.repository.url, /^git\+https:\/\/github\.com\/.+\.git$/);
  assert.equal(manifest.repository.directory, 'bindings/web');
  assert.deepEqual(manifest.files, ['lib', 'payhandoff-checkout.wasm', 'payhandoff.wasm', 'LICENSE', 'LICENSE.cJSON']);
  // No npm scripts: they named tsconfig.json, which the package does not hold (issue 36).
  assert.equal(manifest.scripts, undefined);
  // The entry points the manifest names are in the package.
  for (const entry of [manifest.exports['.'].default, manifest.exports['.'].types, manifest.exports['./payhandoff-checkout.wasm'],
    manifest.exports['./payhandoff.wasm'], manifest.types]) {
    assert.ok(fs.existsSync(path.join(dist, entry)), entry);
  }
});
