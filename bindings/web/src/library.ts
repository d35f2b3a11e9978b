// A WebAssembly module of the core + C ABI (dist/web/payhandoff-checkout.wasm or payhandoff.wasm), loaded and called the
// way a C program calls include/payhandoff.h: UTF-8 strings copied into the module's memory
// with its malloc, `char **out` read back and released with payhandoff_string_free. Nothing is
// parsed or checked here beyond what C itself cannot carry (a JavaScript value that is not a
// string, U+0000 or a lone UTF-16 surrogate inside a string, a time that is not an integer).
import { ABI_VERSION } from '../../react-native/src/versions.js';
import type { CExports } from './calls.js';
import { GLUE_STATUS, PayHandoffError, describe, invalidArgument, unsupported } from './errors.js';
import { WasiExit, wasiImports } from './wasi.js';

export { ABI_VERSION };

/** Where the module comes from: a URL (fetched; read from disk for file: URLs in Node), an HTTP
 *  response, its bytes, or an already compiled module. */
export type WasmSource = string | URL | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

/** The modules at the package root: the checkout module (no POS functions, refunds or ledger;
 *  what a checkout page loads) and the full one. */
export const CHECKOUT_MODULE = 'payhandoff-checkout.wasm';
export const FULL_MODULE = 'payhandoff.wasm';

/** The C functions only the full module exports (the checkout module is built without them). */
export const POS_FUNCTIONS = [
  'payhandoff_pos_build_url',
  'payhandoff_pos_parse_response',
  'payhandoff_pos_parse_result',
  'payhandoff_pos_refund_check',
] as const;

/** The package layout (lib/web/src/library.js, the modules at the package root): the full module
 *  when `pos`, else the checkout module. */
export function defaultWasmUrl(pos = false): URL {
  return new URL(`../../../${pos ? FULL_MODULE : CHECKOUT_MODULE}`, import.meta.url);
}

/** One C argument: a string parameter (null for NULL), an int64 (epoch ms), a coordinator
 *  pointer, or the `payhandoff_coordinator **handle` a create/restore writes. `name` is the C
 *  parameter's, reported as the error's field. */
export type CArgument =
  | { name: string; text: string | null }
  | { name: string; int64: number }
  | { pointer: number }
  | 'handle_out';

/** A call's status and *out text (a result or an error document), and *handle when asked for. */
export interface CResult {
  status: number;
  text: string;
  handle: number;
}

/** The module's exports: the C functions (calls.ts, generated from abi/payhandoff.json), its
 *  memory and allocator, and the reactor's constructor. */
interface Exports extends CExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
  _initialize?: () => void;
  [name: string]: unknown;
}

const REQUIRED = ['memory', 'malloc', 'free', 'payhandoff_abi_version', 'payhandoff_version', 'payhandoff_string_free'];

/** A lone UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a
 *  high one (code units, no `u` flag: the pairs are what is checked). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a lone UTF-16 surrogate, which has no UTF-8 form (TextEncoder would write
 *  U+FFFD for it, Kotlin invalid bytes): the glue refuses it, naming the parameter. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** The error for a parameter holding a lone surrogate (the same in Kotlin and React Native). */
export function loneSurrogate(field: string): PayHandoffError {
  return invalidArgument(field, 'holds a lone UTF-16 surrogate, which has no UTF-8 form');
}

function loadFailed(message: string): PayHandoffError {
  return new PayHandoffError('load_failed', null, message, GLUE_STATUS.loadFailed);
}

function isNode(): boolean {
  const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof process?.versions?.node === 'string';
}

async function bytesOf(response: Response, where: string): Promise<ArrayBuffer> {
  if (!response.ok) throw loadFailed(`${where}: HTTP ${response.status} ${response.statusText}`.trim());
  return response.arrayBuffer();
}

