package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/rpc"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/truststore"
	"github.com/hookside/hookside/truststore/pin"
	"github.com/mattn/go-isatty"
)

// exitCorrupt is `hooks trust`'s status when the trust store is corrupt and
// a write was refused (PROTOCOL.md §4).
const exitCorrupt = 3

// trustStatus is what `hooks trust status|review --json` prints: the
// result of workspaceHooks/status, with Counts over every declaration
// listed (listedCounts), plus the root switch.
type trustStatus struct {
	rpc.TrustStatus
	// RootSwitch is whether the root switch is on and what turns it on,
	// as `hooks list --json` gives it: off, every workspace hook listed
	// is switched off (offReason root_switch_off) whatever its trust.
	RootSwitch rootSwitch `json:"rootSwitch"`
	// Diagnostics are the workspace configuration files' load diagnostics
	// and the user config's errors ([] when none): a workspace file that
	// could not be read declares nothing here, and a user config that
	// could not be read applies none of its defaults (timeoutMs, the root
	// switch: offDetail says so) to what is shown and granted.
	Diagnostics []hook.Diagnostic `json:"diagnostics"`
	// MovedAside are the copies of the trust file found corrupt and renamed
	// (<file>.corrupt-<timestamp>, newest first; [] when none): grants made
	// before then are in them, not used until one is repaired and moved
	// back.
	MovedAside []truststore.MovedAside `json:"movedAside"`
	// trustFile is the trust file MovedAside are copies of.
	trustFile string
}

// listedCounts tallies evs (one per declaration listed) by trust state:
// every declaration, switched off or not, so the counts agree with the
// states listed and always add up to their number. (session/open and
// workspaceHooks/* count only the declarations that can run: those
// counts are what waits for trust, these what the CLI lists, reviews and
// grants with --all.) A state no declaration has is absent.
func listedCounts(evs []truststore.Evaluation) map[string]int { return truststore.Counts(evs) }

// stdinIsTTY is replaceable in tests.
var stdinIsTTY = func() bool { return isatty.IsTerminal(os.Stdin.Fd()) }

var stdinReader io.Reader = os.Stdin

