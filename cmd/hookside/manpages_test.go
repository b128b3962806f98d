package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
)

var updateMan = flag.Bool("update-man", false, "rewrite cmd/hookside/manpages from the command tree (make generate)")

// manEscape makes --help text literal Markdown, which the man page
// generator renders: <home>, user_decides, `…` and […] stay as written.
var manEscape = strings.NewReplacer(`\`, `\\`, "<", `\<`, ">", `\>`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`)

// manText rewrites the help texts of the tree for the man page generator:
// Markdown characters are escaped and every line of a description ends in
// a hard line break, so the pages keep the lines and indented lists of
// --help.
func manText(c *cobra.Command) {
	c.Short = manEscape.Replace(c.Short)
	if c.Long != "" {
		lines := strings.Split(manEscape.Replace(c.Long), "\n")
		for i, l := range lines {
			l = strings.TrimLeft(l, " ")
			lines[i] = l
			if strings.TrimSpace(l) != "" && i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
				lines[i] = l + "  "
			}
		}
		c.Long = strings.Join(lines, "\n")
	}
	for _, fs := range []*pflag.FlagSet{c.LocalNonPersistentFlags(), c.PersistentFlags()} {
		fs.VisitAll(func(f *pflag.Flag) { f.Usage = manEscape.Replace(strings.ReplaceAll(f.Usage, "`", "")) })
	}
	for _, sub := range c.Commands() {
		manText(sub)
	}
}

// generatedManPages runs `hookside man --dir` with the pages rendered by
// cobra/doc (GenMan: Markdown → roff) from the live command tree, each with
// its own header, dated date with source "hookside "+source, and returns
// them by file name.
func generatedManPages(t *testing.T, date time.Time, source string) map[string][]byte {
	t.Helper()
	saved, savedVersion := manPage, version
	defer func() { manPage, version = saved, savedVersion }()
	var once sync.Once
	manPage = func(c *cobra.Command, name string, _ time.Time) ([]byte, error) {
		once.Do(func() { manText(c.Root()) })
		var b bytes.Buffer
		d := date
		err := doc.GenMan(c, &doc.GenManHeader{Section: "1", Source: "hookside " + source, Manual: "hookside manual", Date: &d}, &b)
		return b.Bytes(), err
	}
	return runMan(t)
}

func runMan(t *testing.T) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if code, _, errs := runCLI("man", "--dir", dir); code != 0 {
		t.Fatalf("man: exit %d %s", code, errs)
	}
	return readPages(t, dir)
}

func readPages(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.1"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pages in %s: %v", dir, err)
	}
	pages := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages[filepath.Base(f)] = b
	}
	return pages
}

// TestManPagesEmbedded: the pages the binary ships (manpages/, written by
// `make generate`, i.e. this test with -update-man) are what cobra/doc
// renders from the current command tree, and `hookside man --dir` writes
// them byte for byte as the generator would with the real date and
// version. A help text changed without `make generate` fails here (and in
// `make check-generated`).
func TestManPagesEmbedded(t *testing.T) {
	marked := generatedManPages(t, time.Date(1970, 1, 15, 12, 0, 0, 0, time.Local), "VERSION")
	if *updateMan {
		if err := os.RemoveAll("manpages"); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll("manpages", 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range marked {
			if err := os.WriteFile(filepath.Join("manpages", name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %d pages into manpages/", len(marked))
	}
	embedded := readPages(t, "manpages")
	var names []string
	for name := range marked {
		names = append(names, name)
	}
	for name := range embedded {
		if marked[name] == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if !bytes.Equal(marked[name], embedded[name]) {
			t.Errorf("manpages/%s is not what the command tree renders (run make generate)", name)
		}
	}

	if *updateMan {
		// This binary embeds the pages as they were before the rewrite:
		// `hookside man` is compared with the generator by the next run
		// (make check-generated).
		return
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000") // 2023-11-14
	saved := version
	version = "0.1.0-dev+44284cb929c8"
	defer func() { version = saved }()
	shipped := runMan(t)
	want := generatedManPages(t, time.Unix(1700000000, 0), version)
	for _, name := range names {
		if !bytes.Equal(shipped[name], want[name]) {
			t.Errorf("hookside man wrote %s unlike the generator:\n%s\nwant\n%s", name, shipped[name], want[name])
		}
	}
	if len(shipped) != len(want) {
		t.Errorf("hookside man wrote %d pages, the generator %d", len(shipped), len(want))
	}
}
