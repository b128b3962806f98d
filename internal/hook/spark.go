package hook

// The spark-engine dialect (hooks-v2-handbook.zh.txt §1.3; spec/README.md):
// Claude Code–style settings files whose hooks run on four events only.
const (
	// SparkMaxCommandChars bounds one command (单条命令上限 8192 字符),
	// counted as JavaScript does (UTF-16 code units).
	SparkMaxCommandChars = 8192
	// SparkMaxTimeoutMs bounds a hook's timeout (超时上限 600000 毫秒); the
	// default stays DefaultTimeoutMs (60000 ms).
	SparkMaxTimeoutMs = 600000
	// SparkMaxCommandsPerMatcher bounds the hooks of one matcher group.
	SparkMaxCommandsPerMatcher = 16
	// SparkMaxMatchersPerEvent bounds the matcher groups of one event in
	// one settings file.
	SparkMaxMatchersPerEvent = 32
)

// SparkEvents are the four events of the spark dialect (4 个闭集事件).
var SparkEvents = []string{UserPromptSubmit, PreToolUse, PostToolUse, Stop}

// IsSparkEvent reports whether name is one of SparkEvents.
func IsSparkEvent(name string) bool {
	switch name {
	case UserPromptSubmit, PreToolUse, PostToolUse, Stop:
		return true
	}
	return false
}
