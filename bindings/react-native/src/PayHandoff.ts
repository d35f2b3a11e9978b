// The typed API over the native module. It turns arguments into JSON text, hands them to the
// native module (the TurboModule in an app, the Node-API addon in tests: see the constructor),
// and turns the answer into a typed document or a PayHandoffError. It parses, validates and
// decides nothing itself: every rule lives in the core, behind the C ABI. The one thing it
// refuses is what a host string can hold and UTF-8 cannot (a lone UTF-16 surrogate): JSI and
// Node-API would turn it into U+FFFD on the way to C, so it is refused here, before the call.
import type { Spec } from './NativePayHandoff';
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
  PosResponse,
  PosResultExtras,
  PosUrl,
  PosUrlFor,
  PosUrlRequest,
  PosUrlToken,
  BillpocketRequest,
  SquareSaleRequest,
  SumUpSaleRequest,
  ClipSaleRequest,
  RefundCheckInput,
  RefundVerdict,
  Salvage,
  SalvageDocument,
} from './types';
import { guard } from './redaction';
import type { ErrorCode } from './vocabulary';
import { STATUS } from './vocabulary';
import { ABI_VERSION, MAX_JSON_BYTES, MAX_JSON_DEPTH, MAX_SNAPSHOT_BYTES, MAX_URL_BYTES } from './versions';

export { ABI_VERSION, MAX_JSON_BYTES, MAX_JSON_DEPTH, MAX_SNAPSHOT_BYTES, MAX_URL_BYTES };

/** The one error of PayHandoff: the C ABI's error document, thrown. */
export class PayHandoffError extends Error {
  /** Stable code (`validation`, `malformed_url`, …; see ErrorCode). */
  readonly code: ErrorCode;
  /** The offending input (`amount`, `request.amount`, `flows[0].state`, `url`, …), or null. */
  readonly field: string | null;
  /** The C ABI's status (1 invalid_argument … 13 not_eligible), or the binding's own:
   *  -1 out_of_memory (the C++ bridge), -2 abi_mismatch (this API). */
  readonly status: number;

  constructor(code: ErrorCode, field: string | null, message: string, status: number) {
    super(field === null ? message : `${field}: ${message}`);
    this.name = 'PayHandoffError';
    this.code = code;
    this.field = field;
    this.status = status;
  }
}

interface Envelope {
  status: number;
  body: unknown;
  coordinator?: number;
}

/** A lone UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a
 *  high one (code units, no `u` flag: the pairs are what is checked). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function loneSurrogate(parameter: string): PayHandoffError {
  return new PayHandoffError('invalid_argument', parameter, 'holds a lone UTF-16 surrogate, which has no UTF-8 form',
    STATUS.invalid_argument);
}

/** A host string for the C parameter `parameter` (its C name, the error's field), checked: a lone
 *  surrogate is `invalid_argument` (Kotlin and the web refuse it the same way). */
function text(value: string, parameter: string): string {
  if (typeof value === 'string' && LONE_SURROGATE.test(value)) throw loneSurrogate(parameter);
  return value;
}

/** The JSON text of a value for the C parameter `parameter`, every string and key in it checked
 *  as `text` checks one (JSON.stringify would write a lone surrogate as an escape the core then
 *  refuses as invalid_json, naming no parameter). `undefined` (which JSON cannot spell) is sent
 *  as `null`, and the core answers what it answers for null. */
function json(value: unknown, parameter: string): string {
  const written = JSON.stringify(value, (key: string, member: unknown) => {
    if (LONE_SURROGATE.test(key) || (typeof member === 'string' && LONE_SURROGATE.test(member))) {
      throw loneSurrogate(parameter);
    }
    return member;
  });
  return written === undefined ? 'null' : written;
}

function errorOf(envelope: Envelope): PayHandoffError {
  const body = (typeof envelope.body === 'object' && envelope.body !== null ? envelope.body : {}) as {
    code?: unknown;
    field?: unknown;
    message?: unknown;
  };
  return new PayHandoffError(
    (typeof body.code === 'string' ? body.code : 'invalid_argument') as ErrorCode,
    typeof body.field === 'string' ? body.field : null,
    typeof body.message === 'string' ? body.message : `status ${envelope.status}`,
    envelope.status,
  );
}

