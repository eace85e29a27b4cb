// Package filelock holds the operating system's exclusive file locks, which a process loses
// when it dies, even by SIGKILL: the store's writer lock and the scratch folders' holds are
// both made of them.
package filelock
