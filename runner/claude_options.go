package runner

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

// EnvPluginOptionPrefix starts the environment variable of each plugin
// option: CLAUDE_PLUGIN_OPTION_<KEY>, KEY uppercased
// (https://code.claude.com/docs/en/plugins-reference#user-configuration).
const EnvPluginOptionPrefix = "CLAUDE_PLUGIN_OPTION_"

const userConfigRef = "${user_config."

// pluginOptionEnv returns the CLAUDE_PLUGIN_OPTION_<KEY>=value entries of
// a plugin's options, sorted by key.
func pluginOptionEnv(p *claudePlugin) []string {
	if p == nil || len(p.Options) == 0 {
		return nil
	}
	out := make([]string, 0, len(p.Options))
	for k, v := range p.Options {
		out = append(out, EnvPluginOptionPrefix+strings.ToUpper(k)+"="+v)
	}
	sort.Strings(out)
	return out
}

// errUserConfigShell: a shell-form plugin command references
// ${user_config.*}, which Claude Code refuses to run
// (https://code.claude.com/docs/en/errors#plugin-command-references-user-config).
var errUserConfigShell = errors.New("references ${user_config.*} in a shell-form command")

// userConfigArgv substitutes ${user_config.KEY} in every element of an
// exec-form argv (a single pass; a key without a value becomes ""), and
// refuses a shell-form command that references one.
func userConfigArgv(h *hook.Hook, p *claudePlugin, argv []string) ([]string, error) {
	if h.Type == hook.TypeCommand {
		if strings.Contains(h.Command, userConfigRef) {
			return nil, fmt.Errorf("Hook from plugin %s %w. The substituted value would be re-parsed by the shell. Use exec form instead (\"command\" with \"args\"), or read $%s<KEY> from the hook's environment. Command: %s",
				p.ID, errUserConfigShell, EnvPluginOptionPrefix, h.Command)
		}
		return argv, nil
	}
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = substituteUserConfig(a, p.Options)
	}
	return out, nil
}

func substituteUserConfig(s string, opts map[string]string) string {
	if !strings.Contains(s, userConfigRef) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, userConfigRef)
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(opts[s[i+len(userConfigRef):i+j]])
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}
