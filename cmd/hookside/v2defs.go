package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonhtml"
	"github.com/hookside/hookside/rpc"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/v2bridge"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// `hookside v2 definitions|bindings list|get|create|update|upsert|delete` call
// the v2bridge methods the v2/definitions/* and v2/bindings/* requests call
// (docs/protocol.md §5), on <home>/hookside.db, and fail with the same
// error codes. Exit status as every v2 command: 0 ok, 1 error (a conflict),
// 2 usage (invalid input), 3 not found, 4 database unavailable.

// v2Op is one definitions, bindings or runs action: its command line and how it
// calls the bridge; result is printed as JSON with --json, else by text.
type v2Op struct {
	use, short string
	// about is what it does and takes, out what it prints (text and
	// --json), exit what it adds to each of v2Exits (3 is listed only when
	// its exit[3] names what is not found): its own help (v2Op.long).
	about, out string
	exit       [5]string
	args       int  // positional arguments (the id)
	noCreate   bool // a missing home or database stays missing (v2bridge.Options.NoCreate): reads, and changes only to records that must exist
	offline    bool // needs no database: call gets a nil bridge (validate)
	flags      func(cmd *cobra.Command)
	call       func(ctx context.Context, b *v2bridge.Bridge, args []string) (any, error)
	text       func(w io.Writer, result any)
	// hint, when set, is a line printed on stderr after a failure
	// (what to do next); "" prints nothing.
	hint func(err error) string
	// warnings, when set, are the warnings of a result, each printed on
	// stderr as "PREFIX: warning: PATH: MESSAGE (FILE:LINE:COL)", --json
	// or not (the result carries them too).
	warnings func(result any) []locatedProblem
	// status, when set, is the exit status of a result (else exitOK).
	status func(result any) int
}

// v2OpCmd builds the command of op under g.
func v2OpCmd(g v2Group, op v2Op, stdout, stderr io.Writer) *cobra.Command {
	var c v2Common
	cmd := &cobra.Command{Use: op.use, Short: op.short, Long: op.long(g.errorsHelp()),
		// A flag error under --json prints the error object too (execute).
		Annotations: map[string]string{annJSONErrors: jsonErrorsV2}}
	c.register(cmd.Flags())
	if op.offline {
		// Taken, as by every v2 command, so that scripts can pass it
		// uniformly; not listed: the command reads no home.
		_ = cmd.Flags().MarkHidden("home")
	}
	if op.flags != nil {
		op.flags(cmd)
	}
	return setRun(cmd, func(args []string) int {
		prefix := "hookside v2 " + g.name + " " + cmd.Name()
		if len(args) != op.args {
			field, msg := "id", fmt.Sprintf("want exactly one %s id", strings.TrimSuffix(g.name, "s"))
			if op.args == 0 {
				field, msg = "", fmt.Sprintf("unexpected argument %q", args[0])
			}
			return v2UsageFail(stdout, stderr, prefix, c.json, field, msg)
		}
		var b *v2bridge.Bridge
		if !op.offline {
			var err error
			b, err = v2bridge.Open(v2bridge.Options{Home: c.homeDir(), Logger: quietV2Logger(stderr), NoPipeline: true, NoCreate: op.noCreate})
			if err != nil {
				return v2OpFail(stdout, stderr, prefix, c.json, err)
			}
			defer b.Close(0)
		}
		res, err := op.call(context.Background(), b, args)
		if err != nil {
			code := v2OpFail(stdout, stderr, prefix, c.json, err)
			if op.hint != nil {
				if h := op.hint(err); h != "" {
					fmt.Fprintf(stderr, "%s: %s\n", prefix, h)
				}
			}
			return code
		}
		if op.warnings != nil {
			for _, w := range op.warnings(res) {
				fmt.Fprintf(stderr, "%s: warning: %s\n", prefix, w.line())
			}
		}
		if c.json || op.text == nil {
			writeJSON(stdout, res)
		} else {
			op.text(stdout, res)
		}
		if op.status != nil {
			return op.status(res)
		}
		return exitOK
	})
}