func runHooksTrust(action string, o *trustOptions, stdout, stderr io.Writer) int {
	p := o.prefix
	digests := o.digests
	// --cwd alone names the workspace; with a different --workspace it is
	// the session directory inside it (checked once that is resolved).
	sessionDir := ""
	if o.cwd != "" {
		if o.workspace == "" || o.workspace == o.cwd {
			o.workspace = o.cwd
		} else {
			sessionDir = o.cwd
		}
	}
	if err := checkProfilePolicy(&o.sf, o.policy); err != nil {
		fmt.Fprintln(stderr, p+":", err)
		return exitUsage
	}
	if err := checkRunCwdFlag(o.runCwd, o.sf.profile); err != nil {
		fmt.Fprintln(stderr, p+":", err)
		return exitUsage
	}
	policy, _ := truststore.ParsePolicy(o.policy)
	var err error
	if o.all && len(digests) > 0 {
		fmt.Fprintln(stderr, p+": --all and --digest exclude each other")
		return exitUsage
	}
	if f := o.flags.Lookup("bundle-digest"); f != nil && f.Changed {
		// Malformed is a usage error, as a malformed --digest; a
		// well-formed one not the workspace's now is refused later (exit 1).
		if o.bundle, err = parseBundleDigest(o.bundle); err != nil {
			fmt.Fprintln(stderr, p+":", err)
			return exitUsage
		}
	}
	if action == "grant" && o.all && o.bundle == "" {
		fmt.Fprintf(stderr, "%s: --all needs --bundle-digest (from `hookside hooks trust status%s`), so that you grant exactly what you reviewed\n", p, givenTarget(o, sessionDir))
		return exitUsage
	}
	if (action == "grant" || action == "revoke") && !o.all && len(digests) == 0 {
		fmt.Fprintln(stderr, p+": name --digest D (repeatable) or --all")
		return exitUsage
	}
	if o.homeDir == "" {
		o.homeDir = home.Default()
	}
	if o.userConfig == "" {
		o.userConfig = home.ConfigPath(o.homeDir)
	}
	if o.workspace == "" {
		o.workspace = "."
	}
	target, err := truststore.ResolveTarget(o.workspace)
	if err != nil {
		fmt.Fprintln(stderr, p+":", err)
		return exitError
	}
	cwd := target.Dir
	if sessionDir != "" {
		if cwd, err = sessionDirIn(sessionDir, target); err != nil {
			fmt.Fprintln(stderr, p+":", err)
			return exitUsage
		}
	}
	if target.Dir == "" {
		for _, f := range [][2]string{{"project-config", o.projectConfig}, {"run-cwd", o.runCwd}} {
			if f[1] != "" {
				fmt.Fprintf(stderr, "%s: --%s needs a local workspace, not %s\n", p, f[0], target.ID)
				return exitUsage
			}
		}
		return trustRemote(p, action, target, o.homeDir, o.userConfig, digests, o.all, o.asJSON, stdout, stderr)
	}
	// Read-only: the command's own checks come first, and only its write
	// (or review's refusal) moves a corrupt trust file aside.
	rs, diags, err := runner.Open(runner.SessionOptions{
		ID: "cli-trust", Cwd: cwd, WorkspaceID: target.ID, UserConfigPath: o.userConfig,
		Profile: o.sf.profile, UserDir: o.sf.userDir(),
		Workspace: runner.WorkspaceOptions{Feature: true, Policy: policy, Home: o.homeDir, ProjectConfigPath: o.projectConfig, HooksEnabled: o.hooksEnabled, Store: truststore.Options{ReadOnly: true}},
	})
	if err != nil {
		fmt.Fprintln(stderr, p+":", cliOpenError(err, target.Dir))
		return exitError
	}
	defer rs.Close()
	runDir, err := runCwdIn(rs, o.runCwd)
	if err != nil {
		fmt.Fprintln(stderr, p+":", err)
		return exitUsage
	}
	// At --run-cwd: the pins a claude-profile run there is admitted by.
	w := rs.WorkspaceStatusAt(runDir)
	// Pins are computed once: the bundle digest covers them, the display
	// shows them, and a grant records exactly them.
	sh := truststore.Show(w.Workspace)
	sw := rootSwitchOf(rs, &sessionFlags{home: o.homeDir, userConfig: o.userConfig, hooksEnabled: o.hooksEnabled})
	st := trustStatus{TrustStatus: rpc.TrustStatus{
		WorkspaceID: target.ID, Policy: string(policy), StoreStatus: string(w.StoreStatus),
		StoreError:   errText(rs.Gate().StoreError()),
		BundleDigest: sh.BundleDigest, Counts: listedCounts(w.Evaluations),
		Declarations: rs.DescribeWorkspace(w, sh),
	}, RootSwitch: sw, Diagnostics: trustDiagnostics(diags, target.Dir, userConfigFile(&sessionFlags{home: o.homeDir, userConfig: o.userConfig})),
		trustFile: rs.Gate().Store().Path()}
	st.MovedAside = truststore.MovedAsideFiles(st.trustFile)
	markSwitchedOff(rs, w, st.Declarations)
	if bad := rs.UserConfigUnreadable(); bad != nil {
		markRootSwitchUnread(st.Declarations, bad)
	}
	hint := hintFlags(o.flags, hintTrust) + " --workspace " + runner.ShellWord(st.WorkspaceID)
	if cwd != target.Dir {
		hint += " --cwd " + runner.ShellWord(cwd)
	}
	if runDir != "" {
		hint += " --run-cwd " + runner.ShellWord(runDir)
	}
	if len(digests) > 0 {
		listed := make([]string, len(st.Declarations))
		for i, d := range st.Declarations {
			listed[i] = d.Digest
		}
		var known []string
		if action == "revoke" {
			known = rs.Gate().Records()
		}
		raw := digests
		if digests, err = resolveDigests(digests, listed, known, action == "revoke"); err != nil {
			fmt.Fprintln(stderr, p+":", strings.Replace(err.Error(), "`hookside hooks trust status`", "`hookside hooks trust status"+hint+"`", 1))
			return digestExit(err)
		}
		if n := slices.IndexFunc(raw, isListNumber); n >= 0 && action == "grant" && o.bundle == "" {
			// The current digest is not printed: pasting it would grant
			// what nobody was shown. Review prints it beside the list.
			fmt.Fprintf(stderr, "%s: --digest %s: a list number needs the --bundle-digest B that `hookside hooks trust review%s` prints with the list you read: numbers follow the workspace as it is now, so after an edit the same number can name a declaration you never saw\n", p, raw[n], hint)
			return exitUsage
		}
	}
	switch action {
	case "status":
		if !o.asJSON {
			printDiagnostics(stderr, st.Diagnostics)
		}
		return printTrustStatus(stdout, st, o.asJSON)
	case "review":
		return trustReview(p, rs, w, sh, st, hint, o.asJSON, stdout, stderr)
	case "grant":
		sel, code := selectDeclarations(p, w, st, digests, o.all, o.bundle, hint, stderr)
		if code != 0 {
			return code
		}
		return trustGrant(p, rs, w, sh, sel, st.Declarations, sw, o.asJSON, stdout, stderr)
	default: // revoke
		if o.all {
			digests = rs.Gate().Records()
		}
		return trustRevoke(p, rs.Gate(), target.ID, digests, o.asJSON, stdout, stderr)
	}
}

