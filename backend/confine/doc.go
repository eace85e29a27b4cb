// Package confine keeps the files an attempt moves inside the folders its task names: an
// upload resolves only to a regular file inside the uploads folder (symlinks followed, `..`
// and absolute paths refused), and a download is saved inside the downloads folder under a
// name made safe on every system, never over a file already there.
package confine
