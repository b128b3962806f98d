package hook

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestFindGitBash(t *testing.T) {
	env := map[string]string{
		"ProgramFiles":      `C:\Program Files`,
		"ProgramFiles(x86)": `C:\Program Files (x86)`,
		"LOCALAPPDATA":      `C:\Users\me\AppData\Local`,
	}
	lookup := func(files []string, vars map[string]string, git string, refuse ...string) GitBashLookup {
		return GitBashLookup{
			Getenv:  func(k string) string { return vars[k] },
			IsFile:  func(p string) bool { return contains(files, p) },
			GitPath: git,
			Refuse:  refuse,
		}
	}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range env {
			m[a] = b
		}
		m[k] = v
		return m
	}
	pf := `C:\Program Files\Git\bin\bash.exe`
	tests := []struct {
		name string
		l    GitBashLookup
		want string // "" = ErrNoGitBash
	}{
		{"program_files", lookup([]string{pf}, env, ""), pf},
		{"x86", lookup([]string{`C:\Program Files (x86)\Git\bin\bash.exe`}, env, ""), `C:\Program Files (x86)\Git\bin\bash.exe`},
		{"user_install", lookup([]string{`C:\Users\me\AppData\Local\Programs\Git\bin\bash.exe`}, env, ""), `C:\Users\me\AppData\Local\Programs\Git\bin\bash.exe`},
		{"explicit_wins", lookup([]string{pf, `D:\tools\bash.exe`}, with(EnvGitBash, `D:\tools\bash.exe`), ""), `D:\tools\bash.exe`},
		{"explicit_missing_is_an_error", lookup([]string{pf}, with(EnvGitBash, `D:\nope\bash.exe`), ""), ""},
		{"explicit_relative_refused", lookup([]string{`bash.exe`}, with(EnvGitBash, `bash.exe`), ""), ""},
		{"from_git_cmd", lookup([]string{`E:\Git\bin\bash.exe`}, env, `E:\Git\cmd\git.exe`), `E:\Git\bin\bash.exe`},
		{"from_git_mingw", lookup([]string{`E:\Git\bin\bash.exe`}, env, `E:\Git\mingw64\bin\git.exe`), `E:\Git\bin\bash.exe`},
		{"git_in_workspace_refused", lookup([]string{`C:\w\repo\bin\bash.exe`}, env, `C:\w\repo\cmd\git.exe`, `C:\w\repo`), ""},
		{"explicit_in_cwd_refused", lookup([]string{`C:\w\bash.exe`}, with(EnvGitBash, `C:\W\.\bash.exe`), "", `c:\w`), ""},
		{"absent", lookup(nil, env, ""), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindGitBash(tc.l)
			if tc.want == "" {
				if !errors.Is(err, ErrNoGitBash) || !strings.Contains(err.Error(), "install Git for Windows") {
					t.Fatalf("got %q, %v; want ErrNoGitBash naming what to install", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestWindowsArgv(t *testing.T) {
	const bash = `C:\Program Files\Git\bin\bash.exe`
	cmd := `echo "a b" && type x.txt | findstr /c:"q"`
	enc := func(s string) string {
		u := utf16.Encode([]rune(s))
		b := make([]byte, 0, 2*len(u))
		for _, c := range u {
			b = append(b, byte(c), byte(c>>8))
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	tests := []struct {
		name    string
		shell   Shell
		argv    []string
		cmdLine string
	}{
		{"unset_git_bash", Shell{}, []string{bash, "-c", cmd}, ""},
		{"true_git_bash", ShellOfTrue, []string{bash, "-c", cmd}, ""},
		{"powershell", ShellProgram("powershell"), []string{"powershell.exe", "-NoProfile", "-NonInteractive", "-EncodedCommand", enc(cmd)}, ""},
		{"pwsh_exe", ShellProgram("pwsh.exe"), []string{"pwsh.exe", "-NoProfile", "-NonInteractive", "-EncodedCommand", enc(cmd)}, ""},
		{"cmd", ShellProgram("cmd"), []string{`C:\Windows\system32\cmd.exe`, "/d", "/s", "/c", cmd}, `"C:\Windows\system32\cmd.exe" /d /s /c "` + cmd + `"`},
		{"cmd_exe", ShellProgram("CMD.exe"), []string{`C:\Windows\system32\cmd.exe`, "/d", "/s", "/c", cmd}, `"C:\Windows\system32\cmd.exe" /d /s /c "` + cmd + `"`},
		{"other_string", ShellProgram("bash -lc"), []string{"bash", "-lc", cmd}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.shell.WindowsArgv(cmd, bash, `C:\Windows\system32\cmd.exe`)
			if err != nil || !reflect.DeepEqual(got.Argv, tc.argv) || got.CmdLine != tc.cmdLine {
				t.Fatalf("got %q %q %v\nwant %q %q", got.Argv, got.CmdLine, err, tc.argv, tc.cmdLine)
			}
		})
	}
	if got, _ := ShellProgram("cmd").WindowsArgv("x", bash, ""); got.Argv[0] != "cmd.exe" {
		t.Fatalf("no ComSpec: %q", got.Argv)
	}
	if EncodePowerShell("é€") != enc("é€") {
		t.Fatal("non-ASCII encoding")
	}
}

func TestUsesBashAndBashPath(t *testing.T) {
	for s, want := range map[Shell]bool{{}: true, ShellOfTrue: true, ShellProgram("bash -lc"): true,
		ShellProgram(`C:\Git\bin\bash.exe`): true, ShellProgram("sh"): true, ShellProgram("pwsh"): false,
		ShellProgram("cmd"): false, ShellProgram("python -c"): false} {
		if got := s.UsesBash(); got != want {
			t.Errorf("%+v: UsesBash %v", s, got)
		}
	}
	if got := BashPath(`C:\Users\me\proj dir`); got != "C:/Users/me/proj dir" {
		t.Fatal(got)
	}
}

func TestCheckBatchArgs(t *testing.T) {
	ok := []string{"--flag", "C:/path/x.json", "a b", "key=value", "@scope/pkg"}
	if err := CheckBatchArgs(`C:\node\npx.cmd`, ok); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"x&calc", "a|b", "<in", ">out", "^", "%PATH%", "!x!", `"`, "(x)", "a\nb"} {
		err := CheckBatchArgs(`C:\node\NPX.CMD`, []string{"ok", a})
		if !errors.Is(err, ErrBatchArgument) || !strings.Contains(err.Error(), "argument 2") {
			t.Errorf("%q: %v", a, err)
		}
		if err := CheckBatchArgs(`C:\tools\x.exe`, []string{a}); err != nil {
			t.Errorf(".exe %q: %v", a, err)
		}
	}
	if !IsBatch(`x.BAT`) || IsBatch(`x.bat.exe`) {
		t.Fatal("IsBatch")
	}
}

// cmdSlashS is how cmd.exe reads the rest of its command line after
// /s /c (cmd /?: with /S, if the first character is a quote it is
// stripped, and so is the last quote on the line, keeping what follows
// it), for checking CmdLine against the documented rule.
func cmdSlashS(line string) string {
	_, rest, ok := strings.Cut(line, " /d /s /c ")
	if !ok {
		return "<no /d /s /c>"
	}
	if !strings.HasPrefix(rest, `"`) {
		return rest
	}
	rest = rest[1:]
	if i := strings.LastIndex(rest, `"`); i >= 0 {
		rest = rest[:i] + rest[i+1:]
	}
	return rest
}

func TestCmdLine(t *testing.T) {
	const comspec = `C:\Windows\system32\cmd.exe`
	tests := []struct {
		name, command string
		want          string // "" = an error wrapping ErrCmdCommand
	}{
		{"plain", `echo hi`, `"C:\Windows\system32\cmd.exe" /d /s /c "echo hi"`},
		{"json_and_exit_code", `echo {"decision":"block"}& exit /b 2`, `"C:\Windows\system32\cmd.exe" /d /s /c "echo {"decision":"block"}& exit /b 2"`},
		{"quoted_program_and_argument", `"C:\Program Files\tool\x.exe" "a b" --flag`, `"C:\Windows\system32\cmd.exe" /d /s /c ""C:\Program Files\tool\x.exe" "a b" --flag"`},
		{"trailing_backslash_is_not_an_escape", `dir C:\`, `"C:\Windows\system32\cmd.exe" /d /s /c "dir C:\"`},
		{"backslash_before_quote_kept", `echo "C:\dir\" x`, `"C:\Windows\system32\cmd.exe" /d /s /c "echo "C:\dir\" x"`},
		{"operators_and_variables", `type "%USERPROFILE%\x.txt" | findstr /c:"a b" > nul && echo ok || echo no`, `"C:\Windows\system32\cmd.exe" /d /s /c "type "%USERPROFILE%\x.txt" | findstr /c:"a b" > nul && echo ok || echo no"`},
		{"unbalanced_quote", `echo "open`, `"C:\Windows\system32\cmd.exe" /d /s /c "echo "open"`},
		{"non_ascii", `echo é€ 😀`, `"C:\Windows\system32\cmd.exe" /d /s /c "echo é€ 😀"`},
		{"empty", ``, `"C:\Windows\system32\cmd.exe" /d /s /c ""`},
		{"at_the_limit", strings.Repeat("x", CmdMaxChars), `"C:\Windows\system32\cmd.exe" /d /s /c "` + strings.Repeat("x", CmdMaxChars) + `"`},
		{"past_the_limit", strings.Repeat("x", CmdMaxChars+1), ""},
		{"past_the_limit_in_utf16_units", strings.Repeat("😀", CmdMaxChars/2+1), ""},
		{"line_feed", "echo a\necho b", ""},
		{"carriage_return", "echo a\r& echo b", ""},
		{"nul", "echo a\x00b", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CmdLine(comspec, tc.command)
			if tc.want == "" {
				if !errors.Is(err, ErrCmdCommand) || got != "" {
					t.Fatalf("CmdLine(%q) = %q, %v; want an error wrapping ErrCmdCommand", tc.command, got, err)
				}
				if _, err := ShellProgram("cmd").WindowsArgv(tc.command, "", comspec); !errors.Is(err, ErrCmdCommand) {
					t.Fatalf("WindowsArgv: %v; want ErrCmdCommand", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("CmdLine(%q) = %q, %v\nwant %q", tc.command, got, err, tc.want)
			}
			if back := cmdSlashS(got); back != tc.command {
				t.Fatalf("cmd.exe /s reads %q back, want %q", back, tc.command)
			}
		})
	}
	for _, bad := range []string{"", `C:\a"b\cmd.exe`, "cmd\x00.exe"} {
		if _, err := CmdLine(bad, "echo"); !errors.Is(err, ErrInvalidShell) {
			t.Errorf("comspec %q: %v; want ErrInvalidShell", bad, err)
		}
	}
}
