// react-native-payhandoff: the typed PayHandoff API over the TurboModule 'PayHandoff'.
//
//   import { payhandoff } from 'react-native-payhandoff';
//   const coordinator = payhandoff.createCoordinator();
//
// `payhandoff` is bound to the app's TurboModule; the ABI check runs at its first call. For
// tests (or another native module), construct `new PayHandoff(module)` yourself.
import { DeviceEventEmitter, NativeModules } from 'react-native';
import NativePayHandoff from './NativePayHandoff';
import { PayHandoff } from './PayHandoff';
import { PosIntentLauncher, type PosIntentLauncherNative } from './posIntentLauncher';

export * from './types';
export * from './vocabulary';
export type { Spec as NativePayHandoffSpec } from './NativePayHandoff';
export {
  ABI_VERSION,
  Coordinator,
  MAX_JSON_BYTES,
  MAX_JSON_DEPTH,
  MAX_SNAPSHOT_BYTES,
  MAX_URL_BYTES,
  PayHandoff,
  PayHandoffError,
} from './PayHandoff';

export const payhandoff = new PayHandoff(NativePayHandoff);
export { authSessionEvent, browserClosedEvent, listenForDeepLinks } from './host';

/** Android's POS intent launcher (the Java module 'PosIntentLauncher'); null where it is not
 *  linked (iOS, where POS apps answer by URL). */
export const posIntentLauncher: PosIntentLauncher | null =
  NativeModules.PosIntentLauncher != null
    ? new PosIntentLauncher(NativeModules.PosIntentLauncher as PosIntentLauncherNative, DeviceEventEmitter)
    : null;
export { POS_RESULTS_EVENT, PosIntentLauncher, posResultEvent } from './posIntentLauncher';
export type { DeviceEventsLike, PosActivityResult, PosIntentLauncherNative, PosLaunchErrorCode } from './posIntentLauncher';
export type { AuthSessionResult, DeepLinkOptions, InAppBrowserResult, LinkingLike } from './host';
