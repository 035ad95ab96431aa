/**
 * Concurrency that backs off on 429 and grows back slowly (additive increase, multiplicative decrease, as
 * TCP does): a 429 halves the number of requests allowed at once (never below 1), and each run of `limit`
 * answers without one adds a slot again, up to the maximum the person set. Requests wait for a slot in the
 * order they asked. Pure; no `vscode` import.
 */
export class AimdLimiter {
  private current: number;
  private active = 0;
  private successes = 0;
  private readonly waiting: Array<() => void> = [];
  /** How often the limit was halved. */
  decreases = 0;

  constructor(readonly max: number) {
    this.current = Math.max(1, Math.floor(max));
  }

  get limit(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.active;
  }

  /** Resolves when a slot is free; call the returned function once when the request is done. */
  async acquire(): Promise<() => void> {
    if (this.active < this.current && this.waiting.length === 0) {
      this.active++;
    } else {
      // wake() counts the slot as taken when it hands it over, so two releases never wake one waiter twice.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.active--;
        this.wake();
      }
    };
  }

  /** A 429: half the slots (requests in flight finish; no new one starts until under the limit). */
  onRateLimited(): void {
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.successes = 0;
    this.decreases++;
  }

  /** An answer that was not a 429: after `limit` of them in a row, one more slot. */
  onAnswered(): void {
    this.successes++;
    if (this.successes >= this.current && this.current < this.max) {
      this.current++;
      this.successes = 0;
      this.wake();
    }
  }

  private wake(): void {
    while (this.active < this.current && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()?.();
    }
  }
}
