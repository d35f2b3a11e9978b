// The documents of the C ABI (docs/abi.md) as TypeScript types. Names and spelling are the
// documents' own (snake_case, Billpocket's keys), so what the core answers is what you get:
// nothing is renamed, converted or checked here. Money is decimal text ("100.00") or integer
// minor units, never a fractional number.
//
// Shared: bindings/web imports this file as its own types (not a copy), so both TypeScript
// packages describe the same documents; `make web-test` type-checks the web API against it.
// The closed word lists (error codes, states, effect and event types, ...) come from
// vocabulary.ts, generated from abi/payhandoff.json, whose words a Swift test checks against the
// core; the discriminated unions below spell those words again as literal members, and
// test/types.check.ts checks at compile time that each union's words are the vocabulary's.
import type {
  AccountType,
  BrowserChannel,
  BrowserResultCode,
  CheckoutIntegration,
  CheckoutKind,
  CheckoutState,
  ConfirmationType,
  ErrorCode,
  PosAndroidAction,
  PosOperation,
  PosState,
  RefundReasonCode,
  RefundWarningCode,
  PosApp,
} from './vocabulary';

/** Decimal text with at most two decimals ("100", "100.5", "100.00"), or integer minor units. */
export type Amount = string | number;

/** Epoch milliseconds (coordinator events and URLs). */
export type EpochMs = number;

/** Epoch seconds (refund checks, sales). */
export type EpochSeconds = number;

/** {"code", "field", "message"}: an error document (also a rejected event's `error`). */
export interface ErrorDocument {
  code: ErrorCode;
  field: string | null;
  message: string;
}

export interface KeyValue {
  key: string;
  value: string;
}

// ---- POS apps -------------------------------------------------------------------------------

// PosApp (`pos_app`; absent: 'billpocket') is generated into vocabulary.ts from abi/payhandoff.json.

/** ISO 4217 code, three uppercase letters, of a currency with two decimals (the core refuses
 *  others, naming `currency`). */
export type CurrencyCode = string;

// ---- Billpocket POS -------------------------------------------------------------------------

interface PosRequestBase {
  /** Absent means 'billpocket'. */
  pos_app?: 'billpocket';
  /** Billpocket is MXN only: optional, and must be 'MXN'. */
  currency?: 'MXN';
  usertoken: string;
  identifier: string;
  urlScheme: string;
  /** The action of the Android intent that starts the POS app (`intent.action`; not sent in the
   *  URL). Absent: the core's default, 'billpocket.payments.START' (Billpocket's own plugin's). */
  android_action?: PosAndroidAction;
}

/** A sale ("venta"), keyed like Billpocket's request table. */
export interface PosSaleRequest extends PosRequestBase {
  transaction: 'venta';
  amount: Amount;
  tip?: Amount;
  msi?: 0 | 3 | 6 | 9 | 12;
  reference?: string;
  email?: string;
  phone?: string;
  showPhotoButton?: boolean;
  mandatoryPhoto?: boolean;
  comesFromQR?: boolean;
}

/** A refund ("devolucion") of the sale whose `transactionid` is `transactionId`. */
export interface PosRefundRequest extends PosRequestBase {
  transaction: 'devolucion';
  transactionId: string;
  amount?: Amount;
}

/** A Billpocket request: a sale or a refund (the only app with app-to-app refunds). */
export type BillpocketRequest = PosSaleRequest | PosRefundRequest;

// ---- Square, SumUp, Clip --------------------------------------------------------------------

/** Square Point of Sale (iOS: `square-commerce-v1://payment/create`; Android: the
 *  `com.squareup.pos.action.CHARGE` intent). `client_id` is Square's application id: public
 *  (it ships in every app), not redacted. The answer echoes `<identifier>~<token>` in `state` /
 *  `REQUEST_METADATA`. */
