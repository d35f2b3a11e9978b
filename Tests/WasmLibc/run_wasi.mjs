// Runs a wasm32-wasi command module (Tests/WasmLibc built by scripts/run_wasm_libc_tests.sh)
// under Node's WASI with no arguments, environment or files; exits with the module's status.
//   node Tests/WasmLibc/run_wasi.mjs MODULE.wasm
import fs from 'node:fs';
import { WASI } from 'node:wasi';

const wasi = new WASI({ version: 'preview1', args: [], env: {}, returnOnExit: true });
const { instance } = await WebAssembly.instantiate(fs.readFileSync(process.argv[2]), wasi.getImportObject());
process.exitCode = wasi.start(instance);
