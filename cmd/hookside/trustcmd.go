package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookside/hookside/runner"
)

// trustActions are the actions of `hooks trust`, each also a subcommand.
var trustActions = []string{"status", "review", "grant", "revoke"}

const trustLong = "Review and grant workspace (project) hooks. Without an action: status.\n\n" +
	"  status   list every workspace hook declaration with its trust state\n" +
	"  review   on a terminal, pick declarations to trust by number; otherwise print what to run\n" +
	"  grant    trust --digest D (repeatable), or --all with the --bundle-digest shown by status\n" +
	"  revoke   delete the trust records of --digest D (repeatable) or --all\n\n" +
	"D is a list number from status, a full digest, or a unique prefix of at least 6 hex characters.\n" +
	"The workspace is --cwd DIR (as the other hooks commands) or --workspace PATH|IDENTITY (the same,\n" +
	"also taking a workspace identity local:|remote:|ssh:|container:|wsl:…); default the current directory.\n" +
	"Exit status: 0 done, 1 error, 2 usage, 3 trust store corrupt (grant, revoke and review: nothing is written;\n" +
	"status only reports it, exit 0); revoke exits 1 when a named digest had no record."

const trustUse = "[--cwd DIR|--workspace PATH|IDENTITY] [--project-config FILE] [--digest D]… [--all --bundle-digest B] [--json]"

// trustCmd is `hookside hooks trust`: status without an action, and one
// subcommand per action, all taking the same flags.
func trustCmd(stdout, stderr io.Writer) *cobra.Command {
	parent := trustActionCmd("", stdout, stderr)
	for _, a := range trustActions {
		parent.AddCommand(trustActionCmd(a, stdout, stderr))
	}
	return parent
}

// trustOptions are the flags of `hooks trust`.
type trustOptions struct {
	workspace, cwd, projectConfig string
	digests                       multiFlag
	all, asJSON, hooksEnabled     bool
	bundle, homeDir, userConfig   string
	policy                        string
	sf                            sessionFlags
	flags                         *pflag.FlagSet
}

// trustActionCmd is the command of one action ("" = the parent: status,
// or the action named by an unknown first argument, refused).
func trustActionCmd(action string, stdout, stderr io.Writer) *cobra.Command {
	var o trustOptions
	cmd := &cobra.Command{
		Use:   "trust [status|review|grant|revoke] " + trustUse,
		Short: "review and grant workspace hooks (status, review, grant, revoke)",
		Long:  trustLong,
		Args:  cobra.ArbitraryArgs,
	}
	if action != "" {
		cmd.Use = action + " " + trustUse
		cmd.Short = map[string]string{
			"status": "list every workspace hook declaration with its trust state",
			"review": "on a terminal, pick declarations to trust by number; otherwise print what to run",
			"grant":  "trust --digest D (repeatable), or --all with the --bundle-digest shown by status",
			"revoke": "delete the trust records of --digest D (repeatable) or --all",
		}[action]
	}
	fs := cmd.Flags()
	fs.StringVar(&o.cwd, "cwd", "", "the workspace `DIR` (default the current directory)")
	fs.StringVar(&o.workspace, "workspace", "", "workspace `PATH` or identity local:|remote:|ssh:|container:|wsl:… (default the current directory; --cwd for a directory)")
	fs.StringVar(&o.projectConfig, "project-config", "", "an extra project config `FILE`, added to workspace discovery (as hooks run --project-config and session/open.projectConfigPath)")
	fs.Var(&o.digests, "digest", "declaration `D`: list number, digest or unique digest prefix (repeatable)")
	fs.BoolVar(&o.all, "all", false, "every declaration (grant needs --bundle-digest)")
	fs.StringVar(&o.bundle, "bundle-digest", "", "the bundle digest `B` status printed; grant --all is refused if the workspace changed since")
	fs.BoolVar(&o.asJSON, "json", false, "machine-readable output")
	fs.StringVar(&o.homeDir, "home", "", "hookside home `DIR` (default $HOOKSIDE_HOME or ~/.hookside)")
	fs.StringVar(&o.userConfig, "user-config", "", "user config `FILE` (default <home>/config.json)")
	fs.StringVar(&o.policy, "policy", "user_decides", "workspace hook `POLICY`: user_decides, deny or allow_trusted_only")
	fs.BoolVar(&o.hooksEnabled, "hooks-enabled", false, "turn the root switch on (as hooks.enabled: true; also $"+runner.EnvHooksEnabled+"=1)")
	o.sf.registerProfile(fs)
	completeSession(cmd)
	return setRun(cmd, func(args []string) int {
		if o.asJSON {
			return trustJSONErrors(stdout, stderr, func(stdout, stderr io.Writer) int { return runTrustAction(cmd, action, args, &o, fs, stdout, stderr) })
		}
		return runTrustAction(cmd, action, args, &o, fs, stdout, stderr)
	})
}

// runTrustAction runs action ("" = the one args name, default status).
func runTrustAction(cmd *cobra.Command, action string, args []string, o *trustOptions, fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	act := action
	if act == "" {
		act = "status"
		if len(args) > 0 {
			if args[0] == "help" {
				_ = cmd.Help()
				return exitOK
			}
			fmt.Fprintf(stderr, "hookside hooks trust: unknown action %q (want status, review, grant or revoke)\n", args[0])
			return exitUsage
		}
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "hookside hooks trust: unexpected argument %q\n", args[0])
		return exitUsage
	}
	o.flags = fs
	return runHooksTrust(act, o, stdout, stderr)
}

// trustPrefix is the "hookside hooks trust[ ACTION]: " of its messages,
// compiled on first use (only a failing `hooks trust --json` needs it).
var trustPrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*hookside hooks trust(?: (?:status|review|grant|revoke))?: `)
})

// trustJSONErrors runs run for `hooks trust … --json`: a failure (exit
// status other than 0) that printed no result on stdout prints
// {"error": {"message"}} there, the message being what it wrote on stderr
// without the command's prefix, as the v2 commands print their errors.
// stderr gets the message as without --json.
func trustJSONErrors(stdout, stderr io.Writer, run func(stdout, stderr io.Writer) int) int {
	out := &countWriter{w: stdout}
	var msg bytes.Buffer
	code := run(out, io.MultiWriter(stderr, &msg))
	if code != exitOK && out.n == 0 {
		text := strings.TrimSpace(trustPrefix().ReplaceAllString(msg.String(), ""))
		writeJSON(stdout, map[string]any{"error": map[string]any{"message": text}})
	}
	return code
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}
