// The rate limit: a token bucket per tenant, held by one Durable Object (whose calls the runtime
// runs one at a time, so the bucket is exact for its tenant).

/**
 * A token bucket: up to `burst` tokens, refilled at `perSecond`. It lives in memory only, so an
 * object that restarts starts with a full bucket.
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
