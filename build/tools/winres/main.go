// Command winres writes the Windows resources of observatory.exe — its icon, its application
// manifest and its version information — into a .syso object file that `go build` links in
// when it lies in the main package's folder. It does what `wails build` does for Windows, from
// the same files: build/windows/icon.ico, wails.exe.manifest and info.json, whose {{.Name}}
// and {{.Info.…}} placeholders are filled from wails.json.
//
//	go run -C build/tools ./winres -root ../.. -version 1.2.3 -o ../../rsrc_windows_amd64.syso
//
// -version replaces wails.json's productVersion; Windows wants up to four numbers, so a
// pre-release suffix ("1.2.3-dev.4+g5678") is dropped there (the full version is in the binary).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"text/template"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// project is the part of wails.json the templates use.
type project struct {
	Name           string `json:"name"`
	OutputFilename string `json:"outputfilename"`
	Info           struct {
		CompanyName    string `json:"companyName"`
		ProductName    string `json:"productName"`
		ProductVersion string `json:"productVersion"`
		Copyright      string `json:"copyright"`
		Comments       string `json:"comments"`
	} `json:"info"`
}

func main() {
	root := flag.String("root", ".", "the repository root")
	ver := flag.String("version", "", "the version to record (default: wails.json's productVersion)")
	arch := flag.String("arch", "amd64", "the target architecture: amd64 or arm64")
	out := flag.String("o", "rsrc_windows_amd64.syso", "the .syso file to write")
	flag.Parse()
	if err := run(*root, *ver, *arch, *out); err != nil {
		log.Fatalf("winres: %v", err)
	}
}

func run(root, ver, arch, out string) error {
	targets := map[string]winres.Arch{"amd64": winres.ArchAMD64, "arm64": winres.ArchARM64}
	target, ok := targets[arch]
	if !ok {
		return fmt.Errorf("unsupported architecture %q", arch)
	}
	var p project
	raw, err := os.ReadFile(filepath.Join(root, "wails.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("wails.json: %w", err)
	}
	if ver != "" {
		p.Info.ProductVersion = ver
	}
	numeric := regexp.MustCompile(`^\d+(\.\d+){0,3}`).FindString(p.Info.ProductVersion)
	if numeric == "" {
		return fmt.Errorf("version %q does not start with a number", p.Info.ProductVersion)
	}
	p.Info.ProductVersion = numeric

	dir := filepath.Join(root, "build", "windows")
	var rs winres.ResourceSet
	icoFile, err := os.Open(filepath.Join(dir, "icon.ico"))
	if err != nil {
		return err
	}
	defer icoFile.Close()
	ico, err := winres.LoadICO(icoFile)
	if err != nil {
		return fmt.Errorf("icon.ico: %w", err)
	}
	if err := rs.SetIcon(winres.RT_ICON, ico); err != nil {
		return err
	}

	manifest, err := fill(filepath.Join(dir, "wails.exe.manifest"), p)
	if err != nil {
		return err
	}
	m, err := winres.AppManifestFromXML(manifest)
	if err != nil {
		return fmt.Errorf("wails.exe.manifest: %w", err)
	}
	rs.SetManifest(m)

	info, err := fill(filepath.Join(dir, "info.json"), p)
	if err != nil {
		return err
	}
	var vi version.Info
	if err := vi.UnmarshalJSON(info); err != nil {
		return fmt.Errorf("info.json: %w", err)
	}
	rs.SetVersionInfo(vi)

	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := rs.WriteObject(f, target); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fill reads the template at path and executes it with the project's settings.
func fill(path string, p project) ([]byte, error) {
	tmpl, err := template.ParseFiles(path)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
