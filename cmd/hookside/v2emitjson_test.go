package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestV2EmitJSONErrors: `v2 emit --json` prints the v2 error object
// {"error": {code, message, data}} on stdout for every failure before the
// event is written (flag errors, a missing or unreadable --file, invalid
// JSON, invalid params), with the same exit status as without --json;
// without --json stdout stays empty.
func TestV2EmitJSONErrors(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	bad, unknown := filepath.Join(dir, "bad.json"), filepath.Join(dir, "unknown.json")
	if err := os.WriteFile(bad, []byte("{bad"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(unknown, []byte(`{"eventName":"nope"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		exit  int
		code  float64
		field string
	}{
		{[]string{"--bogus"}, exitUsage, -32602, "--bogus"},
		{nil, exitUsage, -32602, "--file"},
		{[]string{"--file", bad}, exitUsage, -32602, "--file"},
		{[]string{"--file", unknown}, exitUsage, -32602, "eventName"},
		{[]string{"--file", filepath.Join(dir, "missing.json")}, exitError, -32603, "--file"},
	} {
		args := append([]string{"v2", "emit", "--home", home}, c.args...)
		code, stdout, _ := runCLI(append(args, "--json")...)
		var got struct {
			Error struct {
				Code    float64           `json:"code"`
				Message string            `json:"message"`
				Data    map[string]string `json:"data"`
			} `json:"error"`
		}
		if code != c.exit || json.Unmarshal([]byte(stdout), &got) != nil || got.Error.Code != c.code ||
			got.Error.Message == "" || got.Error.Data["field"] != c.field {
			t.Errorf("%v --json: exit %d (want %d), stdout %q (want code %v, field %q)", c.args, code, c.exit, stdout, c.code, c.field)
		}
		if code, stdout, _ := runCLI(args...); code != c.exit || stdout != "" {
			t.Errorf("%v: exit %d (want %d), stdout %q (want none)", c.args, code, c.exit, stdout)
		}
	}
}
