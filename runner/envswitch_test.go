package runner

import (
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestEnvSwitch: EnvHooksEnabled turns the root switch on for a true value,
// is silent when unset, empty or false, and gives the one
// config_invalid_field warning NewSession reports for anything else.
func TestEnvSwitch(t *testing.T) {
	for _, c := range []struct {
		v        string
		on, warn bool
	}{{"", false, false}, {"1", true, false}, {"true", true, false}, {"0", false, false}, {"false", false, false}, {"maybe", false, true}, {"yes", false, true}} {
		t.Setenv(EnvHooksEnabled, c.v)
		on, diags := EnvSwitch()
		if on != c.on || (len(diags) == 1) != c.warn || len(diags) > 1 {
			t.Errorf("%s=%q: on %v, diagnostics %+v", EnvHooksEnabled, c.v, on, diags)
			continue
		}
		if !c.warn {
			continue
		}
		want := hook.Diagnostic{Code: hook.CodeInvalidField, Severity: hook.SeverityWarning,
			Message: EnvHooksEnabled + `="` + c.v + `" is not a boolean; ignored`}
		if diags[0] != want {
			t.Errorf("%s=%q: %+v, want %+v", EnvHooksEnabled, c.v, diags[0], want)
		}
		d := t.TempDir()
		s, open := NewSession(SessionOptions{ID: "e", Cwd: d, UserConfigPath: filepath.Join(d, "config.json")})
		s.Close()
		n := 0
		for _, o := range open {
			if o == want {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s=%q: NewSession diagnostics %+v, want %+v once", EnvHooksEnabled, c.v, open, want)
		}
	}
}
