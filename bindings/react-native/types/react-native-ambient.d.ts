// STAND-IN, FOR TYPE-CHECKING ONLY. react-native cannot be installed on the machine that builds
// and tests this package, so `tsc` sees this minimal declaration of the two react-native
// exports that src/NativePayHandoff.ts uses. It is not part of the package: in an app, the real
// `react-native` types are used instead (tsconfig.json lists this folder; apps do not).
declare module 'react-native' {
  export interface TurboModule {
    getConstants?(): {};
  }
  export const TurboModuleRegistry: {
    get<T extends TurboModule>(name: string): T | null;
    getEnforcing<T extends TurboModule>(name: string): T;
  };
}
