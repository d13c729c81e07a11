// The test legs: what parts of the test suite need from the machine, how to check it cheaply and how
// to provide it. `scripts/provision-test-machine.mjs` provisions them before `npm test`; the Vitest
// global setup probes them again and skips the tests of a leg that is not there.
//
// A leg is a row of this table. To add one, write its module next to these and list it here.
import { chromiumHeadlessShellLeg, chromiumLeg } from "./chromium-leg.mjs";
import { dovecotLeg } from "./dovecot-leg.mjs";
import { haproxyLeg } from "./haproxy-leg.mjs";
import { postgresLeg } from "./postgres-leg.mjs";
import { redisLeg } from "./redis-leg.mjs";

/**
 * @typedef {{ ready: boolean, problem: string }} Probe
 * @typedef {{ machine: typeof import("./machine.mjs").machine, did: (action: string) => void }} ProvisionContext
 * @typedef {object} Leg
 * @property {string} name          the leg's name, as tests ask for it
 * @property {string} needs         what it provides, in words
 * @property {(env: NodeJS.ProcessEnv) => string} target   where (a URL, or a path), from the environment
 * @property {(target: string) => Promise<Probe>} probe     a cheap check (a connection, never apt)
 * @property {(target: string, first: Probe, context: ProvisionContext) => Promise<Probe>} provision
 *   makes it ready, or says in `problem` why it cannot
 */

/** @type {Leg[]} */
export const legs = [postgresLeg, redisLeg, chromiumHeadlessShellLeg, chromiumLeg, dovecotLeg, haproxyLeg];
