/**
 * Token buckets keyed by caller: each holds up to `burst` tokens and refills at `perMinute / 60`
 * tokens a second. Pure and clock-injected, so tests need no waiting. Idle buckets (full again) are
 * forgotten, which bounds memory by the callers active in the last few minutes.
 */
export interface TakeResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** Seconds until one token is available (Retry-After), 0 when allowed. */
  retryAfterSeconds: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly ratePerMs: number;
  private lastPrune = 0;

  constructor(
    perMinute: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.ratePerMs = perMinute / 60_000;
  }

  take(key: string): TakeResult {
    const now = this.now();
    this.prune(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.ratePerMs);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    return {
      allowed,
      limit: this.burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.burst - bucket.tokens) / this.ratePerMs / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerMs / 1000)),
    };
  }

  get size(): number {
    return this.buckets.size;
  }

  private prune(now: number): void {
    const fullAfterMs = this.burst / this.ratePerMs;
    if (now - this.lastPrune < Math.min(fullAfterMs, 60_000)) return;
    this.lastPrune = now;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
    }
  }
}
