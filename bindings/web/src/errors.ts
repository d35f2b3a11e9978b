// The one error of the web package: the C ABI's error document, thrown, plus the few things
// only the glue can say (the module could not be loaded, or stopped working).
import type { ErrorCode } from '../../react-native/src/vocabulary.js';
import { STATUS } from '../../react-native/src/vocabulary.js';

/** Every code of the shared ErrorCode (which has the bindings' `storage_unavailable`: the page's
 *  storage refused or full, see openCoordinator), plus the web glue's own:
 *  `load_failed`: the .wasm could not be fetched, compiled or instantiated (or the page has no
 *  crypto.getRandomValues for nonces); `module_trapped`: the module trapped earlier, a bug of
 *  the library, after which it is not used again; `unsupported`: the loaded module has no such
 *  function or rule — the checkout module (payhandoff-checkout.wasm, what loadPayHandoff() loads)
 *  has no POS functions, and its core refuses a `pos.*` event (field `type`) and a snapshot
 *  holding a POS flow (`flows[i]`) or a ledger entry (`ledger…`) with the same code and status:
 *  load the full module, loadPayHandoff({ pos: true }). */
export type WebErrorCode = ErrorCode | 'load_failed' | 'module_trapped' | 'unsupported';

/** Statuses the glue uses for its own errors (the C ABI's are 1 invalid_argument … 13 not_eligible). */
export const GLUE_STATUS = {
  outOfMemory: -1,
  abiMismatch: -2,
  loadFailed: -3,
  moduleTrapped: -4,
  storageUnavailable: -5,
  /** The same status the checkout module's core gives its own `unsupported` error document. */
  unsupported: -6,
} as const;

/** The C ABI status of the codes the glue also reports itself (a bad argument it cannot pass on). */
export const ABI_STATUS = {
  invalidArgument: STATUS.invalid_argument,
  invalidJson: STATUS.invalid_json,
} as const;

export class PayHandoffError extends Error {
  /** Stable code (`validation`, `malformed_url`, …; see WebErrorCode). */
  readonly code: WebErrorCode;
  /** The offending input (`amount`, `url`, `flows[0].state`, `storage`, …), or null. */
  readonly field: string | null;
  /** The C ABI's status (1 invalid_argument … 13 not_eligible), or the glue's own (GLUE_STATUS). */
  readonly status: number;

  constructor(code: WebErrorCode, field: string | null, message: string, status: number) {
    super(field === null ? message : `${field}: ${message}`);
    this.name = 'PayHandoffError';
    this.code = code;
    this.field = field;
    this.status = status;
  }
}

export function invalidArgument(field: string, message: string): PayHandoffError {
  return new PayHandoffError('invalid_argument', field, message, ABI_STATUS.invalidArgument);
}

/** What the full module has and the loaded one lacks: a C function the module does not export,
 *  named as calls.ts names its forwarder (payhandoff_pos_build_url: `posBuildUrl`). */
export function unsupported(cFunction: string): PayHandoffError {
  const field = cFunction.replace(/^payhandoff_/, '').replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
  return new PayHandoffError('unsupported', field, 'needs the full module: loadPayHandoff({ pos: true })', GLUE_STATUS.unsupported);
}

/** The page's storage refused a read or a write (disabled, denied, full): field `storage`. */
export function storageUnavailable(message: string): PayHandoffError {
  return new PayHandoffError('storage_unavailable', 'storage', message, GLUE_STATUS.storageUnavailable);
}

/** The text of an error or anything thrown, for messages. */
export function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
