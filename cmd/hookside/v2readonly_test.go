package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestV2ReadOnlyCommandsCreateNothing: list and get of definitions,
// bindings and runs on a home that does not exist answer as an empty
// database would (empty list, exit 0; get: not found, exit 3; invalid
// filters still exit 2) and leave the home missing; on a home directory
// without a database they create no database either.
func TestV2ReadOnlyCommandsCreateNothing(t *testing.T) {
	parent := t.TempDir()
	missing := filepath.Join(parent, "no", "such", "home")
	bare := filepath.Join(parent, "bare")
	if err := os.Mkdir(bare, 0o700); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args   []string
		code   int
		stdout string // exact --json or text output, when set
	}{
		{[]string{"definitions", "list", "--json"}, exitOK, "{\n  \"definitions\": []\n}\n"},
		{[]string{"definitions", "list"}, exitOK, "no definitions\n"},
		{[]string{"definitions", "list", "--event", "no.such"}, exitUsage, ""},
		{[]string{"definitions", "get", "note"}, exitNotFound, ""},
		{[]string{"bindings", "list", "--json"}, exitOK, "{\n  \"bindings\": []\n}\n"},
		{[]string{"bindings", "list", "--hook", "note"}, exitOK, "no bindings\n"},
		{[]string{"bindings", "get", "bind_1"}, exitNotFound, ""},
		{[]string{"runs", "list", "--json"}, exitOK, "{\n  \"runs\": [],\n  \"nextCursor\": null\n}\n"},
		{[]string{"runs", "list", "--status", "bogus"}, exitUsage, ""},
		{[]string{"runs", "get", "run_1"}, exitNotFound, ""},
	}
	for _, home := range []string{missing, bare} {
		for _, c := range cases {
			code, stdout, stderr := runCLI(append(append([]string{"v2"}, c.args...), "--home", home)...)
			if code != c.code || (c.stdout != "" && stdout != c.stdout) {
				t.Errorf("%s: v2 %v: exit %d (want %d)\nstdout %q (want %q)\nstderr %s", home, c.args, code, c.code, stdout, c.stdout, stderr)
			}
			if c.code == exitNotFound && !strings.Contains(stderr, "not found") {
				t.Errorf("v2 %v: stderr does not say not found: %s", c.args, stderr)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(parent, "no")); !os.IsNotExist(err) {
		t.Errorf("the missing home's parent exists after read-only commands: %v", err)
	}
	if ents, err := os.ReadDir(bare); err != nil || len(ents) != 0 {
		t.Errorf("the bare home has %v after read-only commands (%v), want nothing", ents, err)
	}
	// HOOKSIDE_HOME is honoured the same way as --home.
	t.Setenv("HOOKSIDE_HOME", missing)
	if code, stdout, stderr := runCLI("v2", "definitions", "list", "--json"); code != exitOK || stdout != "{\n  \"definitions\": []\n}\n" {
		t.Errorf("HOOKSIDE_HOME: exit %d %q %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(parent, "no")); !os.IsNotExist(err) {
		t.Errorf("HOOKSIDE_HOME created: %v", err)
	}
	// A write still creates the home.
	if code, _, stderr := runCLI("v2", "bindings", "create", "--hook", "note", "--scope", "application", "--home", missing); code != exitNotFound {
		t.Errorf("create: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(missing, "hookside.db")); err != nil {
		t.Errorf("a write did not create the database: %v", err)
	}
}
