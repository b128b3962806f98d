package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
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
		Use:   "man --dir DIR",
		Short: "write the man pages of every command (section 1) into DIR",
		Long: "Write the man pages of every command (hookside.1, hookside-hooks-run.1, …; section 1) into DIR,\n" +
			"generated from the same definitions as --help and the shell completions. The date in the pages\n" +
			"is SOURCE_DATE_EPOCH (seconds since 1970) when set, else today. Release archives ship them in\n" +
			"man/man1/.",
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the `DIR` to write the pages into (created if missing; required)")
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
		manText(root)
		if err := writeManTree(root, dir); err != nil {
			fmt.Fprintln(stderr, "hookside man:", err)
			return exitError
		}
		fmt.Fprintf(stdout, "man pages written to %s\n", dir)
		return exitOK
	})
}

// manEscape makes --help text literal Markdown, which the man page
// generator renders: <home>, user_decides, `…` and […] stay as written.
var manEscape = strings.NewReplacer(`\`, `\\`, "<", `\<`, ">", `\>`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`)

// manText rewrites the help texts of the tree for the man page generator
// (this process only writes the pages, then exits): Markdown characters are
// escaped and every line of a description ends in a hard line break, so
// the pages keep the lines and indented lists of --help.
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

// writeManTree writes the page of c and of every command below it into
// dir as <command-path-with-dashes>.1, each with its own header (its own
// title, e.g. HOOKSIDE-HOOKS-RUN(1)): doc.GenManTree shares one header
// across the tree and so titles every page after the first one it writes.
func writeManTree(c *cobra.Command, dir string) error {
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := writeManTree(sub, dir); err != nil {
			return err
		}
	}
	hdr := &doc.GenManHeader{Section: "1", Source: "hookside " + version, Manual: "hookside manual"}
	f, err := os.Create(filepath.Join(dir, strings.ReplaceAll(c.CommandPath(), " ", "-")+".1"))
	if err != nil {
		return err
	}
	if err := doc.GenMan(c, hdr, f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
