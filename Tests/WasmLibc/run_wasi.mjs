// Runs a wasm32-wasi command module of Tests/WasmLibc (built by scripts/run_wasm_libc_tests.sh)
// under Node's WASI, with no environment or files; exits with the module's status.
//   node Tests/WasmLibc/run_wasi.mjs MODULE.wasm [--random=counter|host|fail]
// --random=MODE (also given to the module as its argument) replaces random_get: `counter` fills
// each call's bytes with a running count mod 251, `fail` answers EIO and then expects the module
// to trap (a trap is success, anything else failure), `host` keeps Node's.
import fs from 'node:fs';
import { WASI } from 'node:wasi';

const [file, option] = process.argv.slice(2);
const mode = option?.startsWith('--random=') ? option.slice('--random='.length) : undefined;
const wasi = new WASI({ version: 'preview1', args: ['module', ...(mode ? [mode] : [])], env: {}, returnOnExit: true });
const imports = wasi.getImportObject();
let memory;
let count = 0;
if (mode === 'counter') {
  imports.wasi_snapshot_preview1 = {
    ...imports.wasi_snapshot_preview1,
    random_get(buffer, length) {
      const bytes = new Uint8Array(memory.buffer, buffer >>> 0, length >>> 0);
      for (let i = 0; i < bytes.length; i++) bytes[i] = count++ % 251;
      return 0;
    },
  };
} else if (mode === 'fail') {
  imports.wasi_snapshot_preview1 = { ...imports.wasi_snapshot_preview1, random_get: () => 29 /* EIO */ };
}
const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), imports);
memory = instance.exports.memory;
if (mode === 'fail') {
  try {
    wasi.start(instance);
    process.exitCode = 1;
  } catch (error) {
    const trapped = error instanceof WebAssembly.RuntimeError;
    console.log(trapped ? 'web-libc: arc4random_buf traps when random_get fails' : `FAIL: not a trap: ${error}`);
    process.exitCode = trapped ? 0 : 1;
  }
} else {
  process.exitCode = wasi.start(instance);
}