// sessionDirIn checks dir, given with --cwd next to a different
// --workspace, as the session directory inside the workspace target (a
// session opened in a subdirectory under the repository's workspaceId)
// and returns it absolute. Errors (usage): target is a workspace identity
// without a directory, dir is not a directory, or dir is not inside
// target's directory (symlinks resolved).
func sessionDirIn(dir string, target truststore.Target) (string, error) {
	if target.Dir == "" {
		return "", fmt.Errorf("--cwd %s with the workspace identity %s: a session directory needs a local workspace; give one of them", dir, target.ID)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("--cwd %s: %v", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("--cwd %s: not a directory", dir)
	}
	if _, inside := fsid.Within(target.ID, truststore.CanonicalID(abs)); !inside {
		return "", fmt.Errorf("--cwd %s is not inside the workspace %s: --cwd with --workspace names a session directory in that workspace (or give one of them)", dir, target.ID)
	}
	return abs, nil
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// printStoreError prints why the trust store is corrupt (file, reason,
// where the file is now) and what that means, for a human.
func printStoreError(w io.Writer, storeError string) {
	if storeError == "" {
		return
	}
	fmt.Fprintf(w, "%s\nevery workspace hook is untrusted (blocked_untrusted) until it is granted again\n", dispText(storeError))
}

// describeDecl prints one declaration for a human. Everything that
// decides what runs is shown (command, args, shell, async), and every
// string from the workspace goes through dispText/dispWord, so control,
// format and bidi characters cannot hide or rewrite what is displayed.
func describeDecl(w io.Writer, n int, d truststore.DeclarationStatus) {
	m := "*"
	if d.Matcher != nil {
		m = dispWord(*d.Matcher)
	}
	state := string(d.TrustState)
	if d.Reason != "" && d.Reason != state {
		state += " (" + d.Reason + ")"
	}
	switch {
	case !d.Enabled && d.OffReason == runner.WhyRootSwitchOff && d.OffDetail != "":
		state += ", off (root switch off: " + dispText(d.OffDetail) + ")"
	case !d.Enabled:
		state += ", " + offText(d.OffReason)
	case d.OffReason == runner.WhyHooksDisabled:
		state += ", off (" + dispText(d.OffDetail) + ")"
	}
	fmt.Fprintf(w, "%3d. %-18s %s\n     %s %s[%d][%d] matcher=%s timeout=%dms\n",
		n, dispText(d.Event), state, dispText(d.Source.RelativePath), dispText(d.Event), d.MatcherIndex, d.HookIndex, m, d.TimeoutMs)
	if d.Type == hook.TypeProcess {
		words := make([]string, 0, 1+len(d.Args))
		for _, a := range append([]string{d.Command}, d.Args...) {
			words = append(words, dispWord(a))
		}
		fmt.Fprintf(w, "     process (no shell): %s\n", strings.Join(words, " "))
	} else {
		fmt.Fprintf(w, "     %s: %s\n", dispText(string(d.Type)), dispText(d.Command))
		switch d.Shell.Kind() {
		case hook.ShellTrue:
			fmt.Fprintln(w, "     shell: true")
		case hook.ShellString:
			fmt.Fprintf(w, "     shell: %s\n", dispText(d.Shell.Program()))
		}
		if len(d.Args) > 0 {
			words := make([]string, len(d.Args))
			for i, a := range d.Args {
				words[i] = dispWord(a)
			}
			fmt.Fprintf(w, "     args: %s\n", strings.Join(words, " "))
		}
		if d.Async {
			fmt.Fprintln(w, "     async: true")
		}
	}
	fmt.Fprintf(w, "     digest %s\n", d.Digest)
	if d.PinError != "" {
		fmt.Fprintf(w, "     pins: cannot pin (%s); cannot be granted\n", dispText(d.PinError))
	}
	if len(d.Pins) > 0 {
		parts := make([]string, len(d.Pins))
		for i, p := range d.Pins {
			parts[i] = describePin(p)
		}
		fmt.Fprintf(w, "     pins %s\n", strings.Join(parts, ", "))
	}
	printGrantedSites(w, d.Sites)
	if len(d.Unpinned) > 0 {
		words := make([]string, len(d.Unpinned))
		for i, u := range d.Unpinned {
			words[i] = dispWord(u)
		}
		fmt.Fprintf(w, "     unpinned %s (words pinning could not follow: review what they run)\n", strings.Join(words, ", "))
	}
	printGrantChanges(w, d.Changes)
}

// describePin renders a pin with a short hash.
func describePin(p pin.PinEntry) string {
	short := shortHash(p.SHA256)
	switch p.Kind {
	case "absent":
		return dispWord(p.Path) + " (absent)"
	case "link":
		return dispWord(p.Path) + " -> " + dispWord(p.Target) + " sha256:" + short
	case "glob":
		if p.SHA256 == pin.NoMatches {
			return dispWord(p.Path) + " (glob, no match now)"
		}
		return dispWord(p.Path) + " (glob, matches sha256:" + short + ")"
	}
	return dispWord(p.Path) + " sha256:" + short
}

// selectDeclarations resolves --digest / --all --bundle-digest.
func selectDeclarations(p string, w runner.WorkspaceState, st trustStatus, digests []string, all bool, bundle, hint string, stderr io.Writer) ([]truststore.Declaration, int) {
	if bundle != "" && bundle != st.BundleDigest {
		// Not the digest now: pasting that would grant the change unseen.
		fmt.Fprintf(stderr, "%s: --bundle-digest %s is not the workspace's bundle digest now: mistyped, or the workspace changed since it was shown; review it again: hookside hooks trust review%s\n", p, bundle, hint)
		return nil, exitError
	}
	if all {
		return w.Declarations, 0
	}
	by := map[string]truststore.Declaration{}
	for _, d := range w.Declarations {
		by[d.Digest] = d
	}
	var sel []truststore.Declaration
	for _, dg := range digests {
		d, ok := by[dg]
		if !ok {
			fmt.Fprintf(stderr, "%s: no declaration with digest %s in %s (see `hookside hooks trust status%s`)\n", p, dg, st.WorkspaceID, hint)
			return nil, exitError
		}
		sel = append(sel, d)
	}
	return sel, 0
}

// trustGrant grants sel with the pins shown (sh) and prints what it
// trusted on stdout. With shown (the declarations as listed; nil from the
// terminal review, which has just displayed them), each granted
// declaration with unpinned words gets a warning line on stderr naming
// them (warnUnpinned).
func trustGrant(p string, rs *runner.Session, w runner.WorkspaceState, sh *truststore.Shown, sel []truststore.Declaration, shown []truststore.DeclarationStatus, sw rootSwitch, asJSON bool, stdout, stderr io.Writer) int {
	if len(sel) == 0 {
		if asJSON {
			writeJSON(stdout, map[string]any{"trusted": []string{}, "counts": listedCounts(w.Evaluations), "rootSwitch": sw})
			return exitOK
		}
		fmt.Fprintln(stdout, "nothing to grant")
		return exitOK
	}
	// The pins granted are the ones shown (and covered by the bundle
	// digest), never re-hashed.
	err := truststore.GrantShown(rs.Gate(), rs.Options().WorkspaceID, sh, sel)
	if err != nil {
		fmt.Fprintln(stderr, p+":", err)
		if errors.Is(err, truststore.ErrCorrupt) {
			return exitCorrupt
		}
		return exitError
	}
	granted := make([]string, len(sel))
	for i, d := range sel {
		granted[i] = d.Digest
	}
	if w.StoreStatus == truststore.StatusMissing {
		// This grant started the trust file: say where earlier grants
		// went if a corrupt one was moved aside.
		trustFile := rs.Gate().Store().Path()
		if m := truststore.MovedAsideFiles(trustFile); len(m) > 0 {
			fmt.Fprint(stderr, p+": note: this grant started a fresh trust file; ")
			printMovedAside(stderr, trustFile, m)
		}
	}
	warnUnpinned(p, granted, shown, stderr)
	if asJSON {
		after := rs.WorkspaceStatusAt(w.RunDir)
		writeJSON(stdout, map[string]any{"trusted": granted, "counts": listedCounts(after.Evaluations), "rootSwitch": sw})
		return exitOK
	}
	for _, d := range granted {
		fmt.Fprintf(stdout, "trusted %s\n", d)
	}
	return exitOK
}

// trustRevoke deletes the records of digests and reports which were
// deleted (revoked) and which had no record (unknown).
func trustRevoke(p string, store truststore.Writer, wsID string, digests []string, asJSON bool, stdout, stderr io.Writer) int {
	revoked, err := store.Revoke(wsID, digests)
	if err != nil {
		fmt.Fprintln(stderr, p+":", err)
		if errors.Is(err, truststore.ErrCorrupt) {
			return exitCorrupt
		}
		return exitError
	}
	done := map[string]bool{}
	for _, d := range revoked {
		done[d] = true
	}
	unknown := []string{}
	for _, d := range digests {
		if !done[d] {
			done[d] = true
			unknown = append(unknown, d)
		}
	}
	code := exitOK
	if len(unknown) > 0 {
		code = exitError // a named digest had no record: nothing was revoked for it
	}
	if asJSON {
		writeJSON(stdout, map[string]any{"revoked": revoked, "unknown": unknown})
		return code
	}
	fmt.Fprintf(stdout, "revoked %d record(s) of %s\n", len(revoked), dispText(wsID))
	for _, d := range revoked {
		fmt.Fprintf(stdout, "revoked %s\n", d)
	}
	for _, d := range unknown {
		fmt.Fprintf(stdout, "no trust record for %s (nothing revoked)\n", dispText(d))
	}
	return code
}

// trustReview lists declarations needing a decision; on a terminal it asks
// which to trust by number.
func trustReview(p string, rs *runner.Session, w runner.WorkspaceState, sh *truststore.Shown, st trustStatus, hint string, asJSON bool, stdout, stderr io.Writer) int {
	if !asJSON {
		printDiagnostics(stderr, st.Diagnostics)
	}
	if st.StoreStatus == string(truststore.StatusCorrupt) {
		// Nothing can be granted from this review: the gate refuses
		// writes after a corrupt read (exit 3, as grant and revoke), and
		// moves the file aside so that the next review starts afresh.
		st.StoreError = errText(rs.Gate().MoveAside())
		if asJSON {
			writeJSON(stdout, st)
		}
		fmt.Fprintf(stderr, "%s: %s\nevery workspace hook is untrusted; nothing can be granted in this review. To review on a fresh trust file, run: hookside hooks trust review%s\n",
			p, dispText(st.StoreError), hint)
		return exitCorrupt
	}
	var idx []int
	for i, d := range st.Declarations {
		if d.TrustState != truststore.TrustedPersistent {
			idx = append(idx, i)
		}
	}
	if asJSON || !stdinIsTTY() {
		if asJSON {
			writeJSON(stdout, st)
			return exitOK
		}
		printTrustStatus(stdout, st, false)
		if len(st.Declarations) == 0 {
			return exitOK // printTrustStatus said why
		}
		if len(idx) == 0 {
			fmt.Fprintln(stdout, "\nnothing to review: every declaration is trusted")
			return exitOK
		}
		var grantable []string
		for _, i := range idx {
			if st.Declarations[i].PinError == "" {
				grantable = append(grantable, st.Declarations[i].Digest)
			}
		}
		if len(grantable) < len(idx) {
			// --all would be refused: a declaration that cannot be
			// pinned cannot be granted, and --all grants all or nothing.
			fmt.Fprintf(stdout, "\nNot a terminal. %d declaration(s) above cannot be granted now (cannot pin: see why above).", len(idx)-len(grantable))
			if len(grantable) == 0 {
				fmt.Fprintln(stdout)
				return exitOK
			}
			fmt.Fprintf(stdout, " To trust the %d other(s), run\n  hookside hooks trust grant%s --digest %s --bundle-digest %s\n", len(grantable), hint, strings.Join(grantable, " --digest "), st.BundleDigest)
			return exitOK
		}
		fmt.Fprintf(stdout, "\nNot a terminal: to trust, run\n  hookside hooks trust grant%s --digest <number|digest> [--digest …] --bundle-digest %s\nor, to trust everything shown above,\n  hookside hooks trust grant%s --all --bundle-digest %s\n",
			hint, st.BundleDigest, hint, st.BundleDigest)
		return exitOK
	}
	if len(idx) == 0 {
		fmt.Fprintln(stdout, "nothing to review: every declaration is trusted")
		return exitOK
	}
	fmt.Fprintf(stdout, "workspace %s — %d declaration(s) to review:\n", dispText(st.WorkspaceID), len(idx))
	for n, i := range idx {
		describeDecl(stdout, n+1, st.Declarations[i])
	}
	// A bad answer is named and asked again; the end of input after one
	// ends the review without a grant (exit 2).
	in := bufio.NewReader(stdinReader)
	var picked []int
	var bad error
	for {
		fmt.Fprint(stdout, "Trust which? numbers (e.g. 1,3 or 1-2), \"all\", or empty for none: ")
		line, readErr := in.ReadString('\n')
		line = strings.TrimSpace(line)
		if readErr != nil && line == "" && bad != nil {
			fmt.Fprintf(stderr, "\n%s: %v, then the end of input; nothing granted\n", p, bad)
			return exitUsage
		}
		if picked, bad = parseSelection(line, len(idx)); bad == nil {
			break
		}
		if readErr != nil {
			fmt.Fprintf(stderr, "\n%s: %v, then the end of input; nothing granted\n", p, bad)
			return exitUsage
		}
		fmt.Fprintf(stderr, "%s: %v; try again\n", p, bad)
	}
	var sel []truststore.Declaration
	for _, n := range picked {
		d := w.Declarations[idx[n-1]]
		// The list was shown long before the answer: grant its pins only
		// while the scripts still pin the same (grant's own pins are
		// taken just before it writes, and its --bundle-digest covers them).
		if err := sh.StillAsShown(d, w.Workspace.Root, w.Workspace.PinSite()); err != nil {
			fmt.Fprintf(stderr, "%s: nothing granted: %s: %v; review it again\n", p, d.Digest, err)
			return exitError
		}
		sel = append(sel, d)
	}
	return trustGrant(p, rs, w, sh, sel, nil, st.RootSwitch, false, stdout, stderr)
}

// parseSelection parses "1,3", "2-4", "all" or "" against n items.
func parseSelection(s string, n int) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	if s == "all" {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out, nil
	}
	seen := map[int]bool{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 1 || b > n || a > b {
			return nil, fmt.Errorf("%q is not a number or range between 1 and %d", part, n)
		}
		for i := a; i <= b; i++ {
			seen[i] = true
		}
	}
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	sort.Ints(out)
	return out, nil
}

// markSwitchedOff gives each declaration of ds (w's, in order) that a
// Claude Code settings switch keeps from running, although its enabled
// switches are on, OffReason runner.WhyHooksDisabled and the switch in
// OffDetail (runner.Session.SwitchedOff; claude profile only): its trust
// is reviewed and granted as any other's, but it will not run while the
// switch stays on.
func markSwitchedOff(rs *runner.Session, w runner.WorkspaceState, ds []truststore.DeclarationStatus) {
	hooks := make([]hook.Hook, len(w.Workspace.Declarations))
	for i := range w.Workspace.Declarations {
		hooks[i] = w.Workspace.Declarations[i].Hook
	}
	off := rs.SwitchedOff(hooks)
	for i := range ds {
		if sw, ok := off[ds[i].HookID]; ok && ds[i].Enabled {
			ds[i].OffReason, ds[i].OffDetail = runner.WhyHooksDisabled, sw.Detail
		}
	}
}

// markRootSwitchUnread gives the declarations the root switch keeps off
// the reason it is off when the user config could not be read (bad, its
// diagnostic): not that the file does not say "enabled": true, which it may
// well say.
func markRootSwitchUnread(ds []truststore.DeclarationStatus, bad *hook.Diagnostic) {
	for i := range ds {
		if !ds[i].Enabled && ds[i].OffReason == runner.WhyRootSwitchOff {
			ds[i].OffDetail = "the user config " + bad.Source + " could not be read, so nothing it says applies: " + bad.Message
		}
	}
}

// offText words a switched-off declaration's OffReason for describeDecl:
// "disabled" is kept for the declaration's own enabled: false
// (docs/troubleshooting.md), the other switches say "off".
func offText(reason string) string {
	switch reason {
	case runner.WhyFileDisabled:
		return `off (file disabled: its file says "hooks": {"enabled": false})`
	case runner.WhyRootSwitchOff:
		return `off (root switch off: the user config does not say "hooks": {"enabled": true})`
	}
	return "disabled (enabled: false in its file)"
}
