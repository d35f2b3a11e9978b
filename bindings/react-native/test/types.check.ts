// Compile-only (tsc --noEmit --strict via tsconfig.check.json): the typed API as an app uses it.
// Exhaustive switches over the discriminated unions must compile, and the @ts-expect-error lines
// must stay errors, so the types keep saying what the core does.
import {
  Coordinator,
  CoordinatorAnswer,
  Effect,
  PayHandoff,
  PayHandoffError,
  PosResponse,
  RefundVerdict,
  CheckoutCallback,
  Confirmation,
  CoordinatorSnapshot,
  LedgerSale,
  MAX_SNAPSHOT_BYTES,
  Salvage,
  Transition,
  browserClosedEvent,
  posIntentLauncher,
  posResultEvent,
  PosIntentLauncher,
} from '../src/index';
import type {
  BrowserChannel,
  BrowserResultCode,
  BrowserResultEvent,
  CheckoutState,
  CheckoutStatus,
  ConfirmationType,
  CoordinatorEvent,
  EffectType,
  EventOutcome,
  EventType,
  AndroidIntent,
  BillpocketIntent,
  BillpocketRequest,
  DeviceEventsLike,
  PosActivityResult,
  PosAndroidAction,
  PosApp,
  PosIntent,
  PosIntentLauncherNative,
  PosLaunchErrorCode,
  PosOperation,
  PosRequest,
  PosResult,
  PosState,
} from '../src/index';

function never(value: never): never {
  throw new Error(`unhandled ${String(value)}`);
}

export function perform(effect: Effect): string {
  switch (effect.type) {
    case 'send_request':
      return `${effect.request.method} ${effect.request.url}`;
    case 'create_session':
      return `${effect.kind} ${effect.return_url}`;
    case 'open_browser':
      return effect.url;
    case 'open_pos_app':
      // Clip has no URL: only its intent.
      if (effect.pos_app === 'clip') return effect.intent.component;
      return effect.url;
    case 'close_browser':
    case 'show_pending':
    case 'persist':
      return effect.type;
    case 'show_hint':
      return effect.message;
    case 'reconcile':
      return effect.reason;
    default:
      return never(effect);
  }
}

export function describe(answer: CoordinatorAnswer): string {
  switch (answer.outcome) {
    case 'accepted':
    case 'duplicate':
    case 'ignored':
    case 'not_ours':
      return answer.outcome;
    case 'rejected':
      return `${answer.error.code} ${answer.error.field ?? ''}`;
    default:
      return never(answer);
  }
}

export function state(transition: Transition): string {
  switch (transition.flow) {
    case 'checkout':
      return transition.details.kind + transition.state;
    case 'pos':
      return transition.details.operation + transition.state;
    default:
      return never(transition);
  }
}

export function results(pos: PosResponse, verdict: RefundVerdict, callback: CheckoutCallback, confirmation: Confirmation): string[] {
  const out: string[] = [];
  if (pos.result === 'approved') out.push(pos.transactionid ?? '');
  // Cancelled in the terminal app: nothing was charged (Square, Clip; never Billpocket).
  if (pos.result === 'cancelled') out.push(pos.pos_app ?? 'billpocket');
  // An unknown word is its own result, with the word: never an approval.
  if (pos.result === 'unrecognized') out.push(pos.result_word);
  // @ts-expect-error only an unrecognized result carries its word
  if (pos.result === 'declined') out.push(pos.result_word);
  if (verdict.eligible) out.push(verdict.refund_amount);
  else out.push(...verdict.reasons.map((r) => r.code));
  out.push(...verdict.warnings.map((w): 'pos_app_version_unknown' => w.code));
  if (callback.status === 'completed' && callback.verified) out.push(callback.card_id ?? callback.payment_id ?? '');
  out.push(confirmation.type === 'card.registered' ? confirmation.card_id : confirmation.payment_id);
  return out;
}

