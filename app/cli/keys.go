package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"observatory/app"
	"observatory/backend/signing"
)

func newKeysCmd(env Env, g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Make signing keys, and choose whose signatures on run files you trust",
		Long: `A signing key signs the run files and bundles you export (export --sign), so that whoever
receives one can check, offline, that your key signed it and that not one byte of it or its
media changed since. The private key stays in the OS keyring (else in a file only you can
read in the data folder); share only what keys export-public prints. A signature proves
that a key signed these bytes, not when the run happened nor that the machine that
recorded it was honest.`,
	}
	keys := func() (*app.SigningKeys, error) {
		dir, err := dataDir(g)
		if err != nil {
			return nil, err
		}
		return app.SigningKeysIn(dir), nil
	}
	var name string
	newCmd := &cobra.Command{
		Use:   "new [--name NAME]",
		Short: "Make an Ed25519 signing key; it is trusted here from the start",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			k, err := keys()
			if err != nil {
				return err
			}
			if name == "" {
				name = defaultKeyName()
			}
			key, keyringErr, err := k.New(name)
			if err != nil {
				return err
			}
			where := "the OS keyring (entry " + key.Entry + ")"
			if key.Private == app.InFile {
				fmt.Fprintf(env.Stderr, "warning: no OS keyring (%v); the private key is in a file only you can read\n", safe(keyringErr.Error()))
				where = "a file only you can read (" + key.Entry + ".key in the data folder's keys folder)"
			}
			fmt.Fprintf(env.Stdout, "made key %s (%s); its private half is in %s\n", safe(key.Name), key.Fingerprint, where)
			return nil
		},
	}
	newCmd.Flags().StringVar(&name, "name", "", "what the key is called, as signatures name it (default: your user name at this machine)")
	list := &cobra.Command{
		Use:   "list",
		Short: "List your signing keys and the keys you trust",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			k, err := keys()
			if err != nil {
				return err
			}
			own, err := k.Own()
			if err != nil {
				return err
			}
			trusted, err := k.Trusted()
			if err != nil {
				return err
			}
			fmt.Fprintln(env.Stdout, "Your keys:")
			if len(own) == 0 {
				fmt.Fprintln(env.Stdout, "  none (observatory keys new --name NAME)")
			}
			for _, o := range own {
				fmt.Fprintf(env.Stdout, "  %s  %s  private key in the %s\n", o.Fingerprint, safe(o.Name), map[string]string{app.InKeyring: "OS keyring", app.InFile: "data folder (0600 file)"}[o.Private])
			}
			fmt.Fprintln(env.Stdout, "Trusted keys:")
			if len(trusted) == 0 {
				fmt.Fprintln(env.Stdout, "  none (observatory keys trust FILE --name NAME)")
			}
			for _, p := range trusted {
				fmt.Fprintf(env.Stdout, "  %s  %s\n", signing.Fingerprint(p.Key), safe(p.Name))
			}
			return nil
		},
	}
	export := &cobra.Command{
		Use:   "export-public [NAME]",
		Short: "Print a key's public half (PEM), for others to trust with keys trust",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			k, err := keys()
			if err != nil {
				return err
			}
			key, err := k.Find(strings.Join(args, ""))
			if err != nil {
				return err
			}
			_, err = env.Stdout.Write(signing.EncodePEM(key.PublicKey))
			return err
		},
	}
	var trustName string
	trust := &cobra.Command{
		Use:   "trust FILE|KEY [--name NAME]",
		Short: "Trust the signatures of a public key: a file keys export-public wrote, or the key itself",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			k, err := keys()
			if err != nil {
				return err
			}
			text := []byte(args[0])
			if data, err := os.ReadFile(args[0]); err == nil {
				text = data
			}
			pub, err := signing.ParsePublic(text)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			n := trustName
			if n == "" {
				n = strings.TrimSuffix(filepath.Base(args[0]), filepath.Ext(args[0]))
				if _, err := os.Stat(args[0]); err != nil {
					n = "key " + signing.Fingerprint(pub)[:9]
				}
			}
			if err := k.Trust(n, pub); err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "trusted %s (%s)\n", safe(n), signing.Fingerprint(pub))
			return nil
		},
	}
	trust.Flags().StringVar(&trustName, "name", "", "what to call the key's holder (default: the file's name)")
	untrust := &cobra.Command{
		Use:   "untrust NAME|FINGERPRINT",
		Short: "Stop trusting a key's signatures",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			k, err := keys()
			if err != nil {
				return err
			}
			gone, err := k.Untrust(args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "no longer trusting %s (%s)\n", safe(gone.Name), signing.Fingerprint(gone.Key))
			return nil
		},
	}
	var off bool
	signAll := &cobra.Command{
		Use:   "sign-exports NAME | sign-exports --off",
		Short: "Sign every export of a run file or bundle (and every merge) with your key NAME, or stop",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			dir, err := dataDir(g)
			if err != nil {
				return err
			}
			if off == (len(args) == 1) {
				return fmt.Errorf("give a key's name, or --off")
			}
			if !off {
				if _, err := app.SigningKeysIn(dir).Find(args[0]); err != nil {
					return err
				}
			}
			settings := app.SettingsIn(dir)
			set, err := settings.Get()
			if err != nil {
				return err
			}
			set.SignExports = strings.Join(args, "")
			if err := settings.Save(set); err != nil {
				return err
			}
			if off {
				fmt.Fprintln(env.Stdout, "exports are signed only when asked (export --sign)")
			} else {
				fmt.Fprintf(env.Stdout, "every export is signed with %s\n", safe(set.SignExports))
			}
			return nil
		},
	}
	signAll.Flags().BoolVar(&off, "off", false, "sign exports only when asked")
	cmd.AddCommand(newCmd, list, export, trust, untrust, signAll)
	return cmd
}

// defaultKeyName is user@host, made of the characters a key name may hold.
func defaultKeyName() string {
	user, host := os.Getenv("USER"), "here"
	if h, err := os.Hostname(); err == nil {
		host = h
	}
	if user == "" {
		user = "me"
	}
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r < 128 && (r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return r
			}
			return '-'
		}, s)
	}
	n := clean(user) + "@" + clean(host)
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}
