//go:build !linux

package exec

// asAppServer is a no-op where Run's cleanup does not depend on being the
// subreaper (see benchsub_linux_test.go).
func asAppServer() func() { return func() {} }