export function ledger(snapshot: CoordinatorSnapshot): string[] {
  const version: 4 = snapshot.version;
  void version;
  const watermark: number = snapshot.ledger.pruned_through;
  const sales = snapshot.ledger.sales.map(([id, amount, refunded, approvedAt]: LedgerSale) => `${id} ${amount - refunded} ${approvedAt}`);
  const refunds = snapshot.ledger.refunds.map(([id, amount]) => `${id} -${amount}`);
  const unknown = snapshot.ledger.unknown.map(([id, until]) => `${id} until ${until}`);
  // Snapshot flows hold their secrets; details do not.
  const secrets = snapshot.flows.map((flow) => (flow.type === 'pos' ? flow.token : flow.nonce ?? ''));
  return [String(watermark), ...sales, ...refunds, ...unknown, ...secrets];
}

export function details(transition: Transition, answer: CoordinatorAnswer): string[] {
  const forgotten: string[] = answer.forgotten ?? [];
  if (transition.flow === 'pos') {
    // @ts-expect-error details carry no token (answers may be logged): it is only in the snapshot
    const token: string = transition.details.token;
    void token;
    return [...forgotten, transition.details.identifier];
  }
  // @ts-expect-error details carry no nonce
  const nonce: string | undefined = transition.details.nonce;
  void nonce;
  return [...forgotten, transition.details.return_url];
}

export function salvage(payhandoff: PayHandoff, saved: string, log: (line: string) => void): Coordinator {
  if (saved.length > MAX_SNAPSHOT_BYTES) throw new Error('not a snapshot');
  try {
    return payhandoff.restoreCoordinator(saved);
  } catch {
    const salvaged: Salvage<Coordinator> = payhandoff.restoreCoordinatorSalvage(saved);
    for (const d of salvaged.dropped) log(`${d.member}: ${d.code} ${d.field ?? ''} ${d.message}`);
    const version: 4 = salvaged.snapshot.version;
    void version;
    return salvaged.coordinator;
  }
}

export function usage(payhandoff: PayHandoff, coordinator: Coordinator): void {
  const now = Date.now();
  const sale = { transaction: 'venta', usertoken: 't', identifier: 'o', amount: '100.00', urlScheme: 'myapp' } as const;
  coordinator.send({ type: 'pos.start', flow_id: 'p1', now, request: sale });
  coordinator.send({ type: 'pos.start', flow_id: 'p2', now, token: '0123456789abcdef', grace_ms: 0, request: { ...sale, identifier: 'o2' } });
  coordinator.send({ type: 'pos.result', flow_id: 'p1', now, extras: { result: 'aprobada', identifier: 'o~0123456789abcdef' } });
  coordinator.send({ type: 'flow.remove', flow_id: 'p1', now, give_up: true });
  const built = payhandoff.buildPosUrl({ ...sale, token: true });
  const intent: string = built.intent.action + built.intent.extras.map((e) => e.key).join();
  void intent;
  const pkg: 'com.billpocket.billpocket' = built.intent.package;
  const other: PosAndroidAction = built.intent.action === 'billpocket.payments.START' ? 'com.billpocket.payments.START' : 'billpocket.payments.START';
  void pkg;
  payhandoff.buildPosUrl({ ...sale, android_action: other });
  coordinator.send({ type: 'pos.start', flow_id: 'p5', now, request: { ...sale, identifier: 'o5', android_action: 'com.billpocket.payments.START' } });
  // onActivityResult without data: no extras (absent or null)
  coordinator.send({ type: 'pos.result', flow_id: 'p1', now });
  coordinator.send({ type: 'pos.result', flow_id: 'p1', now, extras: null });
  // @ts-expect-error the action is one of the two Billpocket starts
  payhandoff.buildPosUrl({ ...sale, android_action: 'android.intent.action.VIEW' });
  payhandoff.parsePosResult({ result: 'aprobada' }, { identifier: 'o', token: built.token });
  payhandoff.parsePosResponse('myapp://result=aprobada', { urlScheme: 'myapp', identifier: 'o', token: built.token });
  payhandoff.parseCheckoutCallback('fixapp://checkout-callback?status=cancelled', { kind: 'cards', return_url: 'fixapp://checkout-callback', accept_unverified: true });
  payhandoff.createCoordinator({ accept_unverified_callbacks: true }).dispose();
  // @ts-expect-error the token goes next to request in pos.start, not inside it
  coordinator.send({ type: 'pos.start', flow_id: 'p3', now, request: { transaction: 'venta', usertoken: 't', identifier: 'o3', amount: '1.00', urlScheme: 'myapp', token: 'x' } });
  // @ts-expect-error result extras are text
  payhandoff.parsePosResult({ amount: 100 });
  // @ts-expect-error intent_extras became intent.extras
  void built.intent_extras;
  coordinator.send({ type: 'checkout.start', flow_id: 'c1', now, kind: 'cards', return_url: 'fixapp://checkout-callback' });
  const event = browserClosedEvent('c1', { type: 'dismiss' }, now);
  if (event) coordinator.send(event);
  payhandoff.buildPosUrl({ transaction: 'devolucion', usertoken: 't', identifier: 'r', urlScheme: 'myapp', transactionId: '720371' });

  // @ts-expect-error a refund needs transactionId
  payhandoff.buildPosUrl({ transaction: 'devolucion', usertoken: 't', identifier: 'r', urlScheme: 'myapp' });
  // @ts-expect-error every event carries now
  coordinator.send({ type: 'tick' });
  // @ts-expect-error no such event
  coordinator.send({ type: 'checkout.finished', now });
  // @ts-expect-error the nonce goes next to request, not inside it
  coordinator.send({ type: 'checkout.start', flow_id: 'c1', now, request: { kind: 'payments', api_key: 'k', nonce: 'n' } });

  try {
    coordinator.handleUrl('fixapp://checkout-callback?status=completed');
  } catch (error) {
    if (error instanceof PayHandoffError) {
      const code: string = error.code;
      const field: string | null = error.field;
      void code;
      void field;
    }
  }
}

