package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/hookside/hookside/rpc"
)

// version and commit are stamped by `make dist` / `make build` with
// -ldflags "-X main.version=… -X main.commit=…": version is X.Y.Z at a
// release tag, else X.Y.Z-dev.N.gSHA12[.dirty] (both computed by
// tools/dist's describe), commit the full git revision. A plain `go build`
// leaves version at "dev" and takes the commit from the Go build info.
var (
	version = "dev"
	commit  = ""
)

// versionInfo is what `hookside version --json` prints.
type versionInfo struct {
	Version         string `json:"version"`
	Commit          string `json:"commit"`
	ProtocolVersion string `json:"protocolVersion"`
	GoVersion       string `json:"goVersion"`
	Target          string `json:"target"` // GOOS/GOARCH
}

func currentVersion() versionInfo {
	c := commit
	if c == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" {
					c = s.Value
				}
			}
		}
	}
	if c == "" {
		c = "unknown"
	}
	return versionInfo{Version: version, Commit: c, ProtocolVersion: rpc.ProtocolVersion,
		GoVersion: runtime.Version(), Target: runtime.GOOS + "/" + runtime.GOARCH}
}

// versionCmd prints the version line, or with --json the versionInfo object.
func versionCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "print the version, commit, protocol version, Go version and target (--json)",
		Long:  "Print the version, the git commit, the protocol version, the Go version and the target (os/arch).",
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {version, commit, protocolVersion, goVersion, target} as JSON")
	return setRun(cmd, func(args []string) int {
		if noArgs(cmd, args, stderr) {
			return exitUsage
		}
		return printVersion(stdout, asJSON)
	})
}

func printVersion(stdout io.Writer, asJSON bool) int {
	v := currentVersion()
	if asJSON {
		writeJSON(stdout, v)
		return exitOK
	}
	fmt.Fprintf(stdout, "hookside %s (commit %s, protocol %s, %s, %s)\n", v.Version, v.Commit, v.ProtocolVersion, v.GoVersion, v.Target)
	return exitOK
}
