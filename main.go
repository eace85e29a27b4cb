// Command observatory is a desktop workbench for browser agents. Without arguments it opens
// the desktop window; `observatory --help` lists the subcommands (run, serve, runs, show,
// export, import, verify, install, version). main only wires the process to the command line.
package main

import (
	"embed"
	"io/fs"
	"os"

	"observatory/app/cli"
)

// dist is the built frontend (`npm run build` in frontend/); the desktop and `serve` show it.
//
//go:embed all:frontend/dist
var dist embed.FS

func main() {
	assets, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed directive guarantees the folder
	}
	os.Exit(cli.Main(cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Assets: assets}, os.Args[1:]))
}