// The discriminated unions spell the vocabularies' words (generated in src/vocabulary.ts from
// abi/payhandoff.json) as literal members: each must hold exactly the vocabulary's words, so a
// word added to the table without its document type (or the reverse) fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<A, B>(check: Same<A, B>): Same<A, B> {
  return check;
}
export const vocabulariesMatch = [
  same<Effect['type'], EffectType>(true),
  same<CoordinatorEvent['type'], EventType>(true),
  same<BrowserResultEvent['channel'], BrowserChannel>(true),
  same<BrowserResultEvent['code'], BrowserResultCode>(true),
  same<CoordinatorAnswer['outcome'], EventOutcome>(true),
  same<PosResponse['result'], PosResult>(true),
  same<CheckoutCallback['status'], CheckoutStatus>(true),
  same<Confirmation['type'], ConfirmationType>(true),
  same<Transition['state'], CheckoutState | PosState>(true),
  same<BillpocketRequest['transaction'], PosOperation>(true),
  same<BillpocketIntent['action'], PosAndroidAction>(true),
  same<NonNullable<BillpocketRequest['android_action']>, PosAndroidAction>(true),
  same<NonNullable<PosRequest['pos_app']>, PosApp>(true),
  same<NonNullable<PosIntent>['action'], PosAndroidAction | 'com.squareup.pos.action.CHARGE' | 'android.intent.action.VIEW' | 'android.intent.action.MAIN'>(true),
];

