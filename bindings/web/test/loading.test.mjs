// Loading the module: the real one (its imports and exports), and every way a load can fail —
// each a PayHandoffError from the promise the page awaits, never another error and never an
// unhandled rejection. Also what happens after a trap (which the core never causes: a trap is
// provoked here with a pointer outside memory).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { api, checkoutPath, library, payhandoff, repo, wasmPath } from './support.mjs';

const unhandled = [];
process.on('unhandledRejection', (reason) => unhandled.push(reason));

/** A module exporting what the glue looks for, whose payhandoff_abi_version() answers `abi`. */
function fakeModule(abi) {
  const name = (text) => [text.length, ...Buffer.from(text)];
  const section = (id, bytes) => [id, bytes.length, ...bytes];
  const vector = (items) => [items.length, ...items.flat()];
  const types = vector([[0x60, 1, 0x7f, 1, 0x7f], [0x60, 1, 0x7f, 0], [0x60, 0, 1, 0x7f]]);
  const functions = vector([[0], [1], [2], [2], [1]]); // malloc, free, abi_version, version, string_free
  const memory = vector([[0, 1]]);
  const exports = vector([
    [...name('memory'), 2, 0],
    [...name('malloc'), 0, 0],
    [...name('free'), 0, 1],
    [...name('payhandoff_abi_version'), 0, 2],
    [...name('payhandoff_version'), 0, 3],
    [...name('payhandoff_string_free'), 0, 4],
  ]);
  const body = (code) => [code.length + 1, 0, ...code];
  const code = vector([body([0x41, 16, 0x0b]), body([0x0b]), body([0x41, abi, 0x0b]), body([0x41, 0, 0x0b]), body([0x0b])]);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, types), ...section(3, functions), ...section(5, memory), ...section(7, exports), ...section(10, code),
  ]);
}

async function loadError(options) {
  try {
    await api.loadPayHandoff(options);
  } catch (error) {
    return error;
  }
  assert.fail('the load succeeded');
}

test('each module exports the payhandoff_* functions of abi/symbols.txt (the checkout module all but payhandoff_pos_*) and the memory functions, nothing else', () => {
  const symbols = fs.readFileSync(path.join(repo, 'abi', 'symbols.txt'), 'utf8').split('\n').filter(Boolean);
  for (const [file, names] of [[wasmPath, symbols], [checkoutPath, symbols.filter((s) => !s.startsWith('payhandoff_pos_'))]]) {
    const module = new WebAssembly.Module(fs.readFileSync(file));
    const exported = WebAssembly.Module.exports(module).map((e) => e.name).sort();
    assert.deepEqual(exported, [...names, '_initialize', 'free', 'malloc', 'memory'].sort(), path.basename(file));
    const imports = WebAssembly.Module.imports(module);
    // random_get alone: nonces and POS tokens (bindings/web/wasm/payhandoff_wasm_random.c). An fd_*
    // import would mean wasi-libc's stdio, and with it printf, is linked again.
    assert.deepEqual(imports.map((i) => `${i.module}.${i.name}`), ['wasi_snapshot_preview1.random_get'], path.basename(file));
  }
});

test('loads from a file: URL, bytes, a compiled module; the ABI version is checked', async () => {
  assert.equal(payhandoff.abiVersion(), api.ABI_VERSION);
  assert.match(payhandoff.version(), /^\d+\.\d+\.\d+/);
  const bytes = fs.readFileSync(wasmPath);
  for (const wasm of [bytes, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), new WebAssembly.Module(bytes), wasmPath]) {
    const other = await api.loadPayHandoff({ wasm: typeof wasm === 'string' ? pathToFileURL(wasm).href : wasm });
    assert.equal(other.buildPosUrl({ transaction: 'venta', usertoken: 't', identifier: 'o', amount: 1, urlScheme: 'a' }).fields[3].value, '0.01');
  }
});

test('a missing file, damaged bytes, another module, a wrong source: load_failed', async () => {
  const cases = [
    [{ wasm: pathToFileURL(path.join(repo, 'no-such.wasm')) }, /no-such\.wasm could not be read/],
    [{ wasm: fs.readFileSync(wasmPath).subarray(0, 5000) }, /not a usable WebAssembly module/],
    [{ wasm: new TextEncoder().encode('<!doctype html><title>404</title>') }, /not a usable WebAssembly module/],
    [{ wasm: new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]) }, /does not export memory, malloc/],
    [{ wasm: 42 }, /unusable wasm source/],
    [{ wasm: 'http://127.0.0.1:9/payhandoff.wasm' }, /could not be read/],
  ];
  for (const [options, message] of cases) {
    const error = await loadError(options);
    assert.ok(error instanceof api.PayHandoffError, `${String(options.wasm).slice(0, 40)}: ${error}`);
    assert.equal(error.code, 'load_failed');
    assert.equal(error.status, -3);
    assert.match(error.message, message);
  }
});

test('a response with an HTTP error status: load_failed naming it', async () => {
  const error = await loadError({ wasm: new Response('not found', { status: 404, statusText: 'Not Found' }) });
  assert.equal(error.code, 'load_failed');
  assert.match(error.message, /HTTP 404 Not Found/);
});

test('a module of another ABI version: abi_mismatch', async () => {
  const error = await loadError({ wasm: fakeModule(api.ABI_VERSION + 1) });
  assert.ok(error instanceof api.PayHandoffError);
  assert.equal(error.code, 'abi_mismatch');
  assert.equal(error.status, -2);
  const ok = await api.loadPayHandoff({ wasm: fakeModule(api.ABI_VERSION) });
  assert.equal(ok.abiVersion(), api.ABI_VERSION);
});

test('without crypto.getRandomValues there are no nonces: load_failed', async () => {
  const crypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
  try {
    const error = await loadError({ wasm: fs.readFileSync(wasmPath) });
    assert.equal(error.code, 'load_failed');
    assert.match(error.message, /getRandomValues/);
  } finally {
    Object.defineProperty(globalThis, 'crypto', crypto);
  }
});

test('after a trap the module is not called again: module_trapped, every time', async () => {
  const lines = [];
  const lib = await library.WasmLibrary.load(fs.readFileSync(wasmPath), (fd, line) => lines.push(line));
  assert.throws(() => lib.call('payhandoff_coordinator_snapshot', [{ pointer: 0xfffffff0 }]), (error) => {
    assert.ok(error instanceof api.PayHandoffError);
    assert.equal(error.code, 'module_trapped');
    assert.match(error.message, /payhandoff_coordinator_snapshot/);
    return true;
  });
  assert.equal(lib.broken, true);
  assert.throws(() => lib.version(), { code: 'module_trapped' });
  assert.throws(() => lib.call('payhandoff_pos_build_url', [{ name: 'request_json', text: '{}' }]), { code: 'module_trapped' });
});

test('no load failure above left an unhandled rejection', async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(unhandled, []);
});