export interface SquareSaleRequest {
  pos_app: 'square';
  client_id: string;
  identifier: string;
  /** Decimal text with two decimals, > 0; sent as integer minor units (Android: at most 2,147,483,647). */
  amount: Amount;
  currency: CurrencyCode;
  /** The iOS answer URL (`myapp://square-callback`). */
  callback_url: string;
  /** At most 500 UTF-16 units. */
  notes?: string;
  location_id?: string;
  customer_id?: string;
  tender_types?: Array<'card' | 'cash' | 'other' | 'card_on_file'>;
  /** 0 (none) or 3200…10000 ms. */
  auto_return_ms?: number;
  /** iOS only. */
  skip_receipt?: boolean;
}

/** SumUp (`sumupmerchant://pay/1.0`: a URL on iOS, an ACTION_VIEW intent on Android). The
 *  affiliate key is a secret: redacted wherever `usertoken` is. The composed `foreign-tx-id`
 *  (`<identifier>~<token>`) is at most 128 printable ASCII characters, fresh for every start. */
export interface SumUpSaleRequest {
  pos_app: 'sumup';
  affiliate_key: string;
  /** Android's `app-id` (the app's package name). */
  app_id: string;
  identifier: string;
  amount: Amount;
  /** Must match the logged-in merchant's currency. */
  currency: CurrencyCode;
  callback_url: string;
  title?: string;
  receipt_email?: string;
  receipt_phone?: string;
  skip_success_screen?: boolean;
}

/** Clip's Blaze pin pad (Android only, an app running on the Clip terminal itself; MXN).
 *  `CLIP_LOGIN_CREDENTIALS` (a Parcelable) is not taken: the host adds it to the intent itself. */
export interface ClipSaleRequest {
  pos_app: 'clip';
  identifier: string;
  /** Sent as decimal text, never in exponent form (at most 15 significant digits). */
  amount: Amount;
  tip?: Amount;
  currency?: 'MXN';
  auto_return?: boolean;
  retry?: boolean;
  share?: boolean;
  /** `"package/class"`, when the terminal's app is not the default
   *  com.payclip.blaze.pinpad/com.payclip.blaze.pinpad.shared.ui.MainActivity. */
  component?: string;
}

/** A sale for any POS app. */
export type PosSaleRequestAnyApp = PosSaleRequest | SquareSaleRequest | SumUpSaleRequest | ClipSaleRequest;

/** Any POS request (refunds are Billpocket's only: a `devolucion` with another pos_app is a validation error). */
export type PosRequest = BillpocketRequest | SquareSaleRequest | SumUpSaleRequest | ClipSaleRequest;

/** payhandoff_pos_build_url's input: a request, optionally with a per-call `token` (16-128
 *  unreserved characters, or `true` for a fresh one from the system random source). With a token
 *  the identifier sent is `<identifier>~<token>`, which only the genuine answer echoes. */
export type PosUrlRequest = PosRequest & PosUrlToken;

/** buildPosUrl's `token`: 16-128 unreserved characters, or `true` for a fresh one. */
export interface PosUrlToken {
  token?: string | true;
}

/** One extra of an intent document: text (no `type`, or 'string'), or typed as the POS app
 *  reads it (Square's TOTAL_AMOUNT is an `int`, TENDER_TYPES a `string_array`, Clip's flags `bool`).
 *  Numbers are integers (PosIntentLauncher refuses fractions, and ints beyond 32 bits). */
export type PosIntentExtra =
  | { key: string; type?: 'string'; value: string }
  | { key: string; type: 'int' | 'long'; value: number }
  | { key: string; type: 'bool'; value: boolean }
  | { key: string; type: 'string_array'; value: string[] };

/** An Android intent document, as PosIntentLauncher.startForResult takes it: `package` and/or
 *  `component` (`"pkg/class"`) make it explicit, `data` is a URI. */
export interface AndroidIntent {
  action: string;
  package?: string;
  component?: string;
  data?: string;
  extras: PosIntentExtra[];
}

