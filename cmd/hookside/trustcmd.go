package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookside/hookside/runner"
)

// trustAction is one action of `hooks trust` (a subcommand): its help and
// the flags that apply to it.
type trustAction struct {
	name, short string
	// selects: takes --digest and --all (grant, revoke); bundle: takes
	// --bundle-digest (grant --all); sel is its usage line's selection.
	selects, bundle bool
	sel             string
	// all is its --all flag's help.
	all string
	// exit is added to each exit status's trustExits text for it ("" =
	// nothing more); writes: it writes the trust store, so 3 applies.
	exit   [4]string
	writes bool
}

// trustExits are the exit statuses of the actions (the parent's
// trustExitHelp sums them up).
var trustExits = [4]string{"done", "error", "usage", "trust store corrupt: nothing is written, the file is moved aside (checked after the command's own arguments: a refusal with 1 or 2 leaves it in place)"}

// trustActions are the actions of `hooks trust`, in the order they are
// listed.
var trustActions = []trustAction{
	{name: "status", short: "list every workspace hook declaration with its trust state",
		exit: [4]string{0: "; also with a corrupt trust store: status only reports it and leaves the file in place"}},
	{name: "review", short: "on a terminal, pick declarations to trust by number; otherwise print what to run",
		exit: [4]string{2: "; also the input ended after an answer that is not a selection (nothing granted)",
			3: ", and no grant command is printed"}, writes: true},
	{name: "grant", short: "trust --digest D (repeatable) or --all; --bundle-digest B (from status) refuses a workspace that changed since",
		selects: true, bundle: true, sel: "{--digest D… [--bundle-digest B] | --all --bundle-digest B}", all: "every declaration (needs --bundle-digest)",
		exit: [4]string{1: "; also a D that names no declaration, a --bundle-digest B when the workspace changed since status showed it, or a script that changed while review showed it",
			2: "; also neither --digest nor --all, --all or a list number without --bundle-digest, a malformed D, or a malformed B (not 64 hex characters)"}, writes: true},
	{name: "revoke", short: "delete the trust records of --digest D (repeatable) or --all",
		selects: true, sel: "{--digest D… | --all}", all: "every trust record of the workspace",
		exit: [4]string{1: "; also a named digest had no trust record (the others are revoked)",
			2: "; also neither --digest nor --all, or a malformed D"}, writes: true},
}

// The parts of the help texts the parent and its actions share.
const (
	trustDigestHelp = "D is a list number from status (1, 2, …), a full digest (64 hex characters, as status prints it),\n" +
		"or a unique prefix of one of at least 6 hex characters; a D with white space, a sign or a leading\n" +
		"zero, or a malformed digest (not hex, or longer than 64 characters), is a usage error."
	trustUnpinnedHelp  = "A granted declaration with unpinned words (status and review list them: words pinning could not\nfollow) gets a warning line on stderr naming them, as what they run can change without the trust\ngoing stale."
	trustBundleHelp    = "--bundle-digest B (status and review print it) covers every workspace file, declaration and pinned\nscript: with it, grant trusts exactly what was shown, or nothing when anything changed since; a list\nnumber needs it, as numbers follow the workspace as it is now. Without it a digest grants the\ndeclaration with its scripts as they are at the grant. A malformed B (not 64 hex characters: empty,\nwhite space, a prefix, a non-hex character) is a usage error; a well-formed B that is not the\nworkspace's now is an error."
	trustWorkspaceHelp = "The workspace is --cwd DIR (as the other hooks commands) or --workspace PATH|IDENTITY (the same,\n" +
		"also taking a workspace identity local:|remote:|ssh:|container:|wsl:…); default the current directory.\n" +
		"--workspace PATH --cwd DIR, DIR inside PATH, acts on PATH's trust records as a session opened in DIR\n" +
		"under that workspace resolves them (pins are resolved at the session directory): the review command a\n" +
		"session in a subdirectory prints (trustNotice.reviewCommand) has this form."
	trustRunCwdHelp = "--profile claude --run-cwd DIR reviews as a claude-profile run whose input cwd is DIR (inside the\n" +
		"workspace) is admitted: the pins are resolved there, and a grant adds that directory's pin set to each\n" +
		"record, keeping the others; the review command of such a run's trustNotice has this form."
	trustExitHelp = "Exit status: 0 done, 1 error, 2 usage, 3 trust store corrupt (grant, revoke and review, once their own checks\n" +
		"pass: the file is moved aside, nothing is written; status only reports it, exit 0);\n" +
		"revoke exits 1 when a named digest had no record."
)

