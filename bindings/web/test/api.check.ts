// Compile-time only (tsc --noEmit, make web-test): the web API has every method of the React
// Native API with the same parameter and result types (the shared types.ts makes them the same
// documents), and a page's use of it type-checks. Coordinators are each package's own class,
// so results are compared with Coordinator swapped for a marker (also inside a Salvage).
import type { Coordinator as NativeCoordinator, PayHandoff as NativePayHandoff } from '../../react-native/src/PayHandoff';
import type { CoordinatorAnswer, Effect, Salvage } from '../../react-native/src/types.js';
import { handleReturnPage, loadPayHandoff, PayHandoffError } from '../src/index.js';
import type { Coordinator, PayHandoff, WebErrorCode } from '../src/index.js';

type Swap<R> = R extends NativeCoordinator | Coordinator ? 'coordinator' : R extends Salvage<infer C> ? Salvage<Swap<C>> : R;
type Shape<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Swap<R> : T[K] };

// Every public member of the React Native classes exists on the web ones with the same type.
export const sameApi: Shape<NativePayHandoff> = null as unknown as Shape<PayHandoff>;
export const sameCoordinator: Shape<NativeCoordinator> = null as unknown as Shape<Coordinator>;

export async function page(): Promise<void> {
  const payhandoff = await loadPayHandoff({ wasm: '/assets/payhandoff.wasm' });
  const coordinator = payhandoff.openCoordinator({ storage: sessionStorage, key: 'checkout' });
  const answer: CoordinatorAnswer = handleReturnPage(coordinator);
  if (answer.outcome === 'rejected') console.warn(answer.error.code, answer.error.field);
  for (const transition of answer.transitions) {
    for (const effect of transition.effects) {
      const e: Effect = effect;
      if (e.type === 'open_browser') window.location.href = e.url;
    }
  }
  try {
    coordinator.handleUrl(location.href);
  } catch (error) {
    if (error instanceof PayHandoffError) {
      const code: WebErrorCode = error.code;
      console.warn(code, error.field, error.status);
    }
  }
}