/** The Android intent that starts Billpocket (extras keyed as `fields`, `userToken` camelCase).
 *  Both actions are in use: when nothing resolves `action`, try the other one. `package` is the
 *  POS app's: set it on the intent (no other app then receives the user token), or check that it
 *  is installed. */
export interface BillpocketIntent extends AndroidIntent {
  /** The request's `android_action` ('billpocket.payments.START' unless it asked for the other). */
  action: PosAndroidAction;
  package: 'com.billpocket.billpocket';
  extras: KeyValue[];
}

/** Square's charge intent. `package` is 'com.squareup'; Square's SDK picks the highest-version
 *  installed `com.squareup*` package at run time, and the host may substitute it. */
export interface SquareIntent extends AndroidIntent {
  action: 'com.squareup.pos.action.CHARGE';
  package: string;
  component?: undefined;
  data?: undefined;
}

/** SumUp on Android: ACTION_VIEW on its `sumupmerchant://` URI (no package, no extras). Holds the affiliate key. */
export interface SumUpIntent extends AndroidIntent {
  action: 'android.intent.action.VIEW';
  data: string;
  package?: undefined;
  component?: undefined;
}

/** Clip: ACTION_MAIN on the pin pad's activity (`component`, from the request or the default). */
export interface ClipIntent extends AndroidIntent {
  action: 'android.intent.action.MAIN';
  component: string;
  package?: undefined;
  data?: undefined;
}

/** The intent that starts a POS app on Android, by app. */
export type PosIntent = BillpocketIntent | SquareIntent | SumUpIntent | ClipIntent;

interface PosUrlFields {
  version: 1;
  /** With a token: the identifier sent (`<identifier>~<token>`). */
  identifier?: string;
  /** With a token: the token (pass it to parsePosResponse / parsePosResult). */
  token?: string;
}

/** payhandoff_pos_build_url's result, discriminated by `pos_app` (written for every app, also
 *  Billpocket, from 0.4.0). Holds the user token / affiliate key: do not log it. */
export type PosUrl =
  | (PosUrlFields & { pos_app?: 'billpocket'; url: string; fields: KeyValue[]; intent: BillpocketIntent })
  | (PosUrlFields & { pos_app: 'square'; url: string; fields?: KeyValue[]; intent: SquareIntent })
  | (PosUrlFields & { pos_app: 'sumup'; url: string; fields?: KeyValue[]; intent: SumUpIntent })
  /** Clip has no URL (Android only). */
  | (PosUrlFields & { pos_app: 'clip'; url?: undefined; fields?: KeyValue[]; intent: ClipIntent });

/** The build result for a request: narrowed by the request's `pos_app`. */
export type PosUrlFor<R extends { pos_app?: PosApp }> = R extends { pos_app: 'square' }
  ? Extract<PosUrl, { pos_app: 'square' }>
  : R extends { pos_app: 'sumup' }
    ? Extract<PosUrl, { pos_app: 'sumup' }>
    : R extends { pos_app: 'clip' }
      ? Extract<PosUrl, { pos_app: 'clip' }>
      : Extract<PosUrl, { intent: BillpocketIntent }>;

/** Which request an answer must belong to: with `identifier`, another request's answer is
 *  `callback_mismatch` (before any other problem); `token` (needs `identifier`) makes the
 *  expected identifier `<identifier>~<token>`. */
export interface PosAnswerOptions {
  identifier?: string;
  token?: string;
  /** Whose answer it is (absent: 'billpocket'). Android results: billpocket, square, clip. */
  pos_app?: PosApp;
}

/** A URL answer's options: Billpocket's by `urlScheme`, Square's (iOS) and SumUp's by `callback_url`. */
export type PosParseOptions =
  | (PosAnswerOptions & { pos_app?: 'billpocket'; urlScheme: string })
  | (PosAnswerOptions & { pos_app: 'square' | 'sumup'; callback_url: string });

