// Package oracle answers a task's conditions from authoritative state: the page (through the
// executor's observer), an HTTP endpoint, or an SQL query against SQLite or PostgreSQL, each
// judged by a CEL expression (cel-go) compiled when the task is loaded.
//
// Asking and judging are split. Ask reads the state and returns the raw answer (bounded, with
// secrets redacted); Judge decides a verdict from a raw answer alone. A live check is Judge on
// a fresh answer, and an import recomputes the same verdict from the recorded one. A condition
// whose state cannot be read (a refused connection, a timeout, an SQL error, a body that is
// not the JSON it claims to be) is "could not confirm" (agent.Unconfirmed), never a guess.
package oracle
