package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
)

// trustRemote handles an identity without local files: status lists its
// records; revoke deletes them; grant needs the files and is refused.
func trustRemote(p, action string, t truststore.Target, dir, userConfig string, digests []string, all, asJSON bool, stdout, stderr io.Writer) int {
	// The trust file is where a session's would be: the user config's
	// storage.dir decides (lifecycle-hooks-and-workspace-trust §"信任存在哪、怎样审查").
	set, err := config.NewLoader(config.LoaderOptions{UserConfigPath: userConfig}).Load()
	if err != nil {
		fmt.Fprintln(stderr, p+":", err)
		return exitError
	}
	store := truststore.Open(home.SecurityDir(dir, set.StorageDir), truststore.Options{ReadOnly: true})
	state, err := store.Load()
	if err != nil && !errors.Is(err, truststore.ErrCorrupt) {
		fmt.Fprintln(stderr, p+":", err)
		return exitError
	}
	var recs []truststore.Record
	for _, r := range state.Records {
		if r.WorkspaceID == t.ID {
			recs = append(recs, r)
		}
	}
	switch action {
	case "grant", "review":
		fmt.Fprintf(stderr, "%s: %s is not a local directory; grant from a session on that workspace\n", p, t.ID)
		return exitError
	case "revoke":
		known := make([]string, len(recs))
		for i, r := range recs {
			known[i] = r.Digest
		}
		if all {
			digests = known
		} else if digests, err = resolveDigests(digests, nil, known, true); err != nil {
			fmt.Fprintln(stderr, p+":", err)
			return digestExit(err)
		}
		return trustRevoke(p, store, t.ID, digests, asJSON, stdout, stderr)
	}
	if asJSON {
		if recs == nil {
			recs = []truststore.Record{}
		}
		out := map[string]any{"workspaceId": t.ID, "storeStatus": state.Status, "records": recs}
		if err != nil {
			out["storeError"] = err.Error()
		}
		writeJSON(stdout, out)
		return exitOK
	}
	fmt.Fprintf(stdout, "workspace %s (no local files) · trust store %s\n", dispText(t.ID), state.Status)
	printStoreError(stdout, errText(err))
	for _, r := range recs {
		fmt.Fprintf(stdout, "  trusted %s  %s %s  granted %s\n", r.Digest, dispText(r.Snapshot.Event), dispText(r.Snapshot.Command), r.GrantedAt.Format("2006-01-02 15:04"))
	}
	return exitOK
}
