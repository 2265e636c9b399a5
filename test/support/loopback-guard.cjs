// Preloaded (`node --require`) into the third-party programs the tests start (Azurite, the Agents
// Playground), so that they reach this machine alone: a TCP connection to anything but loopback fails
// at once, before any packet leaves, and its target is appended to the file LOOPBACK_GUARD_LOG names,
// which the test then reads. Unix sockets and loopback pass untouched.
'use strict';
const { appendFileSync } = require('node:fs');
const net = require('node:net');

const log = process.env.LOOPBACK_GUARD_LOG;
const connect = net.Socket.prototype.connect;

function isLoopback(host) {
  if (host === undefined || host === null || host === '' || host === 'localhost') return true;
  const address = String(host)
    .replace(/^\[|\]$/g, '')
    .replace(/^::ffff:/i, '');
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect hands over its normalised arguments as an array: [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first !== null && typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (typeof options.path === 'string' || isLoopback(options.host)) return connect.apply(this, args);
  const target = `${options.host}:${options.port}`;
  if (log) appendFileSync(log, `${target}\n`);
  process.nextTick(() => this.destroy(Object.assign(new Error(`connect ECONNREFUSED ${target} (not loopback: refused under test)`), { code: 'ECONNREFUSED' })));
  return this;
};
