// Shared by the node --test files: the Node-API addon (the TurboModule's methods over the C++
// bridge, linked to the real core) and the TypeScript API compiled by tsc into the build dir.
//   PAYHANDOFF_RN_BUILD  the build dir (addon payhandoff.node, compiled API in lib/)
//   PAYHANDOFF_VECTORS   Tests/Vectors
'use strict';
const path = require('node:path');

const build = process.env.PAYHANDOFF_RN_BUILD;
if (!build) throw new Error('PAYHANDOFF_RN_BUILD is not set (run `make react-native-test`)');

const addon = require(path.join(build, 'payhandoff.node'));
const api = require(path.join(build, 'lib', 'PayHandoff.js'));
const host = require(path.join(build, 'lib', 'host.js'));
const payhandoff = new api.PayHandoff(addon);

const vectorsRoot = process.env.PAYHANDOFF_VECTORS || path.join(__dirname, '..', '..', '..', 'Tests', 'Vectors');

/** Fixed times of the scenarios (epoch ms). */
const T0 = 1796054400000;

module.exports = { addon, api, host, payhandoff, build, vectorsRoot, T0 };
