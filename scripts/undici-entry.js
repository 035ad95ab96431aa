// The part of undici the client uses (src/api/dispatcher.ts: Agent and ProxyAgent, and `dispatcher.request`).
// undici's own index also loads fetch, WebSocket, EventSource, caches and mocks; bundling only these keeps
// dist/undici.js small. As in undici's index, the request API is added to every dispatcher — only `request`,
// which the client calls, and `connect`, which ProxyAgent calls to open its CONNECT tunnel through a proxy; the
// client never calls stream, pipeline or upgrade. What esbuild.js leaves out of this bundle besides
// (UNDICI_LEFT_OUT there) is code these classes load but the client never reaches.
'use strict';
const Dispatcher = require('../node_modules/undici/lib/dispatcher/dispatcher.js');
Dispatcher.prototype.request = require('../node_modules/undici/lib/api/api-request.js');
Dispatcher.prototype.connect = require('../node_modules/undici/lib/api/api-connect.js');
module.exports = {
  Agent: require('../node_modules/undici/lib/dispatcher/agent.js'),
  ProxyAgent: require('../node_modules/undici/lib/dispatcher/proxy-agent.js'),
};
