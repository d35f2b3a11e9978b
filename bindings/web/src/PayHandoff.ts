// The typed API over the WebAssembly module: the React Native package's API (same methods,
// same documents, the same shared types), plus what a page needs: loading the module, and a
// coordinator that keeps its snapshot in a storage the page chooses, so a reload or a
// back-navigation finds the flow where it was. Every rule lives in the core, behind the C ABI:
// this file turns arguments into JSON text and answers into typed documents or PayHandoffError.
//
// A page's coordinator follows its storage, because a tab can hold more than one live page over
// time: a page restored from the back/forward cache kept the coordinator it had when it was
// left, while the pages after it moved the flow on and saved that. So every call reads the
// storage first and restores from it when another page changed it, and a save that fails puts
// the coordinator back to what the storage holds and throws: the page never acts on (or leaves
// for the gateway with) a state that a reload would not find.
import type {
  BuiltCheckoutRequest,
  CheckoutCallback,
  CheckoutCallbackOptions,
  CheckoutRequest,
  CheckoutSession,
  CheckoutSessionInput,
  Confirmation,
  ConfirmationEvent,
  CoordinatorAnswer,
  CoordinatorConfig,
  CoordinatorEvent,
  CoordinatorSnapshot,
  EpochMs,
  PosAnswerOptions,
  PosParseOptions,
  PosRequest,
  PosResponse,
  PosResultExtras,
  PosUrl,
  RefundCheckInput,
  RefundVerdict,
  Salvage,
  SalvageDocument,
} from '../../react-native/src/types.js';
import { guard } from '../../react-native/src/redaction.js';
import * as c from './calls.js';
import type { WebErrorCode } from './errors.js';
import { ABI_STATUS, GLUE_STATUS, PayHandoffError, describe, invalidArgument, storageUnavailable } from './errors.js';
import { CHECKOUT_MODULE, FULL_MODULE, POS_FUNCTIONS, WasmLibrary, defaultWasmUrl, hasLoneSurrogate, loneSurrogate } from './library.js';
import type { CResult, WasmSource } from './library.js';

/** Where openCoordinator keeps the snapshot unless told otherwise. */
export const DEFAULT_STORAGE_KEY = 'payhandoff.coordinator';

/** The part of the Web Storage API a coordinator uses (sessionStorage, localStorage, or your own). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface LoadOptions {
  /** Load the full module (payhandoff.wasm: the POS functions, POS flows, refunds and the
   *  ledger too) instead of the checkout module (payhandoff-checkout.wasm), which is what a
   *  checkout page needs. With `wasm` too, the module given must be a full one (else load_failed). */
  pos?: boolean;
  /** The module: payhandoff-checkout.wasm next to this package by default (payhandoff.wasm with
   *  `pos: true`); give a URL when a bundler moves it. */
  wasm?: WasmSource;
  /** A line the module wrote to stdout/stderr (only a fatal runtime error does); console.error by default. */
  log?(line: string): void;
}

export interface OpenCoordinatorOptions {
  /** sessionStorage by default: it lives as long as the tab, across reloads and navigations. */
  storage?: StorageLike;
  /** DEFAULT_STORAGE_KEY by default. */
  key?: string;
  /** For a new coordinator (a restored one keeps the config of its snapshot). */
  config?: CoordinatorConfig;
}

/** The JSON text of a value for a C parameter; `undefined` (which JSON cannot spell) is `null`.
 *  Its strings and keys are host strings: one holding a lone surrogate is refused as the glue
 *  refuses a string parameter (JSON.stringify would write an escape the core refuses as
 *  invalid_json, naming no parameter). */
function json(value: unknown, field: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (key: string, member: unknown) => {
      if (hasLoneSurrogate(key) || (typeof member === 'string' && hasLoneSurrogate(member))) throw loneSurrogate(field);
      return member;
    });
  } catch (error) {
    if (error instanceof PayHandoffError) throw error;
    throw new PayHandoffError('invalid_json', field, `cannot be written as JSON (${describe(error)})`, ABI_STATUS.invalidJson);
  }
  return text === undefined ? 'null' : text;
}

/** A string parameter checked for lone surrogates now, before the parameters after it are written
 *  as JSON: the first parameter in the C function's order is the one named, as in Kotlin and React
 *  Native (the glue checks it again, with its other rules, when it copies it). */
function text(value: string, field: string): string {
  if (typeof value === 'string' && hasLoneSurrogate(value)) throw loneSurrogate(field);
  return value;
}

