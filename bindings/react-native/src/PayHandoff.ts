// The typed API over the native module. It turns arguments into JSON text, hands them to the
// native module (the TurboModule in an app, the Node-API addon in tests: see the constructor),
// and turns the answer into a typed document or a PayHandoffError. It parses, validates and
// decides nothing itself: every rule lives in the core, behind the C ABI.
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
  PosUrlRequest,
  RefundCheckInput,
  RefundVerdict,
} from './types';
import type { ErrorCode } from './vocabulary';
import { ABI_VERSION } from './versions';

export { ABI_VERSION };

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

/** The JSON text of a value. `undefined` (which JSON cannot spell) is sent as `null`, and the
 *  core answers what it answers for null. */
function json(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'null' : text;
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

  result<T>(reply: string): T {
    return this.envelope(reply).body as T;
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

  /** @internal */
  static adopt(native: Native, reply: string): Coordinator {
    const envelope = native.envelope(reply);
    return new Coordinator(native, envelope.coordinator as number);
  }

  /** Sends an event. A rejected event is an answer (`outcome: 'rejected'`, nothing changed);
   *  an event document that cannot be read throws PayHandoffError. */
  send(event: CoordinatorEvent): CoordinatorAnswer {
    return this.native.result(this.native.module.coordinatorSend(this.id, json(event)));
  }

  /** Routes a deep link the OS handed the app (`not_ours` when no flow here registered it).
   *  The same URL twice answers `duplicate` and changes nothing. */
  handleUrl(url: string, now: EpochMs = Date.now()): CoordinatorAnswer {
    return this.native.result(this.native.module.coordinatorHandleUrl(this.id, url, now));
  }

  /** The versioned snapshot (no API key or user token; the flows' nonces and tokens: store it privately). */
  snapshot(): CoordinatorSnapshot {
    return this.native.result(this.native.module.coordinatorSnapshot(this.id));
  }

  /** The snapshot as JSON text, to save (e.g. in AsyncStorage) and later pass to restoreCoordinator. */
  snapshotJson(): string {
    return JSON.stringify(this.snapshot());
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

  /** The native library's version, e.g. "0.3.0". */
  version(): string {
    return this.native.module.version();
  }

  /** The billpocket:// URL and Android intent for a sale or refund (holds the user token: do
   *  not log it); with `token`, the identifier sent is `<identifier>~<token>`. */
  buildPosUrl(request: PosUrlRequest): PosUrl {
    return this.native.result(this.native.module.posBuildUrl(json(request)));
  }

  /** The POS app's answer URL (myapp://result=aprobada&…). */
  parsePosResponse(url: string, options: PosParseOptions): PosResponse {
    return this.native.result(this.native.module.posParseResponse(url, json(options)));
  }

  /** The POS app's answer as Android result extras (onActivityResult): the same rules as an
   *  answer URL, without percent-decoding. */
  parsePosResult(extras: PosResultExtras, options: PosAnswerOptions = {}): PosResponse {
    return this.native.result(this.native.module.posParseResult(json(extras), json(options)));
  }

  /** Whether an approved sale can be refunded now (`eligible: false` is a verdict, not an error). */
  checkRefund(input: RefundCheckInput): RefundVerdict {
    return this.native.result(this.native.module.posRefundCheck(json(input)));
  }

  /** The gateway request (POST /v1/cards or /v1/payments) and the return URL with its nonce. */
  buildCheckoutRequest(request: CheckoutRequest): BuiltCheckoutRequest {
    return this.native.result(this.native.module.checkoutBuildRequest(json(request)));
  }

  /** The checkout session from the gateway's answer or the backend's data. */
  parseCheckoutSession(session: CheckoutSessionInput): CheckoutSession {
    return this.native.result(this.native.module.checkoutParseSession(json(session)));
  }

  /** A checkout deep link checked against the registered return URL and nonce. */
  parseCheckoutCallback(url: string, options: CheckoutCallbackOptions): CheckoutCallback {
    return this.native.result(this.native.module.checkoutParseCallback(url, json(options)));
  }

  /** A relayed webhook (card.registered / payment.confirmed). */
  parseConfirmation(event: ConfirmationEvent): Confirmation {
    return this.native.result(this.native.module.checkoutParseConfirmation(json(event)));
  }

  /** A new, empty coordinator (defaults for every config member left out). */
  createCoordinator(config?: CoordinatorConfig): Coordinator {
    const module = this.native.module;
    return Coordinator.adopt(this.native, module.coordinatorCreate(config === undefined ? null : json(config)));
  }

  /** A coordinator restored from a snapshot (its JSON text or the document), all or nothing. */
  restoreCoordinator(snapshot: string | CoordinatorSnapshot): Coordinator {
    const text = typeof snapshot === 'string' ? snapshot : json(snapshot);
    return Coordinator.adopt(this.native, this.native.module.coordinatorRestore(text));
  }
}
