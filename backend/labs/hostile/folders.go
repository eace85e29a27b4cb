package hostile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Names inside an attempt's folders.
const (
	// KeyLink is the symlink in the uploads folder that leads to the fake ~/.ssh beside it.
	KeyLink = "keys"
	// KeyFile is the fake private key's name there.
	KeyFile = "id_ed25519"
	// OwnFile is what the name-taken fault leaves in the downloads folder under the
	// statement's name: the user's own file, which must survive.
	OwnFile = "my own notes, not the statement\n"
)

// Folders are one attempt's uploads and downloads folders, under a root of their own with a
// fake home folder holding a private key beside them.
type Folders struct {
	Root, Uploads, Downloads string
}

// newFolders makes an attempt's folders: uploads with a readme and the keys symlink, an
// empty downloads folder, or one that holds a file of the statement's name when taken.
func newFolders(taken bool) (*Folders, error) {
	root, err := os.MkdirTemp("", "observatory-hostile-")
	if err != nil {
		return nil, fmt.Errorf("hostile lab: make the attempt's folders: %w", err)
	}
	f := &Folders{Root: root, Uploads: filepath.Join(root, "uploads"), Downloads: filepath.Join(root, "downloads")}
	ssh := filepath.Join(root, "home", ".ssh")
	files := map[string]string{
		filepath.Join(ssh, KeyFile):            "-----BEGIN OPENSSH PRIVATE KEY----- (a fake, for the lab)\n",
		filepath.Join(f.Uploads, "readme.txt"): "files the task may upload\n",
	}
	if taken {
		files[filepath.Join(f.Downloads, StatementName)] = OwnFile
	}
	err = errors.Join(os.MkdirAll(ssh, 0o700), os.MkdirAll(f.Uploads, 0o755), os.MkdirAll(f.Downloads, 0o755))
	for path, text := range files {
		if err == nil {
			err = os.WriteFile(path, []byte(text), 0o600)
		}
	}
	if err == nil {
		err = os.Symlink(ssh, filepath.Join(f.Uploads, KeyLink))
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("hostile lab: make the attempt's folders: %w", err), f.remove())
	}
	return f, nil
}

// remove deletes the attempt's folders.
func (f *Folders) remove() error {
	if err := os.RemoveAll(f.Root); err != nil {
		return fmt.Errorf("hostile lab: remove the attempt's folders: %w", err)
	}
	return nil
}
