// What real Billpocket integrations send and expect (issue 30) through the web package and its
// WebAssembly module: the scenarios React Native runs over its Node-API addon
// (bindings/react-native/test/billpocket.cjs), the same API over the other artifact.
import test from 'node:test';
import billpocket from '../../react-native/test/billpocket.cjs';
import { api, payhandoff, T0 } from './support.mjs';

billpocket.register(test, { payhandoff, T0, PayHandoffError: api.PayHandoffError, label: 'Billpocket (web)' });
