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
  /** Seconds until the amount asked for is available (Retry-After), 0 when allowed. */
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

  /**
   * Takes `amount` tokens (1 for a request, its size for a body) if the bucket holds them. An amount
   * larger than the bucket counts as a full bucket, so one large but allowed body can always pass.
   */
  take(key: string, amount = 1): TakeResult {
    const needed = Math.min(amount, this.burst);
    const bucket = this.refilled(key);
    const allowed = bucket.tokens >= needed;
    if (allowed) bucket.tokens -= needed;
    return {
      allowed,
      limit: this.burst,
      remaining: Math.max(0, Math.floor(bucket.tokens)),
      resetSeconds: Math.ceil((this.burst - bucket.tokens) / this.ratePerMs / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((needed - bucket.tokens) / this.ratePerMs / 1000)),
    };
  }

  /**
   * Spends `amount` tokens that were already used (bytes read before their size was known), going
   * into debt down to one bucket's worth. Returns the milliseconds until the bucket is out of debt
   * (0 when it is not in debt).
   */
  spend(key: string, amount: number): number {
    const bucket = this.refilled(key);
    bucket.tokens = Math.max(-this.burst, bucket.tokens - amount);
    return bucket.tokens >= 0 ? 0 : Math.ceil(-bucket.tokens / this.ratePerMs);
  }

  private refilled(key: string): { tokens: number; at: number } {
    const now = this.now();
    this.prune(now);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.ratePerMs);
    bucket.at = now;
    return bucket;
  }

  get size(): number {
    return this.buckets.size;
  }

  private prune(now: number): void {
    // A bucket is full again at most this long after its last use (from the deepest debt, -burst).
    const fullAfterMs = (2 * this.burst) / this.ratePerMs;
    if (now - this.lastPrune < Math.min(fullAfterMs, 60_000)) return;
    this.lastPrune = now;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
    }
  }
}
