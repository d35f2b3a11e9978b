// Test stand-in for the 'react-native' package (copied to <build>/node_modules/react-native by
// mk/react-native.mk): TurboModuleRegistry.getEnforcing('PayHandoff') answers the Node-API addon,
// so lib/index.js loads exactly as in an app.
'use strict';
const path = require('node:path');

const modules = { PayHandoff: () => require(path.join(process.env.PAYHANDOFF_RN_BUILD, 'payhandoff.node')) };
const requested = [];

const deviceListeners = new Map();

module.exports = {
  // No Java module in Node: index.js's posIntentLauncher is null, as on iOS.
  NativeModules: {},
  DeviceEventEmitter: {
    addListener(type, listener) {
      if (!deviceListeners.has(type)) deviceListeners.set(type, new Set());
      deviceListeners.get(type).add(listener);
      return { remove: () => deviceListeners.get(type).delete(listener) };
    },
    /** Test helper: what a native module's emitDeviceEvent does. */
    emit(type, ...args) {
      for (const listener of deviceListeners.get(type) ?? []) listener(...args);
    },
  },
  TurboModuleRegistry: {
    get(name) {
      requested.push(name);
      return modules[name] ? modules[name]() : null;
    },
    getEnforcing(name) {
      requested.push(name);
      if (!modules[name]) throw new Error(`TurboModuleRegistry.getEnforcing(...): '${name}' could not be found`);
      return modules[name]();
    },
  },
  requested,
};
