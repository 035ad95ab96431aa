// The part of undici the client uses (src/api/dispatcher.ts: Agent and ProxyAgent, and `dispatcher.request`).
// undici's own index also loads fetch, WebSocket, EventSource, caches and mocks; bundling only these keeps
// dist/undici.js small. As in undici's index, the request API is added to every dispatcher.
'use strict';
const Dispatcher = require('../node_modules/undici/lib/dispatcher/dispatcher.js');
Object.assign(Dispatcher.prototype, require('../node_modules/undici/lib/api/index.js'));
module.exports = {
  Agent: require('../node_modules/undici/lib/dispatcher/agent.js'),
  ProxyAgent: require('../node_modules/undici/lib/dispatcher/proxy-agent.js'),
};
