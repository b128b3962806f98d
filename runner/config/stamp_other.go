//go:build !unix

package config

import "io/fs"

// fileIdentity is unavailable here; mtime and size alone detect changes.
func fileIdentity(fs.FileInfo) (dev, ino uint64) { return 0, 0 }
