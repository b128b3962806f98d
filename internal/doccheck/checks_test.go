package doccheck

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckTextFindsOutsideReferences(t *testing.T) {
	bad := []string{
		"Params as in the design.",
		"see ../shared/design/PROTOCOL.md",
		"shapes: PROTOCOL §5",
		"the wire contract (`/work/shared/design/PROTOCOL.md` §1–§3)",
		"microseconds (ARCHITECTURE)",
		"not from the issue; they are",
		"(lifecycle §\"信任状态\")",
		"the spec (`hooks-v2-handbook.zh.txt`)",
		"a file in /home/alex/hooks",
		`C:\Users\alex\hooks`,
	}
	for _, s := range bad {
		if len(CheckText("x", s)) == 0 {
			t.Errorf("CheckText(%q) found nothing", s)
		}
	}
	good := []string{
		"see [docs/protocol.md](docs/protocol.md)",
		`"args": ["/home/me/hooks/stop.py"]`,
		"the hookside home (`~/.hookside`), `$TMPDIR`, `/dev/shm`",
		"the issue tracker", // caught: "the issue" is never right in these docs
	}
	for _, s := range good[:3] {
		if p := CheckText("x", s); len(p) != 0 {
			t.Errorf("CheckText(%q) = %v, want nothing", s, p)
		}
	}
}

func TestCheckLinks(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "docs"), 0o755)
	os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte("# Title\n\n## The `hooks/run` method\n\n## Errors\n## Errors\n"), 0o644)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644)
	text := "[ok](docs/a.md) [ok](docs/a.md#the-hooksrun-method) [ok](docs/a.md#errors-1)\n" +
		"[missing](docs/b.md) [anchor](docs/a.md#nope) [out](../x.md) [web](https://example.com/x.md)\n" +
		"see `a.md` and NOTES.md\n```\nFOO.md in a fence\n```\n"
	f := filepath.Join(root, "README.md")
	os.WriteFile(f, []byte(text), 0o644)
	got := CheckLinks(root, f, text)
	want := map[string]bool{"docs/b.md": true, "docs/a.md#nope": true, "../x.md": true, "NOTES.md": true}
	for _, p := range got {
		if !want[p.Text] {
			t.Errorf("unexpected problem %v", p)
		}
		delete(want, p.Text)
	}
	for w := range want {
		t.Errorf("not reported: %s", w)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"1. Transport":              "1-transport",
		"The `hooks/run` method":    "the-hooksrun-method",
		"Exit codes (and traps)":    "exit-codes-and-traps",
		"session/open — parameters": "sessionopen--parameters",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRepoPathResolves(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "runner", "config"), 0o755)
	for span, want := range map[string]bool{
		"runner/config": true, "./runner/...": true, "runner/config/": true,
		"runner/moved": false, "./runner/moved/...": false,
		"hooks/hooks.json": true, "<home>/config.json": true, "matcher": true, ".zcode/config.json": true,
	} {
		if got := RepoPathResolves(root, span); got != want {
			t.Errorf("RepoPathResolves(%q) = %v, want %v", span, got, want)
		}
	}
}

// TestCheckURLs: a web address in any form is reported, in prose, links,
// autolinks, reference definitions, code spans and fences alike; only
// localhost, loopback, the RFC 2606 example hosts and Go import paths
// under a given module (without a scheme) pass.
func TestCheckURLs(t *testing.T) {
	bad := []string{
		"git clone https://github.com/hookside/hookside && cd hookside",
		"[Keep a Changelog](https://keepachangelog.com/en/1.1.0/)",
		"**[H]** = <https://code.claude.com/docs/en/hooks> (hooks reference)",
		"[0.1.0]: https://github.com/hookside/hookside/releases/tag/v0.1.0",
		"see HTTP://Example.org.evil.test/x",
		"`curl -fsSL http://get.example.io/install.sh`",
		"ftp://files.test/pub",
		"[vscode-jsonrpc](www.npmjs.com/package/vscode-jsonrpc)",
		"see code.claude.com/docs/en/hooks#matcher-patterns",
		"github.com/anthropics/claude-code/issues/13792",
		"github.com/hookside/hookside-fork/x",  // not under a module
		"https://github.com/hookside/hookside", // a module path with a scheme is a link
		"golang.org/x/system",
	}
	for _, s := range bad {
		if p := CheckURLs("x", s, "github.com/hookside/hookside", "golang.org/x/sys"); len(p) != 1 {
			t.Errorf("CheckURLs(%q) = %v, want one problem", s, p)
		}
	}
	good := []string{
		`"url": "http://localhost:8080/hook"`,
		"`http://127.0.0.1:9000/`, `https://[::1]/x`",
		"a webhook at https://hooks.example.com/notify or http://user@example.net",
		"Claude Code's hooks reference [H], section \"Matcher patterns\"",
		"`turn.completed`, `response.committed`, `stop.continuations`",
		"hooks/a.sh, guard.sh, `hooks/$'\\x64'x.sh`",
		"mailbox.com is not a path", // a host without a path is prose
		"(`golang.org/x/sys` for OS calls), golang.org/x/sys/unix",
		"github.com/hookside/hookside/rpc.(*Server).lookup",
	}
	mods := []string{"github.com/hookside/hookside", "golang.org/x/sys"}
	for _, s := range good {
		if p := CheckURLs("x", s, mods...); len(p) != 0 {
			t.Errorf("CheckURLs(%q) = %v, want nothing", s, p)
		}
	}
}
