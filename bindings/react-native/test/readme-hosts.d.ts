// STAND-INS, FOR TYPE-CHECKING test/readme.check.ts ONLY: the few members of the host
// libraries that README.md's examples use, as those libraries document them. Not shipped.
declare module 'react-native' {
  export const Linking: {
    getInitialURL(): Promise<string | null>;
    addEventListener(type: 'url', listener: (event: { url: string }) => void): { remove(): void };
    openURL(url: string): Promise<unknown>;
  };
  export const AppState: {
    addEventListener(type: 'change', listener: (state: 'active' | 'background' | 'inactive') => void): { remove(): void };
  };
}

declare module 'react-native-inappbrowser-reborn' {
  export const InAppBrowser: {
    open(url: string, options?: Record<string, unknown>): Promise<{ type: 'cancel' } | { type: 'dismiss' } | { type: string; url?: string }>;
    close(): void;
  };
}

declare module '@react-native-async-storage/async-storage' {
  const AsyncStorage: {
    getItem(key: string): Promise<string | null>;
    setItem(key: string, value: string): Promise<void>;
  };
  export default AsyncStorage;
}

declare function fetch(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{ status: number; json(): Promise<unknown> }>;
declare function setInterval(callback: () => void, ms: number): unknown;
declare const console: { warn(...values: unknown[]): void };
