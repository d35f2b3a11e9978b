// PosIntentLauncher (Android): starts a POS app's intent for a result and hands its results to
// the app, so Square, Clip or Billpocket run from TypeScript without native code of the app's own.
// The Java side is android/src/main/java/com/payhandoff/reactnative/PosIntentLauncherModule.java,
// a legacy module the New Architecture reaches through its interop layer; README, "POS apps on
// Android". It only carries: what a result means is the coordinator's (pos.result) to decide.
import type { AndroidIntent, CoordinatorEvent, EpochMs, PosResultExtras } from './types';

/** The Java module's methods (NativeModules.PosIntentLauncher). */
export interface PosIntentLauncherNative {
  startForResult(intentJson: string, flowId: string): Promise<number>;
  takeResults(): Promise<string>;
}

/** The part of react-native's DeviceEventEmitter used here. */
export interface DeviceEventsLike {
  addListener(eventType: string, listener: () => void): { remove(): void };
}

/** The device event that says results wait (it carries none). */
export const POS_RESULTS_EVENT = 'PosIntentLauncher.results';

/** Why startForResult was refused (the rejection's `code`): `bad_intent` (the document is wrong:
 *  the message names the member, never a value), `no_activity` (no activity in front),
 *  `not_found` (nothing resolves the intent: the app is not installed, or another component),
 *  `not_permitted` (its activity is not exported to this app). */
export type PosLaunchErrorCode = 'bad_intent' | 'no_activity' | 'not_found' | 'not_permitted';

/** One activity result, as the Java module recorded it. */
export interface PosActivityResult {
  /** The request code startForResult resolved with. */
  request_code: number;
  /** Android's result code: RESULT_OK -1, RESULT_CANCELED 0, or the app's own. */
  result_code: number;
  /** The flow startForResult was given. */
  flow_id: string;
  /** The result's string extras; `null` when it carried no Intent (the app crashed, was
   *  uninstalled, or the user backed out). May hold a provider's tokens: do not log it. */
  extras: PosResultExtras | null;
  /** Extras of other types (numbers, booleans, arrays, nested Bundles; a long beyond 2^53 as
   *  text). The core reads result extras as text: these are not sent to it. */
  other_extras?: Record<string, unknown>;
  /** Keys of values JSON cannot hold (Parcelables, …), left out. */
  unsupported_extras?: string[];
}

/** The `pos.result` event for a result: send it to the coordinator. */
export function posResultEvent(result: PosActivityResult, now: EpochMs): CoordinatorEvent {
  return { type: 'pos.result', flow_id: result.flow_id, now, result_code: result.result_code, extras: result.extras };
}

/**
 * Starts POS intents for a result and delivers each result once. The POS app is started by the
 * package's PosResultActivity, which receives the result itself and keeps it (the app's private
 * SharedPreferences) until taken: a result that arrives while no one listens — JavaScript not
 * started yet, or the app's process died while the POS app was in front — is delivered when
 * onResult subscribes. One listener at a time (the coordinator's): a second onResult throws.
 */
export class PosIntentLauncher {
  private listening = false;

  constructor(private readonly native: PosIntentLauncherNative, private readonly events: DeviceEventsLike) {}

  /**
   * Starts `intent` (pos_build_url's `intent`, an open_pos_app effect's `intent`) for a result:
   * for the apps that answer with one (Square, Clip, Billpocket); SumUp answers by URL.
   * Resolves with the request code once the POS app was started: send `pos.launched`. Rejects
   * with an Error whose `code` is a PosLaunchErrorCode: send `pos.launch_failed`.
   */
  startForResult(intent: AndroidIntent, flowId: string): Promise<number> {
    return this.native.startForResult(JSON.stringify(intent), flowId);
  }

  /**
   * Calls `listener` with every result, oldest first: first those that wait, then each new one.
   * `onError` gets a failure to take or read them (the results stay with the module only if the
   * take itself failed). Returns the subscription; remove() it when done.
   */
  onResult(listener: (result: PosActivityResult) => void, onError?: (error: unknown) => void): { remove(): void } {
    if (this.listening) throw new Error('PosIntentLauncher: onResult already has a listener (remove it first)');
    this.listening = true;
    let removed = false;
    let chain: Promise<void> = Promise.resolve();
    const drain = (): void => {
      // One take at a time, in order: each take hands out what waits and forgets it.
      chain = chain.then(async () => {
        if (removed) return;
        let results: PosActivityResult[];
        try {
          const parsed: unknown = JSON.parse(await this.native.takeResults());
          if (!Array.isArray(parsed)) throw new Error('PosIntentLauncher: takeResults did not give an array');
          results = parsed as PosActivityResult[];
        } catch (error) {
          onError?.(error);
          return;
        }
        for (const result of results) {
          try {
            listener(result);
          } catch (error) {
            onError?.(error);
          }
        }
      });
    };
    const subscription = this.events.addListener(POS_RESULTS_EVENT, drain);
    drain();
    return {
      remove: () => {
        if (removed) return;
        removed = true;
        this.listening = false;
        subscription.remove();
      },
    };
  }
}