/** The core's error document, thrown. The checkout module's core answers what it was built
 *  without (a pos.* event, a snapshot holding a POS flow or a ledger entry) with code
 *  `unsupported` and status -6, GLUE_STATUS.unsupported: the same error as a POS method of the
 *  glue on that module. */
function errorOf(result: CResult, body: unknown): PayHandoffError {
  const document = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; field?: unknown; message?: unknown };
  const fallback: WebErrorCode = result.status === GLUE_STATUS.unsupported ? 'unsupported' : 'invalid_argument';
  return new PayHandoffError(
    (typeof document.code === 'string' ? document.code : fallback) as WebErrorCode,
    typeof document.field === 'string' ? document.field : null,
    typeof document.message === 'string' ? document.message : `status ${result.status}`,
    result.status,
  );
}

/** The result document of a call handed to the page, its secrets held so that printing it does
 *  not show them (react-native/src/redaction.ts); `posUrl` for a POS build result. */
function resultOf<T>(result: CResult, posUrl = false): T {
  return guard(documentOf<T>(result), posUrl);
}

/** The result document of a call; throws its error document. */
function documentOf<T>(result: CResult): T {
  const body: unknown = JSON.parse(result.text);
  if (result.status !== 0) throw errorOf(result, body);
  return body as T;
}

/** The snapshot's home, and what the coordinator last knew of it. */
class SnapshotStore {
  /** The text the storage held when last read or written here (null: none): a different text
   *  there now was saved by another page of the tab. */
  seen: string | null;

  constructor(
    private readonly storage: StorageLike,
    readonly key: string,
    seen: string | null,
  ) {
    this.seen = seen;
  }

  /** What the storage holds now; `storage_unavailable` when it refuses the read. */
  read(): string | null {
    let text: unknown;
    try {
      text = this.storage.getItem(this.key);
    } catch (error) {
      throw storageUnavailable(`could not be read (${describe(error)})`);
    }
    if (text === null || text === undefined) return null;
    if (typeof text !== 'string') throw invalidArgument('storage', `holds ${typeof text} under "${this.key}", not snapshot text`);
    return text;
  }

  /** Saves `text`; `storage_unavailable` when the storage refuses it (full, disabled). */
  write(text: string): void {
    try {
      this.storage.setItem(this.key, text);
    } catch (error) {
      throw storageUnavailable(`the snapshot could not be saved under "${this.key}" (${describe(error)}); ` +
        'nothing changed: the flow is where the storage says it is');
    }
    this.seen = text;
  }
}

/** Every pending hand-off of the page behind one entry point (handleUrl) and one snapshot.
 *  Owns memory in the module: call dispose() when done with it. */
export class Coordinator {
  private static nextId = 1;
  private static readonly leaks = new FinalizationRegistry<{ library: WasmLibrary; pointer: number }>(({ library, pointer }) => {
    if (!library.broken) c.coordinatorFree(library, pointer);
  });

  /** A number naming this coordinator (1, 2, 3, …; never reused), as the React Native package's. */
  readonly id: number;
  private pointer: number;
  /** For a coordinator kept in a storage: the snapshot the storage stands for (what it holds, or
   *  the new coordinator's while it holds none), to go back to when a save fails. */
  private fallback: string | null = null;

  private constructor(
    private readonly library: WasmLibrary,
    pointer: number,
    private readonly store: SnapshotStore | null,
    private readonly config: CoordinatorConfig | undefined,
  ) {
    this.id = Coordinator.nextId++;
    this.pointer = pointer;
    Coordinator.leaks.register(this, { library, pointer }, this);
    if (store !== null) this.fallback = this.currentSnapshotJson();
  }

  /** @internal */
  static adopt(library: WasmLibrary, result: CResult, store: SnapshotStore | null, config?: CoordinatorConfig): Coordinator {
    documentOf<CoordinatorSnapshot>(result);
    return new Coordinator(library, result.handle, store, config);
  }

  /** @internal A salvage's coordinator, its snapshot and what it dropped. */
  static salvaged(library: WasmLibrary, result: CResult): Salvage<Coordinator> {
    const document = documentOf<SalvageDocument>(result);
    return { coordinator: new Coordinator(library, result.handle, null, undefined), snapshot: guard(document.snapshot), dropped: document.dropped };
  }

