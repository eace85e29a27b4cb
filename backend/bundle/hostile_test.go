package bundle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"observatory/backend/runfile"
)

// without is entries minus the one named name.
func without(entries []entry, name string) []entry {
	return slices.DeleteFunc(slices.Clone(entries), func(e entry) bool { return e.name == name })
}

// runJSON is testRun's run file after edit, written directly as JSON because the encoder
// refuses to write a file the decoder would refuse.
// runJSON is the run file of testRun with one attempt's video renamed, written as JSON text
// (EncodeFile would refuse the hostile name).
func runJSON(t *testing.T, video string) entry {
	t.Helper()
	var buf bytes.Buffer
	if err := runfile.EncodeFile(&buf, runfile.New(testRun(), t0)); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	doc["attempts"].([]any)[0].(map[string]any)["video"] = video
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return entry{name: RunFile, data: string(b)}
}

func TestHostileBundlesAreRefusedWithoutWritingAnything(t *testing.T) {
	good := entriesOf(t, goodBundle(t))
	const shot = "media/frame-1.jpg"
	many := slices.Clone(good)
	for i := len(many); i <= MaxEntries; i++ {
		many = append(many, entry{name: fmt.Sprintf("media/%d.jpg", i)})
	}
	// Tiny entries with long names: a central directory over 4 MiB, refused before parsing.
	var crowd []entry
	for i := range 32000 {
		crowd = append(crowd, entry{name: fmt.Sprintf("media/%0100d", i)})
	}
	var huge []entry
	for i := range 5 {
		huge = append(huge, entry{name: fmt.Sprintf("media/%d.jpg", i), data: "x", declared: 250 << 20})
	}
	zipped := func(entries ...entry) []byte { return buildZip(t, entries...) }
	cases := []struct {
		name string
		data []byte
		size int64 // 0 means len(data)
		want string
	}{
		{"zip slip", zipped(append(good, entry{name: "../x", data: "evil"})...), 0, `entry "../x": a ".." segment escapes`},
		{"zip slip inside media", zipped(append(good, entry{name: "media/../../x", data: "evil"})...), 0, `entry "media/../../x": a ".." segment escapes`},
		{"absolute path", zipped(append(good, entry{name: "/etc/x", data: "evil"})...), 0, `entry "/etc/x": an absolute path`},
		{"backslash", zipped(append(good, entry{name: `media\..\x`, data: "evil"})...), 0, `entry "media\\..\\x": the name contains a backslash`},
		{"drive letter", zipped(append(good, entry{name: "C:/x", data: "evil"})...), 0, `entry "C:/x": a drive letter`},
		{"symlink", zipped(append(without(good, shot), entry{name: shot, data: "/etc/passwd", mode: fs.ModeSymlink | 0o777})...), 0,
			`entry "media/frame-1.jpg": a symbolic link`},
		{"other folder", zipped(append(good, entry{name: "other/"})...), 0, `entry "other/": a folder`},
		{"too many entries", zipped(many...), 0, "2001 entries, over the limit of 2000"},
		{"huge directory", zipped(crowd...), 0, "the archive's directory is over 4 MiB: too many entries"},
		{"oversize entry", zipped(append(good, entry{name: "media/big.jpg", data: "x", declared: 300 << 20})...), 0,
			`entry "media/big.jpg": 314572800 bytes uncompressed, over the 256 MiB limit`},
		{"oversize DOM snapshot", zipped(append(without(good, "media/"+domName), entry{name: "media/" + domName, data: "x", declared: 3 << 20})...), 0,
			`entry "media/` + domName + `": 3145728 bytes uncompressed: a DOM snapshot is at most 2 MiB`},
		{"DOM snapshot changed after it was recorded", zipped(append(without(good, "media/"+domName), entry{name: "media/" + domName, data: "<p>forged</p>"})...), 0,
			`entry "media/` + domName + `": its content does not match its name`},
		{"header lies about the size", zipped(append(without(good, shot), entry{name: shot, data: strings.Repeat("x", 4096), declared: 4})...), 0,
			`entry "media/frame-1.jpg": its data does not match its header`},
		{"total too big", zipped(append(good, huge...)...), 0, `entry "media/4.jpg": the entries hold more than 1024 MiB`},
		{"duplicate entry", zipped(append(good, entry{name: shot, data: "again"})...), 0, `entry "media/frame-1.jpg": a duplicate`},
		{"duplicate ignoring case", zipped(append(good, entry{name: "media/FRAME-1.jpg", data: "again"})...), 0,
			`entry "media/FRAME-1.jpg": a duplicate`},
		{"unreferenced media", zipped(append(good, entry{name: "media/extra.jpg", data: "extra"})...), 0,
			`entry "media/extra.jpg": the run file names no such media`},
		{"hidden media", zipped(append(good, entry{name: "media/.hidden", data: "x"})...), 0, `entry "media/.hidden": unexpected entry`},
		{"nested media", zipped(append(good, entry{name: "media/sub/x.jpg", data: "x"})...), 0, `entry "media/sub/x.jpg": unexpected entry`},
		{"stray file", zipped(append(good, entry{name: "notes.txt", data: "x"})...), 0, `entry "notes.txt": unexpected entry`},
		{"missing run.json", zipped(without(good, RunFile)...), 0, "no run.json entry"},
		{"oversize run.json", zipped(append(without(good, RunFile), entry{name: RunFile, data: "{}", declared: 9 << 20})...), 0,
			`entry "run.json": 9437184 bytes, over the 8 MiB limit of a run file`},
		{"run.json runfile refuses", zipped(append(without(good, RunFile), entry{name: RunFile, data: `{"schema": "observatory.run/v9"}`})...), 0,
			`run file refused at schema: unknown schema version "observatory.run/v9"`},
		{"run.json names an escaping video", zipped(append(without(good, RunFile), runJSON(t, "../../x.webm"))...), 0,
			`media name "../../x.webm" is not a plain file name`},
		{"run.json names a script-capable media file", zipped(append(without(good, RunFile), runJSON(t, "evil.svg"))...), 0,
			`media name "evil.svg" is not a plain file name`},
		{"run.json names an HTML media file", zipped(append(without(good, RunFile), runJSON(t, "page.html"))...), 0,
			`media name "page.html" is not a plain file name`},
		{"not a zip", []byte("hello, world"), 0, "not a zip archive"},
		{"archive too large", goodBundle(t), MaxBundleBytes + 1, "over the 512 MiB limit"},
	}
	messages := map[string]string{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, saver := t.TempDir(), &fakeSaver{}
			size := c.size
			if size == 0 {
				size = int64(len(c.data))
			}
			_, err := Import(context.Background(), findFake, saver, root, "hostile.zip", bytes.NewReader(c.data), size)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Import error = %v\nwant one containing %q", err, c.want)
			}
			var bundleErr *Error
			var runErr *runfile.Error
			if !errors.As(err, &bundleErr) && !errors.As(err, &runErr) {
				t.Errorf("error %v is neither a *bundle.Error nor a *runfile.Error", err)
			}
			if len(saver.saved) != 0 {
				t.Errorf("a refused bundle saved %d runs", len(saver.saved))
			}
			if got := tree(t, root); len(got) != 0 {
				t.Errorf("a refused bundle wrote %q", got)
			}
			if other, dup := messages[err.Error()]; dup {
				t.Errorf("same message as case %q: %v", other, err)
			}
			messages[err.Error()] = c.name
		})
	}
}
