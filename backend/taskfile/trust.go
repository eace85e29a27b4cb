package taskfile

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"observatory/backend/confine"
	"observatory/backend/netguard"
	"observatory/backend/oracle"
)

// Trust is what the user lets task files reach beyond their own folder and origins. A task
// file is a stranger's as often as not, so only the user widens it (on the command line,
// in their settings, or by answering yes), never the file itself.
type Trust struct {
	// Paths are folders, besides the task file's own, where the files it names may be
	// (--allow-path).
	Paths []string
	// Env are the environment variables a task may read (--allow-env): names, or patterns
	// with * (APP_*, or * for all). A pattern never matches a name that looks secret
	// (SecretEnv): such a variable is allowed only by its own name.
	Env []string
	// LinkLocal lets origins and HTTP conditions reach link-local and cloud-metadata hosts
	// (--allow-link-local).
	LinkLocal bool
}

// envPattern is an environment variable's name, or a pattern of names with *.
var envPattern = regexp.MustCompile(`^[A-Za-z_*][A-Za-z0-9_*]*$`)

// Check says what is wrong with a Trust the user gives: a folder that is not an absolute
// path, or a variable that is neither a name nor a pattern of names.
func (t Trust) Check() error {
	for _, p := range t.Paths {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("allowed folder %q: give an absolute path", p)
		}
	}
	for _, e := range t.Env {
		if !envPattern.MatchString(e) {
			return fmt.Errorf("allowed environment variable %q: give a name (TRACKER_URL) or a pattern (TRACKER_*)", e)
		}
	}
	return nil
}

// Flags that widen Trust, as errors name them.
const (
	FlagAllowPath      = "--allow-path"
	FlagAllowEnv       = "--allow-env"
	FlagAllowLinkLocal = "--allow-link-local"
)

// secretEnv matches environment variable names that look like they hold credentials.
var secretEnv = regexp.MustCompile(`(?i)(^|_)(KEYS?|SECRETS?|TOKENS?|PASS|PASSWD|PWD|PW|CREDENTIALS?|AUTH|PRIVATE|SESSION|COOKIE|DSN)($|_)|PASSWORD|SECRET|TOKEN|APIKEY|API_KEY|^(AWS|AZURE|GCP|GOOGLE|GH|GITHUB|GITLAB|OPENAI|ANTHROPIC|NPM|DOCKER|SSH|GPG)_`)

// SecretEnv reports whether an environment variable's name looks like it holds a
// credential (*_KEY, *_SECRET, *_TOKEN, *PASSWORD*, AWS_*…): no pattern allows it.
func SecretEnv(name string) bool { return secretEnv.MatchString(name) }

// allowsEnv reports whether the user allowed the task to read the variable name.
func (t Trust) allowsEnv(name string) bool {
	for _, p := range t.Env {
		if p == name {
			return true
		}
		if strings.Contains(p, "*") && !SecretEnv(name) {
			if ok, err := path.Match(p, name); err == nil && ok {
				return true
			}
		}
	}
	return false
}

// guard is lookup reading only the variables the user allowed: any other is unset.
func (t Trust) guard(lookup func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if !t.allowsEnv(name) {
			return "", false
		}
		return lookup(name)
	}
}

// refusedEnv is the error for environment variables the user has not allowed.
func refusedEnv(names []string) error {
	var secret []string
	for _, n := range names {
		if SecretEnv(n) {
			secret = append(secret, n)
		}
	}
	why := ""
	if len(secret) > 0 {
		why = fmt.Sprintf(" (%s looks secret, so only its own name allows it)", strings.Join(secret, ", "))
	}
	flags := make([]string, len(names))
	for i, n := range names {
		flags[i] = FlagAllowEnv + " " + n
	}
	return fmt.Errorf("reads environment variable %s, which you have not allowed%s: a task file could send it anywhere its origins lead; to allow it, run with %s, or add it to allow_env in your settings",
		strings.Join(names, ", "), why, strings.Join(flags, " "))
}

// scope is where the paths a task file in dir names may be.
func (t Trust) scope(dir string) confine.Scope {
	return confine.Scope{Home: dir, Allowed: t.Paths}
}

// refusedPath is the reason for a path outside the scope.
func refusedPath(err error) string {
	return fmt.Sprintf("%v; a task file names files in its own folder only: to allow another folder, run with %s DIR, or add it to allow_paths in your settings", err, FlagAllowPath)
}

// checkHost refuses a URL (or origin) on a link-local or metadata host unless the user
// allowed them.
func (t Trust) checkHost(u *url.URL) error {
	if t.LinkLocal {
		return nil
	}
	if why := netguard.LinkLocal(u.Hostname()); why != "" {
		return fmt.Errorf("%s is %s, where cloud machines serve their credentials; to allow it, run with %s, or set allow_link_local in your settings", u.Redacted(), why, FlagAllowLinkLocal)
	}
	return nil
}

// expand replaces the ${NAME} references in s, read at field at as the file loads: each
// variable must be allowed and set, and its value is kept among the task's secrets.
func (b *builder) expand(at, s string) (string, error) {
	names, err := oracle.EnvRefs(s)
	if err != nil {
		return "", errAt(at, "%v", err)
	}
	var refused []string
	for _, n := range names {
		if !b.opts.Trust.allowsEnv(n) && !slices.Contains(refused, n) {
			refused = append(refused, n)
		}
	}
	if len(refused) > 0 && !b.opts.judgeOnly {
		return "", errAt(at, "%v", refusedEnv(refused))
	}
	expanded, err := oracle.Expand(s, b.opts.LookupEnv)
	if err != nil {
		return "", errAt(at, "%v", err)
	}
	for _, n := range names {
		if v, _ := b.opts.LookupEnv(n); v != "" && !slices.Contains(b.s.loaded, v) {
			b.s.loaded = append(b.s.loaded, v)
		}
	}
	return expanded, nil
}

// confined resolves a path the task file names at field at, to a real path inside the task
// file's folder or one the user allowed (Trust.Paths), or refuses it naming the flag that
// would allow it. Judging a recorded run reads no file, so there it is only joined.
func (b *builder) confined(at, p string) (string, error) {
	if b.opts.judgeOnly {
		return b.file(p), nil
	}
	real, err := b.opts.Trust.scope(b.dir).Path(p)
	if err != nil {
		return "", errAt(at, "%s", refusedPath(err))
	}
	return real, nil
}
