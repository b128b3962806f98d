//go:build race

package output

// raceEnabled: the race detector makes sync.Pool drop items at random,
// so allocation counts of code that uses a pool (encoding/json does)
// vary by one between runs.
const raceEnabled = true
