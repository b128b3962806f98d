package store

import "sync"

// subscribers holds the change callbacks. They are called after the commit,
// on the goroutine that made the change, in no particular order; they must be
// quick and must not call back into the DB synchronously (hand off to a
// channel or goroutine). Changes made by other processes are not reported.
type subscribers struct {
	mu     sync.RWMutex
	next   int
	runs   map[int]func(Run)
	events map[int]func([]string)
}

// SubscribeRuns registers fn to be told of every run this process creates or
// changes (new, claimed, finished, re-queued, retried, cancelled, recovered),
// after commit: the RPC layer pushes v2/run/updated from it and the worker
// wakes on queued runs. cancel unregisters.
func (db *DB) SubscribeRuns(fn func(Run)) (cancel func()) {
	s := &db.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runs == nil {
		s.runs = map[int]func(Run){}
	}
	id := s.next
	s.next++
	s.runs[id] = fn
	return func() { s.mu.Lock(); delete(s.runs, id); s.mu.Unlock() }
}

// SubscribeEvents registers fn to be told of the ids of newly enqueued
// (non-duplicate) events after their commit, so the dispatcher wakes at once.
func (db *DB) SubscribeEvents(fn func(eventIDs []string)) (cancel func()) {
	s := &db.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.events == nil {
		s.events = map[int]func([]string){}
	}
	id := s.next
	s.next++
	s.events[id] = fn
	return func() { s.mu.Lock(); delete(s.events, id); s.mu.Unlock() }
}

func (s *subscribers) runsChanged(runs []Run) {
	if len(runs) == 0 {
		return
	}
	s.mu.RLock()
	fns := make([]func(Run), 0, len(s.runs))
	for _, fn := range s.runs {
		fns = append(fns, fn)
	}
	s.mu.RUnlock()
	for _, r := range runs {
		for _, fn := range fns {
			fn(r)
		}
	}
}

func (s *subscribers) eventsEnqueued(ids []string) {
	if len(ids) == 0 {
		return
	}
	s.mu.RLock()
	fns := make([]func([]string), 0, len(s.events))
	for _, fn := range s.events {
		fns = append(fns, fn)
	}
	s.mu.RUnlock()
	for _, fn := range fns {
		fn(ids)
	}
}
