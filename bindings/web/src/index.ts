// payhandoff-web: the PayHandoff core as WebAssembly for PWAs and mobile web pages.
//
//   import { loadPayHandoff, handleReturnPage } from 'payhandoff-web';
//   const payhandoff = await loadPayHandoff();
//   const coordinator = payhandoff.openCoordinator();      // sessionStorage, restored on reload
//   const answer = handleReturnPage(coordinator);          // on the return_url page
//
// The types are the React Native package's own files (bindings/react-native/src/types.ts and the
// generated vocabulary.ts), not a copy: both packages describe the same C ABI documents.
export * from '../../react-native/src/types.js';
export * from '../../react-native/src/vocabulary.js';
export { ABI_VERSION } from './library.js';
export { MAX_JSON_BYTES, MAX_JSON_DEPTH, MAX_SNAPSHOT_BYTES, MAX_URL_BYTES } from '../../react-native/src/versions.js';
export type { WasmSource } from './library.js';
export { PayHandoffError } from './errors.js';
export type { WebErrorCode } from './errors.js';
export { Coordinator, DEFAULT_STORAGE_KEY, PayHandoff, loadPayHandoff } from './PayHandoff.js';
export type { LoadOptions, OpenCoordinatorOptions, StorageLike } from './PayHandoff.js';
export { handleReturnPage } from './page.js';
export type { ReturnPageOptions } from './page.js';
