// The two simprint plans of this Worker: the routing plan, whose MAX_K + 1 table keys send a
// document to its objects, and the store plan an object files its documents under in SQLite
// once they outgrow memory. One Plan per setting per isolate.
import { Plan } from 'simprint';

const plans = new Map();

function planFor(name, options) {
  let plan = plans.get(name);
  if (!plan) plans.set(name, (plan = new Plan(options)));
  return plan;
}

/** MAX_K + 1 substrings, radius 0: a document's routing keys are its MAX_K + 1 table keys. */
export const routingPlan = (width, maxK) =>
  planFor(`route:${width}:${maxK}`, { width, k: maxK, substrings: maxK + 1 });

/**
 * The plan of an object's SQLite tables: `substrings` substrings (keys of about 21 bits at 64
 * bits: a few thousand probes and a few candidates per million documents), probed within radii.
 */
export const storePlan = (width, maxK, substrings) =>
  planFor(`store:${width}:${maxK}:${substrings}`, { width, k: maxK, substrings });

/** A BigInt key as lowercase hex, the form routing hashes and SQL stores. */
export const keyHex = (key) => key.toString(16);
