// A database that cannot be opened for a reason the operator can act on: a data directory
// another process holds, a PostgreSQL that cannot be reached or refuses the connection.
// Its message is one line that starts with the variable to look at; main.ts and the
// commands print it as it is (server/cli/problems.ts), without a stack.

export class DatabaseProblem extends Error {
  override name = 'DatabaseProblem';
}
