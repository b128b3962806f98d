package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// nodePlatform maps GOOS/GOARCH to Node's process.platform/process.arch,
// the names the platform packages and the runtime resolver use.
func nodePlatform(goos, goarch string) (string, string) {
	p, a := goos, goarch
	if goos == "windows" {
		p = "win32"
	}
	if goarch == "amd64" {
		a = "x64"
	}
	return p, a
}

// PlatformPackage is the npm name of a target's binary package.
func PlatformPackage(goos, goarch string) string {
	p, a := nodePlatform(goos, goarch)
	return "@hookside/" + p + "-" + a
}

// writePlatformPackage writes npm/<platform>-<arch>/ with package.json,
// LICENSE and bin/<binary>: no scripts, no dependencies, os and cpu set so
// npm installs it only on its own platform.
func writePlatformPackage(rel release, out, goos, goarch, bin string) (string, error) {
	p, a := nodePlatform(goos, goarch)
	name := PlatformPackage(goos, goarch)
	dir := filepath.Join(out, "npm", p+"-"+a)
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return "", err
	}
	pkg := map[string]any{
		"name":            name,
		"version":         rel.Version,
		"description":     fmt.Sprintf("The hookside binary for %s/%s (installed by the hookside package).", goos, goarch),
		"license":         "Apache-2.0",
		"os":              []string{p},
		"cpu":             []string{a},
		"files":           []string{"bin/"},
		"preferUnplugged": true,
	}
	if err := writeJSON(filepath.Join(dir, "package.json"), pkg); err != nil {
		return "", err
	}
	if err := copyFile(filepath.Join(rel.Root, "LICENSE"), filepath.Join(dir, "LICENSE"), 0o644); err != nil {
		return "", err
	}
	if err := copyFile(bin, filepath.Join(dir, "bin", filepath.Base(bin)), 0o755); err != nil {
		return "", err
	}
	return name, nil
}

// stageMainPackage copies the main package (package.json, README.md,
// LICENSE and the compiled lib/) to npm/hookside, with the release version
// and optionalDependencies on exactly the platform packages of targets (the
// ones this run built: all six for a release).
func stageMainPackage(rel release, out, src string, targets []string) error {
	if _, err := os.Stat(filepath.Join(src, "lib", "index.js")); err != nil {
		return fmt.Errorf("npm main package %s: lib/index.js missing (run make npm-build): %w", src, err)
	}
	raw, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		return err
	}
	var pkg map[string]any
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return fmt.Errorf("%s/package.json: %w", src, err)
	}
	pkg["version"] = rel.Version
	opt := map[string]any{}
	for _, t := range targets {
		goos, goarch, _ := strings.Cut(t, "/")
		opt[PlatformPackage(goos, goarch)] = rel.Version
	}
	pkg["optionalDependencies"] = opt
	delete(pkg, "devDependencies")
	delete(pkg, "scripts")
	dst := filepath.Join(out, "npm", "hookside")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(dst, "package.json"), pkg); err != nil {
		return err
	}
	for _, f := range []string{"README.md", "LICENSE"} {
		from := filepath.Join(src, f)
		if f == "LICENSE" {
			from = filepath.Join(rel.Root, "LICENSE")
		}
		if err := copyFile(from, filepath.Join(dst, f), 0o644); err != nil {
			return err
		}
	}
	libSrc := filepath.Join(src, "lib")
	var files []string
	err = filepath.WalkDir(libSrc, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	for _, p := range files {
		r, _ := filepath.Rel(src, p)
		if err := copyFile(p, filepath.Join(dst, r), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("  npm hookside %s (%d files in lib/)\n", rel.Version, len(files))
	return nil
}

// writeJSON writes v as indented JSON, with <, > and & as themselves:
// package.json's "engines": {"node": ">=18"} stays readable (json.Marshal
// would write \u003e=18).
func writeJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func copyFile(src, dst string, mode os.FileMode) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, mode)
}
