// Package canvas is the "Knight's move" lab: a chess board drawn on a canvas, served by Go on
// 127.0.0.1, whose one task is to move the white knight from b1 to c3. A mouse user clicks
// the knight's square, then the target square; the accessibility snapshot sees only an
// unlabelled canvas. An "Accessible mode" button, placed off-screen (or clipped to one pixel,
// the clipped-toggle fault) as such toggles often are, switches on a text route: the pieces
// as a list and a form that moves one by its squares.
//
// Every app event is logged in order, by the page (a click on the board and the square it
// landed on, the switch to accessible mode and whether a keyboard or a pointer pressed it) or
// by the server (a move made or refused). Apply is the one transition function over them,
// live and on replay.
package canvas
