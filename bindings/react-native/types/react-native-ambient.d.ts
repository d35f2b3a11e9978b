// STAND-IN, FOR TYPE-CHECKING ONLY. react-native cannot be installed on the machine that builds
// and tests this package, so `tsc` sees this minimal declaration of the react-native exports
// that src/NativePayHandoff.ts and src/index.ts use. It is not part of the package: in an app, the real
// `react-native` types are used instead (tsconfig.json lists this folder; apps do not).
declare module 'react-native' {
  export interface TurboModule {
    getConstants?(): {};
  }
  export const TurboModuleRegistry: {
    get<T extends TurboModule>(name: string): T | null;
    getEnforcing<T extends TurboModule>(name: string): T;
  };
  /** Legacy (and interop) native modules by name; a module that is not linked is undefined. */
  export const NativeModules: { [name: string]: unknown };
  export const DeviceEventEmitter: {
    addListener(eventType: string, listener: (...args: any[]) => unknown): { remove(): void };
  };
}