// trustJSONHelp is the --json flag's help of each action ("" = the parent,
// which runs status): the shape it prints.
var trustJSONHelp = map[string]string{
	"":       "print JSON: status's {workspaceId, policy, storeStatus, bundleDigest, counts, declarations, rootSwitch, diagnostics}, counts by state over every declaration listed",
	"status": "print JSON: {workspaceId, policy, storeStatus, bundleDigest, counts, declarations, rootSwitch, diagnostics}, counts by state over every declaration listed",
	"review": "print JSON: status's {workspaceId, policy, storeStatus, bundleDigest, counts, declarations, rootSwitch, diagnostics}; asks nothing",
	"grant":  "print JSON: {trusted, counts, rootSwitch}, counts by state over every declaration after the grant",
	"revoke": "print JSON: {revoked, unknown}",
}

// trustLong is the parent's help: the actions, then what they share.
func trustLong() string {
	var b strings.Builder
	b.WriteString("Review and grant workspace (project) hooks. Without an action: status.\n\n")
	for _, a := range trustActions {
		fmt.Fprintf(&b, "  %-8s %s\n", a.name, a.short)
	}
	b.WriteString("\n" + trustDigestHelp + "\n" + trustWorkspaceHelp + "\n" + trustRunCwdHelp + "\n" + trustExitHelp + "\n")
	b.WriteString("Each action's own flags and exit statuses: hookside hooks trust <action> --help.")
	return b.String()
}

// long is a's help: what it does, the parent's paragraphs that apply to
// it, and its exit statuses, one a line.
func (a trustAction) long() string {
	var b strings.Builder
	b.WriteString(strings.ToUpper(a.short[:1]) + a.short[1:] + ".\n\n")
	if a.selects {
		b.WriteString(trustDigestHelp + "\n")
	}
	if a.bundle {
		b.WriteString(trustBundleHelp + "\n" + trustUnpinnedHelp + "\n")
	}
	b.WriteString(trustWorkspaceHelp + "\n")
	if a.name != "revoke" {
		b.WriteString(trustRunCwdHelp + "\n")
	}
	b.WriteString("\nExit status:")
	for code, text := range trustExits {
		if code == exitCorrupt && !a.writes {
			break
		}
		fmt.Fprintf(&b, "\n  %d  %s%s", code, text, a.exit[code])
	}
	return b.String()
}

// trustCmd is `hookside hooks trust`: status without an action, and one
// subcommand per action, each with the flags that apply to it.
func trustCmd(stdout, stderr io.Writer) *cobra.Command {
	parent := trustActionCmd(trustAction{}, stdout, stderr)
	parent.Annotations[annSubWord] = "action"
	for _, a := range trustActions {
		parent.AddCommand(trustActionCmd(a, stdout, stderr))
	}
	return parent
}

// trustOptions are the flags of `hooks trust`.
type trustOptions struct {
	workspace, cwd, projectConfig string
	runCwd                        string
	digests                       multiFlag
	all, asJSON, hooksEnabled     bool
	bundle, homeDir, userConfig   string
	policy                        string
	sf                            sessionFlags
	flags                         *pflag.FlagSet
	// prefix is the command path its messages begin with ("hookside
	// hooks trust grant"; "hookside hooks trust" without an action).
	prefix string
}