/** The compiled module, from any WasmSource. */
async function compile(source: WasmSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  let bytes: ArrayBuffer | ArrayBufferView;
  let where = 'the module bytes';
  if (typeof source === 'string' || source instanceof URL) {
    const base = (globalThis as { location?: { href: string } }).location?.href ?? import.meta.url;
    const url = new URL(String(source), base);
    where = url.href;
    if (url.protocol === 'file:' && isNode()) {
      // A variable specifier keeps bundlers from resolving a Node module for browser builds.
      const fsModule = 'node:fs/promises';
      const fs = (await import(fsModule)) as { readFile(path: URL): Promise<ArrayBufferView> };
      bytes = await fs.readFile(url);
    } else {
      bytes = await bytesOf(await fetch(url), where);
    }
  } else if (typeof Response !== 'undefined' && source instanceof Response) {
    where = source.url || 'the response';
    bytes = await bytesOf(source, where);
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    bytes = source;
  } else {
    throw loadFailed(`unusable wasm source (${Object.prototype.toString.call(source)}): give a URL, a Response, bytes or a WebAssembly.Module`);
  }
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    throw loadFailed(`${where} is not a usable WebAssembly module (${describe(error)})`);
  }
}

export class WasmLibrary {
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  /** Two 4-byte cells the module writes `*out` and `*handle` into. */
  private readonly outCell: number;
  private readonly handleCell: number;
  /** Set by the first trap: the module's state is unknown after it, so it is not called again. */
  private failure: PayHandoffError | null = null;

  private constructor(private readonly exports: Exports) {
    const cells = this.guard('malloc', () => exports.malloc(8)) as number;
    if (cells === 0) throw new PayHandoffError('out_of_memory', null, 'the module could not allocate 8 bytes', GLUE_STATUS.outOfMemory);
    this.outCell = cells;
    this.handleCell = cells + 4;
  }

  /** Fetches (or reads), compiles and instantiates the module, runs its constructors and
   *  checks its ABI version. Rejects with PayHandoffError (`load_failed`, `abi_mismatch`). */
  static async load(source: WasmSource, log: (fd: number, line: string) => void): Promise<WasmLibrary> {
    if (typeof globalThis.crypto?.getRandomValues !== 'function') {
      throw loadFailed('crypto.getRandomValues is not available: checkout nonces need a secure random source');
    }
    let module: WebAssembly.Module;
    try {
      module = await compile(source);
    } catch (error) {
      // A network error, a missing file: fetch and readFile reject with their own errors.
      throw error instanceof PayHandoffError ? error : loadFailed(`${String(source)} could not be read (${describe(error)})`);
    }
    let memory: WebAssembly.Memory | null = null;
    const imports = {
      wasi_snapshot_preview1: wasiImports({
        memory: () => {
          if (memory === null) throw new Error('the module used WASI before instantiation finished');
          return memory;
        },
        write: log,
      }),
    };
    let instance: WebAssembly.Instance;
    try {
      instance = await WebAssembly.instantiate(module, imports);
    } catch (error) {
      throw loadFailed(`the module could not be instantiated (${describe(error)})`);
    }
    const exports = instance.exports as unknown as Exports;
    const missing = REQUIRED.filter((name) => !(name in exports));
    if (missing.length > 0) throw loadFailed(`the module does not export ${missing.join(', ')}: it is not a PayHandoff module`);
    memory = exports.memory;
    const library = new WasmLibrary(exports);
    if (typeof exports._initialize === 'function') library.guard('_initialize', () => exports._initialize?.());
    const found = library.guard('payhandoff_abi_version', () => exports.payhandoff_abi_version()) as number;
    if (found !== ABI_VERSION) {
      throw new PayHandoffError(
        'abi_mismatch',
        null,
        `the module has C ABI version ${found}; this package needs ${ABI_VERSION}`,
        GLUE_STATUS.abiMismatch,
      );
    }
    return library;
  }

  /** Whether the module exports a C function (abi/symbols.txt names them all). */
  has(name: string): boolean {
    return typeof this.exports[name] === 'function';
  }

  /** Whether this is a module with the POS functions (the full one), by its exports. */
  get pos(): boolean {
    return POS_FUNCTIONS.every((name) => this.has(name));
  }

  /** Throws `unsupported` (status -6, naming the function) when the module does not export the
   *  C function `name` of the ABI: the checkout module has no payhandoff_pos_*. */
  require(name: string): void {
    if (this.has(name)) return;
    if (name.startsWith('payhandoff_')) throw unsupported(name);
    throw invalidArgument('function', `the module does not export ${name}`);
  }

  abiVersion(): number {
    return this.guard('payhandoff_abi_version', () => this.exports.payhandoff_abi_version()) as number;
  }

  /** payhandoff_version(): a static string, not freed. */
  version(): string {
    const pointer = this.guard('payhandoff_version', () => this.exports.payhandoff_version()) as number;
    return this.readString(pointer);
  }

