// Package suitefile reads suite files (observatory.suite/v1): many task files run as one
// benchmark, each with its own app, oracles and origins. A suite file lists task files and
// globs of them, which attempts of each to run, how many trials of each attempt, and budgets
// shared by every task; a folder is a suite of the task files in it. docs/suites.md
// describes the format and docs/suite.schema.json is its JSON Schema.
//
// A suite is not taskfile.Suite, which is one loaded task: here a suite is a list of tasks.
package suitefile
