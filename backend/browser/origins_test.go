package browser

import "testing"

func TestOutsideMatchesEveryURLBeyondTheOrigin(t *testing.T) {
	re := outside("http://127.0.0.1:4197")
	for url, want := range map[string]bool{
		"http://127.0.0.1:4197":              false,
		"http://127.0.0.1:4197/":             false,
		"http://127.0.0.1:4197/api?x=1":      false,
		"http://127.0.0.1:4197?x":            false,
		"http://127.0.0.1:4197#top":          false,
		"http://127.0.0.1:41977/":            true,
		"http://127.0.0.1:419/":              true,
		"http://127.0.0.1:4198/":             true,
		"https://127.0.0.1:4197/":            true,
		"http://127.0.0.1:4197.evil.example": true,
		"http://evil.example/":               true,
		"http":                               true,
		"":                                   true,
		"data:text/plain,x":                  true,
	} {
		if got := re.MatchString(url); got != want {
			t.Errorf("outside matches %q = %v, want %v", url, got, want)
		}
	}
}
