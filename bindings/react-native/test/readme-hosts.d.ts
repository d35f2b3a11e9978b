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

declare module 'react-native-fs' {
  const RNFS: {
    DocumentDirectoryPath: string;
    exists(path: string): Promise<boolean>;
    readFile(path: string, encoding: 'utf8'): Promise<string>;
    writeFile(path: string, contents: string, encoding: 'utf8'): Promise<void>;
    unlink(path: string): Promise<void>;
    moveFile(from: string, to: string): Promise<void>;
  };
  export default RNFS;
}

declare function fetch(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{ status: number; json(): Promise<unknown> }>;
declare function setInterval(callback: () => void, ms: number): unknown;
declare const console: { warn(...values: unknown[]): void };