  /** Sends an event. A rejected event is an answer (`outcome: 'rejected'`, nothing changed); an
   *  event document that cannot be read throws PayHandoffError. Saves the snapshot when the
   *  answer says `persist` (coordinators from openCoordinator). */
  send(event: CoordinatorEvent): CoordinatorAnswer {
    const eventJson = json(event, 'event_json');
    this.follow();
    return this.persisting(c.coordinatorSend(this.library, this.live(), eventJson));
  }

  /** Routes a URL the page was opened with (`not_ours` when no flow here registered it). The
   *  same URL twice answers `duplicate` and changes nothing. Saves the snapshot as send does. */
  handleUrl(url: string, now: EpochMs = Date.now()): CoordinatorAnswer {
    this.follow();
    return this.persisting(c.coordinatorHandleUrl(this.library, this.live(), url, now));
  }

  /** The versioned snapshot: no API key or user token, but the flows' nonces and tokens
   *  (secret-bearing: keep it in the page's own storage). */
  snapshot(): CoordinatorSnapshot {
    return guard(JSON.parse(this.snapshotJson()) as CoordinatorSnapshot);
  }

  /** The snapshot as JSON text, to save and later pass to restoreCoordinator. */
  snapshotJson(): string {
    this.follow();
    return this.currentSnapshotJson();
  }

  /** Releases the coordinator; later calls throw `invalid_argument` (field `coordinator`).
   *  Returns false when it was already disposed. */
  dispose(): boolean {
    if (this.pointer === 0) return false;
    const pointer = this.pointer;
    this.pointer = 0;
    Coordinator.leaks.unregister(this);
    if (!this.library.broken) c.coordinatorFree(this.library, pointer);
    return true;
  }

  /** The module's pointer, or `invalid_argument` once disposed. */
  private live(): number {
    if (this.pointer === 0) throw invalidArgument('coordinator', `coordinator ${this.id} was disposed`);
    return this.pointer;
  }

  private currentSnapshotJson(): string {
    const result = c.coordinatorSnapshot(this.library, this.live());
    documentOf<CoordinatorSnapshot>(result);
    return result.text;
  }

  /** Takes the coordinator a create or restore made in place of this one's. */
  private replace(result: CResult): void {
    documentOf<CoordinatorSnapshot>(result);
    const old = this.live();
    Coordinator.leaks.unregister(this);
    this.pointer = result.handle;
    Coordinator.leaks.register(this, { library: this.library, pointer: result.handle }, this);
    c.coordinatorFree(this.library, old);
  }

  /** A coordinator kept in a storage catches up with it: another page of this tab (one the tab
   *  went on to while this page sat in the back/forward cache) may have saved a newer snapshot,
   *  or removed it. Restored all or nothing: a damaged text there throws the core's error and
   *  leaves this coordinator as it was. */
  private follow(): void {
    const store = this.store;
    if (store === null) return;
    this.live();
    const text = store.read();
    if (text === store.seen) return;
    if (text === null) {
      this.replace(c.coordinatorNew(this.library, this.config === undefined ? null : json(this.config, 'config_json')));
    } else {
      this.replace(c.coordinatorRestore(this.library, text));
    }
    store.seen = text;
    this.fallback = text ?? this.currentSnapshotJson();
  }

  /** Saves the snapshot when the answer says `persist`. When the storage refuses it, the
   *  coordinator goes back to the snapshot the storage stands for and the call throws
   *  `storage_unavailable`: a flow that could not be saved was not started (or moved), so the
   *  page does not leave for the gateway with a state the page that comes back would not find. */
  private persisting(result: CResult): CoordinatorAnswer {
    const answer = resultOf<CoordinatorAnswer>(result);
    if (!answer.persist || this.store === null) return answer;
    const text = this.currentSnapshotJson();
    try {
      this.store.write(text);
    } catch (error) {
      if (this.fallback !== null) this.replace(c.coordinatorRestore(this.library, this.fallback));
      throw error;
    }
    this.fallback = text;
    return answer;
  }
}

/** PayHandoff over the WebAssembly module: get one with loadPayHandoff(). One API for both
 *  modules: on the checkout module (`pos` false) the POS methods throw `unsupported`. */
export class PayHandoff {
  /** @internal */
  constructor(private readonly library: WasmLibrary) {}

  /** Whether the loaded module has the POS functions (payhandoff.wasm, loadPayHandoff({ pos: true
   *  })); false for the checkout module, where buildPosUrl, parsePosResponse, parsePosResult and
   *  checkRefund throw `unsupported` and the coordinator refuses pos.* events. Read from the
   *  module's exports. */
  get pos(): boolean {
    return this.library.pos;
  }

