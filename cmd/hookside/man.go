package main

import (
	"embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// manCmd is `hookside man --dir DIR`: the man pages of every command
// (hookside.1, hookside-hooks-run.1, …), generated from the same command
// tree as --help and the shell completions. The pages carry a month and
// year: SOURCE_DATE_EPOCH (seconds since 1970, the reproducible-builds
// convention) when set, else the current time; `make dist` sets it to the
// commit time, so release pages do not change between builds.
func manCmd(root *cobra.Command, stdout, stderr io.Writer) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "man",
		Short: "write the man pages of every command (section 1) into DIR",
		Long: "Write the man pages of every command (hookside.1, hookside-hooks-run.1, …; section 1) into DIR,\n" +
			"generated from the same definitions as --help and the shell completions. The date in the pages\n" +
			"is SOURCE_DATE_EPOCH (seconds since 1970) when set, else today. Release archives ship them in\n" +
			"man/man1/.",
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the `DIR` to write the pages into (created if missing; required)")
	flagRequired(cmd.Flags(), "dir")
	_ = cmd.MarkFlagDirname("dir")
	return setRun(cmd, func(args []string) int {
		if noArgs(cmd, args, stderr) {
			return exitUsage
		}
		if dir == "" {
			fmt.Fprintln(stderr, "hookside man: --dir is required")
			return exitUsage
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(stderr, "hookside man:", err)
			return exitError
		}
		date, err := manDate()
		if err != nil {
			fmt.Fprintln(stderr, "hookside man:", err)
			return exitError
		}
		if err := writeManTree(root, dir, date); err != nil {
			fmt.Fprintln(stderr, "hookside man:", err)
			return exitError
		}
		fmt.Fprintf(stdout, "man pages written to %s\n", dir)
		return exitOK
	})
}

// manDate is the pages' date: SOURCE_DATE_EPOCH when set, else now.
func manDate() (time.Time, error) {
	if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		n, err := strconv.ParseInt(epoch, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("invalid SOURCE_DATE_EPOCH: %v", err)
		}
		return time.Unix(n, 0), nil
	}
	return time.Now(), nil
}

// writeManTree writes the page of c and of every command below it into
// dir as <command-path-with-dashes>.1, each with its own header (its own
// title, e.g. HOOKSIDE-HOOKS-RUN(1)).
func writeManTree(c *cobra.Command, dir string, date time.Time) error {
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := writeManTree(sub, dir, date); err != nil {
			return err
		}
	}
	name := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
	page, err := manPage(c, name, date)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), page, 0o666)
}

// The pages are rendered ahead of time (cobra/doc's Markdown → roff
// generator, by `make generate`; TestManPagesEmbedded fails when they no
// longer match the command tree), so the binary does not link the Markdown
// renderer, whose package initialisation every start of hookside would
// otherwise pay. They are stored with manDateMark and manSourceMark in their
// .TH line, filled in when written.
//
//go:embed manpages/*.1
var manPages embed.FS

const (
	manDateMark   = "Jan 1970"
	manSourceMark = "hookside VERSION"
)

// manPage returns the page called name of command c, dated date (the
// test swaps in the generator itself to compare).
var manPage = func(c *cobra.Command, name string, date time.Time) ([]byte, error) {
	b, err := manPages.ReadFile("manpages/" + name)
	if err != nil {
		return nil, fmt.Errorf("no man page of %q in this build", c.CommandPath())
	}
	mark := `"` + manDateMark + `" "` + manSourceMark + `"`
	header, rest, ok := strings.Cut(string(b), "\n.TH ")
	line, body, _ := strings.Cut(rest, "\n")
	if !ok || !strings.Contains(line, mark) {
		return nil, fmt.Errorf("man page %s has no .TH line to date", name)
	}
	// The version is semver ([0-9A-Za-z.+-]): nothing in it is Markdown or
	// roff markup, so it stands as the generator would write it.
	line = strings.Replace(line, mark, `"`+date.Format("Jan 2006")+`" "hookside `+version+`"`, 1)
	return []byte(header + "\n.TH " + line + "\n" + body), nil
}
