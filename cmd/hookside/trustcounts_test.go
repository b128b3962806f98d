package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// trustCountsShape is the part of `hooks trust status|review|grant --json`
// TestTrustJSONCountsEveryDeclaration reads.
type trustCountsShape struct {
	Trusted      *[]string       `json:"trusted"`
	Counts       *map[string]int `json:"counts"`
	RootSwitch   *rootSwitch     `json:"rootSwitch"`
	Declarations []struct {
		TrustState string `json:"trustState"`
		Enabled    bool   `json:"enabled"`
		OffReason  string `json:"offReason"`
	} `json:"declarations"`
}

// TestTrustJSONCountsEveryDeclaration: with the root switch off (the user
// config says nothing), `hooks trust status|review|grant --json` count
// every declaration listed by its trust state (its own enabled: false,
// its file's and the root switch's included), so the counts agree with
// the states listed, and say that the root switch is off in rootSwitch;
// `grant --all` with nothing to grant prints the same shape. Before,
// counts was {} whenever the root switch was off.
func TestTrustJSONCountsEveryDeclaration(t *testing.T) {
	e := newTrustEnv(t)
	for p, c := range map[string]string{
		filepath.Join(e.home, "config.json"): `{}`,
		filepath.Join(e.ws, "zcode.json"): `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"},
			{"type":"command","command":"false","enabled":false}]}]}}}`,
		filepath.Join(e.ws, ".zcode", "config.json"): `{"hooks":{"enabled":false,"events":{"Stop":[{"hooks":[{"type":"command","command":"echo off"}]}]}}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(args ...string) trustCountsShape {
		t.Helper()
		code, out, errs := e.cli(append(args, "--json")...)
		var got trustCountsShape
		if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.Counts == nil || got.RootSwitch == nil {
			t.Fatalf("%v --json: exit %d %s%s; want counts and rootSwitch", args, code, out, errs)
		}
		return got
	}
	off := rootSwitch{Enabled: false, Layer: "default", File: filepath.Join(e.home, "config.json")}
	st := e.status(t)
	for _, action := range []string{"status", "review"} {
		got := read(action)
		listed := map[string]int{}
		offs := map[string]bool{}
		for _, d := range got.Declarations {
			listed[d.TrustState]++
			offs[d.OffReason] = !d.Enabled
		}
		if want := map[string]int{"pending_trust": 3}; !maps.Equal(*got.Counts, want) || !maps.Equal(listed, want) {
			t.Errorf("%s --json: counts %v, states listed %v; want both %v", action, *got.Counts, listed, want)
		}
		if !reflect.DeepEqual(offs, map[string]bool{"root_switch_off": true, "disabled": true, "file_disabled": true}) {
			t.Errorf("%s --json: off reasons %v; want one of each switch", action, offs)
		}
		if *got.RootSwitch != off {
			t.Errorf("%s --json: rootSwitch %+v; want %+v", action, *got.RootSwitch, off)
		}
	}
	got := read("grant", "--all", "--bundle-digest", st.BundleDigest)
	if want := map[string]int{"trusted_persistent": 3}; got.Trusted == nil || len(*got.Trusted) != 3 || !maps.Equal(*got.Counts, want) || *got.RootSwitch != off {
		t.Errorf("grant --all --json: trusted %v, counts %v, rootSwitch %+v; want 3 trusted, counts %v, the root switch off", got.Trusted, got.Counts, got.RootSwitch, want)
	}
	// Switched on: the same counts, the layer that does it.
	if got := read("status", "--hooks-enabled"); !maps.Equal(*got.Counts, map[string]int{"trusted_persistent": 3}) || *got.RootSwitch != (rootSwitch{Enabled: true, Layer: "cli"}) {
		t.Errorf("status --hooks-enabled --json: counts %v, rootSwitch %+v", *got.Counts, *got.RootSwitch)
	}
	// Nothing to grant: the same shape, not a line of text.
	for _, name := range []string{"zcode.json", filepath.Join(".zcode", "config.json")} {
		if err := os.Remove(filepath.Join(e.ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	empty := e.status(t)
	got = read("grant", "--all", "--bundle-digest", empty.BundleDigest)
	if got.Trusted == nil || len(*got.Trusted) != 0 || len(*got.Counts) != 0 || *got.RootSwitch != off {
		t.Errorf("grant --all --json with no declaration: trusted %v, counts %v, rootSwitch %+v; want [], {} and the root switch off", got.Trusted, got.Counts, got.RootSwitch)
	}
}
