// The return page: the gateway sends the tab back to the app's return_url with the result in
// the query (?status=completed&card_id=…). This hands that URL, as the browser shows it, to the
// coordinator; what it means is the core's call.
import type { CoordinatorAnswer, EpochMs } from '../../react-native/src/types.js';
import { invalidArgument } from './errors.js';
import type { Coordinator } from './PayHandoff.js';

export interface ReturnPageOptions {
  /** window.location by default. */
  location?: { readonly href: string };
  /** Date.now() by default. */
  now?: EpochMs;
}

/**
 * Reads `location.href` and routes it through `coordinator.handleUrl`. Any page may call it on
 * load: a page opened without a callback answers `not_ours` (or `rejected` when it is the
 * return page with a callback that does not belong to a pending flow), a reload of the return
 * page answers `duplicate`, and neither changes anything.
 */
export function handleReturnPage(coordinator: Coordinator, options: ReturnPageOptions = {}): CoordinatorAnswer {
  const location = options.location ?? (globalThis as { location?: { href: string } }).location;
  if (location === undefined || location === null) throw invalidArgument('location', 'there is no location here; pass options.location');
  return coordinator.handleUrl(location.href, options.now ?? Date.now());
}
