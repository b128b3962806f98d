package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

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

const v2DefsLong = "Hooks V2 definitions (what to do on a lifecycle event), as the v2/definitions/* requests:\n" +
	"list [--event NAME], get ID, create --file def.json (the definition object, docs/protocol.md §5),\n" +
	"update ID --file patch.json (present keys replace, null removes an optional key), delete ID\n" +
	"(its bindings go too; its runs stay), upsert --file def.json (create, or replace the stored\n" +
	"definition with that id: what a host seeding its definitions at start-up calls; outcome\n" +
	"created, updated or unchanged; enabled, when omitted, keeps the stored value).\n" +
	"A problem in the file is reported at file:line:col. list and get create nothing: without a\n" +
	"home or database they show no records.\n\n" +
	"Errors carry the protocol's codes (-32602 invalid params with the field, -32013 not found,\n" +
	"-32016 conflict, -32014 database unavailable); --json prints {\"error\": {code, message, data}}.\n" +
	"Exit status: 0 ok, 1 error (conflict), 2 usage (invalid input), 3 not found, 4 database unavailable."

const v2BindsLong = "Hooks V2 bindings (where a definition applies: application, workspace, agent or session),\n" +
	"as the v2/bindings/* requests: list [--hook ID], get ID, create --hook ID --scope KIND [--scope-id ID]\n" +
	"(enabled and authorized with the definition's current execution hash), update ID [--enabled=B]\n" +
	"[--authorize HASH] (re-authorize after the definition changed: needs_review -> active; HASH must be\n" +
	"the definition's current executionHash, as definitions get shows it, else the update is refused,\n" +
	"exit 1, and nothing changes), delete ID, upsert (the flags of create; an existing binding is\n" +
	"returned unchanged, neither re-enabled nor re-authorized; outcome created or unchanged).\n" +
	"list and get create nothing: without a home or database they show no records.\n\n" +
	"Errors carry the protocol's codes (-32602 invalid params with the field, -32013 not found,\n" +
	"-32016 conflict, -32014 database unavailable); --json prints {\"error\": {code, message, data}}.\n" +
	"Exit status: 0 ok, 1 error (conflict, a refused --authorize), 2 usage (invalid input), 3 not found,\n" +
	"4 database unavailable."

// v2Op is one definitions/bindings action: its command line and how it
// calls the bridge; result is printed as JSON with --json, else by text.
type v2Op struct {
	use, short string
	args       int  // positional arguments (the id)
	readOnly   bool // a missing home or database stays missing (v2bridge.Options.NoCreate)
	flags      func(cmd *cobra.Command)
	call       func(ctx context.Context, b *v2bridge.Bridge, args []string) (any, error)
	text       func(w io.Writer, result any)
	// hint, when set, is a line printed on stderr after a failure
	// (what to do next); "" prints nothing.
	hint func(err error) string
}