/** The POS app's Android result extras (onActivityResult): decoded text, every value a string
 *  (PosIntentLauncher hands values of other types apart, in `other_extras`). */
export type PosResultExtras = Record<string, string>;

/** Fields every POS answer may carry (absent ones are left out). */
interface PosResponseFields {
  version: 1;
  /** Whose answer (from 0.4.0; absent in a 0.3 document: Billpocket). */
  pos_app?: PosApp;
  identifier: string;
  statusinfo?: string;
  amount?: string;
  tip?: string;
  reference?: string;
  transactionid?: string;
  msi?: number;
  authorization?: string;
  creditcard?: string;
  cardtype?: string;
  email?: string;
  phone?: string;
  arqc?: string;
  aid?: string;
  applabel?: string;
  url?: string;
  bank?: string;
  accountType?: AccountType;
  name?: string;
  bp_version?: string;
  extra?: Record<string, string>;
  /** Only in a flow's stored copy: the members cut short or left out to bound the snapshot. */
  truncated?: string[];
}

export interface PosApproved extends PosResponseFields {
  result: 'approved';
}
export interface PosDeclined extends PosResponseFields {
  result: 'declined';
}
export interface PosFailed extends PosResponseFields {
  result: 'error';
}
/** A result word PayHandoff does not know: never an approval, and not an error either. The
 *  hand-off ended and its outcome is unknown: reconcile it (a coordinator's flow is then
 *  'unrecognized_result', with a `reconcile` effect). */
export interface PosUnrecognized extends PosResponseFields {
  result: 'unrecognized';
  /** The POS app's word as sent (in a flow's stored copy, cut like free text). */
  result_word: string;
}
/** The merchant or customer cancelled in the terminal app; nothing was charged (Square's
 *  TRANSACTION_CANCELED / payment_canceled, Clip's CANCELLED). Billpocket never gives it (its
 *  cancelled sale stays 'error'). A coordinator's flow ends in state 'cancelled'. */
export interface PosCancelled extends PosResponseFields {
  result: 'cancelled';
}
/** The POS app's answer, discriminated by `result` ('declined' is rechazada or declinada). */
export type PosResponse = PosApproved | PosDeclined | PosFailed | PosCancelled | PosUnrecognized;

export interface PosSale {
  transactionid: string;
  amount: Amount;
  approved_at: EpochSeconds;
  bp_version?: string;
}

export interface RefundCheckInput {
  sale: PosSale;
  amount?: Amount;
  now: EpochSeconds;
}

export interface RefundReason {
  code: RefundReasonCode;
  message: string;
}

/** What the verdict could not check, without blocking the refund. */
export interface RefundWarning {
  code: RefundWarningCode;
  message: string;
}

interface RefundVerdictFields {
  version: 1;
  refund_amount: string;
  eligible_from: EpochSeconds;
  eligible_from_local: string;
  deadline: EpochSeconds;
  deadline_local: string;
  reasons: RefundReason[];
  warnings: RefundWarning[];
}

export interface RefundEligible extends RefundVerdictFields {
  eligible: true;
}
export interface RefundNotEligible extends RefundVerdictFields {
  eligible: false;
}
/** payhandoff_pos_refund_check's verdict, discriminated by `eligible`. */
export type RefundVerdict = RefundEligible | RefundNotEligible;

// ---- Hosted checkout ------------------------------------------------------------------------

interface CheckoutRequestBase {
  api_key: string;
  return_url?: string;
  base_url?: string;
  integration?: CheckoutIntegration;
  /** 16-128 unreserved characters; a fresh one from the system random source when absent. */
  nonce?: string;
}

export interface CardRegistrationRequest extends CheckoutRequestBase {
  kind: 'cards';
  provider: string;
  customer_id: string;
  /** The origins allowed to receive the checkout's postMessage: at least one (the core refuses none). */
  target_origin: string[];
  customer: { name: string; lastname: string; email: string; phone?: string };
  fields?: Record<string, unknown>;
}

