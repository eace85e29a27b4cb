package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/bundle"
	"observatory/backend/runfile"
	"observatory/backend/store"
)

func newExportCmd(env Env, g *globals) *cobra.Command {
	var out, attempt, harOut, ledgerOut string
	cmd := &cobra.Command{
		Use:   "export RUN -o FILE | export RUN --attempt SLUG (--har FILE | --ledger FILE.csv)",
		Short: "Write a stored run as a run file, or to a .zip as a bundle with its media, or to a .html as a report anyone can open; or one attempt's requests as a HAR file or its action ledger as CSV",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			one := harOut != "" || ledgerOut != ""
			switch {
			case harOut != "" && ledgerOut != "":
				return errors.New("--har and --ledger each write one file: give one of them")
			case one && attempt == "":
				return errors.New("--har and --ledger write one attempt's records: name it with --attempt SLUG")
			case attempt != "" && !one:
				return errors.New("--attempt goes with --har FILE or --ledger FILE.csv (export RUN --attempt SLUG --har FILE)")
			case one && out != "":
				return errors.New("give -o for the whole run, or --attempt with --har or --ledger for one attempt's records, not both")
			}
			return withReader(g, func(st *store.Store, dataDir string) error {
				t := app.NewTransfer(st, dataDir)
				switch {
				case harOut != "":
					if err := t.ExportTo(app.FormatHAR, args[0], attempt, harOut); err != nil {
						return err
					}
					fmt.Fprintf(env.Stderr, "wrote %s\n", safe(harOut))
					return nil
				case ledgerOut != "":
					if err := t.ExportTo(app.FormatLedger, args[0], attempt, ledgerOut); err != nil {
						return err
					}
					fmt.Fprintf(env.Stderr, "wrote %s\n", safe(ledgerOut))
					return nil
				}
				if out == "" || out == "-" {
					run, err := st.Get(args[0])
					if err != nil {
						return err
					}
					return runfile.Encode(env.Stdout, run)
				}
				if strings.HasSuffix(out, ".html") {
					if err := t.ExportTo(app.FormatReport, args[0], "", out); err != nil {
						return err
					}
					fmt.Fprintf(env.Stderr, "wrote %s\n", safe(out))
					return nil
				}
				return exportFile(env, t, args[0], out)
			})
		},
	}
	cmd.Flags().StringVar(&attempt, "attempt", "", "the attempt (its slug) whose requests --har writes, or whose action ledger --ledger writes")
	cmd.Flags().StringVar(&harOut, "har", "", "write the attempt's recorded network requests to this file as HAR 1.2, which browsers' developer tools open")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the file to write: a .zip is a bundle with the run's videos and screenshots, a .html a self-contained report; - or empty: the run file on standard output")
	cmd.Flags().StringVar(&ledgerOut, "ledger", "", "write the attempt's action ledger (one row per step: intent, target, principal, observation, fingerprint, decision, result, verification) to this CSV file")
	return cmd
}

func newImportCmd(env Env, g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Check a run file or bundle, replay it, recompute every verdict and store it as an imported run",
		Long: `Imports a run file, or a bundle (.zip) with its media. Nothing in it is trusted: its events are replayed through the lab's
transition function and every verdict is recomputed. Where the file's recorded verdicts
disagree, the disagreement is printed and the recomputed verdict is stored. A refused file
stores nothing, and a killed import leaves the run with all its media or nothing (the next
start finishes or removes what it left).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(g, func(st *store.Store, dataDir string) error {
				res, err := app.NewTransfer(st, dataDir).ImportFile(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				printDisagreements(env, res.Disagreements)
				fmt.Fprintf(env.Stdout, "imported %s as run %s\n", safe(args[0]), res.RunID)
				return nil
			})
		},
	}
}

func newVerifyCmd(env Env, g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify FILE",
		Short: "Replay a run file (or a bundle's), print the recomputed table, exit 1 on any disagreement or refusal",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file, err := readRunFile(args[0])
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			res, err := runfile.Verify(app.Resolve, file)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if asJSON {
				if err := writeJSON(env.Stdout, jsonRows(res.Run.Attempts)); err != nil {
					return err
				}
			} else {
				printTable(env.Stdout, res.Run.Attempts)
			}
			printDisagreements(env, res.Disagreements)
			if n := len(res.Disagreements); n > 0 {
				return fmt.Errorf("%s: %d recorded verdict(s) disagree with the replay", args[0], n)
			}
			fmt.Fprintf(env.Stderr, "%s: every recorded verdict agrees with the replay\n", safe(args[0]))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the recomputed attempts as JSON")
	return cmd
}

// readRunFile decodes the run file at path, or the one inside the bundle at path (a .zip,
// told apart by content).
func readRunFile(path string) (runfile.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return runfile.File{}, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if !bundle.Sniff(br) {
		return runfile.Decode(br)
	}
	info, err := f.Stat()
	if err != nil {
		return runfile.File{}, err
	}
	if !info.Mode().IsRegular() {
		return runfile.File{}, errors.New("a bundle is read at offsets, so it must be a file, not a pipe; save it first")
	}
	data, err := bundle.RunFileOf(f, info.Size())
	if err != nil {
		return runfile.File{}, err
	}
	return runfile.Decode(bytes.NewReader(data))
}

// exportFile writes a stored run to path (a bundle for .zip) and says what it wrote.
func exportFile(env Env, files *app.Transfer, id, path string) error {
	missing, err := files.ExportFile(id, path)
	if err != nil {
		return err
	}
	for _, m := range missing {
		fmt.Fprintf(env.Stderr, "warning: the media file %s is gone from disk; the bundle leaves it out\n", safe(m))
	}
	fmt.Fprintf(env.Stderr, "wrote %s\n", safe(path))
	return nil
}

func printDisagreements(env Env, dis []runfile.Disagreement) {
	for _, d := range dis {
		fmt.Fprintf(env.Stderr, "disagreement: %s: %s recorded %s, recomputed %s\n", safe(d.Attempt), safe(d.Verdict), safe(d.Recorded), safe(d.Recomputed))
	}
}
