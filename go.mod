module github.com/hookside/hookside

go 1.26.0

require (
	github.com/dlclark/regexp2 v1.12.0
	github.com/gofrs/flock v0.13.2
	github.com/google/shlex v0.0.0-20191202100458-e7afc7fbc510
	github.com/natefinch/atomic v1.0.1
	github.com/sourcegraph/jsonrpc2 v0.2.3
)

require golang.org/x/sys v0.49.0 // indirect
