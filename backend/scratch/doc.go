// Package scratch makes temporary files and folders that a process holds while it works on
// them, such as a bundle's media being extracted or an upload being received, and sweeps
// those whose process is gone.
//
// Each one, PATH, has a lock file beside it, PATH.lock, created and locked (flock on Unix,
// LockFileEx on Windows) before PATH exists and deleted only after PATH has been moved into
// place or removed. The operating system drops the lock when its process dies, however it
// dies, so a sweep, in any process sharing the folder, removes exactly the files and folders
// whose lock nobody holds, and those left without a lock file at all.
package scratch
