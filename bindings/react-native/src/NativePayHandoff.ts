// The TurboModule spec (React Native codegen reads this file: see codegenConfig in
// package.json). It mirrors include/payhandoff.h: JSON text in, JSON text out, synchronous.
// Every method but abiVersion/version/coordinatorDispose answers the bridge's envelope
// {"status": <C ABI status>, "body": <the C ABI's *out document>} (cpp/PayHandoffBridge.h);
// coordinatorCreate/coordinatorRestore add "coordinator": <id>. Coordinators are named by
// integer ids: JavaScript never holds a pointer. Use the typed API in ./index instead.
import type { TurboModule } from 'react-native';
import { TurboModuleRegistry } from 'react-native';

export interface Spec extends TurboModule {
  abiVersion(): number;
  version(): string;

  posBuildUrl(requestJson: string): string;
  posParseResponse(url: string, optionsJson: string): string;
  posParseResult(extrasJson: string, optionsJson: string): string;
  posRefundCheck(inputJson: string): string;

  checkoutBuildRequest(requestJson: string): string;
  checkoutParseSession(sessionJson: string): string;
  checkoutParseCallback(url: string, optionsJson: string): string;
  checkoutParseConfirmation(eventJson: string): string;

  coordinatorCreate(configJson: string | null): string;
  coordinatorRestore(snapshotJson: string): string;
  coordinatorSend(id: number, eventJson: string): string;
  coordinatorHandleUrl(id: number, url: string, nowMs: number): string;
  coordinatorSnapshot(id: number): string;
  coordinatorDispose(id: number): boolean;
}

export default TurboModuleRegistry.getEnforcing<Spec>('PayHandoff');