/** The native module with the ABI check done once, at first use. */
class Native {
  private checked = false;

  constructor(private readonly spec: Spec) {}

  get module(): Spec {
    if (!this.checked) {
      const found = this.spec.abiVersion();
      if (found !== ABI_VERSION) {
        throw new PayHandoffError(
          'abi_mismatch',
          null,
          `the native library has C ABI version ${found}; this package needs ${ABI_VERSION}`,
          -2,
        );
      }
      this.checked = true;
    }
    return this.spec;
  }

  /** The envelope of a successful call; throws the error document otherwise. */
  envelope(reply: string): Envelope {
    const envelope = JSON.parse(reply) as Envelope;
    if (envelope.status !== 0) throw errorOf(envelope);
    return envelope;
  }

  /** The result document, its secrets held so that printing it does not show them (redaction.ts);
   *  `posUrl` for a POS build result, whose `url` holds the user token. */
  result<T>(reply: string, posUrl = false): T {
    return guard(this.envelope(reply).body as T, posUrl);
  }
}

/** Every pending hand-off of the app behind one deep-link entry point and one snapshot. Owns
 *  a native coordinator: call dispose() when done with it. */
export class Coordinator {
  private constructor(
    private readonly native: Native,
    /** The native registry's id for this coordinator. */
    readonly id: number,
  ) {}

  /** @internal The coordinator a create/restore reply registered, and the reply's document. */
  static adopt(native: Native, reply: string): { coordinator: Coordinator; body: unknown } {
    const envelope = native.envelope(reply);
    return { coordinator: new Coordinator(native, envelope.coordinator as number), body: envelope.body };
  }

  /** Sends an event. A rejected event is an answer (`outcome: 'rejected'`, nothing changed);
   *  an event document that cannot be read throws PayHandoffError. */
  send(event: CoordinatorEvent): CoordinatorAnswer {
    return this.native.result(this.native.module.coordinatorSend(this.id, json(event, 'event_json')));
  }

  /** Routes a deep link the OS handed the app (`not_ours` when no flow here registered it).
   *  The same URL twice answers `duplicate` and changes nothing. */
  handleUrl(url: string, now: EpochMs = Date.now()): CoordinatorAnswer {
    return this.native.result(this.native.module.coordinatorHandleUrl(this.id, text(url, 'url'), now));
  }

  /** The versioned snapshot: no API key or user token, but the flows' nonces and tokens
   *  (secret-bearing: store it privately). */
  snapshot(): CoordinatorSnapshot {
    return this.native.result(this.native.module.coordinatorSnapshot(this.id));
  }

  /** The snapshot as JSON text (up to MAX_SNAPSHOT_BYTES, 256 KiB), to save and later pass to
   *  restoreCoordinator: write it to a file in the app's private storage, atomically (a
   *  temporary file renamed into place), so that a crash mid-write cannot tear it. */
  snapshotJson(): string {
    return JSON.stringify(this.native.envelope(this.native.module.coordinatorSnapshot(this.id)).body);
  }

  /** Releases the native coordinator; later calls throw `invalid_argument` (field `coordinator`).
   *  Returns false when it was already disposed. */
  dispose(): boolean {
    return this.native.module.coordinatorDispose(this.id);
  }
}

/** PayHandoff over a native module: the TurboModule in an app (`payhandoff` from the package
 *  index), or any object with the Spec's methods (the Node-API addon in tests). */
export class PayHandoff {
  private readonly native: Native;

  constructor(nativeModule: Spec) {
    this.native = new Native(nativeModule);
  }

  /** The C ABI version of the native library (checked against ABI_VERSION at first use). */
  abiVersion(): number {
    return this.native.module.abiVersion();
  }

  /** The native library's version, e.g. "0.4.0". */
  version(): string {
    return this.native.module.version();
  }

  /** The POS app's URL and Android intent for a sale (any app) or a refund (Billpocket), typed by
   *  the request's `pos_app` (holds the user token or affiliate key: do not log it); with
   *  `token`, the identifier sent is `<identifier>~<token>`. */
  buildPosUrl(request: BillpocketRequest & PosUrlToken): PosUrlFor<BillpocketRequest>;
  buildPosUrl(request: SquareSaleRequest & PosUrlToken): PosUrlFor<SquareSaleRequest>;
  buildPosUrl(request: SumUpSaleRequest & PosUrlToken): PosUrlFor<SumUpSaleRequest>;
  buildPosUrl(request: ClipSaleRequest & PosUrlToken): PosUrlFor<ClipSaleRequest>;
  buildPosUrl(request: PosUrlRequest): PosUrl;
  buildPosUrl(request: PosUrlRequest): PosUrl {
    return this.native.result(this.native.module.posBuildUrl(json(request, 'request_json')), true);
  }

