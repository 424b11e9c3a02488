// Whether a database answers, as an instance with replicas tracks it for the primary (its
// heartbeat) and each replica (its checks): reads under way on a database found down are
// abandoned through its signal and go elsewhere (readRouting.ts).

/** What an abandoned read rejects with: a connection failure, so a request it fails is a 503. */
export class DatabaseDown extends Error {
  readonly code = '08006'; // connection_failure
  constructor(database: string, cause?: unknown) {
    super(`${database} is down`, { cause });
    this.name = 'DatabaseDown';
  }
}

export abstract class DatabaseState {
  private controller = new AbortController();

  constructor(
    /** `primary`, or a replica's host:port. */
    readonly name: string,
    /** Answered its last heartbeat or check in time. */
    public up: boolean,
    private readonly onChange: (up: boolean, error?: unknown) => void,
  ) {}

  /** Aborts when the database is found down: the reads under way there are abandoned. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  markDown(error: unknown): void {
    if (!this.up) return;
    this.up = false;
    this.controller.abort(new DatabaseDown(this.name, error));
    this.onChange(false, error);
  }

  protected markUp(): void {
    if (this.up) return;
    this.up = true;
    this.controller = new AbortController();
    this.onChange(true);
  }
}
