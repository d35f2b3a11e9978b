// The WASI (wasi_snapshot_preview1) functions the module may import, written for browsers and
// Node alike, so both run the same glue. The module imports random_get alone: random bytes for
// checkout nonces and POS tokens (arc4random_buf -> getentropy -> random_get,
// bindings/web/wasm/payhandoff_wasm_random.c). The fd_* of stdio stay here for a build that links
// wasi-libc's stdio again (its arc4random_buf did, through assert). Any other WASI function the
// module may come to import answers ENOSYS rather than failing instantiation.

const ERRNO_SUCCESS = 0;
const ERRNO_BADF = 8;
const ERRNO_NOSYS = 52;
const ERRNO_SPIPE = 70;

/** getRandomValues fills at most 65536 bytes per call (the Web Crypto limit). */
const RANDOM_CHUNK = 65536;

/** Thrown by proc_exit: the module asked to stop, which the glue treats like a trap. */
export class WasiExit extends Error {
  constructor(readonly code: number) {
    super(`the module called proc_exit(${code})`);
    this.name = 'WasiExit';
  }
}

export interface WasiHost {
  /** The instance's memory, once instantiated. */
  memory(): WebAssembly.Memory;
  /** A line the module wrote to stdout (fd 1) or stderr (fd 2). */
  write(fd: number, line: string): void;
}

type WasiFunction = (...args: number[]) => number;

/** The import object's `wasi_snapshot_preview1` namespace. */
export function wasiImports(host: WasiHost): Record<string, WasiFunction> {
  const decoder = new TextDecoder();
  const pending = new Map<number, string>();
  const view = (): DataView => new DataView(host.memory().buffer);

  const known: Record<string, WasiFunction> = {
    random_get(buffer: number, length: number): number {
      const bytes = new Uint8Array(host.memory().buffer, buffer >>> 0, length >>> 0);
      for (let at = 0; at < bytes.length; at += RANDOM_CHUNK) {
        globalThis.crypto.getRandomValues(bytes.subarray(at, Math.min(at + RANDOM_CHUNK, bytes.length)));
      }
      return ERRNO_SUCCESS;
    },
    fd_write(fd: number, iovs: number, iovsLength: number, written: number): number {
      if (fd !== 1 && fd !== 2) return ERRNO_BADF;
      const memory = view();
      let text = pending.get(fd) ?? '';
      let total = 0;
      for (let i = 0; i < iovsLength; i++) {
        const base = memory.getUint32(iovs + i * 8, true);
        const length = memory.getUint32(iovs + i * 8 + 4, true);
        text += decoder.decode(new Uint8Array(memory.buffer, base, length), { stream: true });
        total += length;
      }
      const lines = text.split('\n');
      pending.set(fd, lines.pop() ?? '');
      for (const line of lines) host.write(fd, line);
      memory.setUint32(written, total, true);
      return ERRNO_SUCCESS;
    },
    fd_close(fd: number): number {
      return fd === 1 || fd === 2 ? ERRNO_SUCCESS : ERRNO_BADF;
    },
    fd_seek(): number {
      return ERRNO_SPIPE;
    },
    proc_exit(code: number): number {
      throw new WasiExit(code);
    },
  };
  return new Proxy(known, {
    get(target, name) {
      if (typeof name !== 'string') return undefined;
      return target[name] ?? ((): number => ERRNO_NOSYS);
    },
  });
}
