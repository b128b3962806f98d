//go:build !unix

package rpc

import "io"

// pollable returns r: Windows pipes are not switched to the poller here.
func pollable(r io.Reader) (io.Reader, func()) { return r, func() {} }