export interface PaymentRequest extends CheckoutRequestBase {
  kind: 'payments';
  fields?: Record<string, unknown>;
}

export type CheckoutRequest = CardRegistrationRequest | PaymentRequest;

export interface HttpRequest {
  method: 'POST';
  url: string;
  headers: Array<{ name: string; value: string }>;
  body: Record<string, unknown>;
}

/** payhandoff_checkout_build_request's result. Holds the API key: do not log it. */
export interface BuiltCheckoutRequest {
  version: 1;
  kind: CheckoutKind;
  request: HttpRequest;
  return_url?: string;
  nonce?: string;
  warnings: string[];
}

/** The gateway's answer as received, or the merchant backend's session data. */
export type CheckoutSessionInput =
  | { kind: CheckoutKind; status: number; body: unknown }
  | { kind: CheckoutKind; checkout_url: string; session_id?: string; card_id?: string; payment_id?: string };

export interface CheckoutSession {
  version: 1;
  kind: CheckoutKind;
  checkout_url: string;
  session_id?: string;
  card_id?: string;
  payment_id?: string;
}

export interface CheckoutCallbackOptions {
  kind: CheckoutKind;
  /** As registered, without the nonce. */
  return_url: string;
  /** Required unless `accept_unverified` is true. */
  nonce?: string;
  expected_id?: string;
  /** Accept a callback without the nonce as a claim (`verified: false`) instead of refusing it. */
  accept_unverified?: boolean;
}

interface CheckoutCallbackFields {
  version: 1;
  kind: CheckoutKind;
  /** false when the callback carried no nonce: a claim that never confirms anything. */
  verified: boolean;
  card_id?: string;
  payment_id?: string;
  reason?: string;
  extra?: Record<string, string>;
  /** Only in a flow's stored copy: the members cut short or left out to bound the snapshot. */
  truncated?: string[];
}
export interface CheckoutCompleted extends CheckoutCallbackFields {
  status: 'completed';
}
export interface CheckoutFailed extends CheckoutCallbackFields {
  status: 'failed';
}
export interface CheckoutCancelled extends CheckoutCallbackFields {
  status: 'cancelled';
}
/** A checkout deep link, discriminated by `status` (`completed` is not a confirmation). */
export type CheckoutCallback = CheckoutCompleted | CheckoutFailed | CheckoutCancelled;

/** The webhook as relayed by the merchant backend. */
export interface ConfirmationEvent {
  type: ConfirmationType;
  data: Record<string, unknown>;
}

interface ConfirmationFields {
  version: 1;
  brand?: string;
  last_four?: string;
  token?: string;
  amount?: string;
  /** `created_at`, `confirmed_at`, … as the event carried them: text or integers. */
  timestamps: Record<string, string | number>;
}
export interface CardRegistered extends ConfirmationFields {
  type: 'card.registered';
  card_id: string;
}
export interface PaymentConfirmed extends ConfirmationFields {
  type: 'payment.confirmed';
  payment_id: string;
}
/** payhandoff_checkout_parse_confirmation's result, discriminated by `type`. */
export type Confirmation = CardRegistered | PaymentConfirmed;

// ---- Coordinator ----------------------------------------------------------------------------

export interface CoordinatorConfig {
  single_pending_per_kind?: boolean;
  checkout_timeout_ms?: number;
  pos_grace_ms?: number;
  /** Let checkout callbacks without the nonce reach their flow as claims that never end it. */
  accept_unverified_callbacks?: boolean;
}

interface EventBase {
  now: EpochMs;
}
interface FlowEventBase extends EventBase {
  flow_id: string;
}

/** checkout.start, three ways: PayHandoff builds the request; the backend will create the
 *  session (effect create_session); the backend already created it. */
