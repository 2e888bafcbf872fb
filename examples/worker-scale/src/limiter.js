// The tenant's object: a small Durable Object of its own, asked before any object that stores
// anything. It holds the tenant's token bucket, so the budget is the tenant's whatever the
// number of objects its documents are spread over, and the layout the tenant's documents are
// filed under (layout.js), so a deployment with other routing settings cannot miss them silently.
import { DurableObject } from 'cloudflare:workers';
import { TokenBucket } from 'simprint-worker-common/limiter';
import { settings } from './settings.js';

export class SimprintLimiter extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(
      'CREATE TABLE IF NOT EXISTS layout (one INTEGER PRIMARY KEY, value TEXT NOT NULL)',
    );
    this.recorded = this.sql.exec('SELECT value FROM layout').toArray()[0]?.value ?? null;
  }

  /**
   * Admits a request of `cost` tokens made under `layout` (a layoutOf string); `writes`: it may
   * store documents. Returns `{ recorded, retryAfter }`: the layout recorded for the tenant (null
   * while nothing was written) and 0 when the tokens were taken, else the seconds to wait
   * (Infinity: never). Under another layout than the recorded one nothing is taken or recorded;
   * the first write records its layout.
   */
  admit({ cost, layout, writes }) {
    if (this.recorded !== null && this.recorded !== layout) {
      return { recorded: this.recorded, retryAfter: 0 };
    }
    if (this.recorded === null && writes) this.record(layout);
    return { recorded: this.recorded, retryAfter: this.take(cost) };
  }

  /** Moves the record from `from` to `to` (the Worker found no document filed under `from`). */
  replaceLayout({ from, to }) {
    if (this.recorded === from) this.record(to);
    return { recorded: this.recorded };
  }

  record(layout) {
    this.sql.exec('INSERT OR REPLACE INTO layout (one, value) VALUES (1, ?)', layout);
    this.recorded = layout;
  }

  take(cost) {
    const { rateLimit } = settings(this.env);
    if (!rateLimit || !cost) return 0;
    this.bucket ??= new TokenBucket(rateLimit);
    return this.bucket.take(cost);
  }
}

/** The Durable Object name of `tenant`'s limiter (tenants hold no ':' or '/'). */
export const limiterName = (tenant) => `tenant:${tenant}/limiter`;
