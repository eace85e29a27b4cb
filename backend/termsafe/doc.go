// Package termsafe makes text from files and pages safe to print to a terminal, and defines
// the safe character set of the names the formats define (attempt slugs).
//
// A run file is a stranger's: an attempt name with a newline can forge a row of a table, and
// ESC, OSC and CSI sequences or a carriage return can clear the screen, retitle the terminal
// or overwrite what was printed; a bidi override can make text read in another order than it
// is. String shows all of these escaped instead.
package termsafe