export type CheckoutStartEvent = FlowEventBase & { type: 'checkout.start'; nonce?: string; deadline?: EpochMs } & (
    | { request: Omit<CardRegistrationRequest, 'nonce'> | Omit<PaymentRequest, 'nonce'> }
    | { kind: CheckoutKind; return_url: string }
    | { kind: CheckoutKind; return_url: string; session: CheckoutSessionInput }
  );

/** Optional members of every pos.start. */
interface PosStartOptions {
  grace_ms?: number;
  /** The flow's token (16-128 unreserved characters); a fresh one when absent. */
  token?: string;
}

export type CoordinatorEvent =
  | CheckoutStartEvent
  | (FlowEventBase & { type: 'checkout.session'; session: CheckoutSessionInput })
  | (FlowEventBase & { type: 'checkout.session_failed'; reason: string })
  | (FlowEventBase & { type: 'checkout.browser_opened' })
  | (FlowEventBase & { type: 'checkout.browser_dismissed' })
  | (FlowEventBase & { type: 'checkout.confirmation'; event: ConfirmationEvent })
  | BrowserResultEvent
  | (FlowEventBase & PosStartOptions & { type: 'pos.start'; request: PosSaleRequestAnyApp })
  | (FlowEventBase & PosStartOptions & { type: 'pos.start'; request: PosRefundRequest; sale_flow_id: string })
  | (FlowEventBase & PosStartOptions & { type: 'pos.start'; request: PosRefundRequest; sale: PosSale })
  | (FlowEventBase & { type: 'pos.launched' })
  | (FlowEventBase & { type: 'pos.launch_failed'; reason?: string })
  /** The POS app answered through onActivityResult (Android; PosIntentLauncher's result gives
   *  both members: posResultEvent). `extras` absent, null or {} when it brought no data (the user
   *  backed out, the app crashed or was uninstalled): the flow is 'returned_without_response'
   *  with `reconcile` at once, never declined, and a late genuine answer still resolves it.
   *  `result_code`: Android's (RESULT_OK -1, RESULT_CANCELED 0). */
  | (FlowEventBase & { type: 'pos.result'; result_code?: number; extras?: PosResultExtras | null })
  | (EventBase & { type: 'app.foregrounded' })
  | (EventBase & { type: 'tick' })
  | (EventBase & { type: 'url'; url: string })
  /** `give_up: true` is needed to remove a flow that still waits for its answer. */
  | (FlowEventBase & { type: 'flow.remove'; give_up?: boolean });

export type CoordinatorEventType = CoordinatorEvent['type'];

/** checkout.browser_result: what an OS-captured return channel reported. `url` with `ok` only;
 *  `auth_tab` gives every code, `web_authentication_session` `ok`, `canceled` or `unknown`,
 *  `custom_tab` and `safari_view_controller` `canceled` only (other pairs are refused, naming
 *  `code`). `ok` is the deep link (same nonce check, once only); `canceled` is browser_dismissed;
 *  the others reconcile and leave the flow waiting. The `url` carries the nonce: never log it. */
export type BrowserResultEvent = FlowEventBase & { type: 'checkout.browser_result'; channel: BrowserChannel } & (
    | { code: 'ok'; url: string }
    | { code: Exclude<BrowserResultCode, 'ok'> }
  );

/** What an OS-captured channel's launch needs (`return_to` of open_browser): Auth Tab's
 *  `launch(…, scheme)` / `launch(…, host, path)`, iOS's `.customScheme` / `.https(host:path:)`.
 *  `https_path` ends with `ph_<nonce>`: secret-bearing. */
export type ReturnTo = { scheme: string } | { https_host: string; https_path: string };

/** What the host must do, in order; discriminated by `type`. Secret-bearing, never to be logged:
 *  `send_request` (the API key), `create_session` (its return_url holds the nonce),
 *  `open_browser` (the checkout page may echo the return URL; `return_to.https_path` holds the
 *  nonce) and `open_pos_app` (the user token and the flow's token). */
