package suitefile

import "observatory/backend/taskfile"

// Schema is the value of a suite file's schema field.
const Schema = "observatory.suite/v1"

// Document is a suite file as written.
type Document struct {
	Schema string `json:"schema"`
	// Name names the suite in messages and tables; the file's name without extension when
	// absent.
	Name string `json:"name,omitempty"`
	// Repeat runs every attempt of every task this many times, as trials; 1 when absent.
	Repeat int `json:"repeat,omitempty"`
	// Tasks are the task files, in the order they run.
	Tasks []Entry `json:"tasks"`
	// Budgets bound every attempt, and each task's run, in place of the tasks' own.
	Budgets *taskfile.BudgetsSection `json:"budgets,omitempty"`
}

// Entry names one task file (File) or many (Glob, in name order), relative to the suite
// file's folder and inside it, and which of their attempts to run.
type Entry struct {
	File string `json:"file,omitempty"`
	Glob string `json:"glob,omitempty"`
	// Attempts are the attempts' slugs to run, in order; absent runs them all.
	Attempts []string `json:"attempts,omitempty"`
}
