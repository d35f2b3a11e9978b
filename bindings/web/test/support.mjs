// Shared by the node --test files: the built package (make web: dist/web) loaded the way an app
// loads it, from its ES module and its .wasm: `payhandoff` over the full module (payhandoff.wasm,
// loadPayHandoff({ pos: true })), `checkout` over the checkout module (payhandoff-checkout.wasm,
// what loadPayHandoff() loads).
//   PAYHANDOFF_WEB_DIST  the package (dist/web: payhandoff-checkout.wasm, payhandoff.wasm, lib/)
//   PAYHANDOFF_VECTORS   Tests/Vectors
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..', '..');
export const dist = path.resolve(process.env.PAYHANDOFF_WEB_DIST ?? path.join(repo, 'dist', 'web'));
export const vectorsRoot = path.resolve(process.env.PAYHANDOFF_VECTORS ?? path.join(repo, 'Tests', 'Vectors'));
export const wasmPath = path.join(dist, 'payhandoff.wasm');
export const checkoutPath = path.join(dist, 'payhandoff-checkout.wasm');

/** The package's public entry point and one of its internal modules (for the glue's own tests). */
export const api = await import(pathToFileURL(path.join(dist, 'lib', 'web', 'src', 'index.js')).href);
export const library = await import(pathToFileURL(path.join(dist, 'lib', 'web', 'src', 'library.js')).href);

export const payhandoff = await api.loadPayHandoff({ pos: true, wasm: pathToFileURL(wasmPath) });
export const checkout = await api.loadPayHandoff({ wasm: pathToFileURL(checkoutPath) });

/** Fixed times of the scenarios (epoch ms). */
export const T0 = 1796054400000;

/** A Web Storage stand-in: a Map, with switches to make it fail like a full or blocked storage. */
export class MemoryStorage {
  constructor(entries = []) {
    this.map = new Map(entries);
    this.failReads = false;
    this.failWrites = false;
    this.writes = 0;
  }
  getItem(key) {
    if (this.failReads) throw new Error('SecurityError: storage is disabled');
    return this.map.has(key) ? this.map.get(key) : null;
  }
  setItem(key, value) {
    if (this.failWrites) throw new Error('QuotaExceededError: storage is full');
    this.writes++;
    this.map.set(key, String(value));
  }
  removeItem(key) {
    this.map.delete(key);
  }
}