  /** The C ABI version of the module (checked against ABI_VERSION when it was loaded). */
  abiVersion(): number {
    return this.library.abiVersion();
  }

  /** The module's version, e.g. "0.4.0". */
  version(): string {
    return this.library.version();
  }

  /** The billpocket:// URL for a sale or refund (holds the user token: do not log it). */
  buildPosUrl(request: PosRequest): PosUrl {
    this.library.require('payhandoff_pos_build_url');
    return resultOf(c.posBuildUrl(this.library, json(request, 'request_json')), true);
  }

  /** The POS app's answer URL (myapp://result=aprobada&…). */
  parsePosResponse(url: string, options: PosParseOptions): PosResponse {
    this.library.require('payhandoff_pos_parse_response');
    return resultOf(c.posParseResponse(this.library, text(url, 'url'), json(options, 'options_json')));
  }

  /** The POS app's answer as Android result extras (onActivityResult): the same rules as an
   *  answer URL, without percent-decoding. */
  parsePosResult(extras: PosResultExtras, options: PosAnswerOptions = {}): PosResponse {
    this.library.require('payhandoff_pos_parse_result');
    return resultOf(c.posParseResult(this.library, json(extras, 'extras_json'), json(options, 'options_json')));
  }

  /** Whether an approved sale can be refunded now (`eligible: false` is a verdict, not an error). */
  checkRefund(input: RefundCheckInput): RefundVerdict {
    this.library.require('payhandoff_pos_refund_check');
    return resultOf(c.posRefundCheck(this.library, json(input, 'input_json')));
  }

  /** The gateway request (POST /v1/cards or /v1/payments) and the return URL with its nonce. */
  buildCheckoutRequest(request: CheckoutRequest): BuiltCheckoutRequest {
    return resultOf(c.checkoutBuildRequest(this.library, json(request, 'request_json')));
  }

  /** The checkout session from the gateway's answer or the backend's data. */
  parseCheckoutSession(session: CheckoutSessionInput): CheckoutSession {
    return resultOf(c.checkoutParseSession(this.library, json(session, 'session_json')));
  }

  /** A checkout return URL checked against the registered return URL and nonce. */
  parseCheckoutCallback(url: string, options: CheckoutCallbackOptions): CheckoutCallback {
    return resultOf(c.checkoutParseCallback(this.library, text(url, 'url'), json(options, 'options_json')));
  }

  /** A relayed webhook (card.registered / payment.confirmed). */
  parseConfirmation(event: ConfirmationEvent): Confirmation {
    return resultOf(c.checkoutParseConfirmation(this.library, json(event, 'event_json')));
  }

  /** A new, empty coordinator held in memory only (defaults for every config member left out). */
  createCoordinator(config?: CoordinatorConfig): Coordinator {
    return Coordinator.adopt(this.library, this.create(config), null);
  }

  /** A coordinator restored from a snapshot (its JSON text, up to MAX_SNAPSHOT_BYTES, or the
   *  document), all or nothing: a damaged one throws naming the member (then
   *  restoreCoordinatorSalvage keeps what is intact). Format 4, and formats 3 and 2 (PayHandoff 0.3 and 0.2, converted), are read. */
  restoreCoordinator(snapshot: string | CoordinatorSnapshot): Coordinator {
    return Coordinator.adopt(this.library, this.restore(snapshot), null);
  }

  /** What is intact of a snapshot damaged outside the library: every valid flow and ledger
   *  entry, and what was `dropped` (show or log it). Use it only after restoreCoordinator (or
   *  openCoordinator) refused; the coordinator is held in memory only: to keep it in storage,
   *  save its snapshotJson() under the key and open the coordinator again. */
  restoreCoordinatorSalvage(snapshot: string | CoordinatorSnapshot): Salvage<Coordinator> {
    const text = typeof snapshot === 'string' ? snapshot : json(snapshot, 'snapshot_json');
    return Coordinator.salvaged(this.library, c.coordinatorRestoreSalvage(this.library, text));
  }