// v2OpFail prints err with its protocol code (and, with --json, the error
// object on stdout) and returns v2Fail's exit status.
func v2OpFail(stdout, stderr io.Writer, prefix string, asJSON bool, err error) int {
	we := rpc.V2WireError(err)
	rpc.LogV2Detail(slog.Default(), err) // shown with -v
	if asJSON {
		writeV2JSONError(stdout, we.Code, we.Message, we.Data)
	}
	fmt.Fprintf(stderr, "%s: %s [code %d]\n", prefix, we.Message, we.Code)
	problemLines(stderr, err)
	return v2ExitFor(err)
}

// v2UsageFail prints the usage error msg (about field, "" for none) on
// stderr after prefix and, with --json, its error object on stdout
// (-32602, data {field, reason}); it returns exitUsage.
func v2UsageFail(stdout, stderr io.Writer, prefix string, asJSON bool, field, msg string) int {
	fmt.Fprintf(stderr, "%s: %s\n", prefix, msg)
	if asJSON {
		writeV2JSONError(stdout, rpc.CodeInvalidParams, msg, v2UsageData(field, msg))
	}
	return exitUsage
}

// writeV2JSONError prints {"error": {code, message, data}} on stdout, the
// error object of a failing v2 command under --json.
func writeV2JSONError(stdout io.Writer, code int64, message string, data any) {
	writeJSON(stdout, map[string]any{"error": map[string]any{"code": code, "message": message, "data": data}})
}

// writeV2FlagError prints the error object of a flag error cobra found
// before a v2 command ran (execute, annJSONErrors): -32602, message what
// stderr got without the command's prefix (msg), data {field, reason}: the
// flag as given ("--limit", "-x"; left out when err names none) and err's
// text.
func writeV2FlagError(stdout io.Writer, msg string, err error) {
	writeV2JSONError(stdout, rpc.CodeInvalidParams, msg, v2UsageData(flagOf(err), err.Error()))
}

// v2UsageData is the data of a usage error: {field, reason}, field left
// out when "".
func v2UsageData(field, reason string) map[string]string {
	if field == "" {
		return map[string]string{"reason": reason}
	}
	return map[string]string{"field": field, "reason": reason}
}

// flagOf is the flag a pflag parse error names, as given on the command
// line ("--name", "-n"); "" for another error.
func flagOf(err error) string {
	var ne *pflag.NotExistError
	var vr *pflag.ValueRequiredError
	var iv *pflag.InvalidValueError
	var is *pflag.InvalidSyntaxError
	switch {
	case errors.As(err, &ne):
		return dashed(ne.GetSpecifiedName(), ne.GetSpecifiedShortnames())
	case errors.As(err, &vr):
		return dashed(vr.GetSpecifiedName(), vr.GetSpecifiedShortnames())
	case errors.As(err, &iv):
		return "--" + iv.GetFlag().Name
	case errors.As(err, &is):
		return is.GetSpecifiedFlag()
	}
	return ""
}

// dashed is the flag name as given: -n within a group of shorthands, else --name.
func dashed(name, shorthands string) string {
	if shorthands != "" {
		return "-" + name
	}
	return "--" + name
}

