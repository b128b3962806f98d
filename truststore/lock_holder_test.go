package truststore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/proc"
)

// TestDescribeHolderRecords: the holder record of this build, of an older
// Linux build (startTicks + startedAt), and records naming an exited or
// unconfirmable holder.
func TestDescribeHolderRecords(t *testing.T) {
	self := os.Getpid()
	started, err := proc.ProcStartTime(self)
	if err != nil {
		t.Fatal(err)
	}
	const exited = "recorded holder has exited"
	const unknown = "cannot confirm"
	cases := []struct {
		name   string
		record any
		want   string // "" = the holder is confirmed running
	}{
		{"this build", lockInfo{PID: self, StartedAt: started.UTC(), Token: "t"}, ""},
		{"older linux build", map[string]any{"pid": self, "startTicks": 12345, "startedAt": started.UTC(), "token": "t"}, ""},
		{"pid reused", lockInfo{PID: self, StartedAt: started.Add(-time.Hour), Token: "t"}, exited},
		{"older record, other start time", map[string]any{"pid": self, "startTicks": 12345, "startedAt": started.Add(time.Hour).UTC(), "token": "t"}, unknown},
		{"no start time", lockInfo{PID: self, Token: "t"}, unknown},
		{"no such process", lockInfo{PID: 0x3ffffff0, StartedAt: started, Token: "t"}, exited},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.record)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "trust.lock")
			if err := os.WriteFile(holderPath(p), b, 0o600); err != nil {
				t.Fatal(err)
			}
			msg := describeHolder(p)
			if c.want == "" && strings.Contains(msg, "[") || c.want != "" && !strings.Contains(msg, c.want) {
				t.Errorf("describeHolder = %q, want %q", msg, c.want)
			}
		})
	}
}
