/** At most `limit` holders at once; at most `maxWaiting` wait; beyond that `enter` answers false at once. */
export class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  get queued(): number {
    return this.waiting.length;
  }

  async enter(): Promise<boolean> {
    if (this.active < this.limit) {
      this.active += 1;
      return true;
    }
    if (this.waiting.length >= this.maxWaiting) return false;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return true;
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}
