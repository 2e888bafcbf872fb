// Rate limits: one token bucket per tenant. With ROUTING = "id" the tenant's one object holds
// it (durable-object.js); with ROUTING = "keys" a small object of its own does
// (SimprintLimiter below), asked once per request before any other object is, so a tenant's
// budget is the same whatever the number of objects its documents are spread over.
import { DurableObject } from 'cloudflare:workers';
import { settings } from './config.js';

/**
 * A token bucket: up to `burst` tokens, refilled at `perSecond`. Exact for its holder: the
 * holder is one Durable Object, whose calls the runtime runs one at a time. It lives in memory
 * only, so an object that restarts starts with a full bucket.
 */
export class TokenBucket {
  constructor({ perSecond, burst }) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.tokens = burst;
    this.at = Date.now();
  }

  /**
   * Takes `cost` tokens: 0 when they were there, else the whole seconds (at least 1) until they
   * will be; nothing is taken then. A cost above `burst` can never be paid: Infinity.
   */
  take(cost = 1) {
    if (cost > this.burst) return Infinity;
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens >= cost) {
      this.tokens -= cost;
      return 0;
    }
    return Math.max(1, Math.ceil((cost - this.tokens) / this.perSecond));
  }
}

/** A tenant's bucket in keys mode: `take(cost)` answers `{ retryAfter }` (0: admitted). */
export class SimprintLimiter extends DurableObject {
  take(cost) {
    const { rateLimit } = settings(this.env);
    if (!rateLimit) return { retryAfter: 0 };
    this.bucket ??= new TokenBucket(rateLimit);
    return { retryAfter: this.bucket.take(cost) };
  }
}

/** The Durable Object name of `tenant`'s limiter (tenants hold no ':' or '/'). */
export const limiterName = (tenant) => `tenant:${tenant}/limiter`;
