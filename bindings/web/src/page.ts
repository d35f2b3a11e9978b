// The return page: the gateway sends the tab back to the app's return_url with the result in
// the query (?status=completed&card_id=…). This hands that URL, as the browser shows it, to the
// coordinator; what it means is the core's call. Then the URL, which carries the flow's nonce,
// leaves the address bar and the session history.
import type { CoordinatorAnswer, EpochMs } from '../../react-native/src/types.js';
import { invalidArgument } from './errors.js';
import type { Coordinator } from './PayHandoff.js';

export interface ReturnPageOptions {
  /** window.location by default. */
  location?: { readonly href: string };
  /** window.history by default (none: the URL stays, as in Node). */
  history?: { readonly state: unknown; replaceState(data: unknown, unused: string, url?: string | URL | null): void };
  /** Date.now() by default. */
  now?: EpochMs;
  /**
   * What the address bar shows once the URL is handled: by default the folder of the return path
   * (`https://shop.example/checkout-callback/ph_…?status=…` becomes `https://shop.example/`), a
   * page of the app that no flow answers to; a same-origin URL of your own (a receipt page); or
   * `null` to leave the URL as it is.
   */
  replaceWith?: string | null;
}

/**
 * Reads `location.href` and routes it through `coordinator.handleUrl`. Any page may call it on
 * load: a page opened without a callback answers `not_ours` and is left as it is; the return page
 * answers what the core says (accepted, duplicate, ignored, rejected).
 *
 * A URL addressed to a flow (every answer but `not_ours`) is then replaced, with
 * `history.replaceState`, by `options.replaceWith`: the nonce leaves the address bar, the session
 * history and what a synced browser keeps. Only once the answer is stored: a coordinator that
 * keeps a storage (openCoordinator) saves a `persist` answer inside handleUrl and throws
 * `storage_unavailable` when it cannot, and then the URL stays, so that a reload tries again.
 * After the replacement a reload is an ordinary visit (`not_ours`, nothing changes); going back to
 * the gateway's page, which may send the tab to the return URL again, answers `duplicate`.
 */
export function handleReturnPage(coordinator: Coordinator, options: ReturnPageOptions = {}): CoordinatorAnswer {
  const location = options.location ?? (globalThis as { location?: { href: string } }).location;
  if (location === undefined || location === null) throw invalidArgument('location', 'there is no location here; pass options.location');
  const answer = coordinator.handleUrl(location.href, options.now ?? Date.now());
  if (answer.outcome !== 'not_ours' && options.replaceWith !== null) {
    const history = options.history ?? (globalThis as { history?: ReturnPageOptions['history'] }).history;
    if (history) history.replaceState(history.state ?? null, '', options.replaceWith ?? returnFolder(location.href));
  }
  return answer;
}

/** The folder of the return path: the URL without the nonce segment and what follows it, nor the
 *  query, cut after its last `/` (a return path `/checkout-callback` gives `/`). */
function returnFolder(href: string): string {
  const url = new URL(href);
  const path = url.pathname.replace(/\/ph_[^/]*$/, '');
  return url.origin + path.slice(0, path.lastIndexOf('/') + 1);
}
