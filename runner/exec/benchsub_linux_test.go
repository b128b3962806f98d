package exec

// asAppServer makes Run skip the run-token sweep a process that is not the
// subreaper does after each hook, as app-server (the subreaper) does, until
// the returned func is called: a benchmark then measures Run as app-server
// runs it.
func asAppServer() func() {
	benchAsSubreaper.Store(true)
	return func() { benchAsSubreaper.Store(false) }
}