  /**
   * The page's coordinator, kept in `storage` (sessionStorage by default) under `key`: restored
   * from the snapshot found there, or new when there is none, and saved whenever an answer says
   * `persist`. A snapshot there that is damaged or from a newer version throws the core's error
   * (`invalid_json`, `unsupported_version`, `validation`, …) and leaves it in place; a storage
   * that refuses to be read (disabled, denied) throws `storage_unavailable`.
   *
   * The coordinator follows the storage: each call first restores from it when another page of
   * the tab saved a newer snapshot there (a page back from the back/forward cache), and a call
   * whose answer cannot be saved (storage full or refused) throws `storage_unavailable` with
   * the coordinator as the storage has it — the start is refused, not the state lost. In a
   * browser it also keeps the page out of the back/forward cache where the engine lets it (an
   * `unload` listener): restoring a page put the tab's sessionStorage back in Chromium and
   * Firefox (see keepOutOfBackForwardCache).
   */
  openCoordinator(options: OpenCoordinatorOptions = {}): Coordinator {
    const storage = options.storage ?? sessionStorageOrThrow();
    const key = options.key ?? DEFAULT_STORAGE_KEY;
    const store = new SnapshotStore(storage, key, null);
    const saved = store.read();
    keepOutOfBackForwardCache();
    store.seen = saved;
    const result = saved === null ? this.create(options.config) : this.restore(saved);
    return Coordinator.adopt(this.library, result, store, options.config);
  }

  private create(config: CoordinatorConfig | undefined): CResult {
    const configJson = config === undefined ? null : json(config, 'config_json');
    return c.coordinatorNew(this.library, configJson);
  }

  private restore(snapshot: string | CoordinatorSnapshot): CResult {
    const text = typeof snapshot === 'string' ? snapshot : json(snapshot, 'snapshot_json');
    return c.coordinatorRestore(this.library, text);
  }
}

let keptOut = false;

/** A page whose flows live in a storage must not come back from the back/forward cache: in
 *  Chromium (156) and Firefox (153 ESR), restoring such a page put the tab's sessionStorage
 *  back to what that page had seen, so a checkout answered after it left was waiting again —
 *  and its return URL would have been accepted a second time. An `unload` listener keeps a page
 *  out of their back/forward caches; WebKit restores the page anyway, with the storage as the
 *  tab has it now, which the coordinator follows (every call reads it first). */
function keepOutOfBackForwardCache(): void {
  const page = globalThis as { addEventListener?: (type: string, listener: () => void) => void; document?: unknown };
  if (keptOut || typeof page.addEventListener !== 'function' || page.document === undefined) return;
  page.addEventListener('unload', () => {});
  keptOut = true;
}

/** The page's sessionStorage. A page whose storage is denied (an opaque origin, storage blocked
 *  by the user) throws on reading the property, or finds null there: `storage_unavailable`; a
 *  runtime without Web Storage (Node) has no such property: `invalid_argument`. */
function sessionStorageOrThrow(): StorageLike {
  if (!('sessionStorage' in globalThis)) throw invalidArgument('storage', 'there is no sessionStorage here; pass options.storage');
  let storage: StorageLike | null | undefined;
  try {
    storage = (globalThis as { sessionStorage?: StorageLike | null }).sessionStorage;
  } catch (error) {
    throw storageUnavailable(`sessionStorage is refused (${describe(error)})`);
  }
  if (storage === undefined || storage === null) throw storageUnavailable('sessionStorage is disabled in this browser');
  return storage;
}

/**
 * Loads the module and returns the API over it: payhandoff-checkout.wasm next to this package (the
 * checkout module: card registrations, payments, the coordinator's checkout flows), or with
 * `{ pos: true }` payhandoff.wasm (everything, the POS functions and flows too); `options.wasm`
 * says where the module is instead. Rejects with PayHandoffError: `load_failed` when the module
 * cannot be fetched, compiled or instantiated (or `pos` was asked of a module without the POS
 * functions), `abi_mismatch` when it is another ABI version.
 */
export async function loadPayHandoff(options: LoadOptions = {}): Promise<PayHandoff> {
  const pos = options.pos === true;
  const name = options.wasm === undefined ? (pos ? FULL_MODULE : CHECKOUT_MODULE) : 'payhandoff';
  const log = options.log ?? ((line: string) => console.error(`${name}: ${line}`));
  const library = await WasmLibrary.load(options.wasm ?? defaultWasmUrl(pos), (_fd, line) => log(line));
  if (pos && !library.pos) {
    const missing = POS_FUNCTIONS.filter((f) => !library.has(f));
    throw new PayHandoffError('load_failed', null,
      `{ pos: true } needs the full module, and this one does not export ${missing.join(', ')} (the checkout module?)`,
      GLUE_STATUS.loadFailed);
  }
  return new PayHandoff(library);
}
