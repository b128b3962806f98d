package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
)

// completionFiles maps each shell `hookside completion` knows to the file
// name the archives ship its script under (completions/…).
var completionFiles = map[string]string{
	"bash":       "hookside.bash",
	"zsh":        "hookside.zsh",
	"fish":       "hookside.fish",
	"powershell": "hookside.ps1",
}

// genDocs runs hostBin, this machine's hookside of the release ("" = build
// one with the release's stamp into a temporary directory), and writes from
// it, below dir: completions/hookside.{bash,zsh,fish,ps1}
// (`hookside completion <shell>`) and man/man1/hookside*.1 (`hookside man`,
// dated from the commit time through SOURCE_DATE_EPOCH). It returns the
// archive entries for them (writeArchive sorts them with the others).
func genDocs(rel release, dir, hostBin string) ([]entry, error) {
	tmp, err := os.MkdirTemp("", "hookside-dist-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := hostBin
	if bin == "" {
		if bin, err = build(rel, tmp, runtime.GOOS, runtime.GOARCH); err != nil {
			return nil, fmt.Errorf("the binary that writes the completions and man pages: %w", err)
		}
	}
	env := append(cleanEnv(), "SOURCE_DATE_EPOCH="+strconv.FormatInt(rel.Epoch, 10), "HOOKSIDE_HOME="+filepath.Join(tmp, "home"))
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	compDir, manDir := filepath.Join(dir, "completions"), filepath.Join(dir, "man", "man1")
	for _, d := range []string{compDir, manDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	entries := []entry{{name: "completions/", dir: true}, {name: "man/", dir: true}, {name: "man/man1/", dir: true}}
	for sh, name := range completionFiles {
		cmd := exec.Command(bin, "completion", sh)
		cmd.Env = env
		b, err := cmd.Output()
		if err != nil || len(b) == 0 {
			return nil, fmt.Errorf("hookside completion %s: %v", sh, err)
		}
		p := filepath.Join(compDir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
		entries = append(entries, entry{name: "completions/" + name, src: p, mode: 0o644})
	}
	cmd := exec.Command(bin, "man", "--dir", manDir)
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("hookside man: %v\n%s", err, b)
	}
	pages, err := filepath.Glob(filepath.Join(manDir, "*.1"))
	if err != nil || len(pages) == 0 {
		return nil, fmt.Errorf("hookside man wrote no page into %s (%v)", manDir, err)
	}
	for _, p := range pages {
		entries = append(entries, entry{name: "man/man1/" + filepath.Base(p), src: p, mode: 0o644})
	}
	return entries, nil
}