// Issue 39: every POS app's request, typed intent extras, and PosIntentLauncher (Android).
export async function providers(payhandoff: PayHandoff, coordinator: Coordinator, launcher: PosIntentLauncher): Promise<string[]> {
  const now = Date.now();
  const square = payhandoff.buildPosUrl({ pos_app: 'square', client_id: 'sq0idp-app', identifier: 'o', amount: '100.00', currency: 'USD',
    callback_url: 'myapp://square-callback', tender_types: ['card', 'cash'], auto_return_ms: 3200, token: true });
  const squarePackage: string = square.intent.package;
  const sumup = payhandoff.buildPosUrl({ pos_app: 'sumup', affiliate_key: 'k', app_id: 'com.example', identifier: 'o', amount: '100.00',
    currency: 'EUR', callback_url: 'myapp://sumup' });
  const sumupUri: string = sumup.intent.data;
  const clip = payhandoff.buildPosUrl({ pos_app: 'clip', identifier: 'o', amount: '100.00', auto_return: true, component: 'com.payclip.blaze.pinpad/.Main' });
  const clipComponent: string = clip.intent.component;
  // @ts-expect-error Clip has no URL
  const clipUrl: string = clip.url;
  void clipUrl;
  const billpocket = payhandoff.buildPosUrl({ transaction: 'venta', usertoken: 't', identifier: 'o', amount: '1.00', urlScheme: 'myapp' });
  const billpocketPackage: 'com.billpocket.billpocket' = billpocket.intent.package;
  // @ts-expect-error Square needs its currency
  payhandoff.buildPosUrl({ pos_app: 'square', client_id: 'c', identifier: 'o', amount: '1.00', callback_url: 'myapp://sq' });
  // @ts-expect-error refunds are Billpocket's only
  payhandoff.buildPosUrl({ pos_app: 'clip', transaction: 'devolucion', identifier: 'o', transactionId: '1' });
  // @ts-expect-error a tender type is one of Square's four
  payhandoff.buildPosUrl({ pos_app: 'square', client_id: 'c', identifier: 'o', amount: '1.00', currency: 'USD', callback_url: 'm://s', tender_types: ['gift_card'] });
  coordinator.send({ type: 'pos.start', flow_id: 's1', now, request: { pos_app: 'sumup', affiliate_key: 'k', app_id: 'a', identifier: 'o',
    amount: '1.00', currency: 'EUR', callback_url: 'myapp://sumup' } });
  // @ts-expect-error refunds are Billpocket's only
  coordinator.send({ type: 'pos.start', flow_id: 's2', now, sale_flow_id: 's1', request: { pos_app: 'square', transaction: 'devolucion' } });
  coordinator.send({ type: 'pos.result', flow_id: 's1', now, result_code: -1, extras: null });
  payhandoff.parsePosResponse('myapp://square-callback?data=%7B%7D', { pos_app: 'square', callback_url: 'myapp://square-callback' });
  // @ts-expect-error Billpocket's answers are read by urlScheme
  payhandoff.parsePosResponse('myapp://result=aprobada', { callback_url: 'myapp://x' });
  payhandoff.parsePosResult({ PAYMENT_RESPONSE: '{}' }, { pos_app: 'clip' });

  // Typed extras: an int is a number, a string_array an array of strings.
  const intent: AndroidIntent = { action: 'com.squareup.pos.action.CHARGE', package: 'com.squareup', extras: [
    { key: 'com.squareup.pos.TOTAL_AMOUNT', type: 'int', value: 10000 },
    { key: 'com.squareup.pos.TENDER_TYPES', type: 'string_array', value: ['com.squareup.pos.TENDER_CARD'] },
    { key: 'com.squareup.pos.NOTE', value: 'text' },
  ] };
  // @ts-expect-error an int extra's value is a number, not text
  const wrong: AndroidIntent = { action: 'a', extras: [{ key: 'k', type: 'int', value: '10000' }] };
  void wrong;
  // Every build result's intent is a launcher intent.
  const intents: AndroidIntent[] = [square.intent, sumup.intent, clip.intent, billpocket.intent, intent];
  const codes: number[] = [];
  for (const i of intents) codes.push(await launcher.startForResult(i, 's1'));
  const subscription = launcher.onResult((result: PosActivityResult) => {
    const code: number = result.result_code;
    const extras: Record<string, string> | null = result.extras;
    void code;
    void extras;
    coordinator.send(posResultEvent(result, Date.now()));
  });
  subscription.remove();
  const reason: PosLaunchErrorCode = 'not_found';
  const native: PosIntentLauncherNative = { startForResult: async () => 0x5a00, takeResults: async () => '[]' };
  const events: DeviceEventsLike = { addListener: () => ({ remove() {} }) };
  const own = new PosIntentLauncher(native, events);
  // @ts-expect-error posIntentLauncher is null where the Java module is not linked (iOS)
  void posIntentLauncher.startForResult(intent, 's1');
  void own;
  return [squarePackage, sumupUri, clipComponent, billpocketPackage, reason, ...codes.map(String)];
}
