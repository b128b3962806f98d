package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs one command line in-process.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestCompletionScripts: `hookside completion <shell>` prints a script for
// bash, zsh, fish and PowerShell that asks the binary (`__complete`); the
// shells found on this machine check its syntax.
func TestCompletionScripts(t *testing.T) {
	check := map[string][]string{"bash": {"bash", "-n"}, "zsh": {"zsh", "-n"}, "fish": {"fish", "--no-execute"}, "powershell": {"pwsh", "-NoProfile", "-Command", "$null = [scriptblock]::Create((Get-Content -Raw $args[0]))"}}
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errs := runCLI("completion", sh)
		if code != 0 || !strings.Contains(out, "__complete") || !strings.Contains(out, "hookside") {
			t.Errorf("completion %s: exit %d, %d bytes, stderr %s", sh, code, len(out), errs)
			continue
		}
		argv := check[sh]
		if _, err := exec.LookPath(argv[0]); err != nil {
			t.Logf("completion %s: %s is not installed here; the script's syntax is not checked", sh, argv[0])
			continue
		}
		f := filepath.Join(t.TempDir(), "hookside."+sh)
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := exec.Command(argv[0], append(argv[1:], f)...).CombinedOutput(); err != nil {
			t.Errorf("%s rejects the completion script: %v\n%s", argv[0], err, b)
		}
	}
}

// TestCompleteAsksTheTree: the completions the scripts ask for come from
// the command tree: subcommands, --event values per --profile, policies.
func TestCompleteAsksTheTree(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"hooks", "tr"}, "trust"},
		{[]string{"hooks", "trust", ""}, "review"},
		{[]string{"hooks", "run", "--event", ""}, "PreToolUse"},
		{[]string{"hooks", "run", "--profile", "claude", "--event", ""}, "SubagentStop"},
		{[]string{"hooks", "trust", "grant", "--policy", ""}, "allow_trusted_only"},
		{[]string{"app-server", "--framing", ""}, "content-length"},
		{[]string{"v2", ""}, "definitions"},
		{[]string{"completion", ""}, "powershell"},
	} {
		code, out, errs := runCLI(append([]string{"__complete"}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("__complete %q: exit %d, want %q in\n%s%s", c.args, code, c.want, out, errs)
		}
	}
	// The zcode profile offers only its seven events.
	if _, out, _ := runCLI("__complete", "hooks", "run", "--event", ""); strings.Contains(out, "SubagentStop") {
		t.Errorf("zcode --event completion offers a Claude Code event:\n%s", out)
	}
}