  /**
   * Calls `int32_t name(arguments..., char **out)` and returns its status and *out text.
   * Throws PayHandoffError for a function the module does not export (`unsupported`: a
   * payhandoff_pos_* function of the checkout module; nothing checked or called), for an argument
   * C cannot carry (`invalid_argument`, nothing called),
   * for a module that could not allocate (`out_of_memory`) and after a trap (`module_trapped`).
   */
  call(name: string, args: readonly CArgument[]): CResult {
    this.require(name);
    const fn = this.exports[name];
    const copies: number[] = [];
    try {
      const params: Array<number | bigint> = [];
      for (const arg of args) params.push(this.parameter(arg, copies));
      const memory = new DataView(this.exports.memory.buffer);
      memory.setUint32(this.outCell, 0, true);
      memory.setUint32(this.handleCell, 0, true);
      params.push(this.outCell);
      const status = this.guard(name, () => (fn as (...p: Array<number | bigint>) => number)(...params)) as number;
      const after = new DataView(this.exports.memory.buffer);
      const out = after.getUint32(this.outCell, true);
      const handle = after.getUint32(this.handleCell, true);
      if (out === 0) {
        throw new PayHandoffError('out_of_memory', null, `${name} could not allocate its answer`, GLUE_STATUS.outOfMemory);
      }
      const text = this.readString(out);
      this.guard('payhandoff_string_free', () => this.exports.payhandoff_string_free(out));
      return { status, text, handle };
    } finally {
      for (const pointer of copies) this.guard('free', () => this.exports.free(pointer));
    }
  }

  /** Calls a `void name(pointer)` function (payhandoff_coordinator_free). */
  release(name: string, pointer: number): void {
    this.require(name);
    const fn = this.exports[name];
    this.guard(name, () => (fn as (p: number) => void)(pointer));
  }

  /** Whether the module trapped and is no longer called. */
  get broken(): boolean {
    return this.failure !== null;
  }

  private parameter(arg: CArgument, copies: number[]): number | bigint {
    if (arg === 'handle_out') return this.handleCell;
    if ('pointer' in arg) return arg.pointer;
    if ('int64' in arg) {
      if (typeof arg.int64 !== 'number' || !Number.isSafeInteger(arg.int64)) {
        throw invalidArgument(arg.name, 'must be an integer number of epoch milliseconds');
      }
      return BigInt(arg.int64);
    }
    if (arg.text === null) return 0;
    if (typeof arg.text !== 'string') throw invalidArgument(arg.name, `must be a string, not ${typeName(arg.text)}`);
    if (arg.text.includes('\u0000')) throw invalidArgument(arg.name, 'contains U+0000, which a C string cannot carry');
    if (hasLoneSurrogate(arg.text)) throw loneSurrogate(arg.name);
    const pointer = this.cString(arg.text, arg.name);
    copies.push(pointer);
    return pointer;
  }

  /** A NUL-terminated UTF-8 copy of `text` (no lone surrogate: `parameter` refused those) in the
   *  module's memory, which grows as its malloc needs (no cap: a snapshot may be 256 KiB). */
  private cString(text: string, field: string): number {
    const capacity = text.length * 3 + 1;
    const pointer = this.guard('malloc', () => this.exports.malloc(capacity)) as number;
    if (pointer === 0) {
      throw new PayHandoffError('out_of_memory', field, `the module could not allocate ${capacity} bytes`, GLUE_STATUS.outOfMemory);
    }
    const target = new Uint8Array(this.exports.memory.buffer, pointer, capacity);
    const { written } = this.encoder.encodeInto(text, target);
    target[written ?? 0] = 0;
    return pointer;
  }

  private readString(pointer: number): string {
    const bytes = new Uint8Array(this.exports.memory.buffer);
    return this.decoder.decode(bytes.subarray(pointer, bytes.indexOf(0, pointer)));
  }

  /** Runs one call into the module; a trap (or proc_exit) marks the module unusable. */
  private guard(name: string, body: () => unknown): unknown {
    if (this.failure !== null) throw this.failure;
    try {
      return body();
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError || error instanceof WasiExit || error instanceof RangeError) {
        this.failure = new PayHandoffError(
          'module_trapped',
          null,
          `the module trapped in ${name} (${describe(error)}); it is not called again: load it anew`,
          GLUE_STATUS.moduleTrapped,
        );
        throw this.failure;
      }
      throw error;
    }
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

