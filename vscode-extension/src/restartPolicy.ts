/**
 * When the server process dies, restart it, but not forever: at most `maxRestarts` within `windowMs`
 * (default 4 restarts in 3 minutes, the same budget as vscode-languageclient's default handler).
 * Pure module with an injectable clock; unit-tested in test/restartPolicy.test.ts.
 */
export interface CrashDecision {
  /** Restart the server now. */
  restart: boolean;
  /** Crashes inside the window, this one included. */
  crashes: number;
  maxRestarts: number;
  windowMs: number;
}

export class RestartPolicy {
  private crashTimes: number[] = [];

  constructor(
    readonly maxRestarts = 4,
    readonly windowMs = 3 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Record one crash and decide. */
  onCrash(): CrashDecision {
    const t = this.now();
    this.crashTimes = this.crashTimes.filter((c) => t - c < this.windowMs);
    this.crashTimes.push(t);
    const crashes = this.crashTimes.length;
    return { restart: crashes <= this.maxRestarts, crashes, maxRestarts: this.maxRestarts, windowMs: this.windowMs };
  }

  /** Crashes in the window ending now (without recording one). */
  recentCrashes(): number {
    const t = this.now();
    return this.crashTimes.filter((c) => t - c < this.windowMs).length;
  }

  /** Forget past crashes (after a manual restart). */
  reset(): void {
    this.crashTimes = [];
  }
}
