// Package confine keeps the files a task file names, and those an attempt moves, inside the
// folders they may be in: every path a task file names resolves, symlinks followed, inside
// the file's own folder or one the user allowed (Scope); an upload resolves only to a
// regular file inside the uploads folder (symlinks followed, `..` and absolute paths
// refused), and a download is saved inside the downloads folder under a name made safe on
// every system, never over a file already there.
package confine