func v2DefinitionsCmd(stdout, stderr io.Writer) *cobra.Command {
	var event, file string
	var read v2File // the --file withFile read, for the positions of warnings
	fileFlag := func(what string) func(*cobra.Command) {
		return func(cmd *cobra.Command) {
			cmd.Flags().StringVar(&file, "file", "", what+" `FILE` (JSON; - = stdin; required)")
			_ = cmd.MarkFlagFilename("file", "json")
			flagRequired(cmd.Flags(), "file")
		}
	}
	// withFile reads --file before call gets it.
	// An invalid field of it names its place in the file (v2File.locate):
	// the file is the definition (create, upsert) or the patch (update).
	withFile := func(doc string, call func(ctx context.Context, b *v2bridge.Bridge, raw json.RawMessage, args []string) (any, error)) func(context.Context, *v2bridge.Bridge, []string) (any, error) {
		return func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
			f, err := readV2File(file, "--file")
			if err != nil {
				var ie *v2bridge.InvalidError
				if !errors.As(err, &ie) {
					err = &v2bridge.InvalidError{Field: "--file", Reason: err.Error()}
				}
				return nil, err
			}
			read = f
			res, err := call(ctx, b, f.raw, a)
			return res, f.locate(err, doc)
		}
	}
	ops := []v2Op{
		{use: "list", short: "list definitions (of one lifecycle event)", noCreate: true,
			about: "Lists the stored definitions: all, or those of the lifecycle event --event NAME. It creates nothing: " +
				"without a home or database it lists none.",
			out:  "The text is a table (ID, EVENT, ACTION, ENABLED, REV, NAME); --json prints {definitions: [definition…]}.",
			exit: [5]string{2: "; also an unknown --event NAME"},
			flags: func(cmd *cobra.Command) {
				cmd.Flags().StringVar(&event, "event", "", "only definitions of this lifecycle event `NAME`")
				_ = cmd.RegisterFlagCompletionFunc("event", fixedValues(expr.Events()...))
			},
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) {
				return b.ListDefinitions(ctx, event)
			},
			text: func(w io.Writer, r any) { printDefinitions(w, r.(v2bridge.ListDefinitionsResult).Definitions) }},
		{use: "get ID", short: "show one definition", args: 1, noCreate: true,
			about: "Shows the definition ID as v2/definitions/get returns it, with its executionHash (what a binding is " +
				"authorized with). It creates nothing: without a home or database there is no definition to find.",
			out:  "The text is one field a line; --json prints {definition}.",
			exit: [5]string{3: ": no definition ID (also without a home or database)"},
			call: func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
				r, err := b.GetDefinition(ctx, a[0])
				return r, withNearDefinition(ctx, b, a[0], err)
			},
			hint: nearDefinitionHint,
			text: func(w io.Writer, r any) { printDefinition(w, r.(v2bridge.DefinitionResult).Definition) }},
		{use: "create", short: "validate and store a definition (revision 1; id generated unless given)",
			about: "Validates the definition in --file FILE (JSON, the definition object of v2/definitions/create; " +
				"stdin when FILE is -) and stores it: revision 1, its id generated unless it gives one, enabled unless it says " +
				"otherwise. A problem in the file is reported at file:line:col. Warnings (a member a definition does not " +
				"have, e.g. a misspelt one, which is ignored; a condition that can never match) do not stop it: each is " +
				"printed on stderr, \"warning: PATH: MESSAGE (file:line:col)\".",
			out: "The text names the id, the revision and the command that binds it (hookside v2 bindings create " +
				"--hook ID --scope application); --json prints {definition, warnings?}.",
			exit: [5]string{1: "; also a definition with that id exists (-32016 conflict: use update or upsert)",
				2: "; also a problem in the file (each at file:line:col) or no --file"},
			flags: fileFlag("the definition"),
			call: withFile("definition", func(ctx context.Context, b *v2bridge.Bridge, raw json.RawMessage, _ []string) (any, error) {
				return b.CreateDefinition(ctx, raw)
			}),
			warnings: func(r any) []locatedProblem { return read.locateProblems(r.(v2bridge.DefinitionResult).Warnings) },
			text: func(w io.Writer, r any) {
				d := r.(v2bridge.DefinitionResult).Definition
				fmt.Fprintf(w, "created %s (revision %d); bind it: hookside v2 bindings create --hook %s --scope application\n", d.ID, d.Revision, runner.ShellWord(d.ID))
			}},
		{use: "update ID", short: "change a definition (present keys replace, null removes)", args: 1,
			about: "Changes the definition ID by the patch in --file FILE (a JSON object; stdin when FILE is -): a key present " +
				"replaces the stored value, null removes an optional key; the id cannot change, revision, executionHash, " +
				"createdAt and updatedAt are ignored. A change of what it executes bumps the revision and puts its " +
				"bindings in needs_review until they are re-authorized (hookside v2 bindings update ID --authorize HASH). " +
				"A patch that changes nothing ({}, or the stored values) writes nothing (outcome unchanged); one of which " +
				"every member is one a definition does not have (a misspelling: {\"enabeld\": false}) is refused. " +
				"A problem in the patch is reported at file:line:col; warnings are printed on stderr, as create does.",
			out: "The text names the outcome (updated, or unchanged: the patch changes nothing), the revision and the " +
				"bindings that need review; --json prints {definition, outcome, bindingsNeedingReview, warnings?}.",
			exit: [5]string{2: "; also a problem in the patch (each at file:line:col), a patch of unknown members only, " +
				"or no --file", 3: ": no definition ID"},
			flags: fileFlag("the patch"),
			call: withFile("patch", func(ctx context.Context, b *v2bridge.Bridge, raw json.RawMessage, a []string) (any, error) {
				r, err := b.UpdateDefinition(ctx, a[0], raw)
				return r, withNearDefinition(ctx, b, a[0], err)
			}),
			hint:     nearDefinitionHint,
			warnings: func(r any) []locatedProblem { return read.locateProblems(r.(v2bridge.UpdateDefinitionResult).Warnings) },
			text: func(w io.Writer, r any) {
				u := r.(v2bridge.UpdateDefinitionResult)
				if u.Outcome == v2bridge.OutcomeUnchanged {
					fmt.Fprintf(w, "unchanged %s (revision %d): the patch changes nothing\n", u.Definition.ID, u.Definition.Revision)
					return
				}
				fmt.Fprintf(w, "updated %s (revision %d)\n", u.Definition.ID, u.Definition.Revision)
				printNeedReview(w, u.BindingsNeedingReview, u.Definition.ExecutionHash)
			}},
		{use: "upsert", short: "create the definition, or replace the stored one with its id (outcome created, updated or unchanged)",
			about: "Creates the definition in --file FILE (JSON; stdin when FILE is -; its id required), or replaces the stored " +
				"definition with that id by it: what a host seeding its definitions at start-up calls every time. The file " +
				"is the whole desired definition, not a patch: optional keys it omits are removed; enabled, when omitted, " +
				"keeps the stored value. The same content writes nothing (outcome unchanged); a change of what it executes " +
				"bumps the revision and puts its bindings in needs_review, as update does. A problem in the file is " +
				"reported at file:line:col; warnings are printed on stderr, as create does.",
			out: "The text names the outcome (created, updated or unchanged), the id and the revision; --json prints " +
				"{definition, outcome, bindingsNeedingReview, warnings?}.",
			exit:  [5]string{2: "; also a problem in the file (each at file:line:col), no id, or no --file"},
			flags: fileFlag("the definition (its id required)"),
			call: withFile("definition", func(ctx context.Context, b *v2bridge.Bridge, raw json.RawMessage, _ []string) (any, error) {
				return b.UpsertDefinition(ctx, raw)
			}),
			warnings: func(r any) []locatedProblem { return read.locateProblems(r.(v2bridge.UpsertDefinitionResult).Warnings) },
			text: func(w io.Writer, r any) {
				u := r.(v2bridge.UpsertDefinitionResult)
				fmt.Fprintf(w, "%s %s (revision %d)\n", u.Outcome, u.Definition.ID, u.Definition.Revision)
				printNeedReview(w, u.BindingsNeedingReview, u.Definition.ExecutionHash)
			}},
		{use: "validate", short: "check a definition without storing it (exit 2 when it is invalid)", offline: true,
			about: "Checks the definition in --file FILE (JSON, the definition object of v2/definitions/validate; stdin " +
				"when FILE is -) as v2/definitions/validate does, and stores nothing: it needs no home or database. " +
				"Errors are what create would refuse; warnings are accepted but probably not what was meant (a member a " +
				"definition does not have, e.g. a misspelt one, which is ignored; a condition that can never match).",
			out: "The text is one line a problem, \"error|warning: PATH: MESSAGE (file:line:col)\", then valid or " +
				"invalid; --json prints {valid, problems}, each problem {path, code, message, severity, at}.",
			exit:  [5]string{2: "; also the definition is invalid (an error among its problems), a file that is not JSON, or no --file"},
			flags: fileFlag("the definition"),
			call: withFile("definition", func(_ context.Context, _ *v2bridge.Bridge, raw json.RawMessage, _ []string) (any, error) {
				res, err := v2bridge.ValidateDefinition(raw)
				if err != nil {
					return nil, err
				}
				return validateOutput{Valid: res.Valid, Problems: read.locateProblems(res.Problems)}, nil
			}),
			status: func(r any) int {
				if !r.(validateOutput).Valid {
					return exitUsage
				}
				return exitOK
			},
			text: func(w io.Writer, r any) {
				v := r.(validateOutput)
				for _, p := range v.Problems {
					fmt.Fprintf(w, "%s: %s\n", p.Severity, p.line())
				}
				if v.Valid {
					fmt.Fprintln(w, "valid")
				} else {
					fmt.Fprintln(w, "invalid")
				}
			}},
		{use: "delete ID", short: "delete a definition (its bindings too; its runs stay)", args: 1,
			about: "Deletes the definition ID and every binding of it; its runs stay, with their history.",
			out:   "The text counts the bindings deleted and the runs kept; --json prints {bindingsDeleted, runsRetained}.",
			exit:  [5]string{3: ": no definition ID"},
			call: func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
				r, err := b.DeleteDefinition(ctx, a[0])
				return r, withNearDefinition(ctx, b, a[0], err)
			},
			hint: nearDefinitionHint,
			text: func(w io.Writer, r any) {
				d := r.(v2bridge.DeleteDefinitionResult)
				fmt.Fprintf(w, "deleted; %d binding(s) deleted, %d run(s) kept\n", d.BindingsDeleted, d.RunsRetained)
			}},
	}
	return v2OpGroup(v2Group{name: "definitions", short: "list, get, create, update, upsert, validate or delete V2 definitions",
		intro: "Hooks V2 definitions (what to do on a lifecycle event), as the v2/definitions/* requests (docs/protocol.md §5).",
		exit:  "Exit status: 0 ok, 1 error (conflict), 2 usage (invalid input), 3 not found, 4 database unavailable.",
		ops:   ops}, stdout, stderr)
}