// TestBashCompletionInBash sources the bash script in a real bash and
// completes `hookside hooks tr<TAB>` and `hookside hooks run --event Pre<TAB>`
// through the binary (the test binary, run as hookside; it runs no hook).
func TestBashCompletionInBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed here")
	}
	// cobra's bash script needs the bash-completion package, as every
	// distribution's bash completion does.
	const bashCompletion = "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(bashCompletion); err != nil {
		t.Skip("the bash-completion package is not installed here (" + bashCompletion + "); apt-get install bash-completion")
	}
	_, script, _ := runCLI("completion", "bash")
	dir := t.TempDir()
	f := filepath.Join(dir, "hookside.bash")
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.Args[0], filepath.Join(dir, "hookside")); err != nil {
		t.Skip("cannot link the test binary as hookside:", err)
	}
	complete := func(line string) string {
		t.Helper()
		prog := `source ` + bashCompletion + `; source "$1"; COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<<"$2"; ` +
			`[[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); __start_hookside; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command("bash", "-c", prog, "bash", f, line)
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), envAsBinary+"=1", "HOOKSIDE_HOME="+t.TempDir())
		// compopt complains outside a real completion: stderr is not the answer.
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash completion of %q: %v\n%s%s", line, err, out, errb.String())
		}
		return string(out)
	}
	if got := complete("hookside hooks tr"); strings.TrimSpace(got) != "trust" {
		t.Errorf("hookside hooks tr<TAB> = %q, want trust", got)
	}
	if got := complete("hookside hooks run --event Pre"); strings.TrimSpace(got) != "PreToolUse" {
		t.Errorf("hookside hooks run --event Pre<TAB> = %q, want PreToolUse", got)
	}
}

// TestManPages: `hookside man --dir D` writes one page per command, dated
// from SOURCE_DATE_EPOCH, identical when written twice, with the help
// text's <placeholders> and identifiers kept literally.
func TestManPages(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000") // 2023-11-14
	var pages [2]map[string]string
	for i := range pages {
		dir := t.TempDir()
		if code, _, errs := runCLI("man", "--dir", dir); code != 0 {
			t.Fatalf("man: exit %d %s", code, errs)
		}
		pages[i] = map[string]string{}
		files, _ := filepath.Glob(filepath.Join(dir, "*.1"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			pages[i][filepath.Base(f)] = string(b)
		}
	}
	for _, want := range []string{"hookside.1", "hookside-hooks-run.1", "hookside-hooks-trust-grant.1", "hookside-v2-emit.1", "hookside-completion-bash.1", "hookside-v2-definitions-list.1", "hookside-v2-bindings-create.1"} {
		if _, ok := pages[0][want]; !ok {
			t.Errorf("no %s among %d pages", want, len(pages[0]))
		}
	}
	for name, p := range pages[0] {
		title := strings.ToUpper(strings.TrimSuffix(name, ".1")) // its own title: HOOKSIDE-HOOKS-RUN(1)
		if !strings.Contains(p, `.TH "`+title+`" "1" "Nov 2023"`) {
			t.Errorf("%s: header is not titled %s or not dated from SOURCE_DATE_EPOCH:\n%.200s", name, title, p)
		}
		if pages[1][name] != p {
			t.Errorf("%s differs between two runs", name)
		}
	}
	if p := pages[0]["hookside-v2.1"]; !strings.Contains(p, "<home>/hookside.db") {
		t.Errorf("hookside-v2.1 lost the <home> placeholder:\n%s", p)
	}
	if p := pages[0]["hookside-hooks-run.1"]; !strings.Contains(p, `user\_decides`) && !strings.Contains(p, "user_decides") {
		t.Errorf("hookside-hooks-run.1 lost user_decides:\n%s", p)
	}
	if code, _, errs := runCLI("man"); code != exitUsage || !strings.Contains(errs, "--dir") {
		t.Errorf("man without --dir: exit %d %s", code, errs)
	}
}

// TestUnknownCommandSuggests: a mistyped command exits 2 naming it and the
// command meant.
func TestUnknownCommandSuggests(t *testing.T) {
	code, _, errs := runCLI("hoks")
	if code != exitUsage || !strings.Contains(errs, `unknown command "hoks"`) || !strings.Contains(errs, "Did you mean hooks?") {
		t.Errorf("exit %d:\n%s", code, errs)
	}
	if code, _, errs := runCLI("hooks", "rn"); code != exitUsage || !strings.Contains(errs, `unknown command "rn" (want run, list, explain, trust)`) {
		t.Errorf("hooks rn: exit %d:\n%s", code, errs)
	}
	if code, out, _ := runCLI(); code != exitUsage || !strings.Contains(out, "Available Commands:") {
		t.Errorf("no command: exit %d:\n%s", code, out)
	}
}

// An unknown shell is a usage error naming the shells; no shell prints
// the help, exit 2, as every command group does.
func TestCompletionUnknownShell(t *testing.T) {
	code, out, errs := runCLI("completion", "tcsh")
	if code != 2 || out != "" || !strings.Contains(errs, `unknown command "tcsh"`) || !strings.Contains(errs, "bash, zsh, fish, powershell") {
		t.Errorf("completion tcsh: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := runCLI("completion"); code != 2 || !strings.Contains(errs, "Usage:") {
		t.Errorf("completion: exit %d, stderr %q", code, errs)
	}
}
