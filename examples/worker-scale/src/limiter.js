// The tenant's rate limit: a small Durable Object of its own holding the tenant's token bucket,
// asked once per request before any object that stores anything, so the budget is the tenant's
// whatever the number of objects its documents are spread over.
import { DurableObject } from 'cloudflare:workers';
import { TokenBucket } from 'simprint-worker-common/limiter';
import { settings } from './settings.js';

export class SimprintLimiter extends DurableObject {
  /** `{ retryAfter }`: 0 when `cost` tokens were taken, else the seconds to wait (Infinity: never). */
  take(cost) {
    const { rateLimit } = settings(this.env);
    if (!rateLimit) return { retryAfter: 0 };
    this.bucket ??= new TokenBucket(rateLimit);
    return { retryAfter: this.bucket.take(cost) };
  }
}

/** The Durable Object name of `tenant`'s limiter (tenants hold no ':' or '/'). */
export const limiterName = (tenant) => `tenant:${tenant}/limiter`;
