package hook

// Defaults from the spec (§"配置格式与默认值"): timeoutMs 60000 ms,
// maxOutputBytes 32768 bytes.
const (
	DefaultTimeoutMs      = 60000
	DefaultMaxOutputBytes = 32768
)

// Limits is a pair of per-hook limits: TimeoutMs in milliseconds and
// MaxOutputBytes in bytes (the cap applied to stdout and to stderr
// separately). A zero field means "not set here".
type Limits struct {
	TimeoutMs      int `json:"timeoutMs,omitempty"`
	MaxOutputBytes int `json:"maxOutputBytes,omitempty"`
}

// Or returns l with each unset (zero) field taken from fallback, and any
// field still unset taken from the defaults (DefaultTimeoutMs,
// DefaultMaxOutputBytes). The result never has a zero field.
func (l Limits) Or(fallback Limits) Limits {
	if l.TimeoutMs <= 0 {
		l.TimeoutMs = fallback.TimeoutMs
	}
	if l.MaxOutputBytes <= 0 {
		l.MaxOutputBytes = fallback.MaxOutputBytes
	}
	if l.TimeoutMs <= 0 {
		l.TimeoutMs = DefaultTimeoutMs
	}
	if l.MaxOutputBytes <= 0 {
		l.MaxOutputBytes = DefaultMaxOutputBytes
	}
	return l
}
