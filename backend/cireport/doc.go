// Package cireport writes a run's verdicts the way CI systems read test results: JUnit XML
// (the subset GitLab and Jenkins parse, with Surefire's flaky elements), the Common Test
// Report Format (CTRF JSON) and GitHub Actions' workflow commands and step summary.
//
// Every report is a projection of runs: the run file stays the evidence, and a report says
// nothing it does not hold. The unit of a report is a Case, one attempt of one task with its
// trials, judged by a Policy: the same policy decides the command's exit status, so the
// reports and the exit status never disagree.
package cireport
