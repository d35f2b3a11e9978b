// Glue between React Native's host APIs and a Coordinator, typed against the small part of
// each API it uses (so this file needs neither react-native nor react-native-inappbrowser-reborn
// at compile time). It only forwards: deciding what a URL or a closed tab means is the core's job.
import type { Coordinator } from './PayHandoff';
import type { CoordinatorAnswer, CoordinatorEvent, EpochMs } from './types';

/** The part of react-native's `Linking` used here. */
export interface LinkingLike {
  getInitialURL(): Promise<string | null>;
  addEventListener(type: 'url', listener: (event: { url: string }) => void): { remove(): void };
}

export interface DeepLinkOptions {
  /** Every answer, with the URL it answers (`not_ours` URLs belong to another part of the app). */
  onAnswer(answer: CoordinatorAnswer, url: string): void;
  /** A URL the core could not read (PayHandoffError), or a failing getInitialURL. */
  onError?(error: unknown, url: string | null): void;
  /** The clock; Date.now by default. */
  now?(): EpochMs;
}

/**
 * Feeds both deep-link sources into `coordinator.handleUrl`: the URL that started the app
 * (`getInitialURL`, after process death) and every later `url` event. Nothing is filtered here:
 * a URL delivered by both sources, or twice by the OS, reaches the core each time and the second
 * delivery is answered `duplicate`. Returns the subscription; call remove() when done.
 */
export function listenForDeepLinks(
  linking: LinkingLike,
  coordinator: Coordinator,
  options: DeepLinkOptions,
): { remove(): void } {
  const now = options.now ?? Date.now;
  let removed = false;
  const deliver = (url: string): void => {
    if (removed) return;
    let answer: CoordinatorAnswer;
    try {
      answer = coordinator.handleUrl(url, now());
    } catch (error) {
      options.onError?.(error, url);
      return;
    }
    options.onAnswer(answer, url);
  };
  const subscription = linking.addEventListener('url', (event) => deliver(event.url));
  linking.getInitialURL().then(
    (url) => {
      if (url !== null) deliver(url);
    },
    (error: unknown) => {
      if (!removed) options.onError?.(error, null);
    },
  );
  return {
    remove(): void {
      removed = true; // also drops an initial URL that resolves after this
      subscription.remove();
    },
  };
}

/** What react-native-inappbrowser-reborn's `open`/`openAuth` resolve with. */
export type InAppBrowserResult = { type: 'cancel' } | { type: 'dismiss' } | { type: 'success'; url: string } | { type: string; url?: string };

/**
 * The coordinator event for a closed browser tab: `cancel` and `dismiss` (the user closed it, or
 * the deep link closed it first) are `checkout.browser_dismissed` — "returned without a result",
 * never a failure, and a deep link that arrives later still resolves the flow; `openAuth`'s
 * `success` carries the redirect URL, sent as a `url` event. Anything else: null (nothing to send).
 */
export function browserClosedEvent(flowId: string, result: InAppBrowserResult, now: EpochMs): CoordinatorEvent | null {
  if (result.type === 'cancel' || result.type === 'dismiss') {
    return { type: 'checkout.browser_dismissed', flow_id: flowId, now };
  }
  if (result.type === 'success' && typeof result.url === 'string') {
    return { type: 'url', url: result.url, now };
  }
  return null;
}

/** What expo-web-browser's `openAuthSessionAsync` resolves with (`WebBrowserAuthSessionResult`). */
export type AuthSessionResult = { type: 'success'; url: string } | { type: 'cancel' | 'dismiss' | 'opened' | 'locked' } | { type: string; url?: string };

/**
 * The coordinator event for expo-web-browser's `openAuthSessionAsync` result (issue 38).
 *
 * - iOS runs it in `ASWebAuthenticationSession`, which hands the redirect to this session alone:
 *   `success` is `checkout.browser_result` `web_authentication_session` `ok` with its URL (checked
 *   like a deep link; the same return arriving as a deep link too is a `duplicate`); `cancel` and
 *   `dismiss` are `canceled`; `locked` (another session was open: the page was never shown, nothing
 *   can have been paid) is `canceled` too.
 * - Android runs it in a Custom Tab and takes the redirect from the deep link, which any app can
 *   send: `success` is a `url` event (the nonce check decides), `cancel` and `dismiss` are
 *   `custom_tab` `canceled`.
 *
 * `opened` and any other type: null (nothing to send).
 */
export function authSessionEvent(flowId: string, result: AuthSessionResult, platform: 'ios' | 'android', now: EpochMs): CoordinatorEvent | null {
  const ios = platform === 'ios';
  if (result.type === 'success' && typeof result.url === 'string') {
    return ios
      ? { type: 'checkout.browser_result', flow_id: flowId, now, channel: 'web_authentication_session', code: 'ok', url: result.url }
      : { type: 'url', url: result.url, now };
  }
  if (result.type === 'cancel' || result.type === 'dismiss' || (ios && result.type === 'locked')) {
    return { type: 'checkout.browser_result', flow_id: flowId, now, channel: ios ? 'web_authentication_session' : 'custom_tab', code: 'canceled' };
  }
  return null;
}
