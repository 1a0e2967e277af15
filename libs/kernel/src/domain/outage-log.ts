/** Where an OutageLog writes (Nest's Logger is one). */
export interface OutageLogger {
  warn(message: string): void;
  log(message: string): void;
}

export interface OutageLines {
  /** The warning when calls start failing, from the first failure. */
  down: (error: Error) => string;
  /** The line when a call succeeds again. */
  up: string;
}

/**
 * One warning when calls to a dependency start failing and one line when they succeed again, however
 * many calls meet the outage. Calls are numbered as they start, so a late answer does not flap the
 * state: a call that started before the outage was seen and succeeds during it does not end it, and
 * one that started before its end and fails after it (a timeout running out) does not start another.
 */
export class OutageLog {
  private calls = 0;
  /** Set during an outage: the last call that had started when it was seen. */
  private seenAt?: number;
  /** The last call that had started when the last outage ended. */
  private endedAt = 0;
  private closed = false;

  constructor(
    private readonly logger: OutageLogger,
    private readonly lines: OutageLines,
  ) {}

  /** Follows a call: its failure is the outage's (and handled here: it is never an unhandled rejection), its success may end it. */
  watch(call: Promise<unknown>): void {
    const number = ++this.calls;
    call.then(
      () => this.up(number),
      (error: unknown) => this.down(number, error),
    );
  }

  /** The dependency failed now (a connection error, say). */
  failed(error: unknown): void {
    this.down(++this.calls, error);
  }

  /** The dependency answered now (a reconnection, say). */
  succeeded(): void {
    this.up(++this.calls);
  }

  /** Nothing more is logged: the calls still under way fail because this process closes their connection. */
  end(): void {
    this.closed = true;
  }

  private down(call: number, error: unknown): void {
    if (this.closed || this.seenAt !== undefined || call <= this.endedAt) return;
    this.seenAt = this.calls;
    this.logger.warn(this.lines.down(error instanceof Error ? error : new Error(String(error))));
  }

  private up(call: number): void {
    if (this.closed || this.seenAt === undefined || call <= this.seenAt) return;
    this.seenAt = undefined;
    this.endedAt = this.calls;
    this.logger.log(this.lines.up);
  }
}
