// Package ledger is an attempt's action ledger: one row per step, saying what the action was
// for, which resource it targeted, under whose authority, on which observation (its time and
// fingerprint), what policy decided, what came of it and how it was verified. It is derived
// from the recorded steps alone, so a run file's ledger is recomputed, never read, and it is
// written as CSV for a spreadsheet or an auditor.
package ledger