// trustActionCmd is the command of action a (the zero trustAction = the
// parent: status, or the action named by an unknown first argument,
// refused; it takes every flag, as it always did).
func trustActionCmd(a trustAction, stdout, stderr io.Writer) *cobra.Command {
	var o trustOptions
	cmd := &cobra.Command{
		Use:   "trust [status|review|grant|revoke]",
		Short: "review and grant workspace hooks (status, review, grant, revoke)",
		Long:  trustLong(),
		Args:  cobra.ArbitraryArgs,
		// A flag error under --json prints the error object too (execute).
		Annotations: map[string]string{annJSONErrors: jsonErrorsMessage},
	}
	selects, bundle, all, sel := true, true, "every declaration (grant needs --bundle-digest)", "[--digest D]… [--all --bundle-digest B]"
	if a.name != "" {
		cmd.Use, cmd.Short, cmd.Long = a.name, a.short, a.long()
		selects, bundle, all, sel = a.selects, a.bundle, a.all, a.sel
	}
	fs := cmd.Flags()
	fs.StringVar(&o.cwd, "cwd", "", "the workspace `DIR` (default the current directory); with a different --workspace PATH, the session directory inside it")
	fs.StringVar(&o.workspace, "workspace", "", "workspace `PATH` or identity local:|remote:|ssh:|container:|wsl:… (default the current directory; --cwd for a directory)")
	if a.name != "revoke" {
		fs.StringVar(&o.runCwd, "run-cwd", "", runCwdHelp)
	}
	fs.StringVar(&o.projectConfig, "project-config", "", "an extra project config `FILE`, added to workspace discovery (as hooks run --project-config and session/open.projectConfigPath)")
	if selects {
		fs.Var(&o.digests, "digest", "declaration `D`: list number, digest or unique digest prefix (repeatable)")
		fs.BoolVar(&o.all, "all", false, all)
	}
	if bundle {
		fs.StringVar(&o.bundle, "bundle-digest", "", "the bundle digest `B` status or review printed: the grant is refused if the workspace (its files, declarations or scripts) changed since; needed by --all and by a list number")
	}
	fs.BoolVar(&o.asJSON, "json", false, trustJSONHelp[a.name])
	fs.StringVar(&o.homeDir, "home", "", "hookside home `DIR` (default $HOOKSIDE_HOME or ~/.hookside)")
	fs.StringVar(&o.userConfig, "user-config", "", "user config `FILE` (default <home>/config.json)")
	fs.StringVar(&o.policy, "policy", "user_decides", "workspace hook `POLICY`: user_decides, deny or allow_trusted_only")
	fs.BoolVar(&o.hooksEnabled, "hooks-enabled", false, "turn the root switch on (as hooks.enabled: true; also $"+runner.EnvHooksEnabled+"=1)")
	o.sf.registerProfile(fs)
	// The usage line: the workspace as one choice, the selection as the
	// action takes it (trustAction.sel).
	flagUse(fs, "cwd", "[--cwd DIR|--workspace PATH|IDENTITY|--workspace PATH --cwd DIR]")
	flagUse(fs, "workspace", "-")
	if selects {
		flagUse(fs, "digest", sel)
		flagUse(fs, "all", "-")
	}
	if bundle {
		flagUse(fs, "bundle-digest", "-")
	}
	completeSession(cmd)
	return setRun(cmd, func(args []string) int {
		// Every message begins with cmd's path (runTrustAction).
		return messageJSONErrors(cmd, o.asJSON, stdout, stderr, func(stdout, stderr io.Writer) int {
			return runTrustAction(cmd, a.name, args, &o, fs, stdout, stderr)
		})
	})
}

// runTrustAction runs action ("" = the one args name, default status).
func runTrustAction(cmd *cobra.Command, action string, args []string, o *trustOptions, fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	act := action
	if act == "" {
		act = "status"
		if len(args) > 0 {
			name := args[0]
			if name == "help" && len(args) == 1 {
				_ = cmd.Help()
				return exitOK
			}
			if name == "help" { // help ACTION: the action's own help
				name = args[1]
				for _, sub := range cmd.Commands() {
					if sub.Name() == name {
						sub.InitDefaultHelpFlag() // as ACTION --help lists it
						_ = sub.Help()
						return exitOK
					}
				}
			}
			fmt.Fprintln(stderr, unknownCommandError{cmd, name}.Error())
			return exitUsage
		}
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", cmd.CommandPath(), args[0])
		return exitUsage
	}
	o.flags, o.prefix = fs, cmd.CommandPath()
	return runHooksTrust(act, o, stdout, stderr)
}