export type Effect =
  | { type: 'send_request'; request: HttpRequest }
  | { type: 'create_session'; kind: CheckoutKind; return_url: string }
  | { type: 'open_browser'; url: string; return_to?: ReturnTo }
  | { type: 'close_browser' }
  | { type: 'show_pending' }
  /** The POS app's URL (iOS, or Android by URL); `intent`, where the core gives it, to start it
   *  on Android with PosIntentLauncher.startForResult; `pos_app` names the app (absent: Billpocket). */
  | { type: 'open_pos_app'; url: string; intent?: PosIntent; pos_app?: 'billpocket' | 'square' | 'sumup' }
  /** Clip has no URL: only its intent (Android, on the Clip terminal). */
  | { type: 'open_pos_app'; url?: undefined; intent: ClipIntent; pos_app: 'clip' }
  | { type: 'show_hint'; message: string }
  | { type: 'reconcile'; reason: string }
  | { type: 'persist' };

/** A checkout flow as a transition's `details` show it: no nonce (details may be logged). */
export interface CheckoutFlowDetails {
  id: string;
  type: 'checkout';
  state: CheckoutState;
  kind: CheckoutKind;
  /** As registered, without the nonce. */
  return_url: string;
  deadline: EpochMs;
  session?: CheckoutSession;
  /** The verified callback or, until one arrives, the latest claim (`verified: false`). */
  callback?: CheckoutCallback;
  /** The relayed webhook, as received. */
  confirmation?: ConfirmationEvent;
  /** Why the session could not be created (a failed callback's reason is in `callback`). */
  failure_reason?: string;
  [member: string]: unknown;
}

/** A POS flow as a transition's `details` show it: no token (details may be logged). */
export interface PosFlowDetails {
  id: string;
  type: 'pos';
  state: PosState;
  /** The POS app (written always from 0.4.0; absent in an older snapshot: 'billpocket'). */
  pos_app?: PosApp;
  operation: PosOperation;
  /** The app's identifier; the POS app is sent `<identifier>~<token>`. */
  identifier: string;
  answer_scheme: string;
  amount?: string;
  grace_ms: number;
  foregrounded_at?: EpochMs;
  /** The answer's stored copy; its `identifier` is the app's, without the token. */
  response?: PosResponse;
  answered_at?: EpochMs;
  sale_transactionid?: string;
  launch_failure?: string;
  [member: string]: unknown;
}

export type FlowDetails = CheckoutFlowDetails | PosFlowDetails;

/** A checkout flow in a snapshot: its details and its nonce (absent only for a checkout started
 *  without one under `accept_unverified_callbacks`). */
export interface CheckoutFlowSnapshot extends CheckoutFlowDetails {
  nonce?: string;
  /** The host gave the nonce: it is remembered once the flow is forgotten. */
  given_key?: true;
}

/** A POS flow in a snapshot: its details and its token (the answer must echo `<identifier>~<token>`). */
export interface PosFlowSnapshot extends PosFlowDetails {
  token: string;
  /** The host gave the token: it is remembered once the flow is forgotten. */
  given_key?: true;
}

/** A flow as the (secret-bearing) snapshot holds it. */
export type FlowSnapshot = CheckoutFlowSnapshot | PosFlowSnapshot;

/** One flow's step, discriminated by `flow`. */
export type Transition =
  | { flow_id: string; flow: 'checkout'; state: CheckoutState; effects: Effect[]; details: CheckoutFlowDetails }
  | { flow_id: string; flow: 'pos'; state: PosState; effects: Effect[]; details: PosFlowDetails };

interface AnswerBase {
  version: 1;
  /** The snapshot changed: save it now (Coordinator.snapshotJson()). */
  persist: boolean;
  transitions: Transition[];
  /** Ended flows a start forgot to make room in the snapshot, oldest first (their results were
   *  handed out already; their ledger entries stay). Absent when none was. */
  forgotten?: string[];
}