  /** The POS app's answer URL (myapp://result=aprobada&…). */
  parsePosResponse(url: string, options: PosParseOptions): PosResponse {
    const urlText = text(url, 'url');
    return this.native.result(this.native.module.posParseResponse(urlText, json(options, 'options_json')));
  }

  /** The POS app's answer as Android result extras (onActivityResult): the same rules as an
   *  answer URL, without percent-decoding. */
  parsePosResult(extras: PosResultExtras, options: PosAnswerOptions = {}): PosResponse {
    const extrasJson = json(extras, 'extras_json');
    return this.native.result(this.native.module.posParseResult(extrasJson, json(options, 'options_json')));
  }

  /** Whether an approved sale can be refunded now (`eligible: false` is a verdict, not an error). */
  checkRefund(input: RefundCheckInput): RefundVerdict {
    return this.native.result(this.native.module.posRefundCheck(json(input, 'input_json')));
  }

  /** The gateway request (POST /v1/cards or /v1/payments) and the return URL with its nonce. */
  buildCheckoutRequest(request: CheckoutRequest): BuiltCheckoutRequest {
    return this.native.result(this.native.module.checkoutBuildRequest(json(request, 'request_json')));
  }

  /** The checkout session from the gateway's answer or the backend's data. */
  parseCheckoutSession(session: CheckoutSessionInput): CheckoutSession {
    return this.native.result(this.native.module.checkoutParseSession(json(session, 'session_json')));
  }

  /** A checkout deep link checked against the registered return URL and nonce. */
  parseCheckoutCallback(url: string, options: CheckoutCallbackOptions): CheckoutCallback {
    const urlText = text(url, 'url');
    return this.native.result(this.native.module.checkoutParseCallback(urlText, json(options, 'options_json')));
  }

  /** A relayed webhook (card.registered / payment.confirmed). */
  parseConfirmation(event: ConfirmationEvent): Confirmation {
    return this.native.result(this.native.module.checkoutParseConfirmation(json(event, 'event_json')));
  }

  /** A new, empty coordinator (defaults for every config member left out). */
  createCoordinator(config?: CoordinatorConfig): Coordinator {
    const configJson = config === undefined ? null : json(config, 'config_json');
    return Coordinator.adopt(this.native, this.native.module.coordinatorCreate(configJson)).coordinator;
  }

  /** A coordinator restored from a snapshot (its JSON text, up to MAX_SNAPSHOT_BYTES, or the
   *  document), all or nothing: a damaged one throws naming the member (then
   *  restoreCoordinatorSalvage keeps what is intact). Format 4, and formats 3 and 2 (PayHandoff 0.3 and 0.2, converted), are read. */
  restoreCoordinator(snapshot: string | CoordinatorSnapshot): Coordinator {
    return Coordinator.adopt(this.native, this.native.module.coordinatorRestore(snapshotText(snapshot))).coordinator;
  }

  /** What is intact of a snapshot damaged outside the library (a hand edit, a file mixed from two
   *  versions): every valid flow and ledger entry, and what was `dropped` (show or log it). Use it
   *  only after restoreCoordinator refused. It never widens what may be refunded; text that is not
   *  JSON (a torn write) or another format salvages nothing and throws as restoreCoordinator does. */
  restoreCoordinatorSalvage(snapshot: string | CoordinatorSnapshot): Salvage<Coordinator> {
    const reply = this.native.module.coordinatorRestoreSalvage(snapshotText(snapshot));
    const { coordinator, body } = Coordinator.adopt(this.native, reply);
    const document = body as SalvageDocument;
    return { coordinator, snapshot: guard(document.snapshot), dropped: document.dropped };
  }
}

function snapshotText(snapshot: string | CoordinatorSnapshot): string {
  return typeof snapshot === 'string' ? text(snapshot, 'snapshot_json') : json(snapshot, 'snapshot_json');
}