func v2BindingsCmd(stdout, stderr io.Writer) *cobra.Command {
	var hookID, scope, scopeID, authorize string
	var enabled bool
	var enabledCmd *cobra.Command
	scopeFlags := func(cmd *cobra.Command) {
		cmd.Flags().StringVar(&hookID, "hook", "", "the definition `ID` (required)")
		cmd.Flags().StringVar(&scope, "scope", "", "the scope `KIND`: application, workspace, agent or session (required)")
		cmd.Flags().StringVar(&scopeID, "scope-id", "", "the workspace, agent or session `ID` (not for application)")
		flagRequired(cmd.Flags(), "hook")
		flagUse(cmd.Flags(), "scope", "--scope application|workspace|agent|session")
		_ = cmd.RegisterFlagCompletionFunc("scope", fixedValues(store.ScopeApplication, store.ScopeWorkspace, store.ScopeAgent, store.ScopeSession))
	}
	ops := []v2Op{
		{use: "list", short: "list bindings (of one definition), application → workspace → agent → session", noCreate: true,
			about: "Lists the bindings: all, or those of the definition --hook ID (none when no definition has that id), " +
				"application → workspace → agent → session. A binding of a definition also bound at a scope of higher " +
				"priority (session > agent > workspace > application) names those bindings in shadowedBy. It creates " +
				"nothing: without a home or database it lists none.",
			out: "The text is a table (ID, HOOK, SCOPE, SCOPE ID, ENABLED, STATE, SHADOWED BY); --json prints " +
				"{bindings: [binding…]}, each binding with its shadowedBy.",
			flags: func(cmd *cobra.Command) {
				cmd.Flags().StringVar(&hookID, "hook", "", "only bindings of this definition `ID`")
			},
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) {
				bs, err := b.ListBindings(ctx, hookID)
				return map[string]any{"bindings": bs}, err
			},
			text: func(w io.Writer, r any) { printBindings(w, r.(map[string]any)["bindings"].([]v2bridge.BindingView)) }},
		{use: "get ID", short: "show one binding", args: 1, noCreate: true,
			about: "Shows the binding ID as list shows it, with its state (active or needs_review) and shadowedBy. It " +
				"creates nothing: without a home or database there is no binding to find.",
			out:  "The text is a one-row table; --json prints {binding}.",
			exit: [5]string{3: ": no binding ID (also without a home or database)"},
			call: func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
				bd, err := b.GetBinding(ctx, a[0])
				if err != nil {
					return nil, err
				}
				return map[string]any{"binding": bd}, nil
			},
			text: func(w io.Writer, r any) {
				printBindings(w, []v2bridge.BindingView{r.(map[string]any)["binding"].(v2bridge.BindingView)})
			}},
		{use: "create", short: "bind a definition to a scope (enabled, authorized with its current hash)",
			about: "Binds the definition --hook ID to a scope: --scope application (everywhere), or workspace, agent or " +
				"session with --scope-id ID. The binding is enabled and authorized with the definition's current " +
				"executionHash.",
			out: "The text names the binding's id, its scope and its state; --json prints the binding.",
			exit: [5]string{1: "; also the definition is bound at that scope already (-32016 conflict: use update or upsert)",
				2: "; also no --hook, an unknown --scope, or no --scope-id for workspace, agent or session",
				3: ": no definition --hook ID"},
			flags: scopeFlags,
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) {
				bd, err := b.CreateBinding(ctx, hookID, scope, scopeID)
				return bd, withNearDefinition(ctx, b, hookID, onBindingFlag(err))
			},
			warnings: func(any) []locatedProblem { return scopeIDWarnings(scope, scopeID) },
			hint:     nearDefinitionHint,
			text: func(w io.Writer, r any) {
				bd := r.(v2bridge.BindingView)
				fmt.Fprintf(w, "created binding %s: %s at %s %s (%s)\n", bd.ID, bd.HookID, bd.ScopeKind, bd.ScopeID, bd.State)
			}},
		{use: "upsert", short: "bind a definition to a scope unless it is bound there (outcome created or unchanged)",
			about: "Binds the definition --hook ID to the scope (--scope, --scope-id) as create does, unless it is bound " +
				"there already: that binding is then returned as it is, neither re-enabled nor re-authorized (both are " +
				"the user's decisions).",
			out: "The text names the outcome (created or unchanged) and the binding; --json prints {binding, outcome}.",
			exit: [5]string{2: "; also no --hook, an unknown --scope, or no --scope-id for workspace, agent or session",
				3: ": no definition --hook ID"},
			flags: scopeFlags,
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) {
				u, err := b.UpsertBinding(ctx, hookID, scope, scopeID)
				return u, withNearDefinition(ctx, b, hookID, onBindingFlag(err))
			},
			warnings: func(any) []locatedProblem { return scopeIDWarnings(scope, scopeID) },
			hint:     nearDefinitionHint,
			text: func(w io.Writer, r any) {
				u := r.(v2bridge.UpsertBindingResult)
				bd := u.Binding
				fmt.Fprintf(w, "%s binding %s: %s at %s %s (%s)\n", u.Outcome, bd.ID, bd.HookID, bd.ScopeKind, bd.ScopeID, bd.State)
			}},
		{use: "update ID", short: "enable, disable or re-authorize a binding", args: 1,
			about: "Enables or disables the binding ID (--enabled=true|false) and/or re-authorizes it (--authorize HASH) " +
				"after its definition's action changed: needs_review becomes active. HASH must be the definition's " +
				"current executionHash, as hookside v2 definitions get ID shows it; another is refused and nothing " +
				"changes, --enabled included.",
			out: "The text names whether the binding is enabled and its state; --json prints the binding.",
			exit: [5]string{1: "; also a refused --authorize HASH (-32016; stderr names the command that shows the current hash)",
				2: "; also neither --enabled nor --authorize", 3: ": no binding ID"},
			flags: func(cmd *cobra.Command) {
				enabledCmd = cmd
				cmd.Flags().BoolVar(&enabled, "enabled", true, "enable (true) or disable (false) the binding")
				cmd.Flags().StringVar(&authorize, "authorize", "", "authorize the definition's current execution `HASH` (as definitions get shows it; another is refused)")
				flagUse(cmd.Flags(), "enabled", "[--enabled=true|false]")
			},
			call: func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
				var hash *string
				var enp *bool
				if enabledCmd.Flags().Changed("enabled") {
					enp = &enabled
				}
				if enabledCmd.Flags().Changed("authorize") {
					hash = &authorize
				}
				if enp == nil && hash == nil {
					return nil, &v2bridge.InvalidError{Field: "--enabled", Reason: "name --enabled=true|false and/or --authorize HASH"}
				}
				return b.UpdateBindingChecked(ctx, a[0], enp, hash)
			},
			hint: func(err error) string {
				var hm *v2bridge.HashMismatchError
				if !errors.As(err, &hm) {
					return ""
				}
				return "review the definition and its current executionHash: hookside v2 definitions get " + runner.ShellWord(hm.HookID)
			},
			text: func(w io.Writer, r any) {
				bd := r.(v2bridge.BindingView)
				fmt.Fprintf(w, "binding %s: enabled %v, %s\n", bd.ID, bd.Enabled, bd.State)
			}},
		{use: "delete ID", short: "delete a binding", args: 1,
			about: "Deletes the binding ID; its definition and its runs stay.",
			out:   "The text is deleted; --json prints {deleted: true}.",
			exit:  [5]string{3: ": no binding ID"},
			call: func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
				if err := b.DeleteBinding(ctx, a[0]); err != nil {
					return nil, err
				}
				return map[string]bool{"deleted": true}, nil
			},
			text: func(w io.Writer, _ any) { fmt.Fprintln(w, "deleted") }},
	}
	return v2OpGroup(v2Group{name: "bindings", short: "list, get, create, update, upsert or delete V2 bindings",
		intro: "Hooks V2 bindings (where a definition applies: application, workspace, agent or session), " +
			"as the v2/bindings/* requests (docs/protocol.md §5).",
		exit: "Exit status: 0 ok, 1 error (conflict, a refused --authorize), 2 usage (invalid input), 3 not found, " +
			"4 database unavailable.",
		ops: ops}, stdout, stderr)
}

