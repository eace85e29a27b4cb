// Package report writes a run as one self-contained HTML file that opens in any browser
// without Observatory: the attempts table with its "wrong" marks, then every attempt's gate
// conditions with their evidence and the oracle's raw answers, its verdicts and its steps
// with the screenshots before and after each, inlined as data: URLs.
//
// Nothing from the run can run in it: every value goes through html/template, the file
// holds no script at all, and a Content-Security-Policy meta tag forbids scripts, network
// loads, forms and frames (images only from data: URLs, styles only its own). Its size is
// bounded: the text by the run-file limits, and screenshots by MaxMedia, past which they are
// left out with a note saying so.
package report
