// Package stats estimates how often an agent succeeds from repeated trials, and whether two
// configurations differ: a proportion's Wilson score interval, the difference of two
// proportions with Newcombe's interval, pass@k and pass^k, and the exact McNemar and Fisher
// tests. Every function takes counts and returns numbers; nothing here knows of runs.
//
// Small samples decide what can be shown: the exact McNemar test on n discordant pairs never
// gives a p-value below 2·0.5ⁿ, so at least 6 trials a task (all of them disagreeing) are
// needed before a difference can be significant at the 0.05 level.
package stats