// validateOutput is what `hookside v2 definitions validate` prints with
// --json: v2/definitions/validate's {valid, problems}, each problem with
// its position in the file (at).
type validateOutput struct {
	Valid    bool             `json:"valid"`
	Problems []locatedProblem `json:"problems"`
}

// printNeedReview says that n bindings lost their trust to an executing
// change and how to re-authorize them.
func printNeedReview(w io.Writer, n int, hash string) {
	if n > 0 {
		fmt.Fprintf(w, "%d binding(s) need review: the action changed; re-authorize with hookside v2 bindings update ID --authorize %s\n", n, hash)
	}
}

// v2OpGroup is g's command: one subcommand per op, each with its own help.
func v2OpGroup(g v2Group, stdout, stderr io.Writer) *cobra.Command {
	subs := make([]*cobra.Command, len(g.ops))
	for i, op := range g.ops {
		subs[i] = v2OpCmd(g, op, stdout, stderr)
	}
	return groupCmd(g.name, g.short, g.long(), stdout, stderr, subs...)
}

// newTable starts a column-aligned table on w (two spaces between
// columns) and writes its tab-separated header line; the caller writes
// the rows the same way and calls Flush.
func newTable(w io.Writer, header string) *tabwriter.Writer {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	return tw
}

func printDefinitions(w io.Writer, ds []store.Definition) {
	if len(ds) == 0 {
		fmt.Fprintln(w, "no definitions")
		return
	}
	tw := newTable(w, "ID\tEVENT\tACTION\tENABLED\tREV\tNAME")
	for _, d := range ds {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%v\t%d\t%s\n", dispText(d.ID), d.EventName, actionType(d.Action), d.Enabled, d.Revision, dispText(d.Name))
	}
	tw.Flush()
}

