package main

import (
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestV2LeafHelp: `hookside v2 definitions|bindings|runs <command> --help`
// prints that command's own help — its one line, what it takes and prints,
// its exit statuses — not the group's paragraph, and names only the flags
// it takes; the group's help lists its commands' lines and points at their
// help.
func TestV2LeafHelp(t *testing.T) {
	common := []string{"--json", "--home"}
	for _, g := range []struct {
		group  string
		leaves map[string][]string // command → its flags beyond --json and --home
		// notFound: the commands whose help lists exit 3.
		notFound []string
		// offline: the commands that need no database (no exit 4).
		offline []string
	}{
		{"definitions", map[string][]string{"list": {"--event"}, "get": nil, "create": {"--file"}, "update": {"--file"},
			"upsert": {"--file"}, "validate": {"--file"}, "delete": nil}, []string{"get", "update", "delete"}, []string{"validate"}},
		{"bindings", map[string][]string{"list": {"--hook"}, "get": nil, "create": {"--hook", "--scope", "--scope-id"},
			"upsert": {"--hook", "--scope", "--scope-id"}, "update": {"--enabled", "--authorize"}, "delete": nil},
			[]string{"get", "create", "upsert", "update", "delete"}, nil},
		{"runs", map[string][]string{"list": {"--status", "--hook", "--event", "--event-id", "--session", "--since", "--until",
			"--limit", "--cursor"}, "get": nil, "retry": nil, "cancel": nil}, []string{"get", "retry", "cancel"}, nil},
	} {
		code, parent, errs := runCLI("v2", g.group, "--help")
		if code != 0 {
			t.Fatalf("v2 %s --help: exit %d %s", g.group, code, errs)
		}
		intro, _, _ := strings.Cut(parent, "\n")
		if want := "hookside v2 " + g.group + " <command> --help"; !strings.Contains(parent, want) {
			t.Errorf("v2 %s --help does not point at %q:\n%s", g.group, want, parent)
		}
		leaves := map[string]string{} // command → its description (the help before Usage:)
		width := 7                    // the names' column: the longest name, at least 7
		for leaf := range g.leaves {
			width = max(width, len(leaf))
		}
		for leaf := range g.leaves {
			code, out, errs := runCLI("v2", g.group, leaf, "--help")
			if code != 0 || errs != "" {
				t.Fatalf("v2 %s %s --help: exit %d, stderr %s", g.group, leaf, code, errs)
			}
			desc, _, _ := strings.Cut(out, "\nUsage:\n")
			leaves[leaf] = desc
			cmd, _, err := newRootCmd(io.Discard, io.Discard).Find([]string{"v2", g.group, leaf})
			if err != nil || cmd.Name() != leaf {
				t.Fatalf("no command v2 %s %s: %v", g.group, leaf, err)
			}
			if want := strings.ToUpper(cmd.Short[:1]) + cmd.Short[1:] + ".\n\n"; !strings.HasPrefix(oneLine(desc), want) {
				t.Errorf("v2 %s %s --help does not begin with its own line %q:\n%s", g.group, leaf, want, out)
			}
			if !strings.Contains(parent, "  "+leaf+strings.Repeat(" ", width+1-len(leaf))+cmd.Short+"\n") {
				t.Errorf("v2 %s --help does not list %s with its line %q:\n%s", g.group, leaf, cmd.Short, parent)
			}
			if strings.Contains(out, intro) || strings.Contains(out, "<command> --help") {
				t.Errorf("v2 %s %s --help repeats the group's help:\n%s", g.group, leaf, out)
			}
			if strings.Count(out, "Exit status:") != 1 || !strings.Contains(out, "\n  0  ok\n") ||
				strings.Contains(out, "  4  database unavailable") == slices.Contains(g.offline, leaf) {
				t.Errorf("v2 %s %s --help: want one Exit status paragraph, a status a line:\n%s", g.group, leaf, out)
			}
			if got, want := strings.Contains(out, "\n  3  not found"), slices.Contains(g.notFound, leaf); got != want {
				t.Errorf("v2 %s %s --help lists exit 3: %v, want %v:\n%s", g.group, leaf, got, want, out)
			}
			own := append([]string{"--help"}, g.leaves[leaf]...)
			for _, f := range common {
				// An offline command takes --home but does not list it.
				if f != "--home" || !slices.Contains(g.offline, leaf) {
					own = append(own, f)
				}
			}
			if got := helpFlags(out); !sameSet(got, own) {
				t.Errorf("v2 %s %s --help lists the flags %v, want %v:\n%s", g.group, leaf, got, own, out)
			}
			for _, f := range mentionedFlags(desc) {
				if !slices.Contains(own, f) {
					t.Errorf("v2 %s %s --help names %s, which it does not take:\n%s", g.group, leaf, f, desc)
				}
			}
		}
		// Its own text: no other command's description.
		for leaf, desc := range leaves {
			for other, odesc := range leaves {
				about := strings.Split(odesc, "\n\n")[1]
				if other != leaf && strings.Contains(desc, about) {
					t.Errorf("v2 %s %s --help has the text of %s:\n%s", g.group, leaf, other, desc)
				}
			}
		}
	}
}

// oneLine is text with each paragraph on one line (help texts are folded
// at about 100 columns).
func oneLine(text string) string {
	paras := strings.Split(text, "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}

// helpFlags are the long flags listed under Flags: in a --help.
func helpFlags(help string) []string {
	_, rest, _ := strings.Cut(help, "\nFlags:\n")
	section, _, _ := strings.Cut(rest, "\n\n")
	var flags []string
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?(--[a-z-]+)`).FindAllStringSubmatch(section, -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// mentionedFlags are the --flags text names, leaving out those of another
// command it quotes ("hookside v2 bindings update ID --authorize HASH").
func mentionedFlags(text string) []string {
	text = regexp.MustCompile(`hookside v2 \w+ \w+(?:\s+(?:[A-Z]+|--[a-z-]+|application))*`).ReplaceAllString(text, "")
	return regexp.MustCompile(`--[a-z][a-z-]*`).FindAllString(text, -1)
}

// sameSet: got and want hold the same strings, whatever their order.
func sameSet(got, want []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want)))
}