/** The coordinator's answer to an event or URL, discriminated by `outcome`. */
export type CoordinatorAnswer =
  | (AnswerBase & { outcome: 'accepted' })
  | (AnswerBase & { outcome: 'duplicate' })
  | (AnswerBase & { outcome: 'ignored' })
  | (AnswerBase & { outcome: 'not_ours' })
  /** The event broke a rule (`error` says which); nothing changed. */
  | (AnswerBase & { outcome: 'rejected'; error: ErrorDocument });

export type Outcome = CoordinatorAnswer['outcome'];

/** An approved sale in the ledger: `[transactionid, amount, refunded, approved_at]`, amounts in
 *  centavos (refunded: what approved refunds paid back). */
export type LedgerSale = [transactionid: string, amount: number, refunded: number, approved_at: EpochMs];

/** An approved refund in the ledger: `[transactionid, amount, approved_at]` (amount in centavos). */
export type LedgerRefund = [transactionid: string, amount: number, approved_at: EpochMs];

/** A sale whose balance is unknown (a salvaged snapshot lost its record): `[transactionid, until]`;
 *  its refunds are refused (`ledger_pruned`) until then. */
export type LedgerUnknown = [transactionid: string, until: EpochMs];

/** The refund ledger (snapshot format 4, as format 3's): what approved sales may still refund, to the centavo,
 *  until 23:00 Mexico City on the sale's day. */
export interface RefundLedger {
  /** Every entry whose window closed at or before this time may have been dropped (0: none was). */
  pruned_through: EpochMs;
  sales: LedgerSale[];
  refunds: LedgerRefund[];
  unknown: LedgerUnknown[];
}

/** The coordinator's versioned snapshot: no API key or user token, but the flows' nonces and
 *  tokens (secret-bearing: store it privately, in a file written atomically); at most
 *  MAX_SNAPSHOT_BYTES (versions.ts) of JSON text. Save it, restore it after process death. */
export interface CoordinatorSnapshot {
  version: 4;
  config: Required<CoordinatorConfig>;
  flows: FlowSnapshot[];
  ledger: RefundLedger;
  /** Only in a coordinator converted from format 3 or 2 whose flows reserved past its limit:
   *  what they reserve, in bytes; starts are refused until they fit (docs/abi.md). */
  converted_reserve?: number;
  /** The host-given keys of forgotten flows: `[16 hex digits, until epoch ms]`, first possibly
   *  `["*", until]` (every host-given key refused; 0: until the next event) after a salvage that
   *  could not read them. Only when there is one. */
  remembered_keys?: [string, number][];
  /** The latest time an accepted event carried while keys are remembered (epoch ms): a later
   *  event more than 12 hours after it moves every key's `until` on by the rest of its jump. Only
   *  with `remembered_keys`. */
  latest_event?: number;
}

/** One member a salvage left out: `member` by its path (`flows[2]`, `ledger.sales[0]`,
 *  `config`), and why, as restore would have refused it. */
export interface SalvageDropped {
  member: string;
  code: ErrorCode;
  field: string | null;
  message: string;
}

/** payhandoff_coordinator_restore_salvage's document. */
export interface SalvageDocument {
  version: 1;
  /** The salvaged coordinator's snapshot: save it in place of the damaged one. */
  snapshot: CoordinatorSnapshot;
  /** In document order; empty for an intact snapshot. */
  dropped: SalvageDropped[];
}

/** What restoreCoordinatorSalvage kept: the coordinator (dispose it as any other), its snapshot,
 *  and what was dropped (show or log it: those flows are gone). `C` is the package's Coordinator. */
export interface Salvage<C> {
  coordinator: C;
  snapshot: CoordinatorSnapshot;
  dropped: SalvageDropped[];
}