func printDefinition(w io.Writer, d store.Definition) {
	fmt.Fprintf(w, "id            %s\nname          %s\nevent         %s\nenabled       %v\nrevision      %d\nexecutionHash %s\ntimeoutMs     %d\nconcurrency   %s\n",
		dispText(d.ID), dispText(d.Name), d.EventName, d.Enabled, d.Revision, d.ExecutionHash, d.TimeoutMs, d.ConcurrencyPolicy)
	if d.Description != "" {
		fmt.Fprintf(w, "description   %s\n", dispText(d.Description))
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"condition", d.Condition}, {"action", d.Action}, {"inputMapping", d.InputMapping}, {"retryPolicy", d.RetryPolicy}} {
		if len(f.raw) > 0 && string(f.raw) != "null" && string(f.raw) != "{}" {
			fmt.Fprintf(w, "%-13s %s\n", f.name, dispText(string(jsonhtml.Unescape(f.raw))))
		}
	}
}

func actionType(raw json.RawMessage) string {
	var a struct {
		Type string `json:"type"`
	}
	_ = jsonexact.Unmarshal(raw, &a)
	return a.Type
}

func printBindings(w io.Writer, bs []v2bridge.BindingView) {
	if len(bs) == 0 {
		fmt.Fprintln(w, "no bindings")
		return
	}
	tw := newTable(w, "ID\tHOOK\tSCOPE\tSCOPE ID\tENABLED\tSTATE\tSHADOWED BY")
	for _, b := range bs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%s\t%s\n", b.ID, dispText(b.HookID), b.ScopeKind, dispText(b.ScopeID), b.Enabled, b.State, strings.Join(b.ShadowedBy, ","))
	}
	tw.Flush()
}

// scopeIDWarnings warns of a workspace binding whose --scope-id is a bare
// path: scope ids are compared exactly, and hosts name a local workspace by
// its identity, local:PATH (docs/protocol.md's examples, and the workspace
// ids of hookside hooks trust), so such a binding matches no event of
// theirs (v2 emit names it as a near miss when one comes).
func scopeIDWarnings(scope, scopeID string) []locatedProblem {
	if scope != store.ScopeWorkspace || !filepath.IsAbs(scopeID) {
		return nil
	}
	return []locatedProblem{{Problem: expr.Problem{Path: "--scope-id", Code: "scope_id_is_a_path", Severity: expr.SeverityWarning,
		Message: fmt.Sprintf("%q is a path: a binding matches an event whose workspace id is exactly its scope id, and hosts name a local workspace local:PATH (did you mean \"local:%s\"?)", scopeID, scopeID)}}}
}
