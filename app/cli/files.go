package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/runfile"
	"observatory/backend/signing"
	"observatory/backend/store"
)

func newExportCmd(env Env, g *globals) *cobra.Command {
	var out, attempt, harOut, ledgerOut, key string
	var sign bool
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
			case (sign || key != "") && (one || out == "" || out == "-" || strings.HasSuffix(out, ".html")):
				return errors.New("--sign signs a run file or bundle written with -o FILE (.json or .zip)")
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
				return exportFile(env, t, args[0], out, key, sign || key != "")
			})
		},
	}
	cmd.Flags().StringVar(&attempt, "attempt", "", "the attempt (its slug) whose requests --har writes, or whose action ledger --ledger writes")
	cmd.Flags().StringVar(&harOut, "har", "", "write the attempt's recorded network requests to this file as HAR 1.2, which browsers' developer tools open")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the file to write: a .zip is a bundle with the run's videos and screenshots, a .html a self-contained report; - or empty: the run file on standard output")
	cmd.Flags().BoolVar(&sign, "sign", false, "sign the run file (its signature beside it, FILE.sig.json) or the bundle (its signature inside) with your key; see observatory keys")
	cmd.Flags().StringVar(&key, "key", "", "the key to sign with (default: the one keys sign-exports chose, else your only key); implies --sign")
	cmd.Flags().StringVar(&ledgerOut, "ledger", "", "write the attempt's action ledger (one row per step: intent, target, principal, observation, fingerprint, decision, result, verification) to this CSV file")
	return cmd
}

func newImportCmd(env Env, g *globals) *cobra.Command {
	var requireSigned bool
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Check a run file or bundle, replay it, recompute every verdict and store it as an imported run",
		Long: `Imports a run file, or a bundle (.zip) with its media. Nothing in it is trusted: its events are replayed through the lab's
transition function and every verdict is recomputed. Where the file's recorded verdicts
disagree, the disagreement is printed and the recomputed verdict is stored. A refused file
stores nothing, and a killed import leaves the run with all its media or nothing (the next
start finishes or removes what it left).

Before anything else the file's signature is checked (a bundle's inside it, a run file's in
FILE.sig.json beside it) against the keys you trust, and the imported run keeps what it
found: signed by a trusted key, by an untrusted one, unsigned, or a signature that does not
match. --require-signature refuses all but the first.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(g, func(st *store.Store, dataDir string) error {
				t := app.NewTransfer(st, dataDir)
				importFile := t.ImportFile
				if requireSigned {
					importFile = t.ImportRequiringSignature
				}
				res, err := importFile(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				sig := res.Signature
				printSignature(env, "signature", signing.Result{Status: signing.Status(sig.Status), Signer: sig.Signer, Fingerprint: sig.Fingerprint, Reason: sig.Reason})
				printDisagreements(env, res.Disagreements)
				fmt.Fprintf(env.Stdout, "imported %s as run %s\n", safe(args[0]), res.RunID)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&requireSigned, "require-signature", false, "refuse a file that is not signed by a key you trust, with every signed byte as signed")
	return cmd
}

func newVerifyCmd(env Env, g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify FILE",
		Short: "Check a run file's (or a bundle's) signature, replay it, print the recomputed table, exit 1 on any disagreement, refusal or signature that does not match",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, sig, err := checkSigned(cmd.Context(), g, args[0])
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			printSignature(env, args[0], sig)
			file, err := p.Decode()
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
			if sig.Status == signing.Mismatch {
				return fmt.Errorf("%s: %s", args[0], sig.Label())
			}
			fmt.Fprintf(env.Stderr, "%s: every recorded verdict agrees with the replay\n", safe(args[0]))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the recomputed attempts as JSON")
	return cmd
}

// exportFile writes a stored run to path (a bundle for .zip), signed with key when sign is
// set (and when the settings say to sign every export), and says what it wrote.
func exportFile(env Env, files *app.Transfer, id, path, key string, sign bool) error {
	missing, signedBy, err := files.ExportSignedFile(id, path, key, sign)
	if err != nil {
		return err
	}
	for _, m := range missing {
		fmt.Fprintf(env.Stderr, "warning: the media file %s is gone from disk; the bundle leaves it out\n", safe(m))
	}
	switch {
	case signedBy == "":
		fmt.Fprintf(env.Stderr, "wrote %s\n", safe(path))
	case strings.HasSuffix(path, ".zip"):
		fmt.Fprintf(env.Stderr, "wrote %s, signed by %s\n", safe(path), safe(signedBy))
	default:
		fmt.Fprintf(env.Stderr, "wrote %s, signed by %s (signature in %s)\n", safe(path), safe(signedBy), safe(path+app.SignatureSuffix))
	}
	return nil
}

// exportShard writes shard sh of stored run id to path as a shard's run file, and says so.
func exportShard(env Env, files *app.Transfer, id, path string, sh app.Shard) error {
	signedBy, err := files.ExportShard(id, path, sh)
	if err != nil {
		return err
	}
	signed := ""
	if signedBy != "" {
		signed = fmt.Sprintf(", signed by %s (signature in %s)", safe(signedBy), safe(path+app.SignatureSuffix))
	}
	fmt.Fprintf(env.Stderr, "wrote %s (shard %d of %d, index %d)%s\n", safe(path), sh.K, sh.N, sh.K-1, signed)
	return nil
}

func printDisagreements(env Env, dis []runfile.Disagreement) {
	for _, d := range dis {
		fmt.Fprintf(env.Stderr, "disagreement: %s: %s recorded %s, recomputed %s\n", safe(d.Attempt), safe(d.Verdict), safe(d.Recorded), safe(d.Recomputed))
	}
}