// v2OpCmd builds the command of op under group ("definitions", "bindings").
func v2OpCmd(group string, op v2Op, stdout, stderr io.Writer) *cobra.Command {
	var c v2Common
	cmd := &cobra.Command{Use: op.use, Short: op.short}
	c.register(cmd.Flags())
	if op.flags != nil {
		op.flags(cmd)
	}
	return setRun(cmd, func(args []string) int {
		prefix := "hookside v2 " + group + " " + cmd.Name()
		if len(args) != op.args {
			if op.args == 0 {
				fmt.Fprintf(stderr, "%s: unexpected argument %q\n", prefix, args[0])
			} else {
				fmt.Fprintf(stderr, "%s: want exactly one id\n", prefix)
			}
			return exitUsage
		}
		b, err := v2bridge.Open(v2bridge.Options{Home: c.homeDir(), Logger: quietV2Logger(stderr), NoPipeline: true, NoCreate: op.readOnly})
		if err != nil {
			return v2OpFail(stdout, stderr, prefix, c.json, err)
		}
		defer b.Close(0)
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
		if c.json || op.text == nil {
			writeJSON(stdout, res)
		} else {
			op.text(stdout, res)
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
		writeJSON(stdout, map[string]any{"error": map[string]any{"code": we.Code, "message": we.Message, "data": we.Data}})
	}
	fmt.Fprintf(stderr, "%s: %s [code %d]\n", prefix, we.Message, we.Code)
	problemLines(stderr, err)
	return v2ExitFor(err)
}

func v2DefinitionsCmd(stdout, stderr io.Writer) *cobra.Command {
	var event, file string
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
			res, err := call(ctx, b, f.raw, a)
			return res, f.locate(err, doc)
		}
	}
	ops := []v2Op{
		{use: "list", short: "list definitions (of one lifecycle event)", readOnly: true,
			flags: func(cmd *cobra.Command) {
				cmd.Flags().StringVar(&event, "event", "", "only definitions of this lifecycle event `NAME`")
				_ = cmd.RegisterFlagCompletionFunc("event", fixedValues(expr.Events()...))
			},
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) {
				return b.ListDefinitions(ctx, event)
			},
			text: func(w io.Writer, r any) { printDefinitions(w, r.(v2bridge.ListDefinitionsResult).Definitions) }},
		{use: "get ID", short: "show one definition", args: 1, readOnly: true,
			call: func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
				return b.GetDefinition(ctx, a[0])
			},
			text: func(w io.Writer, r any) { printDefinition(w, r.(v2bridge.DefinitionResult).Definition) }},
		{use: "create", short: "validate and store a definition (revision 1; id generated unless given)",
			flags: fileFlag("the definition"),
			call: withFile("definition", func(ctx context.Context, b *v2bridge.Bridge, raw json.RawMessage, _ []string) (any, error) {
				return b.CreateDefinition(ctx, raw)
			}),
			text: func(w io.Writer, r any) {
				d := r.(v2bridge.DefinitionResult).Definition
				fmt.Fprintf(w, "created %s (revision %d); bind it: hookside v2 bindings create --hook %s --scope application\n", d.ID, d.Revision, runner.ShellWord(d.ID))
			}},
		{use: "update ID", short: "change a definition (present keys replace, null removes)", args: 1,
			flags: fileFlag("the patch"),
			call: withFile("patch", func(ctx context.Context, b *v2bridge.Bridge, raw json.RawMessage, a []string) (any, error) {
				return b.UpdateDefinition(ctx, a[0], raw)
			}),
			text: func(w io.Writer, r any) {
				u := r.(v2bridge.UpdateDefinitionResult)
				fmt.Fprintf(w, "updated %s (revision %d)\n", u.Definition.ID, u.Definition.Revision)
				printNeedReview(w, u.BindingsNeedingReview, u.Definition.ExecutionHash)
			}},
		{use: "upsert", short: "create the definition, or replace the stored one with its id (outcome created, updated or unchanged)",
			flags: fileFlag("the definition (its id required)"),
			call: withFile("definition", func(ctx context.Context, b *v2bridge.Bridge, raw json.RawMessage, _ []string) (any, error) {
				return b.UpsertDefinition(ctx, raw)
			}),
			text: func(w io.Writer, r any) {
				u := r.(v2bridge.UpsertDefinitionResult)
				fmt.Fprintf(w, "%s %s (revision %d)\n", u.Outcome, u.Definition.ID, u.Definition.Revision)
				printNeedReview(w, u.BindingsNeedingReview, u.Definition.ExecutionHash)
			}},
		{use: "delete ID", short: "delete a definition (its bindings too; its runs stay)", args: 1,
			call: func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
				return b.DeleteDefinition(ctx, a[0])
			},
			text: func(w io.Writer, r any) {
				d := r.(v2bridge.DeleteDefinitionResult)
				fmt.Fprintf(w, "deleted; %d binding(s) deleted, %d run(s) kept\n", d.BindingsDeleted, d.RunsRetained)
			}},
	}
	return v2OpGroup("definitions", "list, show, create, update, upsert or delete V2 definitions", v2DefsLong, ops, stdout, stderr)
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
		{use: "list", short: "list bindings (of one definition), application → workspace → agent → session", readOnly: true,
			flags: func(cmd *cobra.Command) {
				cmd.Flags().StringVar(&hookID, "hook", "", "only bindings of this definition `ID`")
			},
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) {
				bs, err := b.ListBindings(ctx, hookID)
				return map[string]any{"bindings": bs}, err
			},
			text: func(w io.Writer, r any) { printBindings(w, r.(map[string]any)["bindings"].([]v2bridge.BindingView)) }},
		{use: "get ID", short: "show one binding", args: 1, readOnly: true,
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
			flags: scopeFlags,
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) {
				return b.CreateBinding(ctx, hookID, scope, scopeID)
			},
			text: func(w io.Writer, r any) {
				bd := r.(v2bridge.BindingView)
				fmt.Fprintf(w, "created binding %s: %s at %s %s (%s)\n", bd.ID, bd.HookID, bd.ScopeKind, bd.ScopeID, bd.State)
			}},
		{use: "upsert", short: "bind a definition to a scope unless it is bound there (outcome created or unchanged)",
			flags: scopeFlags,
			call: func(ctx context.Context, b *v2bridge.Bridge, _ []string) (any, error) {
				return b.UpsertBinding(ctx, hookID, scope, scopeID)
			},
			text: func(w io.Writer, r any) {
				u := r.(v2bridge.UpsertBindingResult)
				bd := u.Binding
				fmt.Fprintf(w, "%s binding %s: %s at %s %s (%s)\n", u.Outcome, bd.ID, bd.HookID, bd.ScopeKind, bd.ScopeID, bd.State)
			}},
		{use: "update ID", short: "enable, disable or re-authorize a binding", args: 1,
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
			call: func(ctx context.Context, b *v2bridge.Bridge, a []string) (any, error) {
				if err := b.DeleteBinding(ctx, a[0]); err != nil {
					return nil, err
				}
				return map[string]bool{"deleted": true}, nil
			},
			text: func(w io.Writer, _ any) { fmt.Fprintln(w, "deleted") }},
	}
	return v2OpGroup("bindings", "list, show, create, update, upsert or delete V2 bindings", v2BindsLong, ops, stdout, stderr)
}

// printNeedReview says that n bindings lost their trust to an executing
// change and how to re-authorize them.
func printNeedReview(w io.Writer, n int, hash string) {
	if n > 0 {
		fmt.Fprintf(w, "%d binding(s) need review: the action changed; re-authorize with hookside v2 bindings update ID --authorize %s\n", n, hash)
	}
}

func v2OpGroup(name, short, long string, ops []v2Op, stdout, stderr io.Writer) *cobra.Command {
	subs := make([]*cobra.Command, len(ops))
	for i, op := range ops {
		subs[i] = v2OpCmd(name, op, stdout, stderr)
		subs[i].Long = long
	}
	return groupCmd(name, short, long, stdout, stderr, subs...)
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
	_ = json.Unmarshal(raw, &a)
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
