package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestHelpTexts: hooks explain --help says --profile claude takes every
// Claude Code event, hooks run --help that every profile's hooks get
// --transcript-path, hooks list and app-server --help give their exit
// statuses, and app-server's flags name their values.
func TestHelpTexts(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"hooks", "explain"}, []string{"--event EVENT", "(--profile claude: every Claude Code event)"}, nil},
		{[]string{"hooks", "run"}, []string{"to every hook as transcript_path, in every profile"}, []string{"claude-profile hooks"}},
		{[]string{"hooks", "list"}, []string{"Exit status: 0 listed", "1 a session that", "2 a usage error"}, nil},
		{[]string{"app-server"}, []string{"Exit status: 0 after shutdown", "1 after exit without shutdown", "when the host closed stdout", "2 a usage error", "128+signal",
			"--framing FRAMING", "--log-level LEVEL", "--log-format FORMAT"}, []string{" string "}},
	} {
		var out bytes.Buffer
		if code := run(append(c.args, "--help"), &out, io.Discard); code != exitOK {
			t.Fatalf("%v --help: exit %d", c.args, code)
		}
		text := strings.Join(strings.Fields(out.String()), " ")
		for _, w := range c.want {
			if !strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
				t.Errorf("%v --help lacks %q:\n%s", c.args, w, out.String())
			}
		}
		for _, n := range c.not {
			if strings.Contains(out.String(), n) {
				t.Errorf("%v --help has %q:\n%s", c.args, n, out.String())
			}
		}
	}
}
